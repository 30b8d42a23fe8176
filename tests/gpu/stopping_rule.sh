#!/bin/sh
# stopping_rule.sh: the timed launches follow the stopping rule on the GPU (docs/measurement.md,
# "Timing: when to stop"): every row records its launches and their noise; a loose --max-noise
# stops at --min-samples; --reps fixes the count; --min-time is reached; a row stopped at
# --max-time is noisy, its noise above --max-noise, and took no launch beyond the one that spent
# the time; the table marks noisy rows. On one GPU and, where there are two, with --devices.
# Exits 77 without a GPU.
set -u
bin=${1:?usage: stopping_rule.sh PATH/TO/coalprobe}
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU: skipped"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
sweep="--stride 1,2,32 --size 64M --no-counters"
# run NAME ARGS...: the sweep as JSON into $tmp/NAME.json
run() {
    name=$1; shift
    # shellcheck disable=SC2086 # $sweep is several words
    "$bin" $sweep "$@" --format json -o "$tmp/$name.json" 2>"$tmp/$name.err" ||
        { echo "FAIL: $name: exit $?"; cat "$tmp/$name.err"; fail=1; }
}
run rule
run loose --max-noise 100
run more --min-samples 12 --max-noise 100
run fixed --reps 7
run min_time --min-time 50ms --max-noise 100
run strict --max-noise 0.0001 --max-time 20ms
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
    run devices --devices 0,1 --min-samples 9 --max-noise 100
fi
python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
tmp = sys.argv[1]
def rows(name):
    doc = json.load(open(os.path.join(tmp, name + ".json")))
    return doc, [r["measured"] for r in doc["rows"]]
doc, ms = rows("rule")
t = doc["timing"]
assert t["reps"] is None and t["min_samples"] == 5 and t["max_noise"] == 0.005, t
for m in ms:
    assert m["reps"] >= 5 and m["noise"] is not None and isinstance(m["noisy"], bool), m
    assert m["noisy"] or m["noise"] <= 0.005, m
print("default rule: launches", [m["reps"] for m in ms], "noise", [round(m["noise"], 5) for m in ms])
assert all(m["reps"] == 5 and not m["noisy"] for m in rows("loose")[1])
assert all(m["reps"] == 12 for m in rows("more")[1])
doc, ms = rows("fixed")
assert doc["timing"]["reps"] == 7 and all(m["reps"] == 7 and not m["noisy"] for m in ms)
for m in rows("min_time")[1]:  # the launches add up to 50 ms: n * max >= sum >= 0.05
    assert m["reps"] * m["time_s"]["max"] >= 0.05, m
doc, ms = rows("strict")
for m in ms:  # 0.0001% is out of reach: stopped at 20 ms, each before it short of 20 ms
    assert m["noisy"] and m["noise"] > 1e-6, m
    assert m["reps"] == 5 or (m["reps"] - 1) * m["time_s"]["min"] < 0.02, m
print("strict: launches", [m["reps"] for m in ms])
if os.path.exists(os.path.join(tmp, "devices.json")):
    doc, ms = rows("devices")
    assert all(m["reps"] == 9 for m in ms) and {r["device"]["index"] for r in doc["rows"]} <= {0, 1}
    print("--devices 0,1: every row 9 launches")
PY
# shellcheck disable=SC2086 # $sweep is several words
"$bin" $sweep --max-noise 0.0001 --max-time 20ms > "$tmp/strict.txt" 2>/dev/null
if ! grep -q " ~[0-9]" "$tmp/strict.txt" || ! grep -q "^(~: 3 noisy rows" "$tmp/strict.txt"; then
    echo "FAIL: the table does not mark the noisy rows"
    cat "$tmp/strict.txt"
    fail=1
fi
[ $fail -eq 0 ] && echo "the stopping rule holds on the GPU"
exit $fail
