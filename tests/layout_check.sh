#!/bin/sh
# layout_check.sh: src/ keeps its layers (docs/layout.md): a file includes headers of its own
# folder, and of another folder only that folder's face, and only from a lower layer. Code that
# talks to CUPTI may also include base/cp_cupti_util.h, base's header-only CUPTI helpers, which
# the face leaves out so that the rest of coalprobe needs no CUPTI headers.
# Usage: layout_check.sh ROOT (the project root). Prints each offending include; exit 1 if there is one.
set -eu
root=${1:?usage: layout_check.sh ROOT}
src=$root/src
layers="base model measure report trace app"
face() {
    case $1 in
    base) echo base/cp_base.h ;; model) echo model/cp_model.h ;;
    measure) echo measure/cp_measure.h ;; report) echo report/cp_report.h ;;
    trace) echo trace/cp_trace.h ;; app) echo app/cp_app.h ;;
    esac
}
rank() { i=0; for l in $layers; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
bad=0
for dir in "$src"/*/; do
    layer=$(basename "$dir")
    [ "$(rank "$layer")" = 99 ] && { echo "src/$layer: not a known layer ($layers)"; bad=1; continue; }
    for f in "$dir"*.c "$dir"*.h "$dir"*.cpp; do
        [ -f "$f" ] || continue
        grep -o '^#include "[^"]*"' "$f" | sed 's/#include "//;s/"$//' | while read -r inc; do
            case $inc in
            */*)
                other=${inc%%/*}
                if [ "$inc" != "$(face "$other")" ] && [ "$inc" != base/cp_cupti_util.h ]; then
                    echo "src/$layer/$(basename "$f"): includes $inc, not the face of $other ($(face "$other"))"
                    exit 1
                elif [ "$(rank "$other")" -ge "$(rank "$layer")" ]; then
                    echo "src/$layer/$(basename "$f"): includes $inc from a layer that is not below $layer"
                    exit 1
                fi ;;
            cp_*) # own folder, or patterns/, kernels/ or a generated header
                [ -f "$dir$inc" ] || [ -f "$root/patterns/$inc" ] || [ -f "$root/kernels/$inc" ] ||
                    case $inc in *_source.h) ;; *) echo "src/$layer/$(basename "$f"): includes $inc, which is not in src/$layer"; exit 1 ;; esac ;;
            esac
        done || bad=1
    done
done
[ $bad = 0 ] && echo "layout: every include follows the layers ($layers)"
exit $bad
