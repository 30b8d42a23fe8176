#!/bin/sh
# model_notice.sh: a model run that will take long says so on stderr before it starts, though
# stderr is a file here and not a terminal: 16 configurations of 4G GPU threads each of an
# expression with no period the model could count instead, every thread evaluated (minutes even
# on many cores). Once the notice is there, two SIGTERMs stop
# the run at once (exit 143) and no file is left behind.
# usage: model_notice.sh PATH/TO/coalprobe
. "$(dirname "$0")/common.sh"
bin=${1:?usage: model_notice.sh PATH/TO/coalprobe}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# COLUMNS: the notice on one line (notes wrap at stderr's width)
COLUMNS=100000 "$bin" expr --index '(i ^ (i >> s)) % n' --param s=1..16 --size 16G --model --format csv \
    -o "$dir/r.csv" 2> "$dir/err" &
pid=$!
i=0
while ! grep -q "the model evaluates" "$dir/err" && kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
grep -Eq "^coalprobe: the model evaluates 68719476736 GPU threads one by one \(16 configurations\): about [0-9.]+ (s|min|h) on [0-9]+ CPU threads?$" "$dir/err" ||
    bad "no notice within $((i / 10)) s: $(cat "$dir/err")"
kill -TERM $pid 2>/dev/null
sleep 0.7
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 143 ] || bad "exit $rc after two SIGTERMs, expected 143"
[ -z "$(ls "$dir" | grep -v '^err$')" ] || bad "left behind: $(ls "$dir")"
[ $fail -eq 0 ] && echo "model notice: $(head -1 "$dir/err")"
exit $fail
