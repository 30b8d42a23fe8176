#!/bin/sh
# no_gpu_cause.sh: without a GPU (CI; CUDA_VISIBLE_DEVICES emptied on a GPU machine), the note a
# sweep prints on stderr, and --explain where it has no GPU to read a kernel's resources from,
# name the same cause and fix as `coalprobe doctor` (one diagnosis).
# usage: no_gpu_cause.sh COALPROBE
set -u
bin=$1
export COLUMNS=100000 # each note on one line, as doctor's (notes wrap at COLUMNS)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --stride 1..2 >"$tmp/table" 2>"$tmp/note" || { echo "FAIL: the sweep failed"; cat "$tmp/note"; exit 1; }
LC_ALL=C "$bin" doctor >"$tmp/doctor" 2>&1
cause=$(sed -n "s/^coalprobe: no GPU found: \(.*\); showing the model's predictions only\$/\1/p" "$tmp/note")
fix=$(sed -n 's/^hint: \(.*\) (coalprobe doctor checks the rest)$/\1/p' "$tmp/note")
fail=0
[ -n "$cause" ] || { echo "FAIL: the note names no cause:"; cat "$tmp/note"; fail=1; }
[ -n "$fix" ] || { echo "FAIL: the note gives no fix:"; cat "$tmp/note"; fail=1; }
grep -qxF "FAIL no GPU: $cause" "$tmp/doctor" || { echo "FAIL: doctor does not say 'no GPU: $cause'"; fail=1; }
grep -qxF "    fix: $fix" "$tmp/doctor" || { echo "FAIL: doctor's fix is not '$fix'"; fail=1; }
# --explain says the same where it has no GPU to read the kernel's resources from
"$bin" --stride 2 --explain >"$tmp/explain" 2>&1 || { echo "FAIL: --explain failed"; cat "$tmp/explain"; exit 1; }
grep -qxF "  $cause" "$tmp/explain" || { echo "FAIL: --explain does not say '$cause':"; cat "$tmp/explain"; fail=1; }
grep -qxF "  fix: $fix" "$tmp/explain" || { echo "FAIL: --explain's fix is not '$fix'"; fail=1; }
[ $fail -eq 0 ] || { echo "--- doctor:"; cat "$tmp/doctor"; exit 1; }
echo "same cause: $cause"
