#!/bin/sh
# noise_rule.sh: the stopping rule of issue 27 measured on a GPU, in one run. (1) Item 4: the
# stride, width and GEMM sweeps with the default rule and with --reps 20, interleaved RUNS times
# (the order alternating), each as JSON with -v; bench/noise_rule.py prints per sweep the medians'
# differences (every row against the 20-launch run of the same round: within 0.5%, or within that
# run's own spread where it is larger), the wall-time and timing-phase ratios, and the launches and
# noise the rule took; and, on the samples the 20-launch runs log (COALPROBE_SAMPLES_LOG), the
# rule replayed in the same process: its median against the 20 launches' (noise_rule.py replay).
# (2) The noise reached per family: every family's default sweep with the
# default rule. (3) The -v start-up breakdown of --stride 1..32, part by part.
# usage (GPU machine): sh bench/noise_rule.sh PATH/TO/coalprobe OUTDIR [RUNS]   (default 3)
#   e.g. in one device call: . bench/gpu_build.sh && sh bench/noise_rule.sh "$CP_BUILD/coalprobe" "$OUT"
# NOISE_RULE_ARGS: more options for every sweep of part (1), e.g. "--require-counters" (the CUPTI
# session set up before any timing rather than beside the first configurations' timing: whether
# the few rows whose medians move by more than 0.5% from one process to the next are disturbed by
# that set-up, docs/results/2026-11-27-h100-stopping-rule/).
# The defaults of the rule (CP_SAMPLING_* in src/measure/cp_measure.h) are provisional until this
# has run on the H100; its tables go to docs/results/ and docs/measurement.md, "Timing".
set -u
bin=${1:?usage: noise_rule.sh PATH/TO/coalprobe OUTDIR [RUNS]}
out=${2:?usage: noise_rule.sh PATH/TO/coalprobe OUTDIR [RUNS]}
runs=${3:-3}
here=$(dirname "$0")
mkdir -p "$out"
. "$here/timing.sh"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
echo "coalprobe: $("$bin" --version)"
: > "$out/times.txt"
# sweep NAME ARGS...: one run of each mode, in the order of round $i
sweep() {
    name=$1; shift
    if [ $((i % 2)) = 1 ]; then modes="rule reps20"; else modes="reps20 rule"; fi
    for mode in $modes; do
        extra="" log=""
        # the 20-launch runs also log every sample, for the rule's replay
        [ "$mode" = reps20 ] && extra="--reps 20" log="$out/$name.$mode.$i.samples"
        rm -f "$log"
        # shellcheck disable=SC2086 # $extra is two words or none
        # shellcheck disable=SC2086 # NOISE_RULE_ARGS is words
        export COALPROBE_SAMPLES_LOG="$log"
        t=$(wall "$name.$mode.$i" "$bin" "$@" $extra ${NOISE_RULE_ARGS:-} -v --format json \
            -o "$out/$name.$mode.$i.json")
        unset COALPROBE_SAMPLES_LOG
        echo "$name $mode $i $t" | tee -a "$out/times.txt"
    done
}
for i in $(seq "$runs"); do
    sweep stride --stride 1..32
    sweep width --width 4,8,16,32 --stride 1,2
    sweep gemm gemm
done
python3 "$here/noise_rule.py" pairs "$out" | tee "$out/pairs_summary.md"
python3 "$here/noise_rule.py" replay "$out" | tee "$out/replay_summary.md"

for fam in stride layout gemm gather smem transpose readonly async; do
    t=$(wall "family.$fam" "$bin" "$fam" -v --format json -o "$out/family.$fam.json")
    echo "family $fam $t s"
done
t=$(wall family.expr "$bin" expr --index '(i % 32) * 1024 + i / 32' -v --format json \
    -o "$out/family.expr.json")
echo "family expr $t s"
python3 "$here/noise_rule.py" families "$out" | tee "$out/families_summary.md"

"$bin" --stride 1..32 -v > /dev/null 2> "$out/verbose_stride.txt"
cat "$out/verbose_stride.txt"
