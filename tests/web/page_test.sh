#!/bin/sh
# page_test.sh: writes every kind of page (--format html) into a temporary directory, from model
# sweeps, saved measured reports (their lane maps grafted from this build's model), a trace
# report and comparisons, plus a trace report whose kernel and file names try to break out of
# the page; then opens each in Debian's chromium, headless, through web/test/pages.test.mjs.
# usage: page_test.sh COALPROBE CP_HTML_RENDER SOURCE_DIR. Exit 77 (skipped) where chromium,
# node or web/node_modules/playwright-core are missing; under CI (CI=true) exit 1 instead. CP_SCREENSHOT_DIR=DIR keeps a
# screenshot of each page there.
set -u
bin=$1 render=$2 src=$3
chromium=${CP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
. "$src/tests/setup_tools.sh" # a missing tool skips the test, or fails it under CI
[ -n "$chromium" ] || cp_setup_missing "chromium" "apt-get install chromium; sh scripts/setup.sh installs it"
command -v node >/dev/null 2>&1 || cp_setup_missing "Node.js" "apt-get install nodejs npm; sh scripts/setup.sh installs it"
[ -d "$src/web/node_modules/playwright-core" ] ||
    cp_setup_missing "$src/web/node_modules/playwright-core" "sh scripts/setup.sh runs npm ci in web/"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
set -e
export CUDA_VISIBLE_DEVICES=
# model sweeps of every family with widgets of its own
"$bin" --stride 1..32 --model --format html -o "$dir/stride.html"
"$bin" --stride 1..8 --width 4,16 --model --format html -o "$dir/stride_widths.html"
"$bin" gemm --m 256 --n 256 --k 64 --model --format html -o "$dir/gemm.html"
"$bin" smem --model --format html -o "$dir/smem.html"
"$bin" transpose --m 64 --n 64 --model --format html -o "$dir/transpose.html"
"$bin" layout --fields 1..8 --model --format html -o "$dir/layout.html"
"$bin" readonly --variant plain --index mod --table 4K..64M:x4,132 --size 64K --model --format html -o "$dir/readonly.html"
# a family whose chart and numbers are its own counters (atomic): a model sweep, and the
# hand-made measured report of its goldens
"$bin" atomic --variant contention --addresses 1..32:x2 --op red --type u32 --size 64K --model --format html -o "$dir/atomic.html"
"$render" "$src/tests/golden/report_atomic_measured.json" "$dir/measured_atomic.html"
# saved measured reports (H100), with this build's lane maps
res=$src/docs/results
python3 "$src/tests/web/graft_lanes.py" "$bin" "$res/2026-11-21-h100-stride-gemm-ncu/stride_curve.json" "$dir/measured_stride.json"
"$render" "$dir/measured_stride.json" "$dir/measured_stride.html"
python3 "$src/tests/web/graft_lanes.py" "$bin" "$res/2026-11-23-h100-gemm-textbook/coalprobe_gemm.json" "$dir/measured_gemm.json"
"$render" "$dir/measured_gemm.json" "$dir/measured_gemm.html"
# a trace report (H100) whose source lines name this checkout's copy of the traced program
"$bin" trace --from-raw "$src/tests/golden/trace/h100-sample" --format json -o "$dir/trace_raw.json"
python3 - "$dir/trace_raw.json" "$dir/trace.json" "$src/tests/trace/cp_trace_sample.cu" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i in d["instructions"]:
    if i.get("file"):
        i["file"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
"$render" "$dir/trace.json" "$dir/trace.html"
"$render" --no-source "$dir/trace.json" "$dir/trace_nosource.html"
# a trace report whose kernel passed a tensor map (hand-made raw files): its verdict and maps
# (the verdict needs the copies' opcodes: the tests' fake nvdisasm gives them)
COALPROBE_NVDISASM="$src/tests/trace/fake-nvdisasm/nvdisasm" \
    "$bin" trace --from-raw "$src/tests/golden/trace/handmade-tmaps" --format html --no-source -o "$dir/tmaps.html"
# comparisons: of sweep reports, of trace reports
"$bin" compare "$src/tests/golden/compare/base.json" "$src/tests/golden/compare/mixed.json" --format html -o "$dir/compare.html" || [ $? -eq 3 ]
"$bin" compare "$src/tests/golden/trace/handmade-transpose.json" "$src/tests/golden/trace/handmade-transpose-after.json" \
    --format html -o "$dir/compare_trace.html" || [ $? -eq 3 ]
# trace reports of different GPUs: each GPU named, the measured counts not comparable (exit 0)
"$bin" compare "$src/tests/golden/trace/handmade-transpose.json" "$src/tests/golden/compare/trace_other_gpu.json" \
    --format html -o "$dir/compare_other_gpu.html" 2>/dev/null
# a comparison where only the new side has rows of its own (strides 5 and 6)
"$bin" --stride 1..4 --model --format json -o "$dir/only_base.json"
"$bin" --stride 1..6 --model --format json -o "$dir/only_new.json"
"$bin" compare "$dir/only_base.json" "$dir/only_new.json" --format html -o "$dir/compare_only_new.html"
# names that try to end the page's script, or to open a comment
python3 - "$src/tests/golden/trace/handmade-transpose.json" "$dir/escape.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
evil = "evil</script><script>window.cpPwned=1</script>\"quoted\" 'single' <!-- \u2028 & </SCRIPT>"
d["kernels"][0]["name"] = evil
for i in d["instructions"]:
    if i["kernel_index"] == d["kernels"][0]["index"]:
        i["kernel"] = evil
        i["file"] = "/tmp/</script><img src=x onerror=window.cpPwned=2>.cu"
d["command"] = "coalprobe trace -- ./a '</script>'"
json.dump(d, open(sys.argv[2], "w"))
PY
"$render" "$dir/escape.json" "$dir/escape.html"
set +e
CP_PAGES_DIR=$dir CP_CHROMIUM=$chromium NODE_PATH="$src/web/node_modules" \
    node --test --test-reporter=spec ${CP_PAGES_ONLY:+--test-name-pattern="$CP_PAGES_ONLY"} "$src/web/test/"
