#!/bin/sh
# trace_speed.sh: wall time of coalprobe trace against the program alone and against Nsight
# Compute collecting the same per-instruction data (--section SourceCounters, every launch), on
# the tests' sample program and on bench/trace_torch.py (ITERS iterations for ncu and trace
# alike; default 10, since ncu takes over 300 s for 100), plus trace alone on 100 iterations;
# each timed once, in this order, in one run. coalprobe trace runs with --verbose: its
# breakdown (the traced process's phases, nvdisasm, ...) lands in OUTDIR/*.err.
# usage (GPU machine): sh bench/trace_speed.sh BUILD_DIR OUTDIR [ITERS]
set -u
usage="usage: trace_speed.sh BUILD_DIR OUTDIR [ITERS]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-10}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
timed() { # label command...: prints label, wall seconds, exit status
    label=$1; shift
    t0=$(now); "$@" > "$out/$label.out" 2> "$out/$label.err"; rc=$?; t1=$(now)
    printf '%-32s %8s s  rc=%d\n' "$label" "$(span "$t0" "$t1")" "$rc"
}
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
echo "ncu: $(ncu --version | tail -1)"
for prog in sample torch torch100; do
    case $prog in
    sample) set -- "$B/tests/cp_trace_sample" 3 ;;
    torch) set -- python3 bench/trace_torch.py "$iters" ;;
    torch100) set -- python3 bench/trace_torch.py 100 ;;
    esac
    timed "$prog.native" "$@"
    timed "$prog.native_again" "$@"
    timed "$prog.coalprobe_trace" "$B/coalprobe" trace -v --format json -o "$out/$prog.trace.json" -- "$@"
    timed "$prog.coalprobe_trace_full" "$B/coalprobe" trace -v --kernel-counters full --format json \
        -o "$out/$prog.trace_full.json" -- "$@"
    [ $prog = torch100 ] || timed "$prog.ncu_source" timeout 590 ncu --section SourceCounters --page source --csv "$@"
done
