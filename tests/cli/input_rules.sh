#!/bin/sh
# input_rules.sh: what show and compare read, and what trace --from-raw reads: - is standard input
# (once for compare), a report is one strict JSON document (nothing after it, no key twice, no
# number beyond a double, nesting bounded while reading), what is not a regular file is refused
# without blocking, whole numbers compare exactly past 2^53, one raw directory or file reached
# twice counts once, a raw count past 2^64 is refused with FILE:LINE, and a page of raw files
# embeds only the sources the program's own line table names.
# usage: input_rules.sh PATH/TO/coalprobe GOLDEN_DIR
. "$(dirname "$0")/common.sh"
usage="usage: input_rules.sh PATH/TO/coalprobe GOLDEN_DIR"
bin=${1:?$usage} golden=${2:?$usage}
cp_in_scratch bin golden
report=$golden/report_model.json raw=$golden/trace
# run RC NAME COMMAND...: the command (stdin from the file 'in', 60 s at most) must exit RC
run() {
    want=$1 name=$2
    shift 2
    timeout 60 "$@" < in > out.txt 2> err.txt
    rc=$?
    [ $rc -eq "$want" ] || bad "$name: exit $rc, expected $want: $(head -c 300 err.txt)"
}
# said NAME ERE: standard error has a line matching ERE
said() { grep -Eq -- "$2" err.txt || bad "$1: stderr lacks /$2/: $(head -c 300 err.txt)"; }

# - is standard input: show prints what it prints for the file; compare reads - once
cp "$report" in
"$bin" show "$report" > want.txt 2>/dev/null
run 0 "show -" "$bin" show -
cmp -s out.txt want.txt || bad "show - differs from show FILE"
run 0 "compare FILE -" "$bin" compare "$report" -
grep -q "6 same" out.txt || bad "compare FILE -: $(tail -1 out.txt)"
run 2 "compare - -" "$bin" compare - -
said "compare - -" "^coalprobe: compare reads one report from standard input \(-\), not both$"

# strict JSON, the same in show and compare: two documents, trailing text, a key twice
cat "$report" "$report" > in
run 2 "show, two documents" "$bin" show -
said "show, two documents" "^coalprobe: '-' is refused: text after the end of the JSON document \(line [0-9]+, byte [0-9]+\)$"
{ cat "$report"; echo '  garbage'; } > tail.json
: > in
run 2 "show, trailing text" "$bin" show tail.json
said "show, trailing text" "^coalprobe: 'tail.json' is refused: text after the end of the JSON document"
run 2 "compare, trailing text" "$bin" compare "$report" tail.json
said "compare, trailing text" "^coalprobe: 'tail.json' is refused: text after the end"
sed '0,/"op":/s//"op": "load", "op":/' "$report" > dup.json
run 2 "show, a key twice" "$bin" show dup.json
said "show, a key twice" "^coalprobe: 'dup.json' is refused: the key \"op\" appears twice \(in rows\[0\]\.config\)$"
run 2 "compare, a key twice" "$bin" compare dup.json "$report"
said "compare, a key twice" "the key \"op\" appears twice \(in rows\[0\]\.config\)"

# an endless stream ends at once: nesting deeper than cJSON reads
yes '{' | timeout 60 "$bin" show - > out.txt 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "yes '{': exit $rc, expected 2"
said "yes '{'" "^coalprobe: '-' is refused: nesting deeper than cJSON's limit of 1000 levels \(line 1001, byte 2000\)$"

# a FIFO is refused, not waited for (no writer ever opens it); - is the way for a pipe
mkfifo fifo
: > in
run 2 "show FIFO" "$bin" show fifo
said "show FIFO" "^coalprobe: 'fifo' is not a regular file \(a FIFO or pipe\)$"
said "show FIFO" "^hint: to read a pipe, give - "
run 2 "compare FIFO" "$bin" compare "$report" fifo
said "compare FIFO" "^coalprobe: 'fifo' is not a regular file"

