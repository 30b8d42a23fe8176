#!/bin/sh
# trace_overhead.sh: wall time of coalprobe trace against the program alone, on the tests' sample
# program (3 launches of each kernel) and on bench/trace_torch.py (ITERS iterations, default
# 100): the program alone, traced with an empty listing cache (nvdisasm runs: the first trace of
# a program), and traced again (its listings from the cache), each timed REPEAT times (default 3),
# in that order, in one run. Prints every time and the median ratios. The cache lives in a
# temporary directory removed at the end, never in the user's.
# usage (GPU machine): sh bench/trace_overhead.sh BUILD_DIR OUTDIR [ITERS] [REPEAT]
set -u
usage="usage: trace_overhead.sh BUILD_DIR OUTDIR [ITERS] [REPEAT]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-100} repeat=${4:-3}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export COALPROBE_CACHE_DIR="$cache"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
for prog in sample torch; do
    case $prog in
    sample) set -- "$B/tests/cp_trace_sample" 3 ;;
    torch) set -- python3 bench/trace_torch.py "$iters" ;;
    esac
    rm -rf "${cache:?}"/*
    alone="" cold="" warm=""
    for i in $(seq "$repeat"); do alone="$alone $(wall "$prog.alone.$i" "$@")"; done
    cold=$(wall "$prog.traced_cold" "$B/coalprobe" trace -v -- "$@")
    for i in $(seq "$repeat"); do warm="$warm $(wall "$prog.traced_warm.$i" "$B/coalprobe" trace -v -- "$@")"; done
    ma=$(echo $alone | tr ' ' '\n' | median); mw=$(echo $warm | tr ' ' '\n' | median)
    echo "$prog: alone$alone s; traced, cold cache $cold s; traced, warm cache$warm s"
    awk -v a="$ma" -v c="$cold" -v w="$mw" -v p="$prog" 'BEGIN {
        printf "%s: median alone %.3f s, traced cold %.3f s (%.2fx), traced warm median %.3f s (%.2fx)\n", p, a, c, c / a, w, w / a }'
done
