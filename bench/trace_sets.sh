#!/bin/sh
# trace_sets.sh: where a traced program's time goes, per metric set of the per-kernel counters
# (COALPROBE_TRACE_KERNEL_SET=full: every metric, 5 replay passes a launch on GH100; lean: one
# pass) and per mode (COALPROBE_TRACE_MODE): wall time, the injection's own `time` records
# (context set-up, time inside launch calls = the kernel replay, counter decoding, instruction
# records), how many instructions got counts, and the report's top lines. Sample program and
# bench/trace_torch.py, each once per setting, in one run.
# usage (GPU machine): sh bench/trace_sets.sh BUILD_DIR OUTDIR [TORCH_ITERATIONS]
set -u
usage="usage: trace_sets.sh BUILD_DIR OUTDIR [TORCH_ITERATIONS]"
B=${1:?$usage} out=${2:?$usage} iters=${3:-100}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
for prog in sample torch; do
    if [ $prog = sample ]; then set -- "$B/tests/cp_trace_sample" 3; else set -- python3 bench/trace_torch.py "$iters"; fi
    t0=$(now); "$@" > /dev/null 2>&1; t1=$(now)
    printf '%-32s %7s s\n' "$prog native" "$(span "$t0" "$t1")"
    for setting in full:both lean:both full:kernels lean:kernels; do
        kset=${setting%%:*} mode=${setting#*:}
        d="$out/$prog-$kset-$mode"
        rm -rf "$d"
        t0=$(now)
        COALPROBE_TRACE_KERNEL_SET=$kset COALPROBE_TRACE_MODE=$mode "$B/coalprobe" trace --raw-dir "$d" \
            --top 3 -o "$d.txt" -- "$@" > /dev/null 2> "$d.err"
        rc=$?; t1=$(now)
        printf '%-32s %7s s  rc=%d\n' "$prog trace $kset $mode" "$(span "$t0" "$t1")" "$rc"
        for f in "$d"/raw-*.tsv; do
            [ -f "$f" ] || continue
            awk -F'\t' '$1 == "time" { printf "    %-20s %9.3f s  x%s\n", $2, $3, $4 }
                        $1 == "note" && $2 ~ /pass/ { print "    " $2 }
                        $1 == "pc" { pcs++; if ($7 + $8 + $11 + $12 > 0) counted++ }
                        $1 == "kernel" { kernels++ }
                        END { printf "    pc records %d (%d with counts), kernel records %d\n", pcs, counted, kernels }' "$f"
        done
    done
done
