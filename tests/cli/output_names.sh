#!/bin/sh
# output_names.sh: what an output may name, command by command (issue 42): a file name that is
# an option (`--csv --model`, `-o --wide`) is refused with a hint (exit 2, no file of that name);
# a second output to standard output in any spelling (/dev/stdout, /dev/fd/1, /proc/self/fd/1,
# `--json r.json > r.json`) is refused; a standard output that is one of the inputs
# (`show b.json 1<>b.json`, compare, `trace --from-raw DIR 1<>DIR/raw-N.tsv`) is refused before
# anything is written, the input left as it was; --format html to a terminal is refused with a
# hint to -o (script(1) gives the run a terminal); --help, --version, --list and doctor to
# /dev/full say so and exit 1.
# usage: output_names.sh PATH/TO/coalprobe RAW_DIR
. "$(dirname "$0")/common.sh"
bin=${1:?usage: output_names.sh PATH/TO/coalprobe RAW_DIR}
raw=${2:?usage: output_names.sh PATH/TO/coalprobe RAW_DIR}
cp_in_scratch bin raw

# expect RC ERE CMD...: CMD exits RC and its stderr has a line matching ERE
expect() {
    want=$1 re=$2
    shift 2
    "$@" > out.txt 2> err.txt < /dev/null
    got=$?
    [ $got -eq "$want" ] || bad "$*: exit $got, expected $want: $(head -3 err.txt)"
    grep -Eq -- "$re" err.txt || bad "$*: stderr lacks /$re/: $(head -3 err.txt)"
}

"$bin" --stride 1..2 --model --format json -o b.json 2>/dev/null || bad "the base report failed"
"$bin" --stride 1..3 --model --format json -o n.json 2>/dev/null || bad "the new report failed"
cp b.json b0.json
mkdir rr && cp "$raw"/raw-*.tsv rr/ && cp rr/raw-*.tsv rr0.tsv

# --- option names eaten as file names, every command with an output file
hint_csv='^hint: --csv takes a file name \(--csv FILE writes a report beside the main one; --format csv makes it the main report\); for a file of that name write \./--model$'
expect 2 "^coalprobe: --csv '--model': the file name is an option$" "$bin" --stride 1..4 --csv --model
grep -Eq -- "$hint_csv" err.txt || bad "--csv --model: hint: $(cat err.txt)"
expect 2 "^coalprobe: --json '--quiet': the file name is an option$" "$bin" --stride 1..4 --model --json --quiet
expect 2 "^coalprobe: -o '--wide': the file name is an option$" "$bin" --stride 1..4 --model -o --wide
grep -q '^hint: -o takes a file name (-o FILE); for a file of that name write ./--wide$' err.txt ||
    bad "-o --wide: hint: $(cat err.txt)"
expect 2 "^coalprobe: -o '-v': the file name is an option$" "$bin" --stride 1..4 --model -o -v
expect 2 "^coalprobe: -o '--wide': the file name is an option$" "$bin" show b.json -o --wide
expect 2 "^coalprobe: -o '--tolerance': the file name is an option$" "$bin" compare b.json n.json -o --tolerance
expect 2 "^coalprobe: -o '--top': the file name is an option$" "$bin" trace --from-raw rr -o --top
expect 2 "^coalprobe: --csv '--top': the file name is an option$" "$bin" trace --from-raw rr --csv --top
for f in ./--model ./--quiet ./--wide ./-v ./--tolerance ./--top; do
    [ -e "$f" ] && bad "a file named $f was written"
done
# a file of that name is still reached through ./
"$bin" --stride 1..2 --model --csv ./--model > /dev/null 2>&1 || bad "--csv ./--model failed"
[ -s ./--model ] || bad "--csv ./--model wrote nothing"

# --- a second output to standard output, in every spelling (a pipe and a file)
for p in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
    "$bin" --stride 1..2 --model --json "$p" 2> err.txt | cat > piped.txt
    grep -q "^coalprobe: --json '$p' is standard output, which takes the main report$" err.txt ||
        bad "--json $p beside the table: $(cat err.txt)"
    [ -s piped.txt ] && bad "--json $p: something was written: $(head -c 200 piped.txt)"
    expect 2 "^coalprobe: --csv '$p' is standard output" "$bin" trace --from-raw rr --csv "$p"
done
rm -f r.json
"$bin" --stride 1..2 --model --json r.json > r.json 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "--json r.json > r.json: exit $rc, expected 2"
grep -q "^coalprobe: --json 'r.json' is standard output, which takes the main report$" err.txt ||
    bad "--json r.json > r.json: $(cat err.txt)"
