#!/bin/sh
# counter_speed.sh: issue 13's speed target, measured as it states: the wall time of
# `coalprobe --stride 1..32` (timings, counters, report: the whole process) against Nsight
# Compute collecting the same 16 metrics on a small program of plain strided kernels, one launch
# per stride (bench/stride_plain.cu), each RUNS times in this order, in one run; then coalprobe's
# own --verbose breakdown, and the 1,024-configuration sweep RUNS times (wall) with its breakdown.
# The pairs run interleaved; every time is printed, then the medians and their ratio.
# usage (GPU machine): sh bench/counter_speed.sh PATH/TO/coalprobe OUTDIR [RUNS]   (default 3)
set -u
bin=${1:?usage: counter_speed.sh PATH/TO/coalprobe OUTDIR}
out=${2:?usage: counter_speed.sh PATH/TO/coalprobe OUTDIR [RUNS]}
runs=${3:-3}
mkdir -p "$out"
nvcc -O3 -arch=native -o "$out/stride_plain" bench/stride_plain.cu || exit 1
# the 16 metrics of bench/speed_vs_ncu.py, as the issue measured them (8.19-8.29 s, 2026-11-22)
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics=$metrics,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,smsp__sass_data_bytes_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_st.sum
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
. "$(dirname "$0")/timing.sh"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  date: $(date -u +%FT%TZ)"
echo "ncu: $(ncu --version | tail -1)"
echo "metrics for ncu ($(echo "$metrics" | tr ',' '\n' | wc -l)): $metrics"
for i in $(seq "$runs"); do
    t0=$(now); "$bin" --stride 1..32 > "$out/coalprobe.txt" 2> "$out/coalprobe.err"; rc=$?; t1=$(now)
    echo "coalprobe --stride 1..32           $(span "$t0" "$t1") s  rc=$rc"
    t0=$(now); ncu --metrics "$metrics" "$out/stride_plain" > "$out/ncu.txt" 2>&1; rc=$?; t1=$(now)
    echo "ncu --metrics (16) stride_plain    $(span "$t0" "$t1") s  rc=$rc  ($(grep -c '==PROF== Profiling' "$out/ncu.txt") launches profiled)"
done | tee "$out/pairs.txt"
awk '/^coalprobe/ { c[n1++] = $4 } /^ncu/ { u[n2++] = $5 }
     function median(a, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
         if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
         return n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2 }
     END { mc = median(c, n1); mu = median(u, n2)
           printf "medians: coalprobe %.2f s, ncu %.2f s, ratio %.3f (targets: issue 13 0.20, issue 27 0.15)\n", mc, mu, mc / mu }' "$out/pairs.txt"
t0=$(now); "$out/stride_plain" > /dev/null; t1=$(now)
echo "stride_plain alone                 $(span "$t0" "$t1") s"
"$bin" --stride 1..32 -v > /dev/null 2> "$out/breakdown_stride.txt"
cat "$out/breakdown_stride.txt"
# the 1,024 configurations, RUNS times: the whole process's wall time (issue 27's target: 10 s)
t1024=""
for i in $(seq "$runs"); do
    t=$(wall "sweep1024.$i" "$bin" --stride 1..32 --offset 0..7 --width 4,8,16,32 -v)
    t1024="$t1024 $t"
done
echo "1,024 configurations, wall:$t1024 s; median $(echo $t1024 | tr ' ' '\n' | median) s (target 10 s)"
cat "$out/sweep1024.$runs.err"
