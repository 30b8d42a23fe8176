#!/usr/bin/env python3
"""speed_vs_ncu.py: wall time of `coalprobe --stride 1..32` with its CUPTI counters against
Nsight Compute collecting the same metrics on the same kernels in one process
(`ncu --metrics ... coalprobe --no-counters`). Each runs 3 times; medians are printed.
Target: coalprobe takes at most a quarter of ncu's time.
usage: speed_vs_ncu.py PATH/TO/coalprobe"""
import statistics, subprocess, sys, time

METRICS = ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
           "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,"
           "dram__bytes_read.sum,dram__bytes_write.sum,"
           "smsp__sass_data_bytes_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_st.sum,"
           "smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,"
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,"
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return time.perf_counter() - t, p


def main():
    binary = sys.argv[1]
    ours = [binary, "--stride", "1..32", "--format", "json", "-o", "/tmp/speed_cp.json"]
    # ncu profiles only the measured kernel (not fills or flushes). coalprobe runs one timed
    # launch here, so ncu profiles 2 launches per configuration (output check, 1 timed).
    theirs = ["ncu", "--metrics", METRICS, "--kernel-name", "regex:cp_stride", "-f", "-o",
              "/tmp/speed_ncu", binary, "--stride", "1..32", "--no-counters", "--reps", "1",
              "--format", "json", "-o", "/tmp/speed_ncu.json"]
    t_cp, t_ncu, launches = [], [], 0
    for _ in range(3):
        t_cp.append(timed(ours)[0])
        t, p = timed(theirs)
        t_ncu.append(t)
        launches = (p.stdout + p.stderr).count("==PROF== Profiling")
    cp, ncu = statistics.median(t_cp), statistics.median(t_ncu)
    print(f"command A: {' '.join(ours)}")
    print(f"command B: {' '.join(theirs)}")
    print(f"coalprobe (CUPTI counters, 20 timed reps per config): "
          f"{', '.join(f'{x:.2f}' for x in t_cp)} s; median {cp:.2f} s")
    print(f"ncu (same metrics, {launches} kernel launches profiled): "
          f"{', '.join(f'{x:.2f}' for x in t_ncu)} s; median {ncu:.2f} s")
    per_launch = ncu / launches if launches else float("nan")
    print(f"ratio coalprobe/ncu: {cp / ncu:.3f} (target <= 0.25); "
          f"ncu per profiled launch {per_launch:.3f} s, so ncu profiling just one launch per "
          f"configuration would take about {32 * per_launch:.1f} s (ratio {cp / (32 * per_launch):.2f})")


if __name__ == "__main__":
    main()
