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
 * Why batches: on the H100 the first cuptiRangeProfilerStart of a replay sequence costs
 * 0.17-0.25 s (1.2 s with 1,024 ranges), later Starts of the sequence nothing, Stop 4-9 ms, a
 * range's Push and Pop 0.3 ms; one block per kernel made counters 54 ms per configuration.
 * That first Start holds the context: run on another thread while kernels were timed, it held
 * up the timing thread's CUDA calls for as long, so it is not overlapped
 * (docs/measurement.md, "Where the time goes").
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
 * 33 x 64 x 40 executed 512 global loads for 292 requests. On every chip CUPTI 13.0 knows (from
 * TU102 to GB20x) the l1tex request counters share a pass with no sector counter and no other
 * request counter: 3 passes for the eight global, L2 and DRAM counts, plus one for the bytes
 * requested (smsp__sass_data_bytes_*, from instrumented code): 4 passes. Stride and layout
 * read their requests as warp-level instructions instead (CP_CUPTI_REQUESTS_AS_INSTRUCTIONS),
 * which share the sector counters' pass: 2 passes. The six shared-memory
 * counters (instructions, wavefronts and bank conflicts of loads and stores) add a fifth, so
 * they are read only for sweeps whose kernels use shared memory (CP_CUPTI_GROUP_SHARED);
 * achieved occupancy fits in those passes. Shared instructions are counted by
 * smsp__inst_executed_op_shared_*, which would count a warp whose lanes are all predicated off:
 * coalprobe's kernels issue every shared access unpredicated, so that this equals requests.
 * docs/results/cupti-chips.md lists the passes of every chip and family. */
enum {
    CP_CUPTI_M_LOAD_REQUESTS,          /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    CP_CUPTI_M_LOAD_SECTORS,           /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    CP_CUPTI_M_STORE_REQUESTS,         /* l1tex__t_requests_pipe_lsu_mem_global_op_st.sum */
    CP_CUPTI_M_STORE_SECTORS,          /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    CP_CUPTI_M_L2_READ_SECTORS,        /* lts__t_sectors_srcunit_tex_op_read.sum */
    CP_CUPTI_M_L2_WRITE_SECTORS,       /* lts__t_sectors_srcunit_tex_op_write.sum */
    CP_CUPTI_M_DRAM_READ_BYTES,        /* dram__bytes_read.sum (GB20x: dram__bytes_op_read.sum) */
    CP_CUPTI_M_DRAM_WRITE_BYTES,       /* dram__bytes_write.sum (GB20x: dram__bytes_op_write.sum) */
    CP_CUPTI_M_LOAD_BYTES,             /* smsp__sass_data_bytes_mem_global_op_ld.sum */
    CP_CUPTI_M_STORE_BYTES,            /* smsp__sass_data_bytes_mem_global_op_st.sum */
    CP_CUPTI_M_SHARED_LOAD_REQUESTS,   /* smsp__inst_executed_op_shared_ld.sum */
    CP_CUPTI_M_SHARED_STORE_REQUESTS,  /* smsp__inst_executed_op_shared_st.sum */
    CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS, /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    CP_CUPTI_M_SHARED_STORE_WAVEFRONTS,
    CP_CUPTI_M_SHARED_LOAD_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    CP_CUPTI_M_SHARED_STORE_CONFLICTS,
    CP_CUPTI_M_ACHIEVED_OCCUPANCY, /* sm__warps_active.avg.pct_of_peak_sustained_active (%) */
    /* the memory path (CP_CUPTI_GROUP_PATH): read for the readonly and async families */
    /* hit rates as CUPTI's ratios, whose two counts come from one replay pass (two counts from
     * two passes, each of which finds the caches in another state, may give over 100%) */
    CP_CUPTI_M_L1_LOAD_HIT_RATE,  /* l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct */
    CP_CUPTI_M_L2_READ_HIT_RATE,  /* lts__t_sector_op_read_hit_rate.pct */
    CP_CUPTI_M_SM_ACTIVE,         /* sm__cycles_active.avg.pct_of_peak_sustained_elapsed (%) */
    CP_CUPTI_M_CONSTANT_REQUESTS, /* smsp__inst_executed_op_ldc.sum */
    CP_CUPTI_M_LDGSTS_REQUESTS,   /* smsp__inst_executed_op_ldgsts.sum */
    CP_CUPTI_M_TMA_LOAD_REQUESTS, /* smsp__inst_executed_op_tma_ld.sum */
    CP_CUPTI_M_TMA_LOAD_SECTORS,  /* l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum */
    CP_CUPTI_M_COUNT
};

