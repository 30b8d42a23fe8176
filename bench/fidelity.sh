#!/bin/sh
# fidelity.sh: does coalprobe's best case reach the hardware's copy bandwidth? Runs the
# stride-1 copy at every width and prints useful bandwidth (reads plus writes) beside the
# cudaMemcpy device-to-device bandwidth measured in the same run. Target: >= 95% at 16 bytes.
# usage: bench/fidelity.sh PATH/TO/coalprobe [REPORT.json]
set -eu
bin=$1
out=${2:-/tmp/fidelity.json}
"$bin" --stride 1 --width 4,8,16,32 --reps 50 --format json -o "$out"
python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["device"]
print(f"{d['name']}: cudaMemcpy D2D {d['peak_measured_bytes_per_s']/1e9:.0f} GB/s (reads+writes), "
      f"theoretical {d['peak_theoretical_bytes_per_s']/1e9:.0f} GB/s")
print("width  median_us  useful_GB/s  pct_of_copy")
for row in r["rows"]:
    m = row["measured"]
    print(f"{row['config']['width_bytes']:5}  {m['time_s']['median']*1e6:9.1f}  "
          f"{m['useful_bytes_per_s']/1e9:11.0f}  {m['pct_of_peak']:10.1f}%")
w16 = [x for x in r["rows"] if x["config"]["width_bytes"] == 16][0]["measured"]["pct_of_peak"]
print(f"target (16-byte copy >= 95% of cudaMemcpy): {'met' if w16 >= 95 else 'NOT met'} ({w16:.1f}%)")
PY
