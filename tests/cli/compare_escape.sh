#!/bin/sh
# compare_escape.sh: strings of compared reports that hold terminal escapes (a command, a device
# name, an expr row's index, a process's command, kernel names, a value that fails the schema,
# a failed run's message) reach the text output and stderr escaped (\e, no ESC byte), and the
# JSON output as JSON escapes (\u001b, no ESC byte).
# Usage: compare_escape.sh COALPROBE GOLDEN_COMPARE_DIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { printf "FAIL: %s\n" "$*"; fail=1; }
esc=$(printf '\033')
# run RC NAME ARGS...: the exit code must be RC; stdout and stderr go to $tmp/NAME.out, .err
run() {
    want=$1 name=$2
    shift 2
    "$bin" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    [ $rc -eq "$want" ] || bad "$name: exit $rc, expected $want"
    for f in "$tmp/$name.out" "$tmp/$name.err"; do
        grep -q "$esc" "$f" && bad "$name: an ESC byte reached $(basename "$f")"
    done
}
has() { grep -qF -- "$2" "$tmp/$1" || bad "$1 lacks: $2"; }

# a sweep report: the expr row only in new is listed with its index escaped
run 0 sweep compare base.json escape.json
has sweep.out 'expr index=\e[2J\e[31mi\e[0m params={}'
run 0 sweep_json compare base.json escape.json --format json
has sweep_json.out '"index":	"\u001b[2J\u001b[31mi\u001b[0m"'
# trace reports: process command and kernel names in the rows and in the lists
run 3 trace compare trace_escape.json trace_escape_after.json
has trace.out './transpose \e[2J\e]0;owned\x07 | \e[31mtranspose_tiled\e[0m | '
run 3 trace_json compare trace_escape.json trace_escape_after.json --format json
has trace_json.out '"process":	"./transpose \u001b[2J\u001b]0;owned\u0007"'
# messages on stderr: the value that fails the schema, a failed run's message
run 2 bad_type compare base.json escape_bad_type.json
has bad_type.err 'found the string "\e[2J\e]0;owned\x07"'
run 2 error_doc compare escape_error.json base.json
has error_doc.err 'is the error document of a failed run (\e[2J\e[31mboom\e[0m)'
[ $fail -eq 0 ] && echo "compare escapes the reports' control characters"
exit $fail
