#!/bin/sh
# docs_help.sh: the `coalprobe gemm --help` docs/demos.md shows is what the binary prints.
# usage: docs_help.sh COALPROBE DEMOS_MD
. "$(dirname "$0")/common.sh"
bin=$1 demos=$2
cp_scratch
# the lines after "$ coalprobe gemm --help" up to the block's closing fence
sed -n '/^\$ coalprobe gemm --help$/,/^```$/p' "$demos" | sed '1d;$d' >"$s/shown.txt"
[ -s "$s/shown.txt" ] || bad "docs/demos.md shows no 'coalprobe gemm --help'"
"$bin" gemm --help >"$s/printed.txt"
diff "$s/shown.txt" "$s/printed.txt" >"$s/diff" || { cat "$s/diff"; bad "docs/demos.md shows another gemm --help"; }
exit $fail
