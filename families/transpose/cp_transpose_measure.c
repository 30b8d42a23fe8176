/* cp_transpose_measure.c: measuring the transpose family: its kernel's launch and resources,
 * profiling the tiled variants with one block per SM, and the check of 16 rows of out. */
#include "cp_measure_family.h"
#include "cp_transpose_kernels.h"
#include "cp_fill.h"
#include "cp_transpose_config.h"

static int cp_measure_transpose_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    CP_CUDA_CHECK(st, cp_kernels_transpose_launch((int)cfg->variant, r->bufs[0],
                                                  r->bufs[r->p->naccesses - 1], cfg->m, cfg->n,
                                                  r->alone, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_transpose_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    return cp_kernels_transpose_resources((int)cfg->variant, k);
}

/* The variants that use shared memory. */
static int cp_measure_transpose_profiled_alone(const cp_config *c)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    return cfg->variant != CP_TRANSPOSE_NAIVE;
}

/* The whole output, the last access. */
static int cp_measure_transpose_poison(const cp_cuda_run *r, cp_status *st)
{
    return cp_cuda_poison_access(r, r->p->naccesses - 1, st);
}

/* Element (row, col) of out (m columns; ctx the config) is element (col, row) of in. */
static uint32_t cp_measure_transpose_want(const void *ctx, uint64_t word)
{
    const cp_config *c = ctx;
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    uint64_t row = word / cfg->m, col = word % cfg->m;
    return cp_cuda_float_bits(cp_fill_value(col * cfg->n + row, cp_cuda_seed(0)));
}

/* 16 rows of out (the first, the last and 14 between), each against in. */
static int cp_measure_transpose_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    const void *out = r->bufs[r->p->naccesses - 1];
    cp_cuda_expect e = {"out element", 1, cp_measure_transpose_want, c};
    for (int k = 0; k < CP_CUDA_CHUNKS; k++) {
        uint64_t row =
            (cfg->n - 1) * (uint64_t)k / (CP_CUDA_CHUNKS - 1); /* of out: a column of in */
        CP_TRY(cp_cuda_verify_words(out, row * cfg->m, cfg->m, &e, st));
    }
    return CP_EXIT_OK;
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_transpose_measure = {
    .launch = cp_measure_transpose_launch,
    .poison = cp_measure_transpose_poison,
    .verify = cp_measure_transpose_verify,
    .config_resources = cp_measure_transpose_config_resources,
    .profiled_alone = cp_measure_transpose_profiled_alone,
};
