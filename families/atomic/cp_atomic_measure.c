/* cp_atomic_measure.c: measuring the atomic family: its kernel's launch and resources, and the
 * check of the checked launch: the accumulators, zeroed before it, hold what the host counts
 * (cp_atomic_expected), and where an atom's old values are known (every accumulator of own,
 * strided and aggregated is added to once from zero) they are 0. */
#include <inttypes.h>
#include <stdio.h>

#include "cp_measure_family.h"
#include "cp_atomic_kernels.h"
#include "cp_atomic.h"
#include "cp_atomic_config.h"

enum { CP_MEASURE_ATOMIC_ACC, CP_MEASURE_ATOMIC_OUT };

static int cp_measure_atomic_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    void *out = cfg->op == CP_ATOMIC_OP_ATOM ? r->bufs[CP_MEASURE_ATOMIC_OUT] : NULL;
    CP_CUDA_CHECK(st, cp_kernels_atomic_launch((int)cfg->variant, (int)cfg->op, (int)cfg->type,
                                               r->bufs[CP_MEASURE_ATOMIC_ACC], out, c->elements,
                                               cfg->addresses, cfg->lane_words, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_atomic_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    return cp_kernels_atomic_resources((int)cfg->variant, (int)cfg->op, (int)cfg->type, k);
}

/* The accumulators start from zero for the checked launch (the timed ones add up after it);
 * the old values are poisoned. */
static int cp_measure_atomic_poison(const cp_cuda_run *r, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaMemsetAsync(r->bufs[CP_MEASURE_ATOMIC_ACC], 0,
                                      r->p->accesses[CP_MEASURE_ATOMIC_ACC].buffer_bytes,
                                      r->s->stream));
    if (cp_atomic_config_of(r->c)->op == CP_ATOMIC_OP_ATOM)
        CP_TRY(cp_cuda_poison_access(r, CP_MEASURE_ATOMIC_OUT, st));
    return CP_EXIT_OK;
}

/* Accumulator `word`'s count after one launch, as a u32 or a float's bits. */
static uint32_t cp_measure_atomic_want(const void *ctx, uint64_t word)
{
    const cp_config *c = ctx;
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    uint64_t k =
        cp_atomic_expected(word, c->elements, (int)cfg->variant, cfg->addresses, cfg->lane_words);
    return cfg->type == CP_ATOMIC_TYPE_F32 ? cp_cuda_float_bits((float)k) : (uint32_t)k;
}

/* An old value that is 0 (u32 0 and f32 +0.0 have the same bits). */
static uint32_t cp_measure_atomic_zero(const void *ctx, uint64_t word)
{
    (void)ctx;
    (void)word;
    return 0;
}

/* Checks `count` words from `first` of every one of 16 chunks of a buffer of `words`: the first,
 * the last and 14 spread between them. */
static int cp_measure_atomic_chunks(const void *buf, uint64_t words, const cp_cuda_expect *e,
                                    cp_status *st)
{
    uint64_t count = words < 1024 ? words : 1024;
    if (count == words) /* one chunk holds it all */
        return cp_cuda_verify_words(buf, 0, count, e, st);
    for (uint64_t k = 0; k < CP_CUDA_CHUNKS; k++) {
        uint64_t first = (words - count) * k / (CP_CUDA_CHUNKS - 1);
        CP_TRY(cp_cuda_verify_words(buf, first, count, e, st));
    }
    return CP_EXIT_OK;
}

static int cp_measure_atomic_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    cp_cuda_expect acc = {"accumulator", cfg->type == CP_ATOMIC_TYPE_F32, cp_measure_atomic_want,
                          c};
    uint64_t slots =
        cp_atomic_slots(c->elements, (int)cfg->variant, cfg->addresses, cfg->lane_words);
    CP_TRY(cp_measure_atomic_chunks(r->bufs[CP_MEASURE_ATOMIC_ACC], slots, &acc, st));
    /* contention's old values depend on the order the lanes were served in: not checked */
    if (cfg->op != CP_ATOMIC_OP_ATOM || cfg->variant == CP_ATOMIC_VARIANT_CONTENTION)
        return CP_EXIT_OK;
    cp_cuda_expect old = {"old value of thread", 0, cp_measure_atomic_zero, NULL};
    return cp_measure_atomic_chunks(r->bufs[CP_MEASURE_ATOMIC_OUT], c->elements, &old, st);
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_atomic_measure = {
    .launch = cp_measure_atomic_launch,
    .poison = cp_measure_atomic_poison,
    .verify = cp_measure_atomic_verify,
    .config_resources = cp_measure_atomic_config_resources,
};
