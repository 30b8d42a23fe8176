/* cp_model.h: the exact coalescing model: from every lane's address, what the memory system
 * must do for each global memory instruction of a configuration's kernel.
 *
 * Definitions (per warp-level instruction, "request"):
 *   requests          one per instruction executed by a warp with at least one active lane
 *   sectors           distinct 32-byte sectors touched by the active lanes, summed over requests
 *   lines             distinct 128-byte lines touched, summed over requests
 *   bytes_requested   distinct bytes the active lanes access, summed over requests (lanes that
 *                     read the same bytes count once, as the hardware counts them)
 *   ideal_sectors     sum over requests of ceil(distinct bytes / 32): the fewest sectors that
 *                     could carry the data the request asked for
 *   footprint_sectors distinct sectors of the buffer touched by the whole kernel (a lower
 *                     bound on DRAM traffic for that buffer)
 * Buffers start on 256-byte boundaries (cudaMalloc guarantees it).
 *
 * Shared-memory instructions (space CP_SPACE_SHARED) are served in wavefronts by 32 banks of
 * 4-byte words (bank = word % 32). Per request:
 *   wavefronts        the most distinct words any one bank must deliver (lanes reading the same
 *                     word share it); at least 1
 *   ideal_wavefronts  ceil(distinct words / 32): what the request costs without conflicts (1
 *                     for 4-byte lanes, 2 for 8, 4 for 16 when every lane is active)
 *   bank_conflicts    wavefronts - ideal_wavefronts
 * Checked against the H100's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} and
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} for 4-, 8- and 16-byte lanes.
 * Shared accesses have no sectors, lines or footprint (zero).
 *
 * Constant-memory loads (space CP_SPACE_CONSTANT, LDC) go through the constant cache, which
 * delivers one distinct address per pass: per request, wavefronts are the distinct 4-byte words
 * the active lanes read (1 when every lane reads the same word), ideal_wavefronts 1, and
 * bank_conflicts the passes beyond the first. They are no global traffic: the global load and
 * store sums leave them out, and they have no sectors, lines or footprint.
 *
 * Copies by the TMA unit (space CP_SPACE_TMA: cp.async.bulk, 1-D or through a tensor map) move
 * global memory without the LSU: one request per copy instruction, issued by one lane whose
 * lane_bytes are the whole copy; sectors are those of the bytes it spans, in whole sectors. They
 * sum into tma_load, not into load. */
#ifndef CP_MODEL_H
#define CP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "cp_arch.h" /* CP_WARP_SIZE, CP_SECTOR_BYTES, ...: the hardware facts, one table */
#include "cp_config.h"
#include "cp_family.h"    /* one descriptor per pattern family */
#include "cp_occupancy.h" /* blocks per SM and what limits them */
#include "cp_regime.h"    /* which cache can hold a working set: an estimate */
#include "base/cp_base.h"

#define CP_MODEL_MAX_ACCESSES 4

typedef struct cp_counts {
    uint64_t requests;
    uint64_t sectors;
    uint64_t lines;
    uint64_t bytes_requested;
    uint64_t ideal_sectors;
    uint64_t footprint_sectors;
    uint64_t wavefronts; /* shared memory only, from here on */
    uint64_t ideal_wavefronts;
    uint64_t bank_conflicts;
} cp_counts;

/* Where an access goes. */
typedef enum { CP_SPACE_GLOBAL, CP_SPACE_SHARED, CP_SPACE_CONSTANT, CP_SPACE_TMA } cp_space;

/* One access of a kernel: a buffer touched by one kind of global memory instruction. An
 * access whose element is wider than 16 bytes is issued as several 16-byte instructions
 * per lane (`instructions`), each one a request. */
