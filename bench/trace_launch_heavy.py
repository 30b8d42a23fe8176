#!/usr/bin/env python3
"""trace_launch_heavy.py: what coalprobe trace adds per launch on launch-heavy PyTorch programs
(bench/launch_heavy.py: elementwise, 5000 iterations of 4 elementwise ops on 1M floats; transformer,
20 training steps of a 4-layer TransformerEncoder). For each workload, in one run: the program
alone and under `coalprobe trace` (the default: every launch counted per instruction, the first 5
launches of each kernel and shape with per-kernel counters) and under `--instructions sampled`
(only those sampled launches counted per instruction, the SASS metrics patched eagerly; "n/a"
where this coalprobe has no such option), REPEAT times each, interleaved (median, min and max);
and once under
`--all-launches` (every launch with its per-kernel counters: about 100 times slower, so once;
"n/a" where this coalprobe has no such option). Each run's loop time is the program's own
(loop_s=, after its warm-up), its process time the wall time of the whole command. The loop's
launches are the trace report's launches of a run with ITERS less those of a run with 0
iterations (traced once each, default mode).

Prints per workload and mode: the loop's seconds (median [min, max]), the ratio of the medians to
the program alone, the process's seconds, and the microseconds each of the loop's launches adds.
usage (GPU machine): python3 bench/trace_launch_heavy.py BUILD_DIR OUTDIR [REPEAT] [WORKLOADS]
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "launch_heavy.py")
ITERS = {"elementwise": 5000, "transformer": 20}


def run(cmd, log):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    with open(log, "w") as f:
        f.write("$ %s\nexit %d, %.3f s\n%s\n%s" % (" ".join(cmd), p.returncode, wall, p.stdout, p.stderr))
    m = re.search(r"loop_s=([0-9.]+)", p.stdout)
    if p.returncode != 0 or not m:
        print("  failed (%d): %s (log %s)" % (p.returncode, " ".join(cmd), log), file=sys.stderr)
        return None
    return float(m.group(1)), wall


def report_launches(path):
    try:
        r = json.load(open(path))
    except (OSError, ValueError):
        return None
    return sum(k.get("launches") or 0 for k in r.get("kernels") or [])


def median(xs, i):
    xs = [x[i] for x in xs if x]
    return statistics.median(xs) if xs else None


def spread(xs):
    xs = [x[0] for x in xs if x]
    return "[%.3f, %.3f]" % (min(xs), max(xs)) if xs else ""


def fmt(x, spec="%.3f"):
    return "n/a" if x is None else spec % x


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    build, out = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    workloads = sys.argv[4].split(",") if len(sys.argv) > 4 else list(ITERS)
    os.makedirs(out, exist_ok=True)
    cp = os.path.join(build, "coalprobe")
    helptext = subprocess.run([cp, "trace", "--help"], capture_output=True, text=True).stdout
    has_all = "--all-launches" in helptext
    has_sampled = "--instructions" in helptext
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip()
    print("GPU: %s  date: %s  --all-launches: %s  --instructions sampled: %s"
          % (gpu, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), has_all, has_sampled))
    modes = [("alone", None, repeat), ("default", [], repeat),
             ("sampled", ["--instructions", "sampled"] if has_sampled else None, repeat),
             ("all", ["--all-launches"] if has_all else None, 1)]
    for w in workloads:
        prog = [sys.executable, PROGRAM, w, str(ITERS[w])]
        res = {m: [] for m, _, _ in modes}
        for i in range(repeat):  # the modes interleaved, so that drift hits each alike
            for m, opts, times in modes:
                if i >= times:
                    continue
                if m == "alone":
                    res[m].append(run(prog, os.path.join(out, "%s.alone.%d.log" % (w, i))))
                elif opts is not None:
                    rep = os.path.join(out, "%s.%s.%d.json" % (w, m, i))
                    res[m].append(run([cp, "trace"] + opts + ["--format", "json", "-o", rep, "--"] +
                                      prog, os.path.join(out, "%s.%s.%d.log" % (w, m, i))))
        zero = os.path.join(out, "%s.zero.json" % w)
        run([cp, "trace", "--format", "json", "-o", zero, "--", sys.executable, PROGRAM, w, "0"],
            os.path.join(out, "%s.zero.log" % w))
        full, empty = report_launches(os.path.join(out, "%s.default.0.json" % w)), report_launches(zero)
        launches = full - empty if full is not None and empty is not None else None
        native = median(res["alone"], 0)
        print("%s (%d iterations; median [min, max] of %d, --all-launches once):"
              % (w, ITERS[w], repeat))
        print("  alone: loop %s s %s, process %s s" % (fmt(native), spread(res["alone"]),
                                                      fmt(median(res["alone"], 1))))
        for m, label in (("default", "traced (default)"),
                         ("sampled", "traced (--instructions sampled)"),
                         ("all", "traced (--all-launches)")):
            loop, proc = median(res[m], 0), median(res[m], 1)
            ratio = loop / native if loop and native else None
            per = (loop - native) / launches * 1e6 if loop and native and launches else None
            print("  %s: loop %s s %s (%sx), process %s s, %s us added per launch"
                  % (label, fmt(loop), spread(res[m]), fmt(ratio, "%.2f"), fmt(proc),
                     fmt(per, "%.1f")))
        print("  launches in the loop: %s" % (launches if launches is not None else "n/a"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
