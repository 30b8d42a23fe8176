#!/bin/sh
# gpu_results.sh: one device call that builds coalprobe, runs the whole ctest suite (gpu label
# included) and every benchmark, leaving logs and reports in $OUT.
OUT=${OUT:-/tmp/out}
R=/tmp/results
mkdir -p "$OUT" "$R"
. bench/gpu_build.sh > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
bin=$CP_BUILD/coalprobe
{ date -u +%Y-%m-%dT%H:%MZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > "$R/machine.txt"
ctest --test-dir "$CP_BUILD" --output-on-failure > "$OUT/ctest.log" 2>&1
python3 tests/gpu/ncu_compare.py "$bin" "$R/ncu_compare.json" > "$R/ncu_compare.txt" 2>&1
sh bench/fidelity.sh "$bin" "$R/fidelity.json" > "$R/fidelity.txt" 2>&1
sh bench/classic_curves.sh "$bin" "$R" > "$R/curves.log" 2>&1
python3 bench/speed_vs_ncu.py "$bin" > "$R/speed.txt" 2>&1
"$bin" gemm --variant all > "$R/gemm.txt" 2>&1
"$bin" layout --fields 1,2,4,8,16,32 > "$R/layout.txt" 2>&1
grep -E "tests passed|Failed|Skipped" "$OUT/ctest.log"
tail -3 "$R/ncu_compare.txt"; cat "$R/fidelity.txt" "$R/speed.txt" "$R/gemm.txt"
cp "$OUT/ctest.log" "$R/"; tar czf "$OUT/results.tgz" -C /tmp results