typedef struct cp_access_prediction {
    const char *name;      /* "in", "out", "A", "B", "C", "tile" */
    cp_op op;              /* load or store */
    cp_space space;        /* global or shared memory */
    uint32_t lane_bytes;   /* bytes one lane moves per instruction (4, 8 or 16) */
    uint32_t instructions; /* instructions per lane per iteration */
    uint64_t iterations;   /* times each warp executes them (k for GEMM operands A and B) */
    uint64_t buffer_bytes; /* size of the buffer this access touches */
    int strided;           /* 1 for the side whose order the pattern chooses */
    /* 1 for a cp.async load (LDGSTS): global memory copied into shared memory by the LSU,
     * counted as a global load; the instruction-level data-bytes counters do not see it */
    int async_copy;
    /* 1 for an access its family's own counters count (cp_family_desc.counters: an atomic's
     * read-modify-write): counted as a global access, summed into no total of load or store */
    int family_counted;
    cp_counts counts;
} cp_access_prediction;

/* The model's prediction for one configuration. */
typedef struct cp_prediction {
    int modelled;       /* 0 when the kernel is not modelled (cuBLAS): counts are meaningless */
    cp_counts load;     /* sum over the global load accesses (LSU: LDG, LDGSTS) */
    cp_counts store;    /* sum over the global store accesses */
    cp_counts tma_load; /* sum over the copies into shared memory by the TMA unit */
    /* sums over the shared-memory accesses; meaningful only when shared_modelled is 1 (the
     * GEMM's smem variant uses shared memory the model does not describe: 0) */
    int shared_modelled;
    cp_counts shared_load, shared_store;
    /* 1 when the hardware's shared-memory counters see exactly these instructions; 0 where the
     * model describes the kernel's own shared accesses but the counters also see others (the
     * never-executed LDS the compiler puts beside each cp.async, TMA fills that meet the
     * compute's loads in the same cycles): shown, not judged */
    int shared_exact;
    /* the bytes a family's lookups read again and again (its working set, an estimate: the
     * readonly family's table), 0 where the family states none; read from constant memory
     * when working_set_constant is 1. Compared with the device's caches (cp_regime.h). */
    uint64_t working_set_bytes;
    int working_set_constant;
    /* where that working set is likely served from (cp_model_estimate_regime, once the
     * device is known; CP_REGIME_UNKNOWN before, or without a working set) and the caches it
     * was compared with */
    cp_regime regime;
    cp_cache_sizes caches;
    uint64_t threads;
    uint64_t warps;
    size_t naccesses;
    cp_access_prediction accesses[CP_MODEL_MAX_ACCESSES];
    /* the family's own counters (cp_family_desc.counters), in its order: each one's predicted
     * value (its predict hook), meaningful below nfamily; the bit i of family_checked is set
     * for counter i that a CUPTI metric measures (compared with it: cp_measure_counts_match) */
    size_t nfamily;
    double family[CP_FAMILY_COUNTERS_MAX];
    uint32_t family_checked;
} cp_prediction;

/* The addresses of one warp's lanes for one instruction (for --explain and the tests). */
typedef struct cp_warp_lanes {
    uint32_t active_mask;        /* bit l set when lane l takes part */
    uint32_t lane_bytes;         /* bytes each active lane accesses */
    uint64_t addr[CP_WARP_SIZE]; /* byte offset of each lane's access from the buffer start */
} cp_warp_lanes;

/* Ratios of a cp_counts; NAN where the denominator is zero. */
double cp_counts_sectors_per_request(const cp_counts *c);
double cp_counts_ideal_sectors_per_request(const cp_counts *c);
double cp_counts_lines_per_request(const cp_counts *c);
double cp_counts_efficiency(const cp_counts *c); /* bytes_requested / (sectors * 32) */
double cp_counts_wavefronts_per_request(const cp_counts *c);
double cp_counts_conflicts_per_request(const cp_counts *c);

/* Sets p->regime and p->caches for a device of architecture `arch` with l2_bytes of L2: the
 * estimate of where p's working set is served from (unknown without a working set, or for an
 * architecture whose caches cp_regime.c does not list). */
void cp_model_estimate_regime(cp_prediction *p, int arch, uint64_t l2_bytes);

/* Fills out with the kernel's grid and accesses (names, ops, sizes, instructions, iterations)
 * without counting anything: cheap, for callers that need only the shape. */
int cp_model_describe(const cp_config *c, cp_prediction *out, cp_status *st);

