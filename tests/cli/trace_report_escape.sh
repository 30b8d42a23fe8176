#!/bin/sh
# trace_report_escape.sh: control characters of a raw file (a program's arguments, kernel and
# file names) never reach the terminal: the table, the gate's lines and the warnings show them
# escaped (\e[...) and hold no ESC byte; JSON carries them as they are (escaped by JSON).
# usage: trace_report_escape.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
cp_scratch
export COALPROBE_NVDISASM=
esc=$(printf '\033')
mkdir "$s/raw"
sed -e "s|^process\t4242\t4241\t.*|process\t4242\t4241\t./app ${esc}]0;title\a ${esc}[31mred|" \
    -e "s|transpose\.cu|tr${esc}[2Jans.cu|g" -e "s|_Z15transpose_naivePfPKfii|kernel${esc}[1mbold|g" \
    "$golden/handmade-transpose/raw-4242.tsv" >"$s/raw/raw-4242.tsv"
printf 'coalprobe-trace-raw\t99\n' >"$s/raw/raw-${esc}[5m.tsv"
"$bin" trace --from-raw "$s/raw" --max-sectors-per-request 8 >"$s/out" 2>"$s/err"
rc=$?
[ "$rc" -eq 3 ] || bad "exit $rc, expected 3 (the gate)"
for f in out err; do
    grep -q "$esc" "$s/$f" && bad "an ESC byte reached the $f"
    LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$s/$f" &&
        bad "a control character reached the $f"
done
grep -Fq 'process 4242: ./app \e]0;title\x07 \e[31mred' "$s/out" || bad "the program's arguments are not shown escaped"
grep -Fq 'kernel\e[1mbold' "$s/out" || bad "the kernel name is not shown escaped"
grep -Fq 'tr\e[2Jans.cu:13' "$s/out" || bad "the file name is not shown escaped"
grep -Fq 'coalprobe: gate: /home/user/proj/tr\e[2Jans.cu:13' "$s/err" || bad "the gate's line is not escaped"
grep -Fq 'coalprobe: warning: skipped raw-\e[5m.tsv' "$s/err" || bad "the warning is not escaped"
"$bin" trace --from-raw "$s/raw" --format json >"$s/json" 2>/dev/null
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["processes"][0]["command"] == "./app \x1b]0;title\x07 \x1b[31mred", d["processes"][0]["command"]
assert any(k["function"] == "kernel\x1b[1mbold" for k in d["kernels"])
' "$s/json" || bad "JSON does not carry the names as they are"
[ "$fail" -ne 0 ] && { cat "$s/out" "$s/err"; }
exit $fail
