#!/usr/bin/env python3
"""trace_ranks_fixture.py: the report of a real two-rank job's raw files (tests/golden/trace/
h100x2-ranks: torchrun, 2 x H100, NCCL, 2026-11-27) holds what gpu.trace_ranks checks live: both
ranks' processes with their labels, each rank's kernels on its own GPU, NCCL's kernels named and
counted on both, the index_select launches, per-rank totals that add up to the program's.

usage: trace_ranks_fixture.py PATH/TO/coalprobe RAW_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu"))
import trace_ranks  # noqa: E402  check_report


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    coalprobe, raw = sys.argv[1], sys.argv[2]
    env = dict(os.environ, COALPROBE_NVDISASM="", CUDA_VISIBLE_DEVICES="")
    p = subprocess.run([coalprobe, "trace", "--from-raw", raw, "--format", "json"],
                       capture_output=True, text=True, env=env, timeout=120)
    failures = []

    def check(cond, what):
        print(("ok      " if cond else "FAILED  ") + what)
        if not cond:
            failures.append(what)

    check(p.returncode == 0, "trace --from-raw exit 0 (got %d: %s)" % (p.returncode, p.stderr[-500:]))
    if p.returncode == 0:
        ranks = trace_ranks.check_report(json.loads(p.stdout), check, "fixture")
        # what the job recorded on 2 x H100 (docs/results/2026-11-27-h100x2-trace-ranks/)
        check(ranks == {0: (25, 35410001, 788529152), 1: (20, 1792714852, 751828992)},
              "the per-rank launches, sectors and excess recorded (got %s)" % ranks)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