/* Checks what the family must check before any lane is evaluated (a user expression: every
 * thread's index defined and in range); CP_EXIT_USAGE with the position otherwise. Predicting
 * does it too; --explain calls it before drawing. */
int cp_model_validate(const cp_config *c, cp_status *st);

/* Predicts with the fast path (each class of identical warps counted once); exact. Accesses
 * with no such classes (a gather, a user's expression) are counted warp by warp, and a user's
 * expression is checked thread by thread first: both spread over the CPUs (cp_parallel_threads,
 * src/base/cp_parallel.h) for large grids, with the same result as on one. A user's expression
 * whose period the model proves (cp_model_counting) is neither: one period of warps is counted
 * and scaled. A cancellation (cp_parallel_cancel, from a signal) stops those loops within a
 * chunk of 64K threads per CPU thread: CP_EXIT_RUNTIME, no prediction. */
int cp_model_predict(const cp_config *c, cp_prediction *out, cp_status *st);


/* Bytes of the note cp_model_counting writes. */
#define CP_MODEL_WHY_BYTES 320

/* How cp_model_predict counts c, for --verbose: for a family that may evaluate threads one by
 * one (a user's expression), the period of warps it proved, with its rule, or why it proved
 * none and evaluates every thread, into buf (len bytes); 0 and "" for the other families. The
 * environment variable COALPROBE_MODEL_WALK=1 makes it evaluate every thread whatever is proved
 * (the tests and bench/expr_period.sh compare the two). */
int cp_model_counting(const cp_config *c, char *buf, size_t len);

/* Predicts by enumerating every instruction of every warp; exact and slow (tests compare it
 * with cp_model_predict). Refuses configurations over `max_lane_visits` lane evaluations. */
int cp_model_predict_exact(const cp_config *c, uint64_t max_lane_visits, cp_prediction *out,
                           cp_status *st);

/* What predicting a sweep costs where the model evaluates GPU threads one by one (a user's
 * expression, a gather: see cp_model_predict); configurations whose warps all fall into classes
 * of identical warps cost next to nothing and are left out. */
typedef struct cp_model_cost {
    size_t configs;       /* configurations evaluated thread by thread */
    uint64_t threads;     /* their GPU threads, summed */
    uint64_t largest;     /* the GPU threads of the largest of them */
    unsigned cpu_threads; /* the CPU threads the largest one is spread over */
    double seconds;       /* estimated wall time of predicting them all, from a timed sample */
} cp_model_cost;

/* Estimates what predicting configs[0..n) costs: a look at each configuration's shape, then a
 * timed sample of the largest one evaluated thread by thread (its first 65536 threads on one
 * CPU: milliseconds), scaled by the threads of each and the CPU threads it is spread over. A
 * rough figure: the sample's memory traffic is not the whole run's. */
void cp_model_estimate(const cp_config *configs, size_t n, cp_model_cost *out);

/* Lane addresses of warp `warp` for instruction `instruction` of access `access` at loop
 * iteration `iter`. Returns CP_EXIT_USAGE (with a message) for an out-of-range argument. */
int cp_model_warp_lanes(const cp_config *c, size_t access, uint32_t instruction, uint64_t warp,
                        uint64_t iter, cp_warp_lanes *out, cp_status *st);

/* Counts one global memory request: the sectors, lines and bytes of the active lanes of `w`,
 * added to acc. */
void cp_model_count_request(const cp_warp_lanes *w, cp_counts *acc);

/* Counts one shared memory request: wavefronts, ideal wavefronts, bank conflicts and bytes of
 * the active lanes of `w` (addresses are byte offsets in shared memory), added to acc. */
void cp_model_count_shared_request(const cp_warp_lanes *w, cp_counts *acc);
/* Counts one copy by the TMA unit: lane 0's lane_bytes from its address, added to acc. */
void cp_model_count_tma_request(const cp_warp_lanes *w, cp_counts *acc);
/* Counts one constant-memory request: its distinct words as wavefronts, added to acc. */
void cp_model_count_constant_request(const cp_warp_lanes *w, cp_counts *acc);

#endif
