#!/bin/sh
# async_textbook.sh: the async family's rungs as the textbook and the CUDA guide write them
# (bench/async_textbook.cu) beside coalprobe's, 256 MB of tiles, work 0 and 64, in one run on one
# GPU: the time of each and their ratio (target: coalprobe within 10% of the textbook), and the
# best rung's bandwidth at work 0 as a share of cudaMemcpy's (target: at least 90%).
# usage (GPU machine): sh bench/async_textbook.sh PATH/TO/coalprobe OUTDIR
set -eu
bin=${1:?usage: async_textbook.sh PATH/TO/coalprobe OUTDIR}
out=${2:?usage: async_textbook.sh PATH/TO/coalprobe OUTDIR}
mkdir -p "$out"
nvcc -O3 -arch=native -std=c++17 -I. -Ipatterns -Ikernels -Xptxas -v -o "$out/async_textbook" \
    bench/async_textbook.cu 2> "$out/ptxas.txt"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  $(date -u +%FT%TZ)"
"$out/async_textbook" 256M 0 64 | tee "$out/textbook.csv"
# plain and smem exist only at stages 1; the copies are compared double-buffered (stages 2)
"$bin" async --size 256M --stages 1,2 --work 0,64 --format json -o "$out/coalprobe_async.json"
python3 - "$out/textbook.csv" "$out/coalprobe_async.json" <<'PY'
import csv, json, sys
tb = {(r["rung"], int(r["work"])): r for r in csv.DictReader(open(sys.argv[1]))}
copy = float(tb[("memcpy", 0)]["bytes_per_s"])
cp = {}
for r in json.load(open(sys.argv[2]))["rows"]:
    c, m = r["config"], r.get("measured") or {}
    want = 1 if c.get("variant") in ("plain", "smem") else 2
    med = (m.get("time_s") or {}).get("median")
    if c.get("stages") == want and med:
        cp[(c["variant"], int(c["work"]))] = (med, 2.0 * 4 * int(c["elements"]) / med)
ladder = ["plain", "smem", "cp-async", "tma-bulk", "tma-tensor"]
print("%-10s %5s %12s %12s %8s" % ("rung", "work", "textbook_s", "coalprobe_s", "cp/tb"))
for (rung, work), r in sorted((kv for kv in tb.items() if kv[0][0] in ladder),
                              key=lambda kv: (kv[0][1], ladder.index(kv[0][0]))):
    if (rung, work) in cp:
        t = float(r["median_s"])
        print("%-10s %5d %12.4e %12.4e %8.3f" % (rung, work, t, cp[(rung, work)][0],
                                                 cp[(rung, work)][0] / t))
for side, rung in (("plain-grid-stride", "plain"), ("smem-blockdim", "smem")):
    for (name, work), r in sorted(tb.items()):
        if name == side and (rung, work) in tb:
            print("%-17s work %3d: %.4e s, %.3f x the textbook %s rung (another way to write it)"
                  % (side, work, float(r["median_s"]),
                     float(r["median_s"]) / float(tb[(rung, work)]["median_s"]), rung))
print("cudaMemcpy device to device: %.1f GB/s (reads plus writes)" % (copy * 1e-9))
for who, rows in (("textbook", {k: float(r["bytes_per_s"]) for k, r in tb.items()}),
                  ("coalprobe", {k: v[1] for k, v in cp.items()})):
    at0 = {k[0]: v for k, v in rows.items() if k[1] == 0 and k[0] in ladder}
    if at0:
        best = max(at0, key=at0.get)
        print("best %s rung at work 0: %s, %.1f GB/s, %.1f%% of cudaMemcpy" %
              (who, best, at0[best] * 1e-9, 100.0 * at0[best] / copy))
PY
grep -E "Function properties|registers" "$out/ptxas.txt" | paste - - | sed 's/ptxas info *: *//g' | head -12
