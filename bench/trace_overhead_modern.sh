#!/bin/sh
# trace_overhead_modern.sh: wall time of bench/trace_modern.py (torch.compile, a CUDA graph, flash
# attention, a float32 GEMM, Triton's cp.async and TMA matmuls) alone, twice (the second run finds
# Inductor's and Triton's caches warm, as the traced runs after it do), then under coalprobe trace
# with the default kernel counters and with --kernel-counters full; prints each time and the
# ratios of the traced runs to the second run alone. coalprobe runs with --verbose: its breakdown
# lands in OUTDIR/*.err, its reports in OUTDIR/*.json.
# usage (GPU machine, from the repository root): sh bench/trace_overhead_modern.sh BUILD_DIR OUTDIR [ITERS]
set -u
usage="usage: trace_overhead_modern.sh BUILD_DIR OUTDIR [ITERS]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-3}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
prog="python3 $(dirname "$0")/trace_modern.py --iters $iters"
timed() { # label command...: prints label and wall seconds; the seconds in $secs
    secs=$(wall "$@")
    printf '%-24s %8s s\n' "$1" "$secs"
}
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
# shellcheck disable=SC2086 # $prog is split into its words on purpose
timed alone $prog
# shellcheck disable=SC2086
timed alone_again $prog
alone=$secs
# shellcheck disable=SC2086
timed trace "$B/coalprobe" trace -v --format json -o "$out/trace.json" -- $prog
lean=$secs
# shellcheck disable=SC2086
timed trace_full "$B/coalprobe" trace -v --kernel-counters full --format json \
    -o "$out/trace_full.json" -- $prog
full=$secs
awk -v a="$alone" -v l="$lean" -v f="$full" 'BEGIN {
    if (a <= 0) { print "the program alone took no measurable time"; exit }
    printf "ratio to the program alone: trace %.2fx, trace --kernel-counters full %.2fx\n", l / a, f / a }'
