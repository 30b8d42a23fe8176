/* cp_model_family.h: private interface between the model engine (cp_model.c) and the
 * families' model parts (families/<family>/cp_<family>_model.c). */
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

/* The model's hooks, one type each, so that a family declares its hooks by name below (and its
 * definitions are checked against them). */

/* Fills threads, warps and every access's name, op, lane_bytes, instructions, iterations,
 * buffer_bytes and strided; counts are left zero. */
typedef void cp_model_describe_fn(const cp_config *c, cp_prediction *out);
/* Lane byte offsets of warp w for access a, instruction ins, iteration t; returns the active
 * mask. Lanes outside the mask are left unspecified. Called from several threads at once for the
 * accesses counted warp by warp. */
typedef uint32_t cp_model_lanes_fn(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                   uint64_t t, uint64_t addr[CP_WARP_SIZE]);
/* The classes of warps that execute access a (warps with no active lane may be left out);
 * returns how many were written to classes[], or CP_MODEL_EVERY_WARP when the access has no such
 * structure (a gather) and every warp must be counted. */
typedef size_t cp_model_classes_fn(const cp_config *c, size_t a,
                                   cp_warp_class classes[CP_MODEL_MAX_CLASSES]);
/* Bytes every lane's address moves by from one iteration of access a to the next. */
typedef uint64_t cp_model_iteration_step_fn(const cp_config *c, size_t a);
/* Distinct sectors of its buffer that access a touches over the whole kernel, or
 * CP_MODEL_FOOTPRINT_FROM_LANES (an access whose classes are CP_MODEL_EVERY_WARP only). */
typedef uint64_t cp_model_footprint_fn(const cp_config *c, size_t a);
/* Leading iterations of access a over which the active mask stays the same (so that the step
 * alone moves the addresses); the others are counted one by one. */
typedef uint64_t cp_model_regular_iterations_fn(const cp_config *c, size_t a);
/* Checks, for the threads [begin, end) of the grid (describe's threads), that every lane's index
 * is defined and inside its buffer before anything is counted (user expressions). At the first
 * thread that fails, sets *failed to it and returns the code, the message in st (st may be NULL:
 * the code alone); a failure of no one thread sets *failed to begin. The engine splits the grid
 * over the CPUs and, when a thread fails, calls it again on the first thread that failed for the
 * message, the one a check in order gives. Must be safe to call from several threads at once. */
typedef int cp_model_validate_fn(const cp_config *c, uint64_t begin, uint64_t end, uint64_t *failed,
                                 cp_status *st);

/* What a family proves of a configuration by analysis, so that the engine need not evaluate
 * every thread (a user's expression with a period: cp_expr_model.c). */
typedef struct cp_model_proof {
    /* warps: validate passes on every thread, and in each access counted warp by warp (classes
     * CP_MODEL_EVERY_WARP) warps w and w + period cost the same while both are below `regular`;
     * the engine counts one period, scales it and counts the warps from `regular` on one by one.
     * 0 when nothing is proved: the engine checks and counts every thread. */
    uint64_t period;
    uint64_t regular;
    /* of those accesses, when period is set and the footprint was asked for (0 otherwise) */
    uint64_t footprint[CP_MODEL_MAX_ACCESSES];
    char why[CP_MODEL_WHY_BYTES]; /* the period and its rule, or why there is none (for -v) */
} cp_model_proof;

/* Fills out with what the family proves of c (out->period 0: nothing); the footprint only when
 * want_footprint is set (it costs an evaluation of the period, and finding no memory for it
 * leaves nothing proved). */
typedef void cp_model_prove_fn(const cp_config *c, int want_footprint, cp_model_proof *out);

/* A family's model: its hooks (cp_<family>_model, below), named by its descriptor. */
typedef struct cp_family_model {
    cp_model_describe_fn *describe;
    cp_model_lanes_fn *lanes;
    cp_model_classes_fn *classes;
    cp_model_iteration_step_fn *iteration_step;
    cp_model_footprint_fn *footprint;
    cp_model_regular_iterations_fn *regular_iterations; /* NULL: every iteration is regular */
    cp_model_validate_fn *validate;                     /* NULL: nothing to check */
    cp_model_prove_fn *prove;                           /* NULL: nothing proved */
    /* 1 when `classes` may answer CP_MODEL_EVERY_WARP or `validate` checks every thread: the
     * family's configurations may be evaluated thread by thread, and cp_model_estimate looks at
     * them (at no others: a sweep of a million GEMMs costs it nothing). */
    int thread_by_thread;
} cp_family_model;

