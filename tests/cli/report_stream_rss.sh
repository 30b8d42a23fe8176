#!/bin/sh
# report_stream_rss.sh: a large model-only sweep's report is written row by row, so that the
# process's peak memory (maximum resident set, /usr/bin/time) stays under a bound far below
# what holding every row would take: 262,144 CSV rows (~520 MB held whole) and 32,768 JSON rows
# (~500 MB as one cJSON tree) each under 120 MB. The reports are checked complete. Skipped (77)
# under AddressSanitizer, whose shadow memory and quarantine make resident sizes meaningless,
# and where /usr/bin/time is missing (under CI, CI=true, that fails instead).
# usage: report_stream_rss.sh PATH/TO/coalprobe SANITIZED(0|1)
. "$(dirname "$0")/common.sh"
bin=${1:?usage: report_stream_rss.sh PATH/TO/coalprobe SANITIZED}
if [ "${2:-0}" = 1 ]; then
    echo "SKIP: resident memory is not measured under AddressSanitizer"
    exit 77
fi
# GNU time (CP_GNU_TIME: another path to it); scripts/setup.sh installs it, so under CI its
# absence fails the test (tests/setup_tools.sh)
gnu_time=${CP_GNU_TIME:-/usr/bin/time}
[ -x "$gnu_time" ] || cp_setup_missing "$gnu_time (GNU time)" "apt-get install time; sh scripts/setup.sh installs it"
bound_kb=122880
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run FORMAT ROWS SWEEP...: the sweep's report, its row count and its peak memory
run() {
    fmt=$1 rows=$2
    shift 2
    "$gnu_time" -f %M -o "$dir/rss" "$bin" stride "$@" --size 4K --model --allow-large-sweep \
        --format "$fmt" -o "$dir/r.$fmt" 2> "$dir/err"
    rc=$?
    [ $rc -eq 0 ] || bad "$fmt: exit $rc: $(cat "$dir/err")"
    if [ "$fmt" = csv ]; then
        got=$(($(wc -l < "$dir/r.csv") - 1))
    else
        got=$(grep -c "^$(printf '\t\t')}, {\$" "$dir/r.json")
        got=$((got + 1))
        [ "$(tail -c 5 "$dir/r.json" | od -An -c | tr -d ' ')" = '}]\n}\n' ] ||
            bad "json: the document does not end with the last row, ] and }"
    fi
    [ "$got" -eq "$rows" ] || bad "$fmt: $got rows, expected $rows"
    kb=$(tail -1 "$dir/rss")
    [ "$kb" -lt $bound_kb ] 2>/dev/null ||
        bad "$fmt: $rows rows took $kb KB of resident memory (bound $bound_kb KB)"
    echo "$fmt: $rows rows, $(wc -c < "$dir/r.$fmt") bytes, max RSS $kb KB"
    rm -f "$dir/r.$fmt"
}

run csv 262144 --stride 1..4096 --offset 0..15 --width 4,8,16,32
run json 32768 --stride 1..4096 --offset 0..7
exit $fail
