/* cp_gather_model.c: the model's view of the gather family: a dense load of the index array,
 * a load of `in` at the indices it holds (cp_gather.h: the same values the GPU's
 * index array holds), a dense store. The gathered load has no structure to exploit: every
 * warp is counted. */
#include "cp_gather.h"
#include "cp_model_family.h"
#include "cp_gather_config.h"

enum { CP_GATHER_IDX, CP_GATHER_IN, CP_GATHER_OUT };

static void cp_model_gather_describe(const cp_config *c, cp_prediction *out)
{
    uint64_t n = c->elements;
    cp_model_linear_grid(out, n, 3);
    cp_model_element_access(&out->accesses[CP_GATHER_IDX], "idx", CP_OP_LOAD, CP_SPACE_GLOBAL, 4,
                            n * 4, 0);
    cp_model_element_access(&out->accesses[CP_GATHER_IN], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, 4,
                            n * 4, 1);
    cp_model_element_access(&out->accesses[CP_GATHER_OUT], "out", CP_OP_STORE, CP_SPACE_GLOBAL, 4,
                            n * 4, 0);
}

/* The element thread i accesses through access a: in at idx[i], idx and out at i. */
static uint64_t cp_gather_element(const cp_config *c, size_t a, uint64_t i)
{
    const cp_gather_config *cfg = cp_gather_config_of(c);
    return a == CP_GATHER_IN ? cp_gather_index(i, c->elements, cfg->run, cfg->seed) : i;
}

static CP_MODEL_LINEAR_LANES_HOOK(cp_model_gather_lanes, cp_gather_element, 4)

    static size_t cp_model_gather_classes(const cp_config *c, size_t a,
                                          cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    if (a == CP_GATHER_IN)
        return CP_MODEL_EVERY_WARP;
    return cp_model_linear_classes(c->elements, classes); /* the dense accesses */
}

/* A permutation reads every element once: every sector of each buffer. */
static uint64_t cp_model_gather_footprint(const cp_config *c, size_t a)
{
    (void)a;
    return cp_model_monotone_footprint(c->elements, 4, 0, 4);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_gather_model = {
    .describe = cp_model_gather_describe,
    .lanes = cp_model_gather_lanes,
    .classes = cp_model_gather_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_gather_footprint,
    .thread_by_thread = 1,
};
