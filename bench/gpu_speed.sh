#!/bin/sh
# gpu_speed.sh: one device call: build, gpu-labelled tests, overhead breakdown, speed vs ncu.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
. bench/gpu_build.sh > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
python3 bench/overhead.py "$CP_BUILD/coalprobe" | tee "$OUT/overhead.txt"
ctest --test-dir "$CP_BUILD" -L gpu --output-on-failure > "$OUT/ctest_gpu.log" 2>&1
grep -E "tests passed|agree with" "$OUT/ctest_gpu.log" "$CP_BUILD/Testing/Temporary/LastTest.log"
python3 bench/speed_vs_ncu.py "$CP_BUILD/coalprobe" | tee "$OUT/speed.txt"
