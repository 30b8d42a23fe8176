#!/bin/sh
# report_stream_interrupt.sh: a model-only JSON sweep writes its rows while it predicts; SIGINT
# once rows are in the file stops it (exit 130) and the report holds the rows the message
# counts, its header's "incomplete" turned true in cJSON's own layout, the document complete.
# usage: report_stream_interrupt.sh PATH/TO/coalprobe
. "$(dirname "$0")/common.sh"
bin=${1:?usage: report_stream_interrupt.sh PATH/TO/coalprobe}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 990,000 GEMM configurations: minutes of prediction, far longer than the wait below
"$bin" gemm --variant naive --m 1..100 --n 1..100 --k 1..99 --model --allow-large-sweep \
    --format json -o "$dir/r.json" 2> "$dir/err" &
pid=$!
# wait for rows in the file being written: its temporary name, whatever it is, or the unnamed
# temporary file (O_TMPFILE) that one of the run's descriptors holds
written() {
    [ -n "$(find "$dir" -type f ! -name err -size +64k)" ] && return 0
    for f in /proc/$pid/fd/*; do
        case $(readlink "$f" 2>/dev/null) in
        "$dir/err") ;;
        "$dir"/*) [ "$(stat -L -c %s "$f" 2>/dev/null || echo 0)" -gt 65536 ] && return 0 ;;
        esac
    done
    return 1
}
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
    written && break
    sleep 0.1
    i=$((i + 1))
done
written ||
    bad "no rows written within $((i / 10)) s: $(ls -la "$dir")"
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 130 ] || bad "exit $rc after SIGINT, expected 130: $(cat "$dir/err")"
n=$(sed -n 's/^coalprobe: interrupted by SIGINT after \([0-9]*\) of 990000 configurations.*/\1/p' "$dir/err")
[ -n "$n" ] || bad "no 'interrupted' message: $(cat "$dir/err")"
[ "$(sed -n 9p "$dir/r.json")" = "$(printf '\t"incomplete":\ttrue,')" ] ||
    bad "line 9 is not the incomplete flag set: $(sed -n 9p "$dir/r.json")"
got=$(jq '.rows | length' "$dir/r.json" 2>&1)
[ "$got" = "${n:-x}" ] || bad "the report holds '$got' rows, the message says $n"
[ "$(jq '.incomplete' "$dir/r.json" 2>&1)" = true ] || bad "incomplete is not true"
[ "$(ls "$dir" | grep -v -e '^err$' -e '^r.json$')" = "" ] || bad "left behind: $(ls "$dir")"
[ $fail -eq 0 ] && echo "interrupted after $n rows: report complete, marked incomplete"
exit $fail
