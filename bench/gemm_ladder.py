#!/usr/bin/env python3
"""gemm_ladder.py: the first rungs of the SGEMM ladder at 4096^3 on this GPU: naive, coalesced,
shared-memory tiled and cuBLAS, with times, GFLOP/s, % of cuBLAS, per-operand predicted
sectors per request and whether the measured counts equal the model's. Targets: coalesced at
least 5x faster than naive; smem faster than coalesced.
usage: gemm_ladder.py PATH/TO/coalprobe [REPORT.json]"""
import json, subprocess, sys


def main():
    binary, out = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "/tmp/gemm_ladder.json"
    cmd = [binary, "gemm", "--variant", "all", "--m", "4096", "--n", "4096", "--k", "4096",
           "--format", "json", "-o", out]
    subprocess.run(cmd, check=True)
    rep = json.load(open(out))
    print("command: " + " ".join(["coalprobe"] + cmd[1:]))
    print(f"{'variant':10} {'median ms':>10} {'GFLOP/s':>9} {'% cuBLAS':>9} {'A/B/C sec/req':>15} "
          f"{'rel err':>9} match")
    t = {}
    for r in rep["rows"]:
        v, m, p = r["config"]["variant"], r["measured"], r["predicted"]
        t[v] = m["time_s"]["median"]
        spr = "-" if p is None else "/".join(f"{a['sectors_per_request']:g}" for a in p["accesses"])
        print(f"{v:10} {t[v] * 1e3:10.2f} {m['flop_per_s'] / 1e9:9.0f} {m['pct_of_cublas']:8.1f}% "
              f"{spr:>15} {m['rel_error_vs_cublas']:9.1e} {m['match']}")
    speedup = t["naive"] / t["coalesced"]
    print(f"coalesced is {speedup:.1f}x faster than naive (target >= 5x: "
          f"{'met' if speedup >= 5 else 'NOT met'}); smem is "
          f"{t['coalesced'] / t['smem']:.2f}x faster than coalesced (target > 1: "
          f"{'met' if t['smem'] < t['coalesced'] else 'NOT met'})")


if __name__ == "__main__":
    main()
