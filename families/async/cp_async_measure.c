/* cp_async_measure.c: measuring the async family: its kernel's launch and resources, and the
 * check of out = cp_async_work(in, work) on 16 tiles (the first, the last and 14 between). */
#include "cp_measure_family.h"
#include "cp_async_kernels.h"
#include "cp_async.h"
#include "cp_fill.h"
#include "cp_async_config.h"

/* out is the last access (after in and, but for plain, the shared tile). */
static size_t cp_measure_async_out(const cp_cuda_run *r)
{
    return r->p->naccesses - 1;
}

static int cp_measure_async_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_async_config *cfg = cp_async_config_of(c);
    CP_CUDA_CHECK(st,
                  cp_kernels_async_launch((int)cfg->variant, (int)cfg->stages, r->bufs[0],
                                          r->bufs[cp_measure_async_out(r)],
                                          c->elements / CP_ASYNC_TILE, cfg->work, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_async_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    return cp_kernels_async_resources((int)cfg->variant, (int)cfg->stages, k);
}

static int cp_measure_async_poison(const cp_cuda_run *r, cp_status *st)
{
    return cp_cuda_poison_access(r, cp_measure_async_out(r), st);
}

/* Tile k of the 16 checked. */
static uint64_t cp_measure_async_checked_tile(uint64_t tiles, int k)
{
    return (tiles - 1) * (uint64_t)k / (CP_CUDA_CHUNKS - 1);
}

/* Output word `word` of c's kernel: the work on input word `word`. */
static uint32_t cp_measure_async_want(const void *ctx, uint64_t word)
{
    const cp_config *c = ctx;
    const cp_async_config *cfg = cp_async_config_of(c);
    return cp_cuda_float_bits(cp_async_work(cp_fill_value(word, cp_cuda_seed(0)), cfg->work));
}

static int cp_measure_async_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    uint64_t tiles = c->elements / CP_ASYNC_TILE;
    const cp_cuda_expect e = {"out element", 1, cp_measure_async_want, c};
    for (int k = 0; k < CP_CUDA_CHUNKS; k++)
        CP_TRY(cp_cuda_verify_words(r->bufs[cp_measure_async_out(r)],
                                    cp_measure_async_checked_tile(tiles, k) * CP_ASYNC_TILE,
                                    CP_ASYNC_TILE, &e, st));
    return CP_EXIT_OK;
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_async_measure = {
    .launch = cp_measure_async_launch,
    .poison = cp_measure_async_poison,
    .verify = cp_measure_async_verify,
    .config_resources = cp_measure_async_config_resources,
};
