#!/bin/sh
# trace_cleanup_link.sh: trace removes only what it made: a traced program (a shell script; no GPU
# needed, the launcher and the cleanup run all the same) that puts a link in place of
# $COALPROBE_TRACE_DIR, or moves that directory away, or leaves a link among the raw files, must
# not get coalprobe to delete the files the link points at.
# usage: trace_cleanup_link.sh COALPROBE
set -u
coalprobe=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cp_trace_cleanup.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL ($case): $*" >&2
    echo "--- stderr:" >&2
    cat "$tmp/err" >&2
    exit 1
}
# trace SCRIPT: coalprobe trace of sh -c SCRIPT (its $1: the victim directory $tmp/v), the
# launcher's temporary directory made in $tmp/t; exit 0
trace() {
    rm -rf "$tmp/t" "$tmp/v" "$tmp/moved"
    mkdir "$tmp/t" "$tmp/v" || exit 1
    echo keep >"$tmp/v/keep.txt"
    echo keep >"$tmp/v/cubin-0.cubin" # a name coalprobe would remove in its own directory
    TMPDIR=$tmp/t "$coalprobe" trace -- sh -c "$1" sh "$tmp/v" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 0 ] || fail "exit status $rc"
}
kept() {
    [ -f "$tmp/v/keep.txt" ] && [ -f "$tmp/v/cubin-0.cubin" ] ||
        fail "the files the link points at were deleted: $(ls -A "$tmp/v" | tr '\n' ' ')"
}

case=link # the directory removed and a link to $tmp/v put in its place
trace 'd=$COALPROBE_TRACE_DIR; rm -rf "$d" && ln -s "$1" "$d"'
kept
grep -q "^coalprobe: warning: the temporary directory $tmp/t/coalprobe-trace-[^ ]* was replaced while the program ran" "$tmp/err" ||
    fail "no warning of the replaced directory"
[ -L "$(ls -d "$tmp"/t/coalprobe-trace-*)" ] || fail "the link the program made is gone"

case=moved # the directory moved away and a link put in its place: its own files still removed
trace 'd=$COALPROBE_TRACE_DIR; : >"$d/raw-7.tsv"; mv "$d" "$1/../moved" && ln -s "$1" "$d"'
kept
[ -d "$tmp/moved" ] && [ ! -e "$tmp/moved/raw-7.tsv" ] || fail "the moved directory's raw file stayed"

case=file_link # a raw file of the directory replaced by a link: the link removed, not its target
trace 'ln -s "$1/cubin-0.cubin" "$COALPROBE_TRACE_DIR/cubin-1.cubin"'
kept
[ -z "$(ls -A "$tmp/t")" ] || fail "the temporary directory was not removed: $(ls -A "$tmp/t")"
[ ! -s "$tmp/err" ] || fail "something on stderr"

case=foreign # a file coalprobe did not make: left, with the directory, and said
trace 'echo mine >"$COALPROBE_TRACE_DIR/notes.txt"'
grep -q "^coalprobe: note: the temporary directory $tmp/t/coalprobe-trace-[^ ]* is left in place: it holds 1 file coalprobe did not make (notes.txt)" "$tmp/err" ||
    fail "no note of the file left"
[ -f "$(ls -d "$tmp"/t/coalprobe-trace-*)/notes.txt" ] || fail "the program's file was removed"

case=plain # nothing odd: the directory and its files removed, nothing said
trace ': >"$COALPROBE_TRACE_DIR/cubin-8.cubin"; : >"$COALPROBE_TRACE_DIR/.raw-9.tsv.part"; : >"$COALPROBE_TRACE_DIR/cubin-9.cubin.part-9"'
[ -z "$(ls -A "$tmp/t")" ] || fail "the temporary directory was not removed: $(ls -A "$tmp/t")"
echo "trace_cleanup_link: ok"
