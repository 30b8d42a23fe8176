#!/bin/sh
# first_samples.sh: whether the first configuration of a process times slow at first (the GPU's
# first millisecond of work), under each warm-up (COALPROBE_WARMUP=flush, the default; kernel;
# none: cp_cuda_warm_up in src/measure/cp_measure_cuda.c). Each variant runs RUNS times (default
# 3) with --reps 20 and COALPROBE_SAMPLES_LOG; for its first row it prints the first 8 samples in
# microseconds, the last, and the median of the first 5 samples against the median of all 20
# (what the stopping rule, which stops at 5 on quiet samples, would be off by).
# usage (GPU machine): sh bench/first_samples.sh PATH/TO/coalprobe OUTDIR [RUNS]
set -u
bin=${1:?usage: first_samples.sh PATH/TO/coalprobe OUTDIR [RUNS]}
out=${2:?usage: first_samples.sh PATH/TO/coalprobe OUTDIR [RUNS]}
runs=${3:-3}
mkdir -p "$out"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
echo "coalprobe: $("$bin" --version)"
# variant NAME WARMUP ARGS...
variant() {
    name=$1 warmup=$2; shift 2
    for i in $(seq "$runs"); do
        rm -f "$out/$name.$i.log"
        COALPROBE_WARMUP=$warmup COALPROBE_SAMPLES_LOG="$out/$name.$i.log" "$bin" "$@" --reps 20 \
            --format json \
            -o "$out/$name.$i.json" 2> "$out/$name.$i.err" || echo "$name: exit $?"
        head -1 "$out/$name.$i.log" | python3 -c '
import statistics, sys
name = sys.argv[1]
label, _, times = sys.stdin.readline().rstrip("\n").partition("\t")
xs = [float(x) * 1e6 for x in times.split()]
first = " ".join(f"{x:.1f}" for x in xs[:8])
off = statistics.median(xs[:5]) / statistics.median(xs) - 1
print(f"{name:<22} {first} ... {xs[-1]:.1f} us  first 5 vs 20: {100 * off:+.2f}%  ({label})")
' "$name"
    done
}
for w in none kernel flush; do
    variant "width.$w" $w --width 4,8,16,32 --stride 1,2
    variant "stride_1_2.$w" $w --stride 1,2
    variant "gemm.$w" $w gemm --variant naive,coalesced
done
variant width_require.none none --width 4,8,16,32 --stride 1,2 --require-counters
