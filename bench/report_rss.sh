#!/bin/sh
# report_rss.sh: peak memory (maximum resident set, GNU time's %M), wall time and bytes written
# of model-only GEMM sweeps of 10k, 100k and 1M configurations, each as JSON and as CSV: how a
# report's memory grows with its rows. Prints one Markdown table row per run.
# usage: bench/report_rss.sh PATH/TO/coalprobe [MAX_ROWS [OUTDIR]]
#   MAX_ROWS  skip sweeps larger than this (default 1000000): a build that holds every row
#             needs ~18 KB a JSON row, too much at 1M on a small machine
#   OUTDIR    where the reports are written, each deleted once measured (default /tmp);
#             1M JSON rows take ~3.1 GB there, checked free before that run
set -eu
bin=${1:?usage: report_rss.sh PATH/TO/coalprobe [MAX_ROWS [OUTDIR]]}
max=${2:-1000000}
dir=${3:-/tmp}
[ -x /usr/bin/time ] || { echo "report_rss.sh: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
out="$dir/report_rss.$$"
trap 'rm -f "$out.json" "$out.csv" "$out.time"' EXIT
echo "| rows | format | wall s | max RSS MB | bytes written |"
echo "| ---: | --- | ---: | ---: | ---: |"
for spec in "10000 1" "100000 1..10" "1000000 1..100"; do
    set -- $spec
    rows=$1 k=$2
    [ "$rows" -le "$max" ] || continue
    for fmt in json csv; do
        free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
        if [ "$free_kb" -lt $((rows * 32 / 10)) ]; then # ~3.1 KB a JSON row, with room
            echo "| $rows | $fmt | skipped: $((free_kb / 1024)) MB free in $dir | | |"
            continue
        fi
        /usr/bin/time -f "%e %M" -o "$out.time" "$bin" gemm --variant naive --m 1..100 \
            --n 1..100 --k "$k" --model --allow-large-sweep --format "$fmt" -o "$out.$fmt"
        set -- $(tail -1 "$out.time")
        bytes=$(wc -c < "$out.$fmt")
        rm -f "$out.$fmt"
        echo "| $rows | $fmt | $1 | $(awk -v kb="$2" 'BEGIN { printf "%.1f", kb / 1024 }') | $bytes |"
    done
done
