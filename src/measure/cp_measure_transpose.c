/* cp_measure_transpose.c: measuring the transpose family: its kernel's launch and resources,
 * profiling the tiled variants with one block per SM, and the check of 16 rows of out. */
#include <stdlib.h>
#include <string.h>

#include "cp_measure_family.h"
#include "cp_fill.h"

static int cp_measure_transpose_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    CP_CUDA_CHECK(st, cp_kernels_transpose_launch((int)c->transpose, r->bufs[0],
                                                  r->bufs[r->p->naccesses - 1], c->m, c->n,
                                                  r->alone, r->s->stream));
    return CP_EXIT_OK;
}

static int cp_measure_transpose_resources(const cp_config *c, const cp_rtc_module *expr,
                                          cp_kernel_resources *k, cp_resources *r, cp_status *st)
{
    (void)expr;
    (void)r;
    CP_CUDA_CHECK(st, cp_kernels_transpose_resources((int)c->transpose, k));
    return CP_EXIT_OK;
}

/* The variants that use shared memory. */
static int cp_measure_transpose_alone(const cp_config *c)
{
    return c->transpose != CP_TRANSPOSE_NAIVE;
}

/* The whole output, the last access. */
static int cp_measure_transpose_poison(const cp_cuda_run *r, cp_status *st)
{
    return cp_cuda_poison_access(r, r->p->naccesses - 1, st);
}

/* 16 rows of out (the first, the last and 14 between), each against in. */
static int cp_measure_transpose_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    const void *out = r->bufs[r->p->naccesses - 1];
    int rc = CP_EXIT_OK;
    for (int k = 0; k < CP_CUDA_CHUNKS && rc == CP_EXIT_OK; k++) {
        uint64_t row = (c->n - 1) * (uint64_t)k / (CP_CUDA_CHUNKS - 1); /* of out: a column of in */
        uint32_t *got;
        CP_TRY(cp_cuda_copy_words(out, row * c->m, c->m, &got, st));
        for (uint64_t col = 0; col < c->m && rc == CP_EXIT_OK; col++) {
            float want = cp_fill_value(col * c->n + row, cp_cuda_seed(0)), g;
            memcpy(&g, &got[col], sizeof g);
            if (g != want)
                rc = cp_cuda_wrong(st, "out element", row * c->m + col, g, want);
        }
        free(got);
    }
    return rc;
}

const cp_measure_family cp_measure_transpose = {
    .launch = cp_measure_transpose_launch,
    .poison = cp_measure_transpose_poison,
    .verify = cp_measure_transpose_verify,
    .resources = cp_measure_transpose_resources,
    .profiled_alone = cp_measure_transpose_alone,
};
