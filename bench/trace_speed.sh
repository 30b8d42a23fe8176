#!/bin/sh
# trace_speed.sh: wall time of coalprobe trace against the program alone and against Nsight
# Compute collecting the same per-instruction data (--section SourceCounters, every launch), on
# the tests' sample program and on bench/trace_torch.py; each timed once, in this order, in one
# run. usage (GPU machine): sh bench/trace_speed.sh BUILD_DIR OUTDIR
set -u
B=${1:?usage: trace_speed.sh BUILD_DIR OUTDIR}
out=${2:?usage: trace_speed.sh BUILD_DIR OUTDIR}
mkdir -p "$out"
now() { date +%s.%N; }
span() { awk "BEGIN{printf \"%.2f\", $2 - $1}"; }
timed() { # label command...: prints label, wall seconds, exit status
    label=$1; shift
    t0=$(now); "$@" > "$out/$label.out" 2> "$out/$label.err"; rc=$?; t1=$(now)
    printf '%-28s %8s s  rc=%d\n' "$label" "$(span "$t0" "$t1")" "$rc"
}
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
echo "ncu: $(ncu --version | tail -1)"
for prog in sample torch; do
    if [ $prog = sample ]; then set -- "$B/tests/cp_trace_sample" 3; else set -- python3 bench/trace_torch.py 100; fi
    timed "$prog.native" "$@"
    timed "$prog.native_again" "$@"
    timed "$prog.coalprobe_trace" "$B/coalprobe" trace --format json -o "$out/$prog.trace.json" -- "$@"
    timed "$prog.ncu_source" timeout 300 ncu --section SourceCounters --page source --csv "$@"
done
