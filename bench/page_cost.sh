#!/bin/sh
# page_cost.sh: what the page (--format html) costs for a 1,024-row sweep (the issue's target:
# at most 50 ms): the page written from the JSON report by cp_html_write (cp_html_render: parse
# and write, median of 21), and the whole model-only run as html against the same run as json
# (median wall time of 7 each), with the sizes of both files.
# usage: bench/page_cost.sh BUILD_DIR   (BUILD_DIR/coalprobe, BUILD_DIR/tests/cp_html_render)
set -eu
build=${1:?usage: page_cost.sh BUILD_DIR}
. "$(dirname "$0")/timing.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=$build/coalprobe
sweep="--stride 1..256 --width 4,8,16,32 --model"
CUDA_VISIBLE_DEVICES= "$bin" $sweep --format json -o "$out/r.json"
rows=$(grep -c '"pattern"' "$out/r.json")
echo "page_cost: $rows rows (coalprobe $sweep)"
printf 'cp_html_write (parse the JSON, write the page): '
"$build/tests/cp_html_render" --repeat 21 "$out/r.json" "$out/r.html"
for fmt in json html; do
    for i in 1 2 3 4 5 6 7; do
        CUDA_VISIBLE_DEVICES= wall "$fmt$i" "$bin" $sweep --format $fmt -o "$out/run.$fmt"
        echo
    done | median > "$out/$fmt.median"
    printf 'coalprobe %s --format %s: %s s median of 7 wall, %s bytes\n' "$sweep" "$fmt" \
        "$(cat "$out/$fmt.median")" "$(wc -c < "$out/run.$fmt")"
done
