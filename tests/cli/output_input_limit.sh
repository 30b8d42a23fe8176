#!/bin/sh
# output_input_limit.sh: coalprobe reads its inputs (compare's reports, raw traces) up to a
# limit, COALPROBE_MAX_INPUT_BYTES here set low so that the test is cheap: a report over it is
# refused with the path and the limit (exit 1), and an input that never ends (`yes` on standard
# input, -) ends the same way instead of filling the memory; `yes '{'` ends at once (nesting
# deeper than cJSON reads), and a pipe named as a file (/dev/stdin) is refused unread.
# usage: output_input_limit.sh PATH/TO/coalprobe TRACE_FIXTURE_DIR
. "$(dirname "$0")/common.sh"
usage="usage: output_input_limit.sh PATH/TO/coalprobe TRACE_FIXTURE_DIR"
bin=${1:?$usage} raw=${2:?$usage}
cp_in_scratch bin raw
"$bin" --stride 1..64 --size 4K --model --format json -o big.json 2>/dev/null || bad "the reference run failed"
size=$(wc -c < big.json)
[ "$size" -gt 5000 ] || bad "the reference report is only $size bytes"
# under the limit: compared
COALPROBE_MAX_INPUT_BYTES=$size "$bin" compare big.json big.json > /dev/null 2> err.txt
rc=$?
[ $rc -eq 0 ] || bad "at the limit: exit $rc: $(cat err.txt)"
# over it: refused by its size
COALPROBE_MAX_INPUT_BYTES=5000 "$bin" compare big.json big.json > out.txt 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "over the limit: exit $rc, expected 1"
grep -q "^coalprobe: 'big.json' is larger than the 5000-byte limit for inputs$" err.txt ||
    bad "over the limit: $(cat err.txt)"
grep -q "^hint: .*COALPROBE_MAX_INPUT_BYTES" err.txt || bad "over the limit, no hint: $(cat err.txt)"
# an input that never ends: `yes '{'` is refused as soon as it nests deeper than cJSON reads;
# `yes` on standard input (-) at the limit
yes '{' | timeout 60 "$bin" compare - big.json > out.txt 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "yes '{': exit $rc, expected 2: $(head -3 err.txt)"
grep -q "^coalprobe: '-' is refused: nesting deeper than cJSON's limit of 1000 levels (line 1001, byte 2000)$" err.txt ||
    bad "yes '{': $(head -3 err.txt)"
yes | COALPROBE_MAX_INPUT_BYTES=200000 timeout 60 "$bin" compare - big.json > out.txt 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "yes: exit $rc, expected 1: $(head -3 err.txt)"
grep -q "^coalprobe: '-' is larger than the 200000-byte limit for inputs$" err.txt ||
    bad "yes: $(head -3 err.txt)"
# a pipe named as a file (/dev/stdin) is not read: - is standard input
yes '{' | timeout 60 "$bin" compare /dev/stdin big.json > out.txt 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "/dev/stdin: exit $rc, expected 2: $(head -3 err.txt)"
grep -q "^coalprobe: '/dev/stdin' is not a regular file (a FIFO or pipe)$" err.txt ||
    bad "/dev/stdin: $(head -3 err.txt)"
# a raw trace file over the limit is skipped with a warning naming it and the limit; with no
# other raw file readable, the report side exits 1
COALPROBE_MAX_INPUT_BYTES=300 "$bin" trace --from-raw "$raw" > out.txt 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "raw trace: exit $rc, expected 1: $(cat err.txt)"
grep -Eq "^coalprobe: warning: skipped raw-[0-9]+\.tsv: it is larger than the 300-byte limit for inputs \(set COALPROBE_MAX_INPUT_BYTES to read it\)$" err.txt ||
    bad "raw trace: $(cat err.txt)"
[ $fail -eq 0 ] && echo "inputs over the limit refused: exit 1 with the path and the limit"
exit $fail
