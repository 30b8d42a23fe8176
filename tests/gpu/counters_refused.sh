#!/bin/sh
# counters_refused.sh: when CUPTI refuses (here: another profiler, Nsight Compute, is attached),
# coalprobe still times, marks the rows' counters "refused" with the reason and the fix, warns
# once on stderr and exits 0; with --require-counters it exits 1. Exits 77 without GPU or ncu.
set -u
bin=${1:?usage: counters_refused.sh PATH/TO/coalprobe}
if ! command -v ncu >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU or no ncu: skipped"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ncu --log-file "$tmp/ncu.log" --metrics gpu__time_duration.sum --kernel-name regex:cp_stride \
    "$bin" --stride 1,2 --size 1M --reps 2 --format json -o "$tmp/r.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc under ncu, expected 0"; fail=1; }
[ "$(grep -c 'hardware counters unavailable' "$tmp/err")" -eq 1 ] || { echo "FAIL: expected one warning"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/r.json" <<'PY' || fail=1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
for r in rows:
    m = r["measured"]
    assert m["time_s"]["median"] > 0, "timing missing"
    c = m["counters"]
    assert c["status"] == "refused", c["status"]
    assert "another profiler" in c["reason"] and "--no-counters" in c["reason"], c["reason"]
    assert c["load"]["sectors"] is None and m["match"] is None
print(f"ok: {len(rows)} rows timed, counters refused with reason: {rows[0]['measured']['counters']['reason'][:80]}...")
PY
ncu --log-file "$tmp/ncu2.log" --metrics gpu__time_duration.sum --kernel-name regex:cp_stride \
    "$bin" --stride 1 --size 1M --reps 2 --require-counters -o "$tmp/r2.txt" 2>"$tmp/err2"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: --require-counters exit $rc, expected 1"; fail=1; }
grep -q "hardware counters refused" "$tmp/err2" || { echo "FAIL: no refusal message"; cat "$tmp/err2"; fail=1; }
[ ! -e "$tmp/r2.txt" ] || { echo "FAIL: a report was written"; fail=1; }
[ $fail -eq 0 ] && echo "counters refusal handled"
exit $fail
