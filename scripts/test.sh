#!/bin/sh
# test.sh: every test that needs no GPU, as CI runs them: the ctest suite (GPU tests skip without
# a device), the unit and CLI tests again several at once and several times over (a race fails
# here rather than on a user's machine), the unit and CLI suite under AddressSanitizer and UBSan,
# and the four libFuzzer targets for CP_FUZZ_SECONDS each (default 30). Set CP_QUICK=1 for the
# first part only; CP_STRESS_REPEAT (default 3) sets how often the stress job repeats each test.
# About 12 minutes on 2 idle cores (README.md, "Build and run").
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
# as many at once as there are cores: the suite's tests wait for events, never a fixed time
ctest --test-dir build --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
[ "${CP_QUICK:-0}" = 1 ] && exit 0
# Four at once on a machine of two cores: every test shares the CPU with three others, as on a
# loaded machine; each runs until it fails, at most CP_STRESS_REPEAT times.
printf 'test: the unit and CLI tests, 4 at once, each up to %s times\n' "${CP_STRESS_REPEAT:-3}" >&2
ctest --test-dir build --output-on-failure -L 'unit|cli' -j4 --repeat "until-fail:${CP_STRESS_REPEAT:-3}"
printf 'test: again under AddressSanitizer and UBSan\n' >&2
# One architecture for the sanitizer build: it runs only the host tests (-LE gpu), so kernels
# for every GPU family (the first build has them) would only make CI slower.
CP_BUILD_DIR=build-asan \
    CP_CMAKE_ARGS="-DCOALPROBE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CUDA_ARCHITECTURES=90" \
    sh scripts/setup.sh
ctest --test-dir build-asan --output-on-failure -LE gpu
sh scripts/fuzz.sh
