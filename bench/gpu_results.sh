#!/bin/sh
# gpu_results.sh: one device call that builds coalprobe, runs the whole ctest suite (gpu label
# included) and every benchmark, leaving logs and reports in $OUT.
OUT=${OUT:-/tmp/out}
R=/tmp/results
mkdir -p "$OUT" "$R"
. bench/gpu_build.sh > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
bin=$CP_BUILD/coalprobe
{ date -u +%Y-%m-%dT%H:%MZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > "$R/machine.txt"
snap() { cp "$OUT/ctest.log" "$R/" 2>/dev/null; tar czf "$OUT/results.tgz" -C /tmp results; }
CP_RESULTS_DIR=$R ctest --test-dir "$CP_BUILD" --output-on-failure > "$OUT/ctest.log" 2>&1
cp "$CP_BUILD/Testing/Temporary/LastTest.log" "$R/ctest_full.log"; snap
sh bench/fidelity.sh "$bin" "$R/fidelity.json" > "$R/fidelity.txt" 2>&1; snap
sh bench/classic_curves.sh "$bin" "$R" > "$R/curves.log" 2>&1; snap
"$bin" gemm --variant all > "$R/gemm.txt" 2>&1
python3 bench/gemm_ladder.py "$bin" "$R/gemm_ladder.json" > "$R/gemm_ladder.txt" 2>&1
"$bin" layout --fields 1,2,4,8,16,32 > "$R/layout.txt" 2>&1
"$bin" --stride 1..32 > "$R/stride_table.txt" 2>&1
"$bin" --offset 0..31 --format csv > "$R/offset.csv" 2>&1; snap
python3 bench/overhead.py "$bin" > "$R/overhead.txt" 2>&1; snap
python3 bench/speed_vs_ncu.py "$bin" > "$R/speed.txt" 2>&1; snap
sh bench/shared_and_expr.sh "$bin" "$R/shared" > /dev/null 2>&1; snap
grep -E "tests passed|Failed|Skipped" "$OUT/ctest.log"
grep -E "agree with|no errors in|refused:" "$R/ctest_full.log"; cat "$R/fidelity.txt" "$R/speed.txt" "$R/gemm.txt" "$R/gemm_ladder.txt"
