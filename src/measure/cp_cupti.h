/* cp_cupti.h: C interface to the CUPTI Range Profiler session reading coalprobe's counters. */
#ifndef CP_CUPTI_H
#define CP_CUPTI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "base/cp_base.h"

/* One CUPTI Range Profiler session on one CUDA context: user ranges, user replay.
 *
 * How kernels are profiled: the session is configured once (one config image, one counter
 * data image with room for max_ranges ranges, one cuptiRangeProfilerSetConfig). Each call of
 * cp_cupti_profile_batch is one replay sequence over up to max_ranges kernels: for every pass
 * it opens one Start/Stop block and, for each kernel i, runs prepare(i) outside any range (the
 * caller flushes L2 there), then run(i) inside a range of its own; it repeats the block until
 * CUPTI reports all passes submitted, then decodes once and evaluates every range. The
 * device is synchronised before each range opens and before it closes, so a range holds only
 * run()'s kernel. Kernels launched between batches (timing runs) are outside any block.
 *
 * Why batches: on the H100 cuptiRangeProfilerStart costs about 39 ms and Stop about 6 ms,
 * while a range costs little; one block per kernel made counters 54 ms per configuration.
 * Why user ranges (not auto ranges, where every kernel is a range): the flushes and fills
 * between measured kernels then need no bookkeeping. The price: a user range's elapsed time
 * includes about 55 us of the profiler's own work, so duration-based metrics
 * (gpu__time_duration, throughput in % of peak) would be wrong for short kernels; coalprobe
 * reads only counts here and takes times from CUDA events.
 *
 * Not thread-safe; use a session from the thread that opened it. */
typedef struct cp_cupti_session cp_cupti_session;

/* The metrics coalprobe reads, in this order (indices are the CP_CUPTI_M_* enum). Requests are
 * l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum: requests L1 received, so a warp whose
 * lanes are all predicated off sends none (the model's definition). The instruction counters
 * smsp__inst_executed_op_global_{ld,st}.sum would share a pass with the sector, L2 and DRAM
 * counters, but count such empty instructions too: on the H100, a shared-memory tiled GEMM of
 * 33 x 64 x 40 executed 512 global loads for 292 requests. On GH100 the l1tex request counters
 * share a pass with no sector counter and no other request counter: 3 passes for the eight
 * counts, plus one for the bytes requested (smsp__sass_data_bytes_*, from instrumented code):
 * 4 passes. The six shared-memory counters (instructions, wavefronts and bank conflicts of
 * loads and stores) add a fifth: 5 passes in all. Shared instructions are counted by
 * smsp__inst_executed_op_shared_*, which would count a warp whose lanes are all predicated off:
 * coalprobe's kernels issue every shared access unpredicated, so that this equals requests. */
enum {
    CP_CUPTI_M_LOAD_REQUESTS,          /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    CP_CUPTI_M_LOAD_SECTORS,           /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    CP_CUPTI_M_STORE_REQUESTS,         /* l1tex__t_requests_pipe_lsu_mem_global_op_st.sum */
    CP_CUPTI_M_STORE_SECTORS,          /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    CP_CUPTI_M_L2_READ_SECTORS,        /* lts__t_sectors_srcunit_tex_op_read.sum */
    CP_CUPTI_M_L2_WRITE_SECTORS,       /* lts__t_sectors_srcunit_tex_op_write.sum */
    CP_CUPTI_M_DRAM_READ_BYTES,        /* dram__bytes_read.sum */
    CP_CUPTI_M_DRAM_WRITE_BYTES,       /* dram__bytes_write.sum */
    CP_CUPTI_M_LOAD_BYTES,             /* smsp__sass_data_bytes_mem_global_op_ld.sum */
    CP_CUPTI_M_STORE_BYTES,            /* smsp__sass_data_bytes_mem_global_op_st.sum */
    CP_CUPTI_M_SHARED_LOAD_REQUESTS,   /* smsp__inst_executed_op_shared_ld.sum */
    CP_CUPTI_M_SHARED_STORE_REQUESTS,  /* smsp__inst_executed_op_shared_st.sum */
    CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS, /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    CP_CUPTI_M_SHARED_STORE_WAVEFRONTS,
    CP_CUPTI_M_SHARED_LOAD_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    CP_CUPTI_M_SHARED_STORE_CONFLICTS,
    CP_CUPTI_M_COUNT
};

/* The CUPTI metric name of metric (a CP_CUPTI_M_* index), or NULL when out of range. */
const char *cp_cupti_metric_name(int metric);

/* Opens a profiling session for the coalprobe metrics on CUDA device `device` (makes it current
 * and creates its primary context when needed), with room for max_ranges ranges in the counter
 * data image (the batch capacity; 0 is taken as 1). Metrics the device does not support are left
 * out and read as NAN. On a refusal (insufficient privileges, virtual GPU, confidential compute,
 * MIG, WSL, SLI, CMP, another profiler attached, device not supported, libnvperf not loadable)
 * returns CP_EXIT_RUNTIME with *refused = 1, st->message naming the cause and st->hint the fix.
 * Other failures: CP_EXIT_RUNTIME with *refused = 0. *out is NULL on failure. */
int cp_cupti_open(int device, size_t max_ranges, cp_cupti_session **out, int *refused,
                  cp_status *st);

/* Replay passes the metrics need on this device (0 for NULL). */
size_t cp_cupti_passes(const cp_cupti_session *s);

/* Most kernels one cp_cupti_profile_batch call may profile (the max_ranges of open). */
size_t cp_cupti_batch_capacity(const cp_cupti_session *s);

/* Profiles `count` kernels (count <= the batch capacity) in one replay sequence, as described
 * above: prepare(ctx, i) (may be NULL) outside any range, run(ctx, i) launching kernel i
 * inside range i, for every pass; then evaluates range i into
 * values[i * CP_CUPTI_M_COUNT + metric] (NAN for anything not available). A failing
 * callback's status is returned as is (values stay NAN); the session stays usable. */
int cp_cupti_profile_batch(cp_cupti_session *s, size_t count,
                           int (*prepare)(void *ctx, size_t i, cp_status *st),
                           int (*run)(void *ctx, size_t i, cp_status *st), void *ctx,
                           double *values, cp_status *st);

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