/* Groups of metrics a session is asked for (bits). */
enum {
    CP_CUPTI_GROUP_GLOBAL = 1,    /* global requests, sectors and bytes; L2 sectors; DRAM bytes */
    CP_CUPTI_GROUP_SHARED = 2,    /* shared-memory instructions, wavefronts, bank conflicts */
    CP_CUPTI_GROUP_OCCUPANCY = 4, /* achieved occupancy */
    /* L1 and L2 hits, SM active, constant, cp.async and TMA loads (the readonly and async
     * families: cp_family_desc.path_counters) */
    CP_CUPTI_GROUP_PATH = 16,
    CP_CUPTI_GROUP_ALL = 1 | 2 | 4 | 16,
    /* not a group, a choice: global requests read as warp-level instructions
     * (smsp__inst_executed_op_global_ld/st.sum), which share a pass with the sector counters:
     * GLOBAL | OCCUPANCY in 2 passes instead of 4 on every chip CUPTI 13.0 knows. Only for
     * kernels whose global accesses are never issued by a warp without an active lane
     * (cp_config_requests_are_instructions), where the two are equal. */
    CP_CUPTI_REQUESTS_AS_INSTRUCTIONS = 8,
};

/* The group metric belongs to (0 when out of range). */
unsigned cp_cupti_metric_group(int metric);

/* The CUPTI metric name of metric (the first name tried), or NULL when out of range. */
const char *cp_cupti_metric_name(int metric);

/* The names tried for metric, in order, NULL-terminated: the first one the chip knows is read
 * (a chip that renamed a counter still has it). NULL when out of range. */
const char *const *cp_cupti_metric_candidates(int metric);

/* What a session (or a plan for a chip) does with each metric. */
typedef enum {
    CP_CUPTI_READ,        /* read, under names[metric] */
    CP_CUPTI_NOT_ASKED,   /* its group was not asked for: the sweep does not report it */
    CP_CUPTI_NOT_ON_CHIP, /* asked for, but the chip has none of its names: read as NAN */
} cp_cupti_metric_state;

/* Metrics a session may read besides the CP_CUPTI_M_* ones: the sweep's families' own counters
 * (cp_family_desc.counters), each asked for by its one name, read into
 * values[CP_CUPTI_M_COUNT + i] (the i-th of the extra names given); and the values of one
 * range, all together. */
#define CP_CUPTI_EXTRA_MAX 6
#define CP_CUPTI_VALUES (CP_CUPTI_M_COUNT + CP_CUPTI_EXTRA_MAX)

typedef struct cp_cupti_plan {
    char chip[64];   /* CUPTI's chip name, e.g. "GH100" */
    unsigned groups; /* CP_CUPTI_GROUP_* bits asked for */
    cp_cupti_metric_state state[CP_CUPTI_M_COUNT];
    const char *names[CP_CUPTI_M_COUNT]; /* the CUPTI name read; NULL unless READ */
    /* the extra metrics asked for, in their order, and whether each is read (READ) or the chip
     * has no such metric (NOT_ON_CHIP: NAN) */
    size_t nextra;
    const char *extra[CP_CUPTI_EXTRA_MAX];
    cp_cupti_metric_state extra_state[CP_CUPTI_EXTRA_MAX];
    size_t nread;  /* metrics read */
    size_t passes; /* replay passes they need */
} cp_cupti_plan;

/* Host only (no GPU needed): which metrics of `groups` chip `chip` (such as "GH100") has, under
 * which names, and the passes they need (the config image is built). A metric the chip lacks is
 * CP_CUPTI_NOT_ON_CHIP, not an error. Returns CP_EXIT_RUNTIME with a message when the chip is
 * unknown, the chip has none of the metrics, or CUPTI cannot be loaded or initialised here. */
int cp_cupti_plan_for_chip(const char *chip, unsigned groups, cp_cupti_plan *plan, cp_status *st);

/* The same with nextra (at most CP_CUPTI_EXTRA_MAX) extra metric names (a family's own
 * counters); a name the chip does not know is CP_CUPTI_NOT_ON_CHIP in plan->extra_state. */