/* Each family's hooks, defined in families/<family>/cp_<family>_model.c as cp_<family>_model and
 * entered in its descriptor; a family with no iteration_step of its own uses
 * cp_model_no_iteration_step (below). */
#define CP_FAMILY(NAME, name) extern const cp_family_model cp_##name##_model;
#include "cp_families.def"
#undef CP_FAMILY

/* Describes access ap: its name, op, space, bytes a lane moves per instruction, instructions per
 * lane per iteration, iterations, buffer size and whether the pattern chooses its order; the
 * rest of it (counts, async_copy) zero. */
void cp_model_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                     uint32_t lane_bytes, uint32_t instructions, uint64_t iterations,
                     uint64_t buffer_bytes, int strided);

/* Bytes one lane moves per instruction for elements of `width` bytes: elements wider than 16
 * bytes are split into 16-byte instructions (sm_90 has no wider global load or store). Inline:
 * the lanes() of stride and expr call it for every warp. */
static inline uint32_t cp_model_lane_bytes(uint32_t width)
{
    return width > 16 ? 16 : width;
}

/* Describes access ap of one element of `width` bytes per thread, once (one iteration), in
 * instructions of cp_model_lane_bytes(width) (cp_model_access says what the rest is). */
void cp_model_element_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                             uint32_t width, uint64_t buffer_bytes, int strided);

/* Distinct 32-byte sectors touched by n elements of L bytes at byte offsets O + i*S
 * (i = 0..n-1, S >= L), from a 32-byte aligned base; exact, in O(32) steps. */
uint64_t cp_model_monotone_footprint(uint64_t n, uint64_t S, uint64_t O, uint64_t L);

/* The one-element-per-thread grids (stride, layout, gather, expr: blocks of CP_LINEAR_BLOCK
 * threads): warps of a grid of `threads`, and the global thread index of lane `lane` of warp w,
 * numbered as the kernels number them. */
uint64_t cp_model_linear_warps(uint64_t threads);
uint64_t cp_model_linear_thread(uint64_t w, unsigned lane);

/* Fills the grid of out for a one-element-per-thread kernel of `threads` threads (its threads
 * and warps) and its number of accesses. */
void cp_model_linear_grid(cp_prediction *out, uint64_t threads, size_t naccesses);

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

/* Defines `name`, the lanes hook of a one-element-per-thread family, from its element function:
 * thread i accesses, through access a, element element(c, a, i) of `width` bytes (an expression
 * that may read the configuration c); instruction `ins` of an element wider than 16 bytes a lane
 * reads the ins-th 16 bytes of it. */
#define CP_MODEL_LINEAR_LANES_HOOK(name, element, width)                                           \
    uint32_t name(const cp_config *c, size_t a, uint32_t ins, uint64_t w, uint64_t t,              \
                  uint64_t addr[CP_WARP_SIZE])                                                     \
    {                                                                                              \
        (void)t;                                                                                   \
        uint64_t bytes = (width);                                                                  \
        return cp_model_linear_lanes(c, a, w, bytes, (uint64_t)ins * cp_model_lane_bytes(bytes),   \
                                     element, addr);                                               \
    }

/* Classes of the one-element-per-thread grids (stride, layout): full warps, then the last
 * partial warp. Exact when a full warp's addresses move by a multiple of 128 bytes from one
 * warp to the next. */
size_t cp_model_linear_classes(uint64_t threads, cp_warp_class classes[CP_MODEL_MAX_CLASSES]);

/* The greatest common divisor of a and b (gcd(0, b) = b). */
uint64_t cp_model_gcd(uint64_t a, uint64_t b);

/* The iteration_step of a family whose accesses do not move from one iteration to the next. */
cp_model_iteration_step_fn cp_model_no_iteration_step;

#endif
