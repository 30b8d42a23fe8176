#!/bin/sh
# sanitize.sh: compute-sanitizer memcheck and racecheck report nothing for every kernel family
# (synccheck too for the async family's pipelines and mbarriers) at its edge configurations:
# the largest stride and offset, sizes that are not a multiple of the block, AoS with the most
# fields, GEMM sizes that are not multiples of 32 (all variants, cuBLAS included). Counters stay
# off (--no-counters): a sanitizer and CUPTI cannot both attach.
# Exits 77 (skipped) without a GPU or compute-sanitizer. Writes a summary to $2, or to
# $CP_RESULTS_DIR/compute_sanitizer.txt when that is set. The smem family is left out: its fixed
# grid makes 17 million shared-memory requests per configuration, far too many to instrument.
set -u
bin=${1:?usage: sanitize.sh PATH/TO/coalprobe [SUMMARY]}
summary=${2:-${CP_RESULTS_DIR:+$CP_RESULTS_DIR/compute_sanitizer.txt}}
summary=${summary:-/dev/null}
if ! command -v compute-sanitizer >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU or no compute-sanitizer: skipped"
    exit 77
fi
log=$(mktemp)
trap 'rm -f "$log" "$log.csv"' EXIT
fail=0
: > "$summary"
check() {
    tool=$1
    shift
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" "$@" --no-counters --reps 1 \
        --format csv -o "$log.csv" > "$log" 2>&1 # a file of its own: never the machine's /dev/null
    rc=$?
    result=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
    line="$tool: coalprobe $* -> exit $rc; ${result:-no summary}"
    echo "$line" | tee -a "$summary"
    if [ $rc -ne 0 ]; then
        fail=1
        grep -vE "^=+ *$" "$log" | head -30
    fi
}
# pipelines and mbarriers: synccheck too
check synccheck async --variant all --stages 1..4 --size 256K
for tool in memcheck racecheck; do
    check "$tool" stride --stride 4096 --offset 4096 --width 4,32 --op all --size 4K
    check "$tool" stride --stride 1,3,33 --offset 0,1,31 --width 4,8,16,32 --op all --size 4128
    check "$tool" layout --layout all --fields 1,63,64 --field 0 --size 4100
    check "$tool" layout --layout all --fields 64 --field 63 --size 4K
    check "$tool" readonly --variant all --index all --table 128,4100,64K --size 4100
    check "$tool" async --variant all --stages 1..4 --work 0,2 --size 256K
    check "$tool" gemm --variant all --m 1,33 --n 1,65 --k 1,17,70
    check "$tool" gather --run 1,7 --size 4100
    check "$tool" transpose --variant all --m 1,33,64 --n 1,65
    check "$tool" expr --index "n - 1 - i" --width 4,32 --op all --size 4100
done
[ $fail -eq 0 ] && echo "compute-sanitizer: no errors in any family" | tee -a "$summary"
exit $fail
