#!/bin/sh
# output_std_closed.sh: coalprobe started with standard descriptors closed (`2>&-`, `>&-`,
# `<&-`) never gives one of them to the report file: the messages meant for stderr (here the
# "no GPU" note) do not end up inside the report, which stays valid JSON.
# usage: output_std_closed.sh PATH/TO/coalprobe
. "$(dirname "$0")/common.sh"
bin=${1:?usage: output_std_closed.sh PATH/TO/coalprobe}
cp_absolute bin
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# a report is valid when compare accepts it against itself (a JSON parser through the binary)
valid() { "$bin" compare "$1" "$1" > /dev/null 2> cmp.err; }
"$bin" --stride 1..4 --size 4K --format json -o want.json 2> note.txt
rc=$?
[ $rc -eq 0 ] || bad "the reference run: exit $rc: $(cat note.txt)"
valid want.json || bad "the reference report is not valid: $(cat cmp.err)"

"$bin" --stride 1..4 --size 4K --format json -o f.json 2>&-
rc=$?
[ $rc -eq 0 ] || bad "stderr closed: exit $rc"
grep -q "coalprobe:" f.json && bad "stderr closed: a message went into the report: $(grep coalprobe: f.json | head -2)"
valid f.json || bad "stderr closed: the report is not valid JSON: $(cat cmp.err)"

"$bin" --stride 1..4 --size 4K --format json -o g.json >&- 2>&- <&-
rc=$?
[ $rc -eq 0 ] || bad "all three closed: exit $rc"
valid g.json || bad "all three closed: the report is not valid JSON: $(cat cmp.err)"

# the failure message of a run with stdout closed still reaches stderr
"$bin" --stride 1..4 --size 4K --format json -o nodir/x.json >&- 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "stdout closed, bad path: exit $rc, expected 1"
grep -q "^coalprobe: cannot write 'nodir/x.json'" err.txt || bad "stdout closed, bad path: $(cat err.txt)"
[ $fail -eq 0 ] && echo "standard descriptors closed: reports intact"
exit $fail
