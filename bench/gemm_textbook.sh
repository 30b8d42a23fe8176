#!/bin/sh
# gemm_textbook.sh: the worklog's kernels 1-3 as a textbook writes them (bench/gemm_textbook.cu)
# beside coalprobe's GEMM rungs, 4096^3 FP32, in one run on one GPU: GFLOP/s of each and their
# ratio (issue 13's target: each coalprobe rung within 10% of the textbook kernel).
# usage (GPU machine): sh bench/gemm_textbook.sh PATH/TO/coalprobe OUTDIR
set -eu
bin=${1:?usage: gemm_textbook.sh PATH/TO/coalprobe OUTDIR}
out=${2:?usage: gemm_textbook.sh PATH/TO/coalprobe OUTDIR}
mkdir -p "$out"
nvcc -O3 -arch=native -I. -Ipatterns -Ikernels -Xptxas -v -o "$out/gemm_textbook" bench/gemm_textbook.cu -lcublas 2> "$out/ptxas.txt"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  $(date -u +%FT%TZ)"
"$out/gemm_textbook" 4096 | tee "$out/textbook.csv"
"$bin" gemm --m 4096 --n 4096 --k 4096 --format json -o "$out/coalprobe_gemm.json"
python3 - "$out/textbook.csv" "$out/coalprobe_gemm.json" <<'PY'
import csv, json, sys
tb = {r["rung"]: float(r["gflops"]) for r in csv.DictReader(open(sys.argv[1]))}
rows = json.load(open(sys.argv[2]))["rows"]
print("%-10s %12s %12s %8s" % ("rung", "textbook", "coalprobe", "ratio"))
for r in rows:
    v = r["config"].get("variant")
    m = r.get("measured") or {}
    f = m.get("flop_per_s")
    if v in tb and f:
        print("%-10s %12.1f %12.1f %8.3f" % (v, tb[v], f * 1e-9, f * 1e-9 / tb[v]))
PY
grep -E "Function properties|registers" "$out/ptxas.txt" | paste - - | sed 's/ptxas info *: *//g' | head -8
