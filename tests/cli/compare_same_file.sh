#!/bin/sh
# compare_same_file.sh: coalprobe compare -o naming one of its own inputs (by its name, ./name,
# a symbolic link, a hard link; base or new) is a usage error before anything is read or
# written: exit 2, the report unchanged, nothing on standard output.
# Usage: compare_same_file.sh COALPROBE GOLDEN_COMPARE_DIR
. "$(dirname "$0")/common.sh"
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cp "$src/base.json" base.json
cp "$src/mixed.json" new.json
ln -s base.json link.json
ln new.json hard.json
sum() { cksum base.json new.json; }
before=$(sum)
# check OUTPUT NAME: -o OUTPUT is refused, naming the input NAME
check() {
    "$bin" compare base.json new.json -o "$1" >out 2>err
    rc=$?
    [ $rc -eq 2 ] || bad "-o $1: exit $rc, expected 2"
    grep -q "^coalprobe: -o '$1' is the report '$2' being compared" err ||
        bad "-o $1: stderr: $(cat err)"
    grep -q '^hint: ' err || bad "-o $1: no hint"
    [ -s out ] && bad "-o $1: standard output is not empty"
    [ "$(sum)" = "$before" ] || bad "-o $1: an input changed"
    ls ./*.tmp-* >/dev/null 2>&1 && bad "-o $1: a temporary file was left"
}
check base.json base.json
check ./base.json base.json
check "$tmp/base.json" base.json
check link.json base.json
check new.json new.json
check hard.json new.json
# with --format json the refusal is an error document on standard output, the input unchanged
"$bin" compare base.json new.json --format json -o base.json >out 2>err
[ $? -eq 2 ] || bad "--format json -o base.json: not exit 2"
grep -q '"kind":[[:space:]]*"usage"' out || bad "--format json: no usage error document"
[ "$(sum)" = "$before" ] || bad "--format json -o base.json: an input changed"
# another file is written as usual
"$bin" compare base.json new.json -o other.txt >out 2>err
[ $? -eq 3 ] || bad "-o other.txt: not exit 3 (the mixed comparison regresses)"
grep -q '^compare: 2 regressed' other.txt || bad "-o other.txt: not written"
[ $fail -eq 0 ] && echo "compare -o refuses its own inputs"
exit $fail
