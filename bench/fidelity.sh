#!/bin/sh
# fidelity.sh: does coalprobe's best case reach the hardware's copy bandwidth? Runs the
# stride-1 copy at every width and prints useful bandwidth (reads plus writes) beside the
# cudaMemcpy device-to-device bandwidth measured in the same run. Target: >= 95% at 16 bytes.
# Twice: with the default stopping rule, then with --reps 50 (issue 27: the rule keeps the copy
# kernels' share of cudaMemcpy).
# usage: bench/fidelity.sh PATH/TO/coalprobe [REPORT.json]   (the --reps 50 run: REPORT.reps50.json)
set -eu
bin=$1
out=${2:-/tmp/fidelity.json}
for mode in rule reps50; do
    report=$out
    extra=""
    if [ "$mode" = reps50 ]; then report=${out%.json}.reps50.json; extra="--reps 50"; fi
    # shellcheck disable=SC2086 # $extra is two words or none
    "$bin" --stride 1 --width 4,8,16,32 $extra --format json -o "$report"
    echo "== ${mode}: ${extra:-the default stopping rule}"
    python3 - "$report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["device"]
print(f"{d['name']}: cudaMemcpy D2D {d['peak_measured_bytes_per_s']/1e9:.0f} GB/s (reads+writes), "
      f"theoretical {d['peak_theoretical_bytes_per_s']/1e9:.0f} GB/s")
print("width  median_us  useful_GB/s  pct_of_copy  launches")
for row in r["rows"]:
    m = row["measured"]
    print(f"{row['config']['width_bytes']:5}  {m['time_s']['median']*1e6:9.1f}  "
          f"{m['useful_bytes_per_s']/1e9:11.0f}  {m['pct_of_peak']:10.1f}%  {m['reps']:8}")
w16 = [x for x in r["rows"] if x["config"]["width_bytes"] == 16][0]["measured"]["pct_of_peak"]
print(f"target (16-byte copy >= 95% of cudaMemcpy): {'met' if w16 >= 95 else 'NOT met'} ({w16:.1f}%)")
PY
done
