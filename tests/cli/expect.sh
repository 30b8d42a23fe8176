#!/bin/sh
# expect.sh: runs one coalprobe command and checks its exit code, its standard error and its
# output against patterns or golden files (a CLI test of ctest).
# usage: expect.sh RC [--stderr ERE] [--no-stderr] [--stdout ERE] [--no-stdout] [--json]
#                     [--golden FILE] [--file PATH] [--no-file PATH] [--max-width N]
#                     -- COMMAND ARGS...
#   --golden FILE  the output (standard output, or --file PATH) must equal FILE byte for byte;
#                  with CP_UPDATE_GOLDEN=1 the golden file is rewritten instead
#   --json         standard output must be one valid JSON document (python3 json module)
#   --no-stderr    standard error is empty, but for the notice of a long model run (its
#                  estimate is measured on this machine, so it depends on the load)
#   --max-width N  no line of standard output is longer than N characters
#   --stdout-file-re ERE  the output file (--file) has a line matching ERE
#   --stdout-not ERE  no line of standard output matches ERE
# --stderr, --stdout and --stdout-file-re may be given several times: every pattern must match.
set -u
want_rc=$1
shift
nl='
'
stderr_re= stdout_re= no_stderr=0 no_stdout=0 json=0 golden= file= no_file= max_width= file_re= stdout_not=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    --stderr) stderr_re="$stderr_re$2$nl"; shift ;;
    --stdout) stdout_re="$stdout_re$2$nl"; shift ;;
    --no-stderr) no_stderr=1 ;;
    --no-stdout) no_stdout=1 ;;
    --json) json=1 ;;
    --golden) golden=$2; shift ;;
    --file) file=$2; shift ;;
    --no-file) no_file=$2; shift ;;
    --max-width) max_width=$2; shift ;;
    --stdout-file-re) file_re="$file_re$2$nl"; shift ;;
    --stdout-not) stdout_not="$stdout_not$2$nl"; shift ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$file" ] && rm -f "$file"
"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ "$rc" -eq "$want_rc" ] || bad "exit code $rc, expected $want_rc"
# each_match WHAT FILE PATTERNS: every newline-ended pattern has a matching line in FILE
each_match() {
    what=$1 in=$2 rest=$3
    while [ -n "$rest" ]; do
        re=${rest%%"$nl"*}
        rest=${rest#*"$nl"}
        grep -Eq -- "$re" "$in" 2>/dev/null || bad "$what lacks /$re/"
    done
}
each_match stderr "$tmp/err" "$stderr_re"
each_match stdout "$tmp/out" "$stdout_re"
rest=$stdout_not
while [ -n "$rest" ]; do
    re=${rest%%"$nl"*}
    rest=${rest#*"$nl"}
    grep -Eq -- "$re" "$tmp/out" && bad "stdout has a line matching /$re/"
done
# --no-stderr lets through one line: the notice of a long model run, said when the model's own
# sample of this machine's speed (slower under load or ASan) estimates 3 s or more
notice='^coalprobe: the model evaluates [0-9]+ GPU threads one by one \([0-9]+ configurations?\): about [0-9.]+ (s|min|h) on [0-9]+ CPU threads?$'
[ $no_stderr -eq 1 ] && grep -v -E -- "$notice" "$tmp/err" | grep -q . && bad "stderr is not empty"
[ $no_stdout -eq 1 ] && [ -s "$tmp/out" ] && bad "stdout is not empty"
if [ $json -eq 1 ] && ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"; then
    bad "stdout is not valid JSON"
fi
if [ -n "$max_width" ] && awk -v w="$max_width" 'length($0) > w { bad = 1 } END { exit !bad }' "$tmp/out"; then
    bad "a line of stdout is longer than $max_width characters"
fi
each_match "the output file" "$file" "$file_re"
if [ -n "$no_file" ] && ls "$no_file"* >/dev/null 2>&1; then bad "$no_file was left behind"; fi
if [ -n "$golden" ]; then
    got="$tmp/out"
    [ -n "$file" ] && got=$file
    if [ ! -f "$got" ]; then
        bad "no output file $got"
    elif [ "${CP_UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$got" "$golden" && echo "updated $golden"
    elif ! cmp -s "$got" "$golden"; then
        bad "output differs from $golden:"
        diff "$golden" "$got" | head -20
    fi
fi
if [ $fail -ne 0 ]; then
    echo "--- command: $*"; echo "--- stderr:"; head -20 "$tmp/err"; echo "--- stdout:"; head -20 "$tmp/out"
fi
exit $fail
