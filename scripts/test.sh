#!/bin/sh
# test.sh: every test that needs no GPU, as CI runs them: the ctest suite (GPU tests skip without
# a device), the unit and CLI suite again under AddressSanitizer and UBSan, and the libFuzzer
# targets for CP_FUZZ_SECONDS each (default 30). Set CP_QUICK=1 for the first part only.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
ctest --test-dir build --output-on-failure
[ "${CP_QUICK:-0}" = 1 ] && exit 0
printf 'test: again under AddressSanitizer and UBSan\n' >&2
# One architecture for the sanitizer build: it runs only the host tests (-LE gpu), so kernels
# for every GPU family (the first build has them) would only make CI slower.
CP_BUILD_DIR=build-asan \
    CP_CMAKE_ARGS="-DCOALPROBE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CUDA_ARCHITECTURES=90" \
    sh scripts/setup.sh
ctest --test-dir build-asan --output-on-failure -LE gpu
sh scripts/fuzz.sh