# one output to standard output is fine: -o FILE and --json /dev/stdout
"$bin" --stride 1..2 --model -o t.txt --json /dev/stdout > j.json 2> err.txt ||
    bad "-o t.txt --json /dev/stdout: $(cat err.txt)"
[ -s t.txt ] && [ -s j.json ] || bad "-o t.txt --json /dev/stdout: a report is missing"

# --- standard output that is one of the inputs: refused, the input unchanged
"$bin" show b.json 1<> b.json 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "show b.json 1<>b.json: exit $rc, expected 2"
grep -q "^coalprobe: standard output is the file 'b.json' being shown: writing there would overwrite it$" err.txt ||
    bad "show 1<>b.json: $(cat err.txt)"
cmp -s b.json b0.json || bad "show 1<>b.json changed b.json"
for which in b.json n.json; do
    cp n.json n0.json
    "$bin" compare b.json n.json 1<> "$which" 2> err.txt
    rc=$?
    [ $rc -eq 2 ] || bad "compare 1<>$which: exit $rc, expected 2"
    grep -q "^coalprobe: standard output is the file '$which' being compared: writing there would overwrite it$" err.txt ||
        bad "compare 1<>$which: $(cat err.txt)"
    cmp -s b.json b0.json && cmp -s n.json n0.json || bad "compare 1<>$which changed a report"
done
rawfile=$(ls rr/raw-*.tsv | head -1)
"$bin" trace --from-raw rr 1<> "$rawfile" 2> err.txt
rc=$?
[ $rc -eq 2 ] || bad "trace --from-raw rr 1<>$rawfile: exit $rc, expected 2"
grep -q "^coalprobe: standard output: it is the same file as rr/raw-.*, a raw trace file of --from-raw$" err.txt ||
    bad "trace 1<>$rawfile: $(cat err.txt)"
cmp -s "$rawfile" rr0.tsv || bad "trace --from-raw rr 1<>$rawfile changed the raw file"
# an -o that names an input by another name (a hard link) is refused as before
ln b.json hard.json
expect 2 "is the report being shown" "$bin" show b.json -o hard.json
cmp -s b.json b0.json || bad "show -o hard.json changed b.json"

# --- --format html to a terminal: refused with the hint; to a pipe it is written
if command -v script > /dev/null 2>&1; then
    for cmd in "--stride 1..2 --model --format html" "show b.json --format html" \
        "compare b.json n.json --format html" "trace --from-raw rr --format html"; do
        script -qec "'$bin' $cmd; echo rc=\$?" /dev/null < /dev/null > tty.txt 2>&1
        tr -d '\r' < tty.txt > tty2.txt
        grep -q '^rc=2$' tty2.txt || bad "$cmd on a terminal: $(tail -3 tty2.txt)"
        grep -q '^coalprobe: --format html writes a page of HTML, and standard output is a terminal$' tty2.txt ||
            bad "$cmd on a terminal: $(head -3 tty2.txt)"
        grep -q '^hint: write it to a file and open that in a browser: -o report.html' tty2.txt ||
            bad "$cmd on a terminal: no hint: $(head -3 tty2.txt)"
        grep -qi '<html' tty2.txt && bad "$cmd on a terminal: the page was written"
    done
else
    echo "note: no script(1): the terminal cases are not run"
fi
"$bin" --stride 1..2 --model --format html 2> err.txt | grep -qi '<html' ||
    bad "--format html to a pipe: no page: $(cat err.txt)"

# --- standard output that cannot be written: said, exit 1
if [ -w /dev/full ]; then
    for cmd in "--help" "--version" "--list" "doctor" "stride --help" "show --help" \
        "compare --help" "trace --help" "doctor --help"; do
        # shellcheck disable=SC2086 # the words of the command
        "$bin" $cmd > /dev/full 2> err.txt
        rc=$?
        [ $rc -eq 1 ] || bad "$cmd > /dev/full: exit $rc, expected 1"
        grep -q '^coalprobe: cannot write to standard output: No space left on device$' err.txt ||
            bad "$cmd > /dev/full: $(cat err.txt)"
    done
else
    echo "note: no writable /dev/full: the write-error cases are not run"
fi

[ $fail -eq 0 ] && echo "output names: options, second stdout, inputs, html on a terminal, /dev/full"
exit $fail
