#!/bin/sh
# trace_inject.sh: the injection library on the GPU (tests/gpu/trace_inject_sample.cu): a child
# that launches its kernels after the traced program exited is waited for and counted, and a
# program that sets a locale with a decimal comma gets raw files without a malformed line.
# usage: trace_inject.sh COALPROBE SAMPLE
# Exit status: 0 passed, 1 failed, 77 skipped (no GPU). The locale half is skipped (said so) when
# no de_DE locale is installed and localedef cannot build one.
set -u
coalprobe=$1 sample=$2
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "skipped: no GPU"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cp_gpu_trace_inject.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
fail() {
    echo "FAIL: $*" >&2
    for f in out err report; do [ -f "$tmp/$f" ] && { echo "--- $f:" >&2; cat "$tmp/$f" >&2; }; done
    exit 1
}
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$tmp/report"; }

# 1. the background child: the report holds its process, complete, and its 3 launches
"$coalprobe" trace --format json -o "$tmp/report" -- "$sample" background >"$tmp/out" 2>"$tmp/err" ||
    fail "coalprobe trace exited with $?"
pid=$(sed -n 's/^the program ends, its child \([0-9]*\) goes on$/\1/p' "$tmp/out")
[ -n "$pid" ] || fail "the sample named no child"
[ "$(json 'len(r["processes"])')" = 1 ] || fail "not one process in the report"
[ "$(json 'r["processes"][0]["pid"]')" = "$pid" ] || fail "the process is not the child $pid"
[ "$(json 'r["complete"]')" = True ] || fail "the report is incomplete"
[ "$(json 'sum(k["launches"] for k in r["kernels"] if "inject_sample_scale" in k["function"])')" = 3 ] ||
    fail "the child's 3 launches are not counted"
[ "$(json 'r["counted"]')" = True ] || fail "nothing counted"
echo "ok: the child $pid that launched after the program exited is counted"

# 2. a locale with a decimal comma set by the program
name=
for n in de_DE.UTF-8 de_DE.utf8; do
    if locale -a 2>/dev/null | grep -qx "$n"; then name=$n; break; fi
done
if [ -z "$name" ] && command -v localedef >/dev/null 2>&1 &&
    { localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" >/dev/null 2>&1 || [ -d "$tmp/de_DE.UTF-8" ]; }; then
    export LOCPATH=$tmp
    name=de_DE.UTF-8
fi
if [ -z "$name" ]; then
    echo "skipped the locale half: no de_DE locale installed, and localedef could not build one"
    exit 0
fi
"$coalprobe" trace -v --format json -o "$tmp/report" -- "$sample" locale "$name" >"$tmp/out" 2>"$tmp/err" ||
    fail "coalprobe trace exited with $?"
grep -q "decimal point ','" "$tmp/out" || fail "the sample did not get a comma locale ($name)"
[ "$(json 'sum(p["malformed_lines"] for p in r["processes"])')" = 0 ] || fail "malformed lines"
[ "$(json 'r["complete"]')" = True ] || fail "the report is incomplete"
[ "$(json 'sum(k["launches"] for k in r["kernels"] if "inject_sample_scale" in k["function"])')" = 3 ] ||
    fail "the 3 launches are not counted"
grep -q "^      injected .* s  (1 time)" "$tmp/err" || fail "no time records read back"
echo "ok: raw files written under $name read back without a malformed line"
