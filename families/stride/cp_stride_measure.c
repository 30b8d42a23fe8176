/* cp_stride_measure.c: measuring the stride family: its kernel's launch and resources, and the
 * check that thread i copied element cp_stride_index(i) (op load) or to it (op store). */
#include "cp_measure_family.h"
#include "cp_stride_kernels.h"
#include "cp_stride.h"
#include "cp_stride_config.h"

static int cp_measure_stride_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_stride_config *cfg = cp_stride_config_of(c);
    CP_CUDA_CHECK(st, cp_kernels_stride_launch(r->bufs[0], r->bufs[1], c->elements, cfg->stride,
                                               cfg->offset, cfg->width_bytes,
                                               cfg->op == CP_OP_STORE, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_stride_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cp_kernels_stride_resources(cfg->width_bytes, cfg->op == CP_OP_STORE, k);
}

static uint64_t cp_measure_stride_words(const cp_config *c)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cfg->width_bytes / 4;
}

/* The strided side is the input of a load and the output of a store. */
static uint64_t cp_measure_stride_src(const cp_config *c, uint64_t i)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cfg->op == CP_OP_STORE ? i : cp_stride_index(i, cfg->stride, cfg->offset);
}

static uint64_t cp_measure_stride_dst(const cp_config *c, uint64_t i)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cfg->op == CP_OP_STORE ? cp_stride_index(i, cfg->stride, cfg->offset) : i;
}

static const cp_cuda_copy cp_measure_stride_copy = {
    .out = 1,
    .data = 0,
    .words = cp_measure_stride_words,
    .src = cp_measure_stride_src,
    .dst = cp_measure_stride_dst,
};

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_stride_measure = {
    .launch = cp_measure_stride_launch,
    .copy = &cp_measure_stride_copy,
    .config_resources = cp_measure_stride_config_resources,
};
