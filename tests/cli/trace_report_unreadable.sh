#!/bin/sh
# trace_report_unreadable.sh: raw files of another format version, with CRLF line endings or
# binary are named on stderr with the reason; exit 1 when no raw file could be read, and the
# readable ones reported (exit 0) when some could.
# usage: trace_report_unreadable.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
cp_scratch
export COALPROBE_NVDISASM=
raw=$golden/handmade-transpose/raw-4242.tsv
mkdir "$s/v99" "$s/crlf" "$s/binary" "$s/mixed"
sed '1s/.*/coalprobe-trace-raw\t99/' "$raw" >"$s/v99/raw-4242.tsv"
sed 's/$/\r/' "$raw" >"$s/crlf/raw-4242.tsv"
printf 'coal\000\001\002\377probe' >"$s/binary/raw-4242.tsv"
cp "$golden/handmade-children/raw-5000.tsv" "$s/mixed/"
cp "$s/v99/raw-4242.tsv" "$s/mixed/raw-4242.tsv"
cp "$s/binary/raw-4242.tsv" "$s/mixed/raw-4243.tsv"
check() { # DIR RC STDERR-ERE
    "$bin" trace --from-raw "$s/$1" >"$s/out" 2>"$s/err" </dev/null
    rc=$?
    [ "$rc" -eq "$2" ] || bad "$1: exit $rc, expected $2"
    grep -Eq "$3" "$s/err" || { bad "$1: stderr lacks /$3/:"; cat "$s/err"; }
}
check v99 1 "^coalprobe: warning: skipped raw-4242.tsv: raw format version 99, this coalprobe reads 1"
check v99 1 "^coalprobe: trace: no raw file in .*v99 could be read \(raw-4242.tsv: raw format version 99"
check crlf 1 "^coalprobe: warning: skipped raw-4242.tsv: CRLF line endings"
check binary 1 "^coalprobe: warning: skipped raw-4242.tsv: binary, not text"
[ -s "$s/out" ] && bad "binary: a report was written"
check mixed 0 "^coalprobe: warning: skipped raw-4242.tsv: raw format version 99"
grep -q "^coalprobe: warning: skipped raw-4243.tsv: binary" "$s/err" || bad "mixed: raw-4243.tsv not named"
grep -q "^process 5000" "$s/out" || bad "mixed: the readable file is not reported"
grep -q "^note: raw-4242.tsv: raw format version 99" "$s/out" || bad "mixed: the report does not say"
exit $fail
