#!/bin/sh
# exports.sh: the reports written beside the main one (--json, --csv, --vega-lite FILE of a sweep;
# --json, --csv, --chrome-trace FILE of trace): each equal to what --format prints for the same
# run (but for the command line the JSON records), the main report unchanged, every file under
# the rules of -o, and the refusals before any work.
# usage: exports.sh COALPROBE TRACE_GOLDEN_DIR
set -u
bin=$1 golden=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# same A B: the files are equal but for the lines that hold the command line
same() {
    sed '/"command":\|"text":/d' "$1" >"$tmp/same1" && sed '/"command":\|"text":/d' "$2" >"$tmp/same2" &&
        cmp -s "$tmp/same1" "$tmp/same2"
}

# --- a sweep: the table on stdout, three reports beside it -----------------------------------
sweep="--stride 1..4 --width 4,8 --size 64K --model"
# shellcheck disable=SC2086
"$bin" $sweep --json "$tmp/r.json" --csv "$tmp/r.csv" --vega-lite "$tmp/r.vl.json" \
    --html "$tmp/r.html" >"$tmp/table" 2>"$tmp/err" || bad "the sweep with exports exited $?"
[ -s "$tmp/err" ] && bad "stderr is not empty: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$bin" $sweep >"$tmp/table.want"
cmp -s "$tmp/table" "$tmp/table.want" || bad "the table differs from the run's without exports"
for f in json csv vega-lite; do
    # shellcheck disable=SC2086
    "$bin" $sweep --format $f >"$tmp/want.$f"
done
cmp -s "$tmp/r.csv" "$tmp/want.csv" || bad "--csv differs from --format csv"
same "$tmp/r.json" "$tmp/want.json" || bad "--json differs from --format json"
grep -q '"command":.*--json' "$tmp/r.json" || bad "--json does not record its command line"
same "$tmp/r.vl.json" "$tmp/want.vega-lite" || bad "--vega-lite differs from --format vega-lite"
head -1 "$tmp/r.html" | grep -qx '<!DOCTYPE html>' || bad "--html wrote no page"
grep -q 'id="cp-report"' "$tmp/r.html" || bad "--html's page holds no report"
# the JSON written beside the table shows again as the same CSV
"$bin" show "$tmp/r.json" --format csv >"$tmp/shown.csv" || bad "show of the --json file exited $?"
cmp -s "$tmp/shown.csv" "$tmp/r.csv" || bad "show --format csv of --json differs from --csv"
# -o and an export together
# shellcheck disable=SC2086
"$bin" $sweep --format csv -o "$tmp/o.csv" --json "$tmp/o.json" >"$tmp/out" || bad "-o with --json exited $?"
[ -s "$tmp/out" ] && bad "stdout is not empty with -o"
cmp -s "$tmp/o.csv" "$tmp/want.csv" || bad "-o differs beside --json"
[ -s "$tmp/o.json" ] || bad "no --json file beside -o"

# --- refusals: exit 2 (or 1 for a destination that cannot be written), nothing run or written --
expect() { # RC STDERR_ERE ARGS...
    rc=$1 re=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$rc" ] || bad "$* exited $got, expected $rc"
    grep -Eq -- "$re" "$tmp/err" || bad "$* said: $(cat "$tmp/err"), expected /$re/"
    [ -s "$tmp/out" ] && bad "$* wrote to stdout"
}
echo old >"$tmp/keep.json"
expect 2 "--json '.*/keep.json' names the file of -o already" --model -o "$tmp/keep.json" --json "$tmp/keep.json"
expect 2 "--csv '.*/a' names the file of --json already" --model --json "$tmp/a" --csv "$tmp/a"
expect 2 "--csv '.*/b' names the file of --json already" --model --json "$tmp/b" --csv "$tmp/./b"
expect 1 "cannot write '.*': it is a directory" --model --json "$tmp"
expect 2 "--json -: standard output takes the main report" --model --json -
expect 2 "--json is given twice" --model --json "$tmp/c" --json "$tmp/d"
expect 2 "--explain draws pictures and writes no --csv report" --model --explain --csv "$tmp/e"
expect 2 "'x' is not a whole number" --stride x --json "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = old ] || bad "a refused run changed the file --json names"
for f in a b c d e; do [ -e "$tmp/$f" ] && bad "a refused run left $f behind"; done
ls "$tmp"/.keep.json* >/dev/null 2>&1 && bad "a temporary file was left behind"

# --- trace: the table on stdout, three reports beside it --------------------------------------
cp -R "$golden/handmade-transpose" "$golden/handmade-timeline" "$tmp/"
cd "$tmp" || exit 1
"$bin" trace --from-raw handmade-transpose --json t.json --csv t.csv >t.txt 2>"$tmp/err" ||
    bad "trace with exports exited $?"
cmp -s t.txt "$golden/handmade-transpose.txt" || bad "trace's table differs from its golden"
cmp -s t.csv "$golden/handmade-transpose.csv" || bad "trace --csv differs from its golden"
same t.json "$golden/handmade-transpose.json" || bad "trace --json differs from its golden"
"$bin" trace --from-raw handmade-timeline --chrome-trace t.ct >/dev/null || bad "--chrome-trace exited $?"
same t.ct "$golden/handmade-timeline.chrome-trace" || bad "trace --chrome-trace differs from its golden"
# an export inside the raw directory is refused before anything is read
"$bin" trace --from-raw handmade-transpose --json handmade-transpose/raw-4242.tsv >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || bad "an export onto a raw file was not refused"
grep -q "^coalprobe: --json: handmade-transpose/raw-4242.tsv is a raw trace file" "$tmp/err" || bad "the refusal of an export onto a raw file: $(cat "$tmp/err")"
cmp -s handmade-transpose/raw-4242.tsv "$golden/handmade-transpose/raw-4242.tsv" || bad "the raw file changed"
"$bin" trace --from-raw handmade-transpose --csv same.txt -o same.txt >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || bad "trace --csv onto -o was not refused"
exit $fail
