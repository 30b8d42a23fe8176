#!/bin/sh
# trace_where_cost.sh: what recording each launch's call site costs: coalprobe trace of
# bench/trace_torch.py (ITERS iterations, default 100) with the Python frames, the profile hook and
# NVTX (the default), against the same trace with none of them (COALPROBE_TRACE_PYTHON=0
# COALPROBE_TRACE_NVTX=0: traced as a process without Python), alternating, REPEAT times each
# (default 5), in one run; prints every time and the ratio of the medians. The listing cache is
# warmed first, in a temporary directory removed at the end.
# usage (GPU machine): sh bench/trace_where_cost.sh BUILD_DIR OUTDIR [ITERS] [REPEAT]
set -u
usage="usage: trace_where_cost.sh BUILD_DIR OUTDIR [ITERS] [REPEAT]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-100} repeat=${4:-5}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export COALPROBE_CACHE_DIR="$cache"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
prog="python3 bench/trace_torch.py $iters"
"$B/coalprobe" trace -- $prog > /dev/null 2>&1 # warms the listing cache
with="" without=""
for i in $(seq "$repeat"); do
    with="$with $(wall "with.$i" "$B/coalprobe" trace -v -- $prog)"
    without="$without $(wall "without.$i" env COALPROBE_TRACE_PYTHON=0 COALPROBE_TRACE_NVTX=0 "$B/coalprobe" trace -v -- $prog)"
done
mw=$(echo $with | tr ' ' '\n' | median); mo=$(echo $without | tr ' ' '\n' | median)
echo "with call sites:$with s"
echo "without:$without s"
awk -v w="$mw" -v o="$mo" 'BEGIN { printf "median with %.3f s, without %.3f s: %+.1f%%\n", w, o, 100 * (w / o - 1) }'
