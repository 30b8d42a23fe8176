#!/bin/sh
# chart_test.sh: draws the chart of one report with scripts/plot and checks it (check_chart.mjs):
#   chart_test.sh OUT COALPROBE CHART_SPEC model FAMILY ARGS...   a model-only sweep, made here
#   chart_test.sh OUT COALPROBE CHART_SPEC saved REPORT.json      a saved (measured) report
#   chart_test.sh OUT COALPROBE CHART_SPEC trace RAW_DIR          a trace report (--from-raw)
# OUT is the prefix of the files written (OUT.json, OUT.vl.json, OUT.svg, OUT.png). Exit 77 (a
# skip) without Node.js or the npm packages of web/ (sh scripts/setup.sh installs them).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 bin=$2 spec_of=$3 kind=$4
shift 4
sh "$root/tests/chart/needs_node.sh" true || exit $?
rm -f "$out.json" "$out.vl.json" "$out.svg" "$out.png"
case $kind in
model)
    "$bin" "$@" --model --format json -o "$out.json"
    "$bin" "$@" --model --format vega-lite -o "$out.vl.json"
    report=$out.json ;;
saved)
    "$spec_of" "$1" > "$out.vl.json"
    report=$1 ;;
trace)
    "$bin" trace --from-raw "$1" --format json -o "$out.json"
    "$bin" trace --from-raw "$1" --format vega-lite -o "$out.vl.json"
    report=$out.json ;;
*)
    echo "chart_test: unknown kind $kind" >&2
    exit 2 ;;
esac
"$root/scripts/plot" "$out.vl.json" -o "$out" > "$out.plot.txt"
grep -qx "$out.svg" "$out.plot.txt" || { echo "chart_test: scripts/plot wrote no SVG" >&2; exit 1; }
if [ -d "$root/web/node_modules/@resvg/resvg-js" ]; then
    # the PNG: its signature and more than a blank page's bytes
    head -c 8 "$out.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" ||
        { echo "chart_test: $out.png is not a PNG" >&2; exit 1; }
    [ "$(wc -c < "$out.png")" -gt 10000 ] || { echo "chart_test: $out.png is nearly empty" >&2; exit 1; }
fi
exec node "$root/tests/chart/check_chart.mjs" "$out.vl.json" "$out.svg" "$report"