int cp_cupti_plan_for_chip_extra(const char *chip, unsigned groups, const char *const *extra,
                                 size_t nextra, cp_cupti_plan *plan, cp_status *st);

/* Writes why metric is not read under plan into buf ("" when it is read): "not read: the sweep
 * has no shared-memory access" or "GA10B has no counter dram__bytes_read.sum, ...". */
void cp_cupti_plan_reason(const cp_cupti_plan *plan, int metric, char *buf, size_t len);

/* Host only: the chips CUPTI's profiler host API supports (its own static list); count 0 and
 * CP_EXIT_RUNTIME when CUPTI cannot be loaded. */
int cp_cupti_supported_chips(const char *const **chips, size_t *count, cp_status *st);

/* Opens a profiling session for the metrics of `groups` (CP_CUPTI_GROUP_*) and the nextra
 * extra metric names (at most CP_CUPTI_EXTRA_MAX; NULL, 0: none) on CUDA device
 * `device` (makes it current and creates its primary context when needed), with room for
 * max_ranges ranges in the counter data image (the batch capacity; 0 is taken as 1). Metrics
 * the device does not support are left out and read as NAN (cp_cupti_session_plan says which
 * and cp_cupti_plan_reason why). On a refusal (insufficient privileges, virtual GPU,
 * confidential compute, MIG, WSL, SLI, CMP, another profiler attached, device not supported,
 * libnvperf not loadable) returns CP_EXIT_RUNTIME with *refused = 1, st->message naming the
 * cause and st->hint the fix. Other failures: CP_EXIT_RUNTIME with *refused = 0. *out is NULL
 * on failure. */
int cp_cupti_open(int device, size_t max_ranges, unsigned groups, const char *const *extra,
                  size_t nextra, cp_cupti_session **out, int *refused, cp_status *st);

/* The session's plan: chip, the metrics read and not read, passes (NULL for NULL). */
const cp_cupti_plan *cp_cupti_session_plan(const cp_cupti_session *s);

/* Replay passes the metrics need on this device (0 for NULL). */
size_t cp_cupti_passes(const cp_cupti_session *s);

/* Most kernels one cp_cupti_profile_batch call may profile (the max_ranges of open). */
size_t cp_cupti_batch_capacity(const cp_cupti_session *s);

/* Profiles `count` kernels (count <= the batch capacity) in one replay sequence, as described
 * above: prepare(ctx, i) (may be NULL) outside any range, run(ctx, i) launching kernel i
 * inside range i, for every pass; then evaluates range i into
 * values[i * CP_CUPTI_VALUES + metric], the extra metrics at metric CP_CUPTI_M_COUNT + their
 * index (NAN for anything not read). A failing callback's
 * status is returned as is (values stay NAN); the session stays usable. */
int cp_cupti_profile_batch(cp_cupti_session *s, size_t count,
                           int (*prepare)(void *ctx, size_t i, cp_status *st),
                           int (*run)(void *ctx, size_t i, cp_status *st), void *ctx,
                           double *values, cp_status *st);

/* Disables the range profiler, deinitializes the host object and the profiler; NULL-safe. */
void cp_cupti_close(cp_cupti_session *s);

/* --- what `coalprobe doctor` and --version ask (no session needed) --------------------------- */

/* Loads libcupti (once per process) and writes the file it was loaded from into path (or the
 * name asked for when the path is unknown). CP_EXIT_RUNTIME with the reason and a fix when it
 * cannot be loaded or lacks a function coalprobe calls. */
int cp_cupti_load(char *path, size_t len, cp_status *st);

/* CUPTI's API version (cuptiGetVersion, e.g. 130001), 0 when CUPTI cannot be loaded. */
unsigned cp_cupti_version(void);

/* 1 when the loaded libcupti has the SASS metrics API (cuptiSassMetricsSetConfig) that the
 * trace path needs; 0 when it lacks it or CUPTI cannot be loaded. */
int cp_cupti_has_sass_metrics(void);

/* Needs a GPU: CUPTI's chip name of CUDA device `device` (cuptiDeviceGetChipName) into chip. */
int cp_cupti_device_chip(int device, char *chip, size_t len, cp_status *st);

/* RmProfilingAdminOnly from /proc/driver/nvidia/params ("1": only root or CAP_SYS_ADMIN may read
 * counters, "0": everyone) into buf; "" when the file or the line is not there. */
void cp_cupti_profiling_admin_only(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
