#!/usr/bin/env python3
"""summarize.py: prints a coalprobe JSON report as a short Markdown table (for docs/results).
usage: summarize.py REPORT.json [--by PARAM]"""
import json, sys


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def main():
    rep = json.load(open(sys.argv[1]))
    dev = rep.get("device") or {}
    print(f"`{rep['command']}`  ")
    if dev:
        print(f"{dev['name']}, driver {dev.get('driver_release')}, copy peak "
              f"{dev['peak_measured_bytes_per_s'] / 1e9:.0f} GB/s measured "
              f"(datasheet-style {dev['peak_theoretical_bytes_per_s'] / 1e9:.0f} GB/s)\n")
    keys = [k for k in rep["rows"][0]["config"] if k not in ("elements", "offset_bytes")]
    print("| " + " | ".join(keys) + " | ld sec/req pred | ld sec/req meas | st sec/req pred | "
          "st sec/req meas | median us | useful GB/s | DRAM GB/s | % of copy peak | match |")
    print("|" + "---|" * (len(keys) + 9))
    for r in rep["rows"]:
        p, m = r["predicted"], r["measured"] or {}
        c = m.get("counters") or {}
        ld, st = c.get("load") or {}, c.get("store") or {}
        t = (m.get("time_s") or {}).get("median")
        cells = [str(r["config"][k]) for k in keys] + [
            fmt(p["load"]["sectors_per_request"], ".2f"), fmt(ld.get("sectors_per_request"), ".2f"),
            fmt(p["store"]["sectors_per_request"], ".2f"), fmt(st.get("sectors_per_request"), ".2f"),
            fmt(t * 1e6 if t is not None else None, ".1f"),
            fmt((m.get("useful_bytes_per_s") or 0) / 1e9 if m else None, ".0f"),
            fmt((m.get("dram_bytes_per_s") or 0) / 1e9 if m else None, ".0f"),
            fmt(m.get("pct_of_peak"), ".1f"),
            {True: "yes", False: "NO", None: "-"}[m.get("match")]]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
