#!/usr/bin/env python3
"""tma_rule.py: TMA's sector rule on the GPU (issue 45), against Nsight Compute. Each launch of
tests/trace/cp_trace_tma_rule.cu copies every box of a matrix through its own tensor map; ncu
counts the launch's TMA load sectors (l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld)
and this script sets them beside the rule docs/trace.md states: a box moves, row by row, the
32-byte sectors that the row's bytes inside the matrix touch, each box on its own (a sector two
boxes share is moved by each), nothing for rows or bytes past the matrix's edge, whatever the L2
promotion. It also prints the row-rounding estimate trace makes from the map alone
(ceil(row bytes / 32) sectors a row), to show where the two differ. With --trace it runs
coalprobe trace on the program too and checks that UTMALDG ran once a box.

usage: tma_rule.py PATH/TO/cp_trace_tma_rule [OUTDIR] [--trace PATH/TO/coalprobe]
Exit status: 0 the rule held for every configuration, 1 not, 77 skipped (no sm_90 GPU or no ncu).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace_ncu  # noqa: E402  has_gpu, num

METRIC = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"
SECTOR = 32


def touched(c):
    """The rule: the sectors each box row's in-bounds bytes touch, summed over every box."""
    total = 0
    for ty in range(c["boxes_y"]):
        rows = [r for r in range(ty * c["box_rows"], (ty + 1) * c["box_rows"]) if r < c["height"]]
        for tx in range(c["boxes_x"]):
            first = max(tx * c["box_bytes"] + c["shift"], 0)
            last = min((tx + 1) * c["box_bytes"] + c["shift"], c["width_bytes"]) - 1
            if last < first:
                continue
            for r in rows:
                a = c["addr_offset"] + r * c["pitch_bytes"]  # the allocation is 256-byte aligned
                total += (a + last) // SECTOR - (a + first) // SECTOR + 1
    return total


def rounded(c):
    """trace's estimate from the map alone: every box whole, ceil(row bytes / 32) a row."""
    per_row = -(-c["box_bytes"] // SECTOR)
    return c["boxes_x"] * c["boxes_y"] * c["box_rows"] * per_row


def configs(program):
    """The configurations the program launched, each line printed before its launch, and when
    one failed, the program's error (that configuration is the last line)."""
    p = subprocess.run([program], capture_output=True, text=True)
    lines = p.stdout.split("\n")
    header = lines[0].split() if lines else []
    cs = [dict(zip(header, map(int, line.split()))) for line in lines[1:] if line.strip()]
    failed = None
    if p.returncode != 0:
        failed = "exit %d: %s" % (p.returncode, p.stderr.strip()[-500:])
    return cs, failed


def ncu_sectors(program, outdir, allow_failure=False):
    cmd = ["ncu", "--metrics", METRIC, "--csv", program]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if outdir:
        with open(os.path.join(outdir, "ncu_tma_rule.csv"), "w") as f:
            f.write(p.stdout)
    if p.returncode != 0 and not allow_failure:
        raise RuntimeError("ncu: exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    out = {int(rec["ID"]): trace_ncu.num(rec["Metric Value"])
           for rec in trace_ncu.csv_records(p.stdout) if rec["Metric Name"] == METRIC}
    return [out[k] for k in sorted(out)]


def trace_executions(coalprobe, program, outdir):
    """UTMALDG executions of the program's kernel, by coalprobe trace."""
    path = os.path.join(outdir or "/tmp", "tma_rule_trace.json")
    p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", path, "--", program],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("coalprobe trace: exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    with open(path) as f:
        doc = json.load(f)
    return sum(k.get("tma_requests") or 0 for k in doc["kernels"]
               if k["name"].startswith("tma_rule_copy"))


def main():
    args = [a for a in sys.argv[1:]]
    coalprobe = None
    if "--trace" in args:
        i = args.index("--trace")
        coalprobe = args[i + 1]
        del args[i:i + 2]
    if not args:
        print(__doc__)
        return 2
    program, outdir = args[0], (args[1] if len(args) > 1 else None)
    if not trace_ncu.has_gpu():
        print("no GPU: skipped")
        return 77
    if shutil.which("ncu") is None:
        print("no ncu: skipped")
        return 77
    cs, failed = configs(program)
    if not cs and not failed:
        print("no TMA on this GPU: skipped")
        return 77
    failures = 0
    if failed:  # the last configuration printed is the one whose launch failed
        bad = cs.pop() if cs else {}
        print("FAIL: configuration %s (%s) failed: %s" % (bad.get("config"), bad, failed))
        failures += 1
    measured = ncu_sectors(program, outdir, allow_failure=bool(failed))[:len(cs)]
    if len(measured) != len(cs):
        print("FAIL: ncu profiled %d launches, the program made %d" % (len(measured), len(cs)))
        return 1
    print("cfg box rows  width height pitch addr shift elem promo   ncu_sectors   rule(touched)"
          "   row-rounded  verdict")
    for c, m in zip(cs, measured):
        t, r = touched(c), rounded(c)
        ok = m == t
        failures += not ok
        print("%3d %3d %4d %6d %6d %5d %4d %5d %4d %5d %13d %15d %13d  %s" % (
            c["config"], c["box_bytes"], c["box_rows"], c["width_bytes"], c["height"],
            c["pitch_bytes"], c["addr_offset"], c["shift"], c["elem"], c["promotion"], m, t, r,
            "ok" if ok else "DIFFERS by %+d" % (m - t)))
    if coalprobe and failed:
        print("UTMALDG executions not checked: the program failed")
    elif coalprobe:
        boxes = sum(c["boxes_x"] * c["boxes_y"] for c in cs)
        runs = trace_executions(coalprobe, program, outdir)
        ok = runs == boxes
        failures += not ok
        print("UTMALDG executions (coalprobe trace): %d; boxes copied: %d: %s" % (
            runs, boxes, "one a box" if ok else "DIFFER"))
    print("%s: %d of %d configurations differ from the rule" % (
        "FAIL" if failures else "ok", failures, len(cs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
