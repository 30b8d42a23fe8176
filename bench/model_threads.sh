#!/bin/sh
# model_threads.sh: the model's exhaustive counts on one CPU against every CPU of the machine
# (the expr family at 16G, the issue's example, and a gather at 4G), model only, no GPU needed:
# the wall time of each, the estimate coalprobe printed first, and whether the reports are
# identical (they must be: the threads' integer counts are summed). Prints one line per run.
# The walk over every thread is what it measures: COALPROBE_MODEL_WALK=1 keeps the model from
# counting the expression's period instead (bench/expr_period.sh times that).
# usage: model_threads.sh PATH/TO/coalprobe [OUTDIR]
set -u
export COALPROBE_MODEL_WALK=1
bin=${1:?usage: model_threads.sh PATH/TO/coalprobe [OUTDIR]}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
cpus=$(nproc) # the CPUs this process may use
first=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status | cut -d, -f1 | cut -d- -f1)
echo "machine: $cpus CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
run() { # NAME CPUS ARGS...
    name=$1 n=$2
    shift 2
    start=$(date +%s.%N)
    pin=""
    [ "$n" -eq 1 ] && pin="taskset -c $first"
    $pin "$bin" "$@" --model --format json -o "$out/$name-$n.json" 2> "$out/$name-$n.err"
    rc=$?
    end=$(date +%s.%N)
    printf '%-8s %3s CPUs  exit %s  %7.1f s  %s\n' "$name" "$n" "$rc" "$(echo "$end - $start" | bc)" \
        "$(grep -m1 'the model evaluates' "$out/$name-$n.err" | sed 's/^coalprobe: //')"
}
for case in "expr16g expr --index i --size 16G" "gather4g gather --run 1 --size 4G"; do
    set -- $case
    name=$1
    shift
    run "$name" "$cpus" "$@"
    run "$name" 1 "$@"
    # every count must be the same (the command lines differ in the -o name only)
    grep -v '"command"' "$out/$name-1.json" > "$out/$name-1.rows" 2>/dev/null
    grep -v '"command"' "$out/$name-$cpus.json" > "$out/$name-$cpus.rows" 2>/dev/null
    if [ -s "$out/$name-1.rows" ] && cmp -s "$out/$name-1.rows" "$out/$name-$cpus.rows"; then
        echo "$name: the reports on $cpus CPUs and on 1 are identical"
    else
        echo "$name: REPORTS DIFFER"
    fi
done
echo "reports in $out"
