#!/bin/sh
# gpu_smoke.sh: one device call: build, the whole ctest suite (gpu label included), the SASS of
# the kernels, and a sample sweep; logs land in $OUT.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
. bench/gpu_build.sh > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
cuobjdump -sass "$CP_BUILD/libcp_kernels.a" > "$OUT/sass.txt" 2>&1
grep -E "Function|LDG|STG" "$OUT/sass.txt" | sed 's/^ *//' | cut -c1-90 > "$OUT/sass_mem.txt"
ctest --test-dir "$CP_BUILD" --output-on-failure > "$OUT/ctest.log" 2>&1
tail -15 "$OUT/ctest.log"
"$CP_BUILD/coalprobe" --stride 1..32 2> "$OUT/stride.err" | tee "$OUT/stride.txt"
cat "$OUT/stride.err"
