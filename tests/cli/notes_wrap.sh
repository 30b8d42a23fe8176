#!/bin/sh
# notes_wrap.sh: a run's notes on stderr (configurations left out, the cause of no GPU and its
# fix) wrap at stderr's width as the table does (COLUMNS, else 100 columns off a terminal), every
# word kept; --quiet silences them and leaves the report as it was.
# usage: notes_wrap.sh COALPROBE (run with CUDA_VISIBLE_DEVICES= so that there is no GPU)
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { "$bin" readonly --table 4K,1M --size 64K; }
words() { tr '\n' ' ' < "$1" | tr -s ' '; }
COLUMNS=100000 run >"$tmp/table" 2>"$tmp/wide" || { echo "FAIL: the run failed"; cat "$tmp/wide"; exit 1; }
grep -q "^coalprobe: note: 1 configuration left out" "$tmp/wide" || { echo "FAIL: no note:"; cat "$tmp/wide"; exit 1; }
[ "$(awk 'length($0) > 100' "$tmp/wide" | wc -l)" -gt 0 ] || { echo "FAIL: no note longer than 100 columns to wrap"; exit 1; }
fail=0
for cols in 40 60 80 unset; do
    if [ "$cols" = unset ]; then
        (unset COLUMNS; run) >/dev/null 2>"$tmp/err" </dev/null; width=100
    else
        COLUMNS=$cols run >/dev/null 2>"$tmp/err"; width=$cols
    fi
    long=$(awk -v w="$width" 'length($0) > w' "$tmp/err")
    [ -z "$long" ] || { echo "FAIL: COLUMNS=$cols: lines over $width columns:"; echo "$long"; fail=1; }
    [ "$(words "$tmp/err")" = "$(words "$tmp/wide")" ] ||
        { echo "FAIL: COLUMNS=$cols: the words differ from the unwrapped notes:"; cat "$tmp/err"; fail=1; }
    awk 'NR > 1 && !/^(coalprobe: |hint: |  [^ ])/' "$tmp/err" | grep -q . &&
        { echo "FAIL: COLUMNS=$cols: a continued line is not indented by two spaces:"; cat "$tmp/err"; fail=1; }
done
COLUMNS=60 "$bin" readonly --table 4K,1M --size 64K --quiet >"$tmp/quiet" 2>"$tmp/quiet_err" ||
    { echo "FAIL: --quiet failed"; cat "$tmp/quiet_err"; exit 1; }
[ ! -s "$tmp/quiet_err" ] || { echo "FAIL: --quiet still writes on stderr:"; cat "$tmp/quiet_err"; fail=1; }
cmp -s "$tmp/table" "$tmp/quiet" || { echo "FAIL: --quiet changed the report"; fail=1; }
[ $fail -eq 0 ] && echo "notes wrapped at 40, 60, 80 and 100 columns; --quiet: none"
exit $fail
