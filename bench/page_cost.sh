#!/bin/sh
# page_cost.sh: what the page (--format html) costs for a 1,024-row sweep (the issue's target:
# at most 50 ms): the page written from the JSON report by cp_html_write (cp_html_render: parse
# and write, median of 21), and the whole model-only run as html against the same run as a
# table and as json (median wall time of 15 each, interleaved), with the sizes of the files; the
# page's generation is the html run less the table run.
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
# the page's generation: the run writing the page less the same run writing the table (the
# model, the process and its start are in both), runs interleaved, median of 15 wall times each
: > "$out/times"
for i in $(seq 15); do
    for fmt in table json html; do
        t0=$(now)
        CUDA_VISIBLE_DEVICES= "$bin" $sweep --format $fmt -o "$out/run.$fmt"
        echo "$fmt $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.4f", b - a }')" >> "$out/times"
    done
done
for fmt in table json html; do
    awk -v f=$fmt '$1 == f { print $2 }' "$out/times" | median > "$out/$fmt.median"
    printf 'coalprobe %s --format %s: %.4f s median of 15 wall, %s bytes\n' "$sweep" "$fmt" \
        "$(cat "$out/$fmt.median")" "$(wc -c < "$out/run.$fmt")"
done
awk -v h="$(cat "$out/html.median")" -v t="$(cat "$out/table.median")" \
    'BEGIN { printf "page generation (html run - table run, medians): %.0f ms (target 50 ms)\n", 1000 * (h - t) }'
