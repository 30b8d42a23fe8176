#!/usr/bin/env python3
"""trace_truth.py: issue 44's truths of coalprobe trace on PyTorch (tests/gpu/trace_truth_program.py):

  ops:     every launch made inside an operator (`e @ w`'s cuBLAS GEMM, `e * 3`, `e[rows]`'s
           gather) and by torch.mm is filed under its own line, not the line of the call before;
           the program's first launch (torch.randn) under its line, no launch under "nogil"
  graph:   a CUDA graph of one kernel replayed N times after an eager warm-up: the kernel counts
           N + 1 launches, each with a kernel record, the replays at the replay line, nothing
           unmatched
  compile: torch.compile(mode="reduce-overhead") called CALLS times: every Triton kernel counts at
           least CALLS launches (the graph trees' replays counted), its sampled launches each with
           a kernel record, nothing unmatched (skipped with the reason when torch.compile cannot run here)

Read from the raw files (--raw-dir) and the JSON report.
usage: trace_truth.py PATH/TO/coalprobe [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no PyTorch; or compile could not run and
everything else passed).
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  marked_lines, skip_without_torch

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "trace_truth_program.py")
ITERS, REPLAYS, CALLS = 20, 5, 10
GEMM = ("gemm", "gemv", "xmma", "cutlass", "sm90_", "sm80_")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)


def read_sites(raw_dir):
    """[(function, frame: (file, line) or the frame word, launches)] over every raw file."""
    out = []
    for path in sorted(glob.glob(os.path.join(raw_dir, "raw-*.tsv"))):
        frames, sites, counts = {}, {}, {}
        for line in open(path):
            r = line.rstrip("\n").split("\t")
            if r[0] == "frame":
                frames[r[1]] = (r[2], int(r[3]))
            elif r[0] == "site":
                sites[r[1]] = (r[3], r[4])
            elif r[0] == "launches_at":
                counts[r[1]] = counts.get(r[1], 0) + int(r[2])
        for sid, (function, fr) in sites.items():
            out.append((function, frames.get(fr, fr), counts.get(sid, 0)))
    return out


def trace(coalprobe, base, part, count):
    out = os.path.join(base, "truth-%s.json" % part)
    raw = os.path.join(base, "truth-%s-raw" % part)
    if os.path.isdir(raw):
        shutil.rmtree(raw)
    p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", out, "--raw-dir", raw, "--",
                        sys.executable, PROGRAM, part, str(count)], capture_output=True, text=True)
    print(p.stdout[-2000:], end="")
    if p.returncode != 0:
        print(p.stderr[-2000:], end="")
    report = json.load(open(out)) if os.path.exists(out) else {}
    return p, report, read_sites(raw)


def at_line(sites, line, needles):
    return sum(n for f, fr, n in sites if isinstance(fr, tuple) and fr == (PROGRAM, line) and
               any(x in f.lower() for x in needles))


def part_ops(coalprobe, base, lines):
    p, report, sites = trace(coalprobe, base, "ops", ITERS)
    check(p.returncode == 0, "ops: traced, exit 0 (%d)" % p.returncode)
    for name, needles in (("matmul", GEMM), ("cublas", GEMM), ("mul", ("mul",)),
                          ("index", ("index", "gather"))):
        n = at_line(sites, lines[name], needles)
        check(n >= ITERS, "ops: %d launches of a %s kernel at line %d (%s), want >= %d"
              % (n, needles[0], lines[name], name, ITERS))
    wrong = at_line(sites, lines["index_select"], GEMM)
    check(wrong == 0, "ops: no GEMM filed under the index_select line %d (%d)"
          % (lines["index_select"], wrong))
    first = at_line(sites, lines["randn"], ("distribution", "normal", "randn"))
    check(first >= 1, "ops: the first launch (torch.randn) at its line %d (%d)" % (lines["randn"], first))
    nogil = sum(n for f, fr, n in sites if fr == "nogil")
    check(nogil == 0, "ops: no launch under nogil (%d)" % nogil)
    if failures:
        for f, fr, n in sites:
            print("    site %s %s x%d" % (fr, f[:90], n))


def part_graph(coalprobe, base, lines):
    p, report, sites = trace(coalprobe, base, "graph", REPLAYS)
    check(p.returncode == 0, "graph: traced, exit 0 (%d)" % p.returncode)
    copy = {f for f, fr, n in sites if fr == (PROGRAM, lines["warm-up"])}
    check(len(copy) == 1, "graph: one kernel at the warm-up line (%s)" % sorted(copy))
    kernels = [k for k in report.get("kernels") or [] if k.get("function") in copy]
    launches = sum(k.get("launches") or 0 for k in kernels)
    records = sum((k.get("kernel_counters") or {}).get("launches") or 0 for k in kernels)
    check(launches == REPLAYS + 1, "graph: the kernel counts %d launches, want %d (warm-up and "
          "replays)" % (launches, REPLAYS + 1))
    check(records == REPLAYS + 1, "graph: %d kernel records, want %d" % (records, REPLAYS + 1))
    replayed = sum(n for f, fr, n in sites if f in copy and fr == (PROGRAM, lines["replay"]))
    check(replayed == REPLAYS, "graph: %d launches at the replay line, want %d" % (replayed, REPLAYS))
    unmatched = report.get("unmatched") or []
    check(not unmatched, "graph: nothing unmatched (%s)" % unmatched)


def part_compile(coalprobe, base, lines):
    p, report, sites = trace(coalprobe, base, "compile", CALLS)
    if p.returncode == 3:
        print("skipped  compile: " + p.stdout.strip().splitlines()[-1])
        return "skipped"
    check(p.returncode == 0, "compile: traced, exit 0 (%d)" % p.returncode)
    triton = [k for k in report.get("kernels") or [] if "triton" in (k.get("function") or "")]
    check(len(triton) >= 1, "compile: a Triton kernel (%d)" % len(triton))
    for k in triton:  # by default the per-kernel counters are sampled: records = counter_launches
        n = k.get("launches") or 0
        if n == 0:  # loaded and never launched (a compile worker's process, say): nothing counted
            check(not k.get("counted") and not k.get("instructions"),
                  "compile: %s (pid %s) never launched, and nothing counted for it (counted %s, "
                  "%s instructions)" % (k.get("function"), k.get("pid"), k.get("counted"),
                                       k.get("instructions")))
            continue
        rec = (k.get("kernel_counters") or {}).get("launches") or 0
        check(n >= CALLS and rec >= 1 and rec == k.get("counter_launches"),
              "compile: %s counts %d launches (want >= %d), %d kernel records (counters from %s)"
              % (k.get("function"), n, CALLS, rec, k.get("counter_launches")))
    unmatched = report.get("unmatched") or []
    check(not unmatched, "compile: nothing unmatched (%s)" % unmatched)
    if failures:
        for k in triton:
            print("    kernel %s: pid %s, launches %s, seen %s, counters from %s, cubin %s, "
                  "counted %s, %s instructions"
                  % (k.get("function"), k.get("pid"), k.get("launches"), k.get("launches_seen"),
                     k.get("counter_launches"), k.get("cubin_crc"), k.get("counted"),
                     k.get("instructions")))
    return "ran"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    if trace_ncu.skip_without_torch():
        return 77
    lines = trace_ncu.marked_lines(PROGRAM)
    with tempfile.TemporaryDirectory() as tmp:
        base = sys.argv[2] if len(sys.argv) > 2 else tmp
        os.makedirs(base, exist_ok=True)
        part_ops(coalprobe, base, lines)
        part_graph(coalprobe, base, lines)
        compiled = part_compile(coalprobe, base, lines)
    print("%d failed" % len(failures))
    if failures:
        return 1
    return 77 if compiled == "skipped" else 0


if __name__ == "__main__":
    sys.exit(main())
