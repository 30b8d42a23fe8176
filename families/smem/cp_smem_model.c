/* cp_smem_model.c: the model's view of the smem family (cp_smem.h): the shared-memory
 * pattern, the fill (op load) or drain (op store) around it, and the dense global store of each
 * thread's result. Every warp makes the same accesses, so one warp stands for all. */
#include "cp_model_family.h"
#include "cp_smem.h"
#include "cp_smem_config.h"

enum { CP_SMEM_FIRST, CP_SMEM_SECOND, CP_SMEM_OUT };

/* The access indices of the pattern and of its companion (fill or drain). */
static size_t cp_smem_pattern_access(const cp_config *c)
{
    const cp_smem_config *cfg = cp_smem_config_of(c);
    return cfg->op == CP_OP_LOAD ? CP_SMEM_SECOND : CP_SMEM_FIRST;
}

static void cp_smem_set(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                        uint32_t lane_bytes, uint64_t iterations, uint64_t bytes, int strided)
{
    cp_model_access(ap, name, op, space, lane_bytes, 1, iterations, bytes, strided);
}

static void cp_model_smem_describe(const cp_config *c, cp_prediction *out)
{
    const cp_smem_config *cfg = cp_smem_config_of(c);
    uint32_t stride = (uint32_t)cfg->stride, w = cfg->width_bytes;
    uint64_t shared_bytes = (uint64_t)cp_smem_elements(stride) * w;
    out->threads = c->elements;
    out->warps = c->elements / CP_WARP_SIZE; /* whole blocks of CP_SMEM_BLOCK threads */
    out->naccesses = 3;
    if (cfg->op == CP_OP_LOAD) {
        cp_smem_set(&out->accesses[CP_SMEM_FIRST], "fill", CP_OP_STORE, CP_SPACE_SHARED, w, stride,
                    shared_bytes, 0);
        cp_smem_set(&out->accesses[CP_SMEM_SECOND], "smem", CP_OP_LOAD, CP_SPACE_SHARED, w,
                    cfg->iterations, shared_bytes, 1);
    } else {
        cp_smem_set(&out->accesses[CP_SMEM_FIRST], "smem", CP_OP_STORE, CP_SPACE_SHARED, w,
                    cfg->iterations, shared_bytes, 1);
        cp_smem_set(&out->accesses[CP_SMEM_SECOND], "drain", CP_OP_LOAD, CP_SPACE_SHARED, w, stride,
                    shared_bytes, 0);
    }
    cp_smem_set(&out->accesses[CP_SMEM_OUT], "out", CP_OP_STORE, CP_SPACE_GLOBAL, 4, 1,
                c->elements * 4, 0);
}

static uint32_t cp_model_smem_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                    uint64_t t, uint64_t addr[CP_WARP_SIZE])
{
    const cp_smem_config *cfg = cp_smem_config_of(c);
    (void)ins;
    uint32_t stride = (uint32_t)cfg->stride;
    for (uint32_t l = 0; l < CP_WARP_SIZE; l++) {
        uint64_t e;
        if (a == CP_SMEM_OUT)
            e = w * CP_WARP_SIZE + l; /* out[i], 4 bytes */
        else if (a == cp_smem_pattern_access(c))
            e = cp_smem_index(l, stride, t);
        else if (cfg->op == CP_OP_LOAD)
            e = cp_smem_fill_index(l, (uint32_t)t);
        else
            e = cp_smem_drain_index(l, stride, (uint32_t)t);
        addr[l] = e * (a == CP_SMEM_OUT ? 4 : cfg->width_bytes);
    }
    return 0xFFFFFFFFu;
}

/* All warps access shared memory alike; the global store moves by 128 bytes a warp. */
static size_t cp_model_smem_classes(const cp_config *c, size_t a,
                                    cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    (void)a;
    classes[0] = (cp_warp_class){0, c->elements / CP_WARP_SIZE};
    return c->elements >= CP_WARP_SIZE ? 1 : 0;
}

/* Each iteration moves every lane by 32 elements (the wrap-around by a multiple of 32 elements
 * too): a multiple of 128 bytes, which leaves banks and conflicts as they were. */
static uint64_t cp_model_smem_iteration_step(const cp_config *c, size_t a)
{
    const cp_smem_config *cfg = cp_smem_config_of(c);
    return a == CP_SMEM_OUT ? 0 : 32u * (uint64_t)cfg->width_bytes;
}

static uint64_t cp_model_smem_footprint(const cp_config *c, size_t a)
{
    return a == CP_SMEM_OUT ? cp_model_monotone_footprint(c->elements, 4, 0, 4) : 0;
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_smem_model = {
    .describe = cp_model_smem_describe,
    .lanes = cp_model_smem_lanes,
    .classes = cp_model_smem_classes,
    .iteration_step = cp_model_smem_iteration_step,
    .footprint = cp_model_smem_footprint,
};
