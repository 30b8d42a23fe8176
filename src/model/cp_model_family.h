/* cp_model_family.h: private interface between the model engine (cp_model.c) and the
 * per-family descriptions (cp_model_<family>.c). */
#ifndef CP_MODEL_FAMILY_H
#define CP_MODEL_FAMILY_H

#include "cp_model.h"

/* Most warp classes a family reports for one access. */
#define CP_MODEL_MAX_CLASSES 128
/* What `classes` returns for an access whose every warp is counted on its own. */
#define CP_MODEL_EVERY_WARP ((size_t)-1)
/* What `footprint` returns for an access counted warp by warp whose footprint the engine counts
 * from the lane addresses it evaluates anyway (one bit per sector of the buffer), rather than
 * the family evaluating every thread once more. */
#define CP_MODEL_FOOTPRINT_FROM_LANES UINT64_MAX

/* A set of warps that cost the same at every iteration of every instruction of an access:
 * their lane addresses differ by a multiple of 128 bytes and their active masks are equal. */
typedef struct cp_warp_class {
    uint64_t rep_warp; /* one warp of the class */
    uint64_t count;    /* warps in the class */
} cp_warp_class;

typedef struct cp_family_model {
    /* Fills threads, warps and every access's name, op, lane_bytes, instructions,
     * iterations, buffer_bytes and strided; counts are left zero. */
    void (*describe)(const cp_config *c, cp_prediction *out);
    /* Lane byte offsets of warp w for access a, instruction ins, iteration t; returns the
     * active mask. Lanes outside the mask are left unspecified. Called from several threads at
     * once for the accesses counted warp by warp. */
    uint32_t (*lanes)(const cp_config *c, size_t a, uint32_t ins, uint64_t w, uint64_t t,
                      uint64_t addr[CP_WARP_SIZE]);
    /* The classes of warps that execute access a (warps with no active lane may be left out);
     * returns how many were written to classes[], or CP_MODEL_EVERY_WARP when the access has
     * no such structure (a gather) and every warp must be counted. */
    size_t (*classes)(const cp_config *c, size_t a, cp_warp_class classes[CP_MODEL_MAX_CLASSES]);
    /* Bytes every lane's address moves by from one iteration of access a to the next. */
    uint64_t (*iteration_step)(const cp_config *c, size_t a);
    /* Distinct sectors of its buffer that access a touches over the whole kernel, or
     * CP_MODEL_FOOTPRINT_FROM_LANES (an access whose classes are CP_MODEL_EVERY_WARP only). */
    uint64_t (*footprint)(const cp_config *c, size_t a);
    /* Leading iterations of access a over which the active mask stays the same (so that the
     * step alone moves the addresses); the others are counted one by one. NULL: all. */
    uint64_t (*regular_iterations)(const cp_config *c, size_t a);
    /* Checks, for the threads [begin, end) of the grid (describe's threads), that every lane's
     * index is defined and inside its buffer before anything is counted (user expressions).
     * At the first thread that fails, sets *failed to it and returns the code, the message in
     * st (st may be NULL: the code alone); a failure of no one thread sets *failed to begin.
     * The engine splits the grid over the CPUs and, when a thread fails, calls it again on the
     * first thread that failed for the message, the one a check in order gives. Must be safe
     * to call from several threads at once. NULL: nothing to check. */
    int (*validate)(const cp_config *c, uint64_t begin, uint64_t end, uint64_t *failed,
                    cp_status *st);
    /* 1 when `classes` may answer CP_MODEL_EVERY_WARP or `validate` checks every thread: the
     * family's configurations may be evaluated thread by thread, and cp_model_estimate looks at
     * them (at no others: a sweep of a million GEMMs costs it nothing). */
    int thread_by_thread;
} cp_family_model;

extern const cp_family_model cp_model_stride_family;
extern const cp_family_model cp_model_layout_family;
extern const cp_family_model cp_model_gemm_family;
extern const cp_family_model cp_model_gather_family;
extern const cp_family_model cp_model_smem_family;
extern const cp_family_model cp_model_transpose_family;
extern const cp_family_model cp_model_expr_family;
extern const cp_family_model cp_model_readonly_family;
extern const cp_family_model cp_model_async_family;
/* The async family's --explain schedule (cp_family_desc.schedule). */
void cp_model_async_schedule(const cp_config *c, char *buf, size_t len);

/* Describes access ap: its name, op, space, bytes a lane moves per instruction, instructions per
 * lane per iteration, iterations, buffer size and whether the pattern chooses its order; the
 * rest of it (counts, async_copy) zero. */
void cp_model_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                     uint32_t lane_bytes, uint32_t instructions, uint64_t iterations,
                     uint64_t buffer_bytes, int strided);

/* Distinct 32-byte sectors touched by n elements of L bytes at byte offsets O + i*S
 * (i = 0..n-1, S >= L), from a 32-byte aligned base; exact, in O(32) steps. */
uint64_t cp_model_monotone_footprint(uint64_t n, uint64_t S, uint64_t O, uint64_t L);

/* The one-element-per-thread grids (stride, layout, gather, expr: blocks of CP_STRIDE_BLOCK
 * threads): warps of a grid of `threads`, and the global thread index of lane `lane` of warp w,
 * numbered as the kernels number them. */
uint64_t cp_model_linear_warps(uint64_t threads);
uint64_t cp_model_linear_thread(uint64_t w, unsigned lane);

/* Lane addresses of warp w of a one-element-per-thread grid of c->elements threads, for access
 * a: thread i accesses element element(c, a, i), at byte element * element_bytes + extra; lanes
 * past the last thread are inactive. Returns the active mask. Inline, so that each family's
 * element function is inlined into its lanes(). */
static inline uint32_t
cp_model_linear_lanes(const cp_config *c, size_t a, uint64_t w, uint64_t element_bytes,
                      uint64_t extra, uint64_t (*element)(const cp_config *, size_t, uint64_t),
                      uint64_t addr[CP_WARP_SIZE])
{
    uint32_t mask = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        uint64_t i = cp_model_linear_thread(w, l);
        if (i >= c->elements)
            continue;
        addr[l] = element(c, a, i) * element_bytes + extra;
        mask |= 1u << l;
    }
    return mask;
}

/* Classes of the one-element-per-thread grids (stride, layout): full warps, then the last
 * partial warp. Exact when a full warp's addresses move by a multiple of 128 bytes from one
 * warp to the next. */
size_t cp_model_linear_classes(uint64_t threads, cp_warp_class classes[CP_MODEL_MAX_CLASSES]);

/* The iteration_step of a family whose accesses do not move from one iteration to the next. */
uint64_t cp_model_no_iteration_step(const cp_config *c, size_t a);

#endif
