/* cp_smem_measure.c: measuring the smem family: its kernel's launch and resources, profiling
 * with one block per SM, and the check of the XOR each thread wrote of what its lane read. */
#include "cp_measure_family.h"
#include "cp_smem_kernels.h"
#include "cp_smem.h"
#include "cp_smem_config.h"

/* The smem family's only global buffer: out, access 2 (accesses 0 and 1 are shared). */
#define CP_CUDA_SMEM_OUT 2

static int cp_measure_smem_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_smem_config *cfg = cp_smem_config_of(c);
    CP_CUDA_CHECK(st, cp_kernels_smem_launch(r->bufs[CP_CUDA_SMEM_OUT], (uint32_t)cfg->stride,
                                             cfg->width_bytes, (uint32_t)cfg->iterations,
                                             cfg->op == CP_OP_STORE, r->alone, r->s->stream));
    return CP_EXIT_OK;
}

static cudaError_t cp_measure_smem_config_resources(const cp_config *c, cp_kernel_resources *k)
{
    const cp_smem_config *cfg = cp_smem_config_of(c);
    return cp_kernels_smem_resources((uint32_t)cfg->stride, cfg->width_bytes,
                                     cfg->op == CP_OP_STORE, k);
}

static int cp_measure_smem_profiled_alone(const cp_config *c)
{
    (void)c;
    return 1;
}

/* The whole output. */
static int cp_measure_smem_poison(const cp_cuda_run *r, cp_status *st)
{
    return cp_cuda_poison_access(r, CP_CUDA_SMEM_OUT, st);
}

/* Thread i's word (word i of out): that of its lane, want[i % 32] for want = ctx. */
static uint32_t cp_measure_smem_want(const void *ctx, uint64_t word)
{
    return ((const uint32_t *)ctx)[word % CP_WARP_SIZE];
}

/* Every thread's word is the XOR of the elements its lane read (op load: the pattern's,
 * op store: those read back after the pattern wrote them), the same for every warp. */
static int cp_measure_smem_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    const cp_smem_config *cfg = cp_smem_config_of(c);
    uint32_t stride = (uint32_t)cfg->stride, want[CP_WARP_SIZE];
    for (uint32_t l = 0; l < CP_WARP_SIZE; l++) {
        want[l] = 0;
        if (cfg->op == CP_OP_LOAD)
            for (uint64_t t = 0; t < cfg->iterations; t++)
                want[l] ^= cp_smem_element_xor(cp_smem_index(l, stride, t), cfg->width_bytes);
        else
            for (uint32_t k = 0; k < stride; k++)
                want[l] ^= cp_smem_element_xor(cp_smem_drain_index(l, stride, k), cfg->width_bytes);
    }
    cp_cuda_expect e = {"smem thread", 0, cp_measure_smem_want, want};
    return cp_cuda_verify_words(r->bufs[CP_CUDA_SMEM_OUT], 0, c->elements, &e, st);
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_smem_measure = {
    .launch = cp_measure_smem_launch,
    .poison = cp_measure_smem_poison,
    .verify = cp_measure_smem_verify,
    .config_resources = cp_measure_smem_config_resources,
    .profiled_alone = cp_measure_smem_profiled_alone,
    .useful_shared = 1,
};
