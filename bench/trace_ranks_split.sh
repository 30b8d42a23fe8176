#!/bin/sh
# trace_ranks_split.sh: the two-rank job of bench/trace_ranks.py traced the two ways docs/trace.md
# shows (issue 28): whole (`coalprobe trace -- torchrun ...`, one raw directory) and one
# `coalprobe trace --raw-dir dir.$RANK` per rank under torchrun, merged with `trace --from-raw
# dir.0 dir.1`. Prints both reports' ranks, processes and kernels, and compares them: the same
# ranks on the same devices, the same kernels per rank, and equal counts for every kernel but
# NCCL's (whose polling loads depend on how long each rank waited, docs/trace.md).
# usage (machine of two GPUs): sh bench/trace_ranks_split.sh BUILD_DIR OUTDIR [ITERS]
set -u
usage="usage: trace_ranks_split.sh BUILD_DIR OUTDIR [ITERS]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-5}
mkdir -p "$out"
bin=$(cd "$(dirname "$B/coalprobe")" && pwd)/coalprobe
prog="$(cd "$(dirname "$0")" && pwd)/trace_ranks.py"
cleanup() { pkill -9 -f "$prog" 2>/dev/null; }
trap cleanup EXIT
echo "GPUs: $(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tr '\n' ';')  date: $(date -u +%FT%TZ)"
rm -rf "$out/whole" "$out"/dir.*
timeout -k 5 120 "$bin" trace --raw-dir "$out/whole" --format json -o "$out/whole.json" -- \
    torchrun --standalone --nproc-per-node 2 "$prog" "$iters" > "$out/whole.log" 2>&1
echo "whole: exit $?"
cleanup
timeout -k 5 120 torchrun --standalone --nproc-per-node 2 --no-python sh -c \
    "exec '$bin' trace --raw-dir '$out/dir.'\$RANK -o /dev/null -- python3 -u '$prog' $iters" \
    > "$out/split.log" 2>&1
echo "per rank: exit $?"
cleanup
"$bin" trace --from-raw "$out/dir.0" "$out/dir.1" --format json -o "$out/merged.json" \
    2> "$out/merged.err"
echo "merged: exit $?"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def summary(path):
    doc = json.load(open(path))
    rank_of = {p["pid"]: p.get("rank") for p in doc["processes"]}
    ranks = {}
    for k in doc["kernels"]:
        r = rank_of.get(k["pid"])
        if r is None:
            continue
        e = ranks.setdefault(r, {}).setdefault(k["name"], [0, 0, set()])
        e[0] += k.get("launches") or 0
        e[1] += k.get("sectors") or 0
        e[2].add(k.get("device"))
    return doc, ranks
whole, wr = summary(out + "/whole.json")
merged, mr = summary(out + "/merged.json")
fails = 0
def check(cond, what):
    global fails
    print(("ok      " if cond else "FAILED  ") + what)
    fails += not cond
check(sorted(wr) == sorted(mr) == [0, 1], "ranks 0 and 1 in both (whole %s, merged %s)" % (sorted(wr), sorted(mr)))
for r in sorted(set(wr) & set(mr)):
    check(set(wr[r]) == set(mr[r]), "rank %d: the same %d kernels" % (r, len(wr[r])))
    for name in sorted(set(wr[r]) & set(mr[r])):
        w, m = wr[r][name], mr[r][name]
        if "nccl" in name.lower():
            check(w[0] == m[0] and w[2] == m[2], "rank %d NCCL %s: %d launches, devices %s (sectors %d and %d: polling)" % (r, name[:40], w[0], sorted(w[2]), w[1], m[1]))
        else:
            check(w[:3] == m[:3], "rank %d %s: launches %d/%d, sectors %d/%d, devices %s/%s" % (r, name[:50], w[0], m[0], w[1], m[1], sorted(w[2]), sorted(m[2])))
print("%d failed" % fails)
PY
