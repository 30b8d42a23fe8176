#!/bin/sh
# trace_report_output.sh: trace -o that names one of the raw files the report reads (by name in
# --from-raw's or --raw-dir's directory, or through a link) is a usage error before any work,
# and the raw file is left as it was.
# usage: trace_report_output.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
cp_scratch
cp -R "$golden/handmade-opcodes" "$s/raw"
cp "$s/raw/raw-7000.tsv" "$s/original.tsv"
ln -s "$s/raw/raw-7000.tsv" "$s/symlink"
ln "$s/raw/raw-7000.tsv" "$s/hardlink"
# refused: exit 2, the message, nothing written, the raw file intact
refused() { # EXPECTED-MESSAGE-ERE ARGS...
    re=$1
    shift
    "$bin" trace "$@" >"$s/out" 2>"$s/err" </dev/null
    rc=$?
    [ "$rc" -eq 2 ] || bad "$*: exit $rc, expected 2"
    grep -Eq "$re" "$s/err" || { bad "$*: stderr lacks /$re/:"; cat "$s/err"; }
    grep -q '^hint: the report would overwrite the raw trace' "$s/err" || bad "$*: no hint"
    [ -s "$s/out" ] && bad "$*: wrote to stdout"
    cmp -s "$s/raw/raw-7000.tsv" "$s/original.tsv" || bad "$*: the raw file changed"
    [ -z "$(find "$s/raw" -name '*.tmp-*')" ] || bad "$*: a temporary file was left"
    cp "$s/original.tsv" "$s/raw/raw-7000.tsv" # for the next case, should this one have failed
}
export COALPROBE_NVDISASM=
refused "^coalprobe: -o: .*raw/raw-7000.tsv is a raw trace file of --from-raw" \
    --from-raw "$s/raw" -o "$s/raw/raw-7000.tsv"
refused "is a raw trace file of --from-raw" --from-raw "$s/raw" -o "$s/raw/../raw/raw-7000.tsv"
refused "is a raw trace file of --from-raw" --from-raw "$s/raw" -o "$s/raw/raw-1.tsv" --format csv
refused "is a raw trace file of --from-raw" --from-raw "$s/raw" -o "$s/raw/cubin-1a2b3c4d.cubin"
refused "symlink is the same file as .*raw-7000.tsv, a raw trace file of --from-raw" \
    --from-raw "$s/raw" -o "$s/symlink"
refused "hardlink is the same file as .*raw-7000.tsv" --from-raw "$s/raw" -o "$s/hardlink"
[ -e "$s/raw/raw-1.tsv" ] && bad "raw-1.tsv was created"
# --raw-dir: the raw files a program run writes there; nothing is run, no directory left
refused "is a raw trace file of --raw-dir" --raw-dir "$s/new" -o "$s/new/raw-1.tsv" \
    -- sh -c "touch $s/ran"
[ -e "$s/ran" ] && bad "the program ran"
[ -e "$s/new" ] && bad "--raw-dir's directory was left behind"
# another name in the directory is fine
"$bin" trace --from-raw "$s/raw" -o "$s/raw/report.txt" >"$s/out" 2>"$s/err"
rc=$?
[ "$rc" -eq 0 ] || { bad "report.txt: exit $rc"; cat "$s/err"; }
grep -q '^process 7000' "$s/raw/report.txt" || bad "report.txt holds no report"
exit $fail
