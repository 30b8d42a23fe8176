/* cp_gather_measure.c: measuring the gather family: the index array filled on the GPU, its
 * kernel's launch and resources, and the check of the index array and of out[i] = in[idx[i]]. */
#include <inttypes.h>

#include "cp_measure_family.h"
#include "cp_gather_kernels.h"
#include "cp_gather.h"
#include "cp_gather_config.h"

static int cp_measure_gather_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    CP_CUDA_CHECK(st, cp_kernels_gather_launch(r->bufs[0], r->bufs[1], r->bufs[2], c->elements,
                                               r->s->stream));
    return CP_EXIT_OK;
}

/* Access 0 is the index array: computed on the GPU, not a fill. */
static int cp_measure_gather_fill_input(const cp_cuda_run *r, size_t a, void *buf, int *written,
                                        cp_status *st)
{
    if (a != 0)
        return CP_EXIT_OK;
    CP_CUDA_CHECK(
        st, cp_kernels_gather_index_launch(buf, r->c->elements, cp_gather_config_of(r->c)->run,
                                           cp_gather_config_of(r->c)->seed, r->s->stream));
    *written = 1;
    return CP_EXIT_OK;
}

/* The index array the GPU filled equals the one the model evaluates. */
static int cp_measure_gather_verify_index(const cp_cuda_run *r, const cp_cuda_chunk *ch,
                                          cp_status *st)
{
    const cp_config *c = r->c;
    const cp_gather_config *cfg = cp_gather_config_of(c);
    uint32_t host[256];
    uint64_t count = ch->count < 256 ? ch->count : 256;
    CP_CUDA_CHECK(st, cudaMemcpy(host, (const uint32_t *)r->bufs[0] + ch->i0, count * sizeof *host,
                                 cudaMemcpyDeviceToHost));
    for (uint64_t k = 0; k < count; k++) {
        uint64_t want = cp_gather_index(ch->i0 + k, c->elements, cfg->run, cfg->seed);
        if (host[k] != want) {
            cp_status_set(st, CP_EXIT_RUNTIME,
                          "wrong index array: idx[%" PRIu64 "] is %u, the model says %" PRIu64,
                          ch->i0 + k, (unsigned)host[k], want);
            cp_status_hint(st, "this is a bug in coalprobe; please report it");
            return CP_EXIT_RUNTIME;
        }
    }
    return CP_EXIT_OK;
}

static uint64_t cp_measure_gather_src(const cp_config *c, uint64_t i)
{
    const cp_gather_config *cfg = cp_gather_config_of(c);
    return cp_gather_index(i, c->elements, cfg->run, cfg->seed);
}

/* out (access 2) copies in (access 1) through the index array. */
static const cp_cuda_copy cp_measure_gather_copy = {
    .out = 2,
    .data = 1,
    .src = cp_measure_gather_src,
    .check_chunk = cp_measure_gather_verify_index,
};

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_gather_measure = {
    .launch = cp_measure_gather_launch,
    .copy = &cp_measure_gather_copy,
    .fixed_resources = cp_kernels_gather_resources,
    .fill_input = cp_measure_gather_fill_input,
};
