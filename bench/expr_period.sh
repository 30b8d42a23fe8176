#!/bin/sh
# expr_period.sh: the model of one 2 GiB expr configuration whose index has a period the model
# proves (counted over one period of warps), against the walk over every thread that
# COALPROBE_MODEL_WALK=1 forces; model only, no GPU needed. Prints how the model counted it (-v),
# the wall time of each (the period's: the best of 5 runs), their ratio, and whether the two
# reports are identical (they must be: the period's counts are exact). Target (issue 27): the
# period's run at most 0.1 s on the 2-core build machine.
# usage: expr_period.sh PATH/TO/coalprobe [INDEX [PARAM [SIZE]]]
#        (default: '(i * s) % n' s=3 2G)
set -u
bin=${1:?usage: expr_period.sh PATH/TO/coalprobe [INDEX [PARAM [SIZE]]]}
index=${2:-(i * s) % n}
param=${3:-s=3}
size=${4:-2G}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo "command: coalprobe expr --model --size $size --index '$index' --param $param --format json"
# seconds of one run (its report in $out/$1.json, stderr in $out/$1.err)
run() {
    name=$1
    shift
    start=$(date +%s.%N)
    "$@" expr --model --size "$size" --index "$index" --param "$param" --format json -v \
        -o "$out/$name.json" 2> "$out/$name.err" || echo "$name: exit $?: $(cat "$out/$name.err")" >&2
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
best=
for k in 1 2 3 4 5; do
    t=$(run period "$bin")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" -eq 1 ]; then best=$t; fi
done
grep -m1 '^coalprobe: model: ' "$out/period.err"
walk=$(run walk env COALPROBE_MODEL_WALK=1 "$bin")
grep -m1 '^coalprobe: model: ' "$out/walk.err"
printf 'period: %.3f s (best of 5)\nwalk:   %.3f s\nratio:  %.5f (period / walk), %.0fx faster\n' \
    "$best" "$walk" "$(echo "$best / $walk" | bc -l)" "$(echo "$walk / $best" | bc -l)"
if grep -v '"command"' "$out/period.json" > "$out/period.rows" &&
    grep -v '"command"' "$out/walk.json" > "$out/walk.rows" && cmp -s "$out/period.rows" "$out/walk.rows"; then
    echo "reports: identical"
else
    echo "reports: DIFFER"
    exit 1
fi
[ "$(echo "$best <= 0.1" | bc)" -eq 1 ] && echo "target: met (at most 0.1 s)" || echo "target: missed (above 0.1 s)"
