#!/bin/sh
# gpu_gather.sh: one device call: build, the gpu-labelled tests (gather included), and the gather
# curve (run lengths 1..64 at the default 64 MiB) as JSON for docs/results.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
. bench/gpu_build.sh > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
ctest --test-dir "$CP_BUILD" -L gpu --output-on-failure > "$OUT/ctest_gpu.log" 2>&1
cp "$CP_BUILD/Testing/Temporary/LastTest.log" "$OUT/ctest_gpu_full.log"
grep -E "tests passed|gather|agree with|no errors" "$OUT/ctest_gpu_full.log" | cut -c1-160 | head -20
"$CP_BUILD/coalprobe" gather --run 1,2,4,8,16,32,64 --format json -o "$OUT/gather_curve.json"
"$CP_BUILD/coalprobe" gather --run 1,2,4,8,16,32,64 | tee "$OUT/gather_table.txt"
