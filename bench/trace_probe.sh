#!/bin/sh
# trace_probe.sh: first look at the injection library on the GPU machine: raw files of the
# tests' sample program (flushed per launch, and once per context), of coalprobe traced by
# itself, and of a PyTorch script; Nsight Compute's source counters on the sample; wall times.
# usage (GPU machine, repo root): sh bench/trace_probe.sh OUTDIR
out=${1:?usage: trace_probe.sh OUTDIR}
. bench/gpu_build.sh >/dev/null 2>&1 || { echo "build failed"; exit 1; }
B=$CP_BUILD
inj=$PWD/$B/libcoalprobe_inject.so
run_traced() { # name command...
    name=$1; shift
    d=$(mktemp -d)
    t0=$(date +%s.%N)
    CUDA_INJECTION64_PATH=$inj COALPROBE_TRACE_DIR=$d "$@" > "$out/$name.stdout" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "$name: rc=$rc wall=$(awk "BEGIN{print $t1 - $t0}") s files=$(ls $d | tr '\n' ' ')"
    for f in "$d"/raw-*.tsv; do cat "$f"; done > "$out/$name.raw.tsv"
    cp "$d"/cubin-* "$out/" 2>/dev/null
    wc -l < "$out/$name.raw.tsv"
    rm -rf "$d"
}
time_native() { t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N); echo "native $1: $(awk "BEGIN{print $t1 - $t0}") s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
time_native $B/tests/cp_trace_sample 3
run_traced sample $B/tests/cp_trace_sample 3
COALPROBE_TRACE_FLUSH=context run_traced sample_ctxflush $B/tests/cp_trace_sample 3
run_traced self_stride2 $B/coalprobe --stride 2 --no-counters --reps 1
run_traced self_smem $B/coalprobe smem --stride 1,2 --no-counters --reps 1
cat > /tmp/torch_probe.py <<'PY'
import torch, time
x = torch.randn(4096, 4096, device="cuda")
for _ in range(20):
    a = x.t().contiguous()          # transposed copy
    b = x[:, ::8].sum(dim=0)        # strided slice reduction
    c = x.clone()                   # contiguous baseline
torch.cuda.synchronize()
print("ok", a.shape, b.shape, c.shape)
PY
time_native python3 /tmp/torch_probe.py
run_traced torch python3 /tmp/torch_probe.py
grep -c '^pc' "$out/torch.raw.tsv"; grep -E '^(refused|dropped|note|end|device|missing)' "$out"/*.raw.tsv | head -40
t0=$(date +%s.%N)
ncu --section SourceCounters --page source --csv --print-source sass $B/tests/cp_trace_sample 1 > "$out/ncu_sample_source.csv" 2> "$out/ncu_sample.err"
t1=$(date +%s.%N)
echo "ncu source counters: rc=$? $(awk "BEGIN{print $t1 - $t0}") s, $(wc -l < "$out/ncu_sample_source.csv") lines"
head -c 3000 "$out/ncu_sample_source.csv"
command -v nvdisasm && nvdisasm -c "$out"/cubin-*.cubin 2>&1 | head -60 > "$out/nvdisasm_head.txt"
ls -la "$out"
