#!/bin/sh
# gpu_archs.sh: one device call for issue 12 on a GPU machine (H100, H200, or the two-GPU H200
# host): builds the default binary (SASS for every family CUDA 13 compiles for, timed), prints
# what it says about itself and the machine (--version, doctor as text and JSON), the SASS widths
# of every architecture, and runs the gpu-labelled tests (on a two-GPU host they include
# gpu.second_device, --device 1). Logs land in $OUT/results/ for docs/results/.
# usage: OUT=/tmp/out sh bench/gpu_archs.sh
OUT=${OUT:-/tmp/out}
R=$OUT/results
mkdir -p "$R"
CP_BUILD=build-archs
rm -rf "$CP_BUILD"
start=$(date +%s)
CP_CUDA_ARCHS=default CP_BUILD=$CP_BUILD . bench/gpu_build.sh > "$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
echo "default build (every architecture) with 16 jobs: $(($(date +%s) - start)) s" > "$R/build_time.txt"
bin=$CP_BUILD/coalprobe
{
    date -u +%Y-%m-%dT%H:%MZ
    nvidia-smi --query-gpu=index,name,compute_cap,memory.total,driver_version --format=csv
    nproc
} > "$R/machine.txt" 2>&1
"$bin" --version > "$R/version.txt" 2>&1
LC_ALL=C.UTF-8 "$bin" doctor > "$R/doctor.txt" 2>&1
echo "exit $?" >> "$R/doctor.txt"
"$bin" doctor --format json > "$R/doctor.json" 2>&1
CUDA_VISIBLE_DEVICES= LC_ALL=C "$bin" doctor > "$R/doctor_no_gpu.txt" 2>&1
echo "exit $?" >> "$R/doctor_no_gpu.txt"
sh tests/gpu/sass_widths.sh "$bin" "$R/sass_widths.txt" > "$R/sass_widths.log" 2>&1
# a stride sweep and an smem sweep: passes asked per family show in the time counters take
"$bin" --stride 1..32 --format json -o "$R/stride.json" 2> "$R/stride.err"
"$bin" --stride 1..32 > "$R/stride.txt" 2>> "$R/stride.err"
"$bin" smem --format json -o "$R/smem.json" 2> "$R/smem.err"
ctest --test-dir "$CP_BUILD" -L gpu --output-on-failure > "$R/ctest_gpu.log" 2>&1
cp "$CP_BUILD/Testing/Temporary/LastTest.log" "$R/ctest_gpu_full.log" 2>/dev/null
ctest --test-dir "$CP_BUILD" -LE gpu > "$R/ctest_nogpu.log" 2>&1
tar czf "$OUT/results.tgz" -C "$OUT" results
cat "$R/build_time.txt" "$R/version.txt" "$R/doctor.txt" "$R/sass_widths.txt"
grep -E "tests passed|Failed|Skipped|\*\*\*" "$R/ctest_gpu.log" "$R/ctest_nogpu.log"
