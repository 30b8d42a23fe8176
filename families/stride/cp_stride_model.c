/* cp_stride_model.c: the model's view of the stride family: its accesses, each lane's address
 * (from cp_stride.h), classes and footprints. */
#include <string.h>

#include "cp_model_family.h"
#include "cp_stride.h"
#include "cp_stride_config.h"

/* ---- stride: access 0 reads "in", access 1 writes "out"; op picks the strided one ---- */

static int cp_stride_is_strided(const cp_config *c, size_t a)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return (cfg->op == CP_OP_LOAD) == (a == 0);
}

static void cp_model_stride_describe(const cp_config *c, cp_prediction *out)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    uint64_t n = c->elements, w = cfg->width_bytes;
    uint64_t strided_bytes = cp_stride_extent(n, cfg->stride, cfg->offset) * w;
    cp_model_linear_grid(out, n, 2);
    cp_model_element_access(&out->accesses[0], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, cfg->width_bytes,
                            cp_stride_is_strided(c, 0) ? strided_bytes : n * w,
                            cp_stride_is_strided(c, 0));
    cp_model_element_access(&out->accesses[1], "out", CP_OP_STORE, CP_SPACE_GLOBAL,
                            cfg->width_bytes, cp_stride_is_strided(c, 1) ? strided_bytes : n * w,
                            cp_stride_is_strided(c, 1));
}

/* The element thread i accesses through access a. */
static uint64_t cp_stride_element(const cp_config *c, size_t a, uint64_t i)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cp_stride_is_strided(c, a) ? cp_stride_index(i, cfg->stride, cfg->offset) : i;
}

static CP_MODEL_LINEAR_LANES_HOOK(cp_model_stride_lanes, cp_stride_element,
                                  cp_stride_config_of(c)->width_bytes)

    static size_t cp_model_stride_classes(const cp_config *c, size_t a,
                                          cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    (void)a; /* a full warp spans 32 * stride * width bytes, a multiple of 128 */
    return cp_model_linear_classes(c->elements, classes);
}

static uint64_t cp_model_stride_footprint(const cp_config *c, size_t a)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    uint64_t w = cfg->width_bytes;
    if (cp_stride_is_strided(c, a))
        return cp_model_monotone_footprint(c->elements, cfg->stride * w, cfg->offset * w, w);
    return cp_model_monotone_footprint(c->elements, w, 0, w);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_stride_model = {
    .describe = cp_model_stride_describe,
    .lanes = cp_model_stride_lanes,
    .classes = cp_model_stride_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_stride_footprint,
};
