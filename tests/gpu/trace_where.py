#!/usr/bin/env python3
"""trace_where.py: the call sites coalprobe trace's injection library records (frame, range, site,
launches_at, kernel_at, host records of the raw files), on a PyTorch program of known layout
(bench/trace_where.py: kernels on lines marked "# LINE: NAME", inside known NVTX ranges). Read
from the raw files kept with --raw-dir, so that it does not depend on the report.

usage: trace_where.py PATH/TO/coalprobe [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no PyTorch).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  marked_lines, skip_without_torch

ITERS = 20
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.realpath(os.path.join(HERE, "..", "..", "bench", "trace_where.py"))
# marked line -> (what its kernels' mangled names hold, the NVTX range path expected)
EXPECT = {
    # index_select: indexSelect{Small,Large}Index, or vectorized_gather_kernel in newer PyTorch
    "strided": (("index", "gather"), "gather"),
    "transposed": (("copy",), "outer/transpose"),
    "reduction": (("reduce_kernel",), "reduce"),
}


def read_raw(path):
    recs = []
    with open(path) as f:
        for line in f:
            recs.append(line.rstrip("\n").split("\t"))
    return recs


def range_path(ranges, rid):
    parts = []
    while rid and rid in ranges:
        domain, name, parent = ranges[rid]
        parts.append(name)
        rid = parent
    return "/".join(reversed(parts))


def check_file(path, lines, check):
    recs = read_raw(path)
    frames, ranges, sites = {}, {}, {}
    at_counts, launch_counts = {}, {}
    kernels = kernel_at_ok = 0
    order_ok = True
    for i, r in enumerate(recs):
        t = r[0]
        if t == "frame":
            frames[int(r[1])] = (r[2], int(r[3]), r[4], int(r[5]))
        elif t == "range":
            ranges[int(r[1])] = (r[2], r[3], int(r[4]))
        elif t == "site":
            fr = r[4]
            order_ok &= not fr.isdigit() or int(fr) in frames
            order_ok &= int(r[5]) == 0 or int(r[5]) in ranges
            sites[int(r[1])] = (int(r[2]), r[3], fr, int(r[5]))
        elif t == "launches_at":
            order_ok &= int(r[1]) in sites
            at_counts[int(r[1])] = at_counts.get(int(r[1]), 0) + int(r[2])
        elif t == "launch":
            key = (int(r[1]), r[2])
            launch_counts[key] = launch_counts.get(key, 0) + int(r[3])
        elif t == "kernel":
            kernels += 1
            nxt = recs[i + 1] if i + 1 < len(recs) else []
            if nxt and nxt[0] == "kernel_at" and int(nxt[1]) in sites and sites[int(nxt[1])][1] == r[2]:
                kernel_at_ok += 1
    if not launch_counts:
        return False  # a process that launched nothing (a compile worker)
    check(any(r[0] == "host" for r in recs[:4]), "%s: a host record after process" % path)
    check(order_ok, "%s: every frame, range and site is written before a record names it" % path)
    per_function = {}
    for sid, n in at_counts.items():
        key = sites[sid][:2]
        per_function[key] = per_function.get(key, 0) + n
    check(per_function == launch_counts,
          "%s: launches_at counts add up to the launch records of each function" % path)
    check(kernels > 0 and kernel_at_ok == kernels,
          "%s: a kernel_at record of the same function follows every kernel record (%d of %d)"
          % (path, kernel_at_ok, kernels))
    for mark, (needles, want_range) in EXPECT.items():
        # the NVTX range of each marked operator's launches, whatever their Python line
        in_range = sum(at_counts.get(sid, 0) for sid, s in sites.items()
                       if any(n in s[1] for n in needles) and range_path(ranges, s[3]) == want_range)
        check(in_range >= ITERS, "%s: %d launches of a %s kernel in range %s (want >= %d)"
              % (mark, in_range, needles[0], want_range, ITERS))
        line = lines[mark]
        at_line = [(sid, s) for sid, s in sites.items()
                   if s[2].isdigit() and frames[int(s[2])][0] == PROGRAM and frames[int(s[2])][1] == line]
        hits = [(sid, s) for sid, s in at_line if any(n in s[1] for n in needles)]
        n = sum(at_counts.get(sid, 0) for sid, _ in hits)
        check(n >= ITERS, "%s: %d launches of a %s kernel at line %d (want >= %d)" % (mark, n, needles[0], line, ITERS))
        if n < ITERS:
            print("    kernels launched at line %d: %s" % (line, sorted({s[1] for _, s in at_line})))
        paths = {range_path(ranges, s[3]) for _, s in hits}
        check(paths == {want_range}, "%s: its range is %s (got %s)" % (mark, want_range, sorted(paths)))
        # every launch of such a kernel made at a marked line's range is at that line
        for sid, s in sites.items():
            if any(nd in s[1] for nd in needles) and range_path(ranges, s[3]) == want_range:
                check(s[2] not in ("nogil", "none", "-"), "%s: site %d's frame is %s" % (mark, sid, s[2]))
    index_sites = [s for s in sites.values() if "index" in s[1].lower() and "select" in s[1].lower()]
    check(all(s[2].isdigit() and frames[int(s[2])][1] == lines["strided"] for s in index_sites),
          "every index_select launch is at the strided line")
    compiled = [s for s in sites.values() if range_path(ranges, s[3]) == "compiled"]
    print("    compiled function's sites: %s" % sorted({s[2] for s in compiled}))
    return True


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else None
    if trace_ncu.skip_without_torch():
        return 77
    check, failures = trace_ncu.checker()

    lines = trace_ncu.marked_lines(PROGRAM)
    with tempfile.TemporaryDirectory() as tmp:
        base = outdir or tmp
        out = os.path.join(base, "trace_where.json")
        raw = os.path.join(base, "trace_where_raw")
        if os.path.isdir(raw):
            shutil.rmtree(raw)
        p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", out, "--raw-dir", raw, "--",
                            sys.executable, PROGRAM, str(ITERS)], capture_output=True, text=True)
        check(p.returncode == 0, "coalprobe trace exit 0 (got %d: %s)" % (p.returncode, p.stderr[-800:]))
        files = sorted(glob.glob(os.path.join(raw, "raw-*.tsv")))
        check(len(files) >= 1, "raw files kept in %s" % raw)
        used = [f for f in files if check_file(f, lines, check)]
        check(len(used) >= 1, "a raw file with launches")
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