# whole numbers compare exactly past 2^53; a number beyond a double is refused
line=$(grep -n '"sectors":' "$report" | head -1 | cut -d: -f1)
sed "${line}s/[0-9][0-9]*,/9007199254740992,/" "$report" > a.json
sed "${line}s/[0-9][0-9]*,/9007199254740993,/" "$report" > b.json
sed "${line}s/[0-9][0-9]*,/1e400,/" "$report" > inf.json
run 3 "compare 2^53 and 2^53+1" "$bin" compare a.json b.json
grep -q "9007199254740992 -> 9007199254740993 (past a double's precision, +0.0%)  changed" out.txt ||
    bad "2^53: $(grep -- '->' out.txt)"
run 0 "compare 2^53 with itself" "$bin" compare a.json a.json
run 2 "compare 1e400" "$bin" compare inf.json a.json
said "compare 1e400" "^coalprobe: 'inf.json' is refused: the number 1e400 is beyond the range of a double \(line $line, in rows\[0\]\.predicted\.load\.sectors\)$"

# trace --from-raw: one directory once however named, one file once however reached
cp -R "$raw/handmade-transpose" d1
ln -s d1 d1link
mkdir d2
ln d1/raw-4242.tsv d2/raw-4343.tsv
"$bin" trace --from-raw d1 --format json -o one.json 2>/dev/null || bad "--from-raw d1 failed"
for dirs in "d1 d1" "d1 ./d1/" "d1 d1link" "d1 d2"; do
    # shellcheck disable=SC2086 # the directories are words
    "$bin" trace --from-raw $dirs --format json -o two.json 2>/dev/null || bad "--from-raw $dirs failed"
    a=$(grep -c '"pid":' one.json) b=$(grep -c '"pid":' two.json)
    [ "$a" -eq "$b" ] || bad "--from-raw $dirs: $b pids where d1 alone has $a"
done
# a raw file that is a FIFO is skipped, not waited for
mkfifo d1/raw-9999.tsv
run 0 "--from-raw with a FIFO" "$bin" trace --from-raw d1
said "--from-raw with a FIFO" "^coalprobe: warning: skipped raw-9999.tsv: it is not a regular file \(a FIFO or pipe\)$"
rm d1/raw-9999.tsv
# a count past 2^64, whole or real, refuses the file with FILE:LINE
cp -R "$raw/handmade-transpose" big
sed -i '7s/\t3$/\t300000000000000000000000000/' big/raw-4242.tsv
run 1 "launch count past 2^64" "$bin" trace --from-raw big
said "launch count past 2^64" "^coalprobe: trace: raw-4242.tsv:7: the count 300000000000000000000000000 does not fit 64 bits$"
cp -R "$raw/h100-sample" bigk
sed -i '6s/\t131072\t131072\t/\t3e26\t131072\t/' bigk/raw-3188.tsv
run 1 "kernel count past 2^64" "$bin" trace --from-raw bigk
said "kernel count past 2^64" "^coalprobe: trace: raw-3188.tsv:6: the count 3e26 does not fit 64 bits$"

# a page embeds only the files the program's own line table names: a crafted source record
# naming a secret file is left out and named
cp -R "$raw/h100-sample" crafted
echo "secret-$$-text" > secret.cu
sed -i "s|^\(source\t[^\t]*\t[^\t]*\t[^\t]*\t\)[^\t]*|\1$s/secret.cu|" crafted/raw-3188.tsv
run 0 "crafted source" "$bin" trace --from-raw crafted --format html -o page.html
grep -q "secret-$$-text" page.html && bad "crafted source: the secret file is in the page"
grep -q "sources_left_out.*secret.cu.*no line table of the program's saved cubins names it" page.html ||
    bad "crafted source: the page does not say it was left out"
said "crafted source" "^coalprobe: note: the page leaves out 1 source file .*secret.cu$"

[ $fail -eq 0 ] && echo "inputs: - , strict JSON, no FIFO, exact counts, raw directories once"
exit $fail
