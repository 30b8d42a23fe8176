#!/usr/bin/env python3
"""trace_ranks_fixture.py: the report of a real two-rank job's raw files (tests/golden/trace/
h100x2-ranks: torchrun, 2 x H100, NCCL, 2026-11-27) holds what gpu.trace_ranks checks live: both
ranks' processes with their labels, each rank's kernels on its own GPU, NCCL's kernels named and
counted on both, the index_select launches, per-rank totals that add up to the program's; and
the same files split as a --raw-dir per rank would leave them (torchrun's and rank 0's in one
directory, rank 1's in another) and merged with trace --from-raw DIR DIR give the same report,
in JSON and as a table.

usage: trace_ranks_fixture.py PATH/TO/coalprobe RAW_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

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
    if p.returncode == 0:
        merged_like_one(coalprobe, raw, env, json.loads(p.stdout), check)
    print("%d failed" % len(failures))
    return 1 if failures else 0


def merged_like_one(coalprobe, raw, env, one, check):
    """The files split by rank into two directories, merged: the report of the one directory."""
    tmp = tempfile.mkdtemp(prefix="coalprobe-ranks-")
    try:
        dirs = [os.path.join(tmp, "node0"), os.path.join(tmp, "node1")]
        for d in dirs:
            os.mkdir(d)
        for name in sorted(os.listdir(raw)):
            if not name.startswith("raw-"):
                continue
            with open(os.path.join(raw, name)) as f:
                rank1 = "rank\tRANK\t1\n" in f.read()
            shutil.copy(os.path.join(raw, name), dirs[1 if rank1 else 0])
        check(all(os.listdir(d) for d in dirs), "one raw file or more in each directory")
        runs = {}
        for fmt in ("json", "table"):
            for label, args in (("one", [raw]), ("two", dirs)):
                q = subprocess.run([coalprobe, "trace", "--from-raw", *args, "--format", fmt],
                                   capture_output=True, text=True, env=env, timeout=120)
                check(q.returncode == 0, "%s %s: exit 0 (got %d)" % (label, fmt, q.returncode))
                runs[(label, fmt)] = q.stdout
        two = json.loads(runs[("two", "json")])
        check(two.get("from_raw_dirs") == dirs, "from_raw_dirs names both directories")
        for doc in (one, two):  # what names the directories, not what they hold
            for key in ("command", "from_raw", "from_raw_dirs"):
                doc.pop(key, None)
            for proc in doc.get("processes", []):
                proc["raw_file"] = os.path.basename(proc.get("raw_file") or "")
        check(one == two, "the merged report's JSON equals the one directory's")

        def body(text):  # the table without its lines naming the directories
            return [ln for ln in text.splitlines() if raw not in ln and tmp not in ln]

        check(body(runs[("one", "table")]) == body(runs[("two", "table")]),
              "the merged report's table equals the one directory's")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
