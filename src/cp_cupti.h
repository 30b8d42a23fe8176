/* cp_cupti.h: C interface to the CUPTI Range Profiler session reading coalprobe's counters. */
#ifndef CP_CUPTI_H
#define CP_CUPTI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cp_status.h" /* inside extern "C": cp_status.h has no guard of its own */

/* One CUPTI Range Profiler session on one CUDA context: auto range, user replay.
 *
 * How ranges are collected: the session is configured once (one config image, one counter
 * data image with room for max_ranges ranges, one cuptiRangeProfilerSetConfig) and serves any
 * number of ranges. Each call of cp_cupti_profile_range is a complete replay sequence: for
 * every pass it runs prepare() and synchronises the device outside the profiler's Start/Stop
 * block, then Start, run(), device synchronisation, Stop, until CUPTI reports that all passes
 * are submitted; then it decodes and evaluates that one range. Kernels launched outside
 * cp_cupti_profile_range (timing runs) are not profiled and run at full speed.
 *
 * Why auto range rather than a user range (PushRange/PopRange around run()): measured on the
 * H100 (CUPTI 13.0, driver 580), a user range adds about 55-60 us of profiler work to the
 * range, so gpu__time_duration.sum read 124 us for a kernel of 62 us (66 us for one of 7 us)
 * and dram__throughput.avg.pct_of_peak_sustained_elapsed came out about half the true value.
 * With auto range the range is exactly the kernel (62 us for 62 us), as in Nsight Compute, and
 * every counter reads the same as with a user range. The cost: the range is one kernel, so
 * run() must launch exactly one kernel (none, or more than one, is reported as an error), and
 * `name` appears only in messages (CUPTI numbers auto ranges). prepare()'s work (the L2
 * flush, buffer restores) never counts: it is launched and finished before Start.
 *
 * maxRangesPerPass is 2, so that a second kernel in run() is recorded and reported (with 1,
 * CUPTI silently leaves it out); when the counter data image has no room for two more ranges it
 * is re-initialised in place, so max_ranges only sizes the image.
 *
 * Not thread-safe; use a session from the thread that opened it. */
typedef struct cp_cupti_session cp_cupti_session;

/* The metrics coalprobe reads, in this order (indices are the CP_CUPTI_M_* enum). Requests are
 * smsp__inst_executed_op_global_{ld,st}.sum (one request per warp-level global memory
 * instruction), not l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum: on GH100 the l1tex
 * request counters share a pass with no sector counter and no other request counter (all ten
 * metrics: 3 passes), while the instruction counters share one pass with everything else
 * (all ten metrics: 1 pass). On the H100 both pairs read the same for copies with strides 1 to
 * 32 (one request per warp-level LDG/STG). */
enum {
    CP_CUPTI_M_LOAD_REQUESTS,       /* smsp__inst_executed_op_global_ld.sum */
    CP_CUPTI_M_LOAD_SECTORS,        /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    CP_CUPTI_M_STORE_REQUESTS,      /* smsp__inst_executed_op_global_st.sum */
    CP_CUPTI_M_STORE_SECTORS,       /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    CP_CUPTI_M_L2_READ_SECTORS,     /* lts__t_sectors_srcunit_tex_op_read.sum */
    CP_CUPTI_M_L2_WRITE_SECTORS,    /* lts__t_sectors_srcunit_tex_op_write.sum */
    CP_CUPTI_M_DRAM_READ_BYTES,     /* dram__bytes_read.sum */
    CP_CUPTI_M_DRAM_WRITE_BYTES,    /* dram__bytes_write.sum */
    CP_CUPTI_M_DRAM_THROUGHPUT_PCT, /* dram__throughput.avg.pct_of_peak_sustained_elapsed */
    CP_CUPTI_M_DURATION_NS,         /* gpu__time_duration.sum */
    CP_CUPTI_M_COUNT
};

/* The CUPTI metric name of metric (a CP_CUPTI_M_* index), or NULL when out of range. */
const char *cp_cupti_metric_name(int metric);

/* Opens a profiling session for the coalprobe metrics on CUDA device `device` (makes it current
 * and creates its primary context when needed), with room for max_ranges ranges in the counter
 * data image (at least 2). Metrics the device does not support are left out and read as
 * NAN. On a refusal (insufficient privileges, virtual GPU, confidential compute, MIG, WSL, SLI,
 * CMP, another profiler attached, device not supported, libnvperf not loadable) returns
 * CP_EXIT_RUNTIME with *refused = 1, st->message naming the cause and st->hint the fix. Other
 * failures: CP_EXIT_RUNTIME with *refused = 0. *out is NULL on failure. */
int cp_cupti_open(int device, size_t max_ranges, cp_cupti_session **out, int *refused,
                  cp_status *st);

/* Replay passes the metrics need on this device (0 for NULL). */
size_t cp_cupti_passes(const cp_cupti_session *s);

/* Profiles one range: for each pass, prepare(ctx) (may be NULL) outside the profiled block,
 * then run(ctx) inside it; run() must launch exactly one kernel, which is the range. Repeats
 * until CUPTI says all passes are submitted, then decodes and evaluates the range into
 * values[CP_CUPTI_M_COUNT] (NAN for anything not available). `name` names the range in
 * messages. A failing callback's status is returned as is (values stay NAN); after any failure
 * the session is re-armed (profiler disabled and enabled again) at the next call. */
int cp_cupti_profile_range(cp_cupti_session *s, const char *name,
                           int (*prepare)(void *ctx, cp_status *st),
                           int (*run)(void *ctx, cp_status *st), void *ctx, double *values,
                           cp_status *st);

/* Disables the range profiler, deinitializes the host object and the profiler; NULL-safe. */
void cp_cupti_close(cp_cupti_session *s);

/* Host only (no GPU needed): number of passes the coalprobe metrics need on chip `chip` (such as
 * "GH100"). Returns CP_EXIT_RUNTIME with a message when the chip or a metric is unknown or the
 * host library cannot be initialised here. */
int cp_cupti_count_passes_for_chip(const char *chip, size_t *passes, cp_status *st);

#ifdef __cplusplus
}
#endif

#endif
