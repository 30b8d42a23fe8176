#!/bin/sh
# trace_inject_wait.sh: coalprobe trace waits for the processes of a program that still write
# their raw files after it ended (tests/cli/trace_inject_mimic.c plays the program with the real
# injection library, no GPU needed), within COALPROBE_TRACE_WAIT, and never for a child forked
# after the injection started.
# usage: trace_inject_wait.sh waits|bound|fork_after COALPROBE MIMIC LIBRARY
set -u
mode=$1 coalprobe=$2 mimic=$3 library=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cp_trace_inject_wait.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp # the launcher's temporary raw directory, cleaned with the rest
fail() {
    echo "FAIL ($mode): $*" >&2
    echo "--- stderr:" >&2
    cat "$tmp/err" >&2
    echo "--- report:" >&2
    cat "$tmp/report" >&2
    exit 1
}
# the one child pid the mimic names on its stdout, when it had one
child_pid() { sed -n 's/^the program ends, its child \([0-9]*\) goes on$/\1/p' "$tmp/out"; }
# coalprobe trace [ARGS...] -o $tmp/report of the mimic whose child writes after it ended, with
# COALPROBE_TRACE_WAIT=WAIT unless WAIT is empty: exit 0, and pid the child the mimic names
trace_late() {
    wait=$1
    shift
    env ${wait:+COALPROBE_TRACE_WAIT=$wait} "$coalprobe" trace "$@" -o "$tmp/report" -- "$mimic" \
        late "$library" "$tmp/err" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 0 ] || fail "exit status $rc"
    pid=$(child_pid)
    [ -n "$pid" ] || fail "the mimic named no child"
}
# a field of the JSON report (python3 path expression on r)
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$tmp/report"; }

case $mode in
waits) # the child writes its end record after the program ended: waited for, complete
    trace_late "" --format json
    grep -q "^coalprobe: trace: the program has ended; waiting up to 30 s for 1 process still writing raw files (pid $pid)" "$tmp/err" ||
        fail "no word of the wait for pid $pid"
    [ "$(json 'len(r["processes"])')" = 1 ] || fail "not one process in the report"
    [ "$(json 'r["processes"][0]["pid"]')" = "$pid" ] || fail "the process is not the child $pid"
    [ "$(json 'r["processes"][0]["complete"]')" = True ] || fail "the child's raw file is incomplete"
    [ "$(json 'r["complete"]')" = True ] || fail "the report is incomplete"
    ! grep -q "still writing raw files after" "$tmp/err" || fail "gave up waiting"
    [ -z "$(ls "$tmp" | grep '^coalprobe-trace-')" ] || fail "the raw directory was not removed"
    ;;
bound) # COALPROBE_TRACE_WAIT=0: named as still writing, the directory left to it
    trace_late 0
    grep -q "^coalprobe: trace: 1 process still writing raw files after 0.0 s (pid $pid): reported as far as written, marked incomplete" "$tmp/err" ||
        fail "no word of the process still writing"
    grep -q "^hint: set COALPROBE_TRACE_WAIT" "$tmp/err" || fail "no hint"
    grep -q "^note: 1 process (pid $pid) still wrote raw files when this report was made" "$tmp/report" ||
        fail "no note in the report"
    dir=$(sed -n 's/^coalprobe: note: the raw files stay in \([^:]*\): processes still write there.*/\1/p' "$tmp/err")
    [ -n "$dir" ] && [ -d "$dir" ] || fail "the raw directory was not left in place"
    # the child ends once it has seen the launcher's word: its lock says when
    timeout 60 flock -s "$dir/raw-$pid.tsv" true || fail "the child still holds its raw file"
    "$coalprobe" trace --from-raw "$dir" >"$tmp/report" 2>"$tmp/err" || fail "--from-raw failed"
    grep -Eq "^process $pid( \([^)]*\))?: " "$tmp/report" || fail "the kept raw file is not complete"
    ;;
fork_after) # a child forked after the injection started holds no lock: no wait at all
    COALPROBE_TRACE_WAIT=60 "$coalprobe" trace --format json -o "$tmp/report" -- "$mimic" \
        fork-after "$library" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 0 ] || fail "exit status $rc"
    ! grep -q "coalprobe: trace: " "$tmp/err" || fail "waited for the forked child"
    [ "$(json 'len(r["processes"])')" = 1 ] || fail "not one process in the report"
    [ "$(json 'r["complete"]')" = True ] || fail "the report is incomplete"
    ;;
*)
    echo "usage: trace_inject_wait.sh waits|bound|fork_after COALPROBE MIMIC LIBRARY" >&2
    exit 2
    ;;
esac
echo "ok: $mode"
