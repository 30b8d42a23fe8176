#!/bin/sh
# fuzz.sh: builds the libFuzzer targets with clang (installing clang and its runtime when they
# are missing) and runs each for CP_FUZZ_SECONDS (default 30) from the seed corpus in
# tests/fuzz/corpus. Any crash, leak, timeout or sanitizer report fails the script.
set -eu
cd "$(dirname "$0")/.."
secs=${CP_FUZZ_SECONDS:-30}
build=${CP_FUZZ_BUILD_DIR:-build-fuzz}
say() { printf 'fuzz: %s\n' "$*" >&2; }

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
if ! clang -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" 2>/dev/null; then
    say "installing clang and its libFuzzer runtime"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-dev >/dev/null
fi
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCOALPROBE_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$build" --target fuzz_sweep fuzz_cli fuzz_expr fuzz_trace_raw -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
for t in sweep cli expr trace_raw; do
    mkdir -p "$build/corpus-$t"
    say "fuzz_$t for $secs s"
    "$build/tests/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        "$build/corpus-$t" "tests/fuzz/corpus/$t" 2>"$build/fuzz_$t.log" || {
        tail -40 "$build/fuzz_$t.log"
        say "fuzz_$t FAILED"
        exit 1
    }
    grep -E "^stat::number_of_executed_units|^Done" "$build/fuzz_$t.log" | sed "s/^/fuzz_$t: /" >&2
done
say "no crash, leak or sanitizer report"
