#!/bin/sh
# classic_curves.sh: the classic coalescing curves: sectors per request and useful bandwidth
# against stride 1..32 at every width, and against offset 0..31 at width 4.
# usage: bench/classic_curves.sh PATH/TO/coalprobe OUTDIR
set -eu
bin=$1
dir=$2
mkdir -p "$dir"
"$bin" --stride 1..32 --width 4,8,16,32 --format json -o "$dir/stride_curve.json"
"$bin" --offset 0..31 --width 4 --format json -o "$dir/offset_curve.json"
python3 "$(dirname "$0")/summarize.py" "$dir/stride_curve.json" > "$dir/stride_curve.md"
python3 "$(dirname "$0")/summarize.py" "$dir/offset_curve.json" > "$dir/offset_curve.md"
