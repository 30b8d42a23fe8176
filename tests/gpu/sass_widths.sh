#!/bin/sh
# sass_widths.sh: the widths of the global loads and stores in the SASS of every architecture the
# binary carries agree with the hardware-fact table (src/model/cp_arch.c, global_width_16): up to
# sm_90 a 32-byte element (the stride kernels of cp_f8) is two 128-bit accesses, as the model
# counts; for sm_100 and newer the table records evidence against (the PTX has one 256-bit
# ld.global.v8), and this test says what the SASS does, failing if the table is wrong either way.
# It also checks that the atomic family's kernels compiled to the instruction each measures
# (sass_atomics.sh: ATOM, RED, the shuffles of the aggregated variant).
# Needs cuobjdump (the GPU machine has it; no GPU is used). Exits 77 without it.
# usage: sass_widths.sh PATH/TO/coalprobe [SUMMARY]
set -u
bin=${1:?usage: sass_widths.sh PATH/TO/coalprobe [SUMMARY]}
summary=${2:-${CP_RESULTS_DIR:+$CP_RESULTS_DIR/sass_widths.txt}}
summary=${summary:-/dev/null}
if ! command -v cuobjdump >/dev/null 2>&1; then
    echo "no cuobjdump: skipped"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cuobjdump -lelf "$bin" > "$tmp/elfs.txt" 2>&1 || { echo "FAIL: cuobjdump -lelf $bin"; cat "$tmp/elfs.txt"; exit 1; }
archs=$(grep -o 'sm_[0-9]*[af]*' "$tmp/elfs.txt" | sort -u | sed 's/sm_//' | sort -n)
[ -n "$archs" ] || { echo "FAIL: no SASS in $bin"; exit 1; }
fail=0
: > "$summary"
for a in $archs; do
    cuobjdump -sass -arch "sm_$a" "$bin" > "$tmp/sass_$a.txt" 2>&1
    # the LDG/STG opcodes of the stride kernels of the 32-byte element (cp_f8), and their widths
    # (a .64/.128/.256 part of the opcode; none: 32 bits)
    awk '/Function :/ { f = ($0 ~ /cp_stride_(load|store)_kernel.*cp_f8/) }
         f && /(LDG|STG)/ { if (match($0, /(LDG|STG)[.A-Z0-9_]*/)) print substr($0, RSTART, RLENGTH) }' \
        "$tmp/sass_$a.txt" > "$tmp/ops_$a.txt"
    widths=$(awk '{ w = 32; n = split($0, p, "."); for (i = 2; i <= n; i++) if (p[i] ~ /^(64|128|256)$/) w = p[i]; print w }' \
             "$tmp/ops_$a.txt" | sort -n | uniq -c | awk '{ printf "%s%s bits x%s", (NR > 1 ? ", " : ""), $2, $1 }')
    ops=$(sort "$tmp/ops_$a.txt" | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
    wide=$(echo "$widths" | grep -c '256 bits')
    base=${a%%[af]*}
    if [ "$base" -lt 100 ]; then
        expect="no access wider than 128 bits (the table: verified or documented)"
        ok=$([ "$wide" -eq 0 ] && [ -n "$widths" ] && echo 1 || echo 0)
    else
        expect="a 256-bit access (the table: evidence against the 16-byte limit)"
        ok=$([ "$wide" -gt 0 ] && echo 1 || echo 0)
    fi
    line="sm_$a: 32-byte element kernels: ${ops:-no LDG/STG found} (${widths:-none}); expected $expect"
    if [ "$ok" = 1 ]; then
        echo "ok   $line" | tee -a "$summary"
    else
        echo "FAIL $line" | tee -a "$summary"
        echo "     correct global_width_16 in src/model/cp_arch.c for sm_$a, or the kernel" | tee -a "$summary"
        fail=1
    fi
    # the atomic family's kernels (cp_atomic_kernel<type, variant, op>, families/atomic/): op 0
    # (atom) executes ATOM, op 1 (red) RED and no ATOM, and the aggregated variant (3) reduces
    # with SHFL.BFLY first; one line per architecture, the kernels that do not listed
    if ! sh "$(dirname "$0")/sass_atomics.sh" "sm_$a" "$tmp/sass_$a.txt" | tee -a "$summary" |
        grep -q '^ok '; then
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "the SASS of every architecture agrees with the fact table"
exit $fail
