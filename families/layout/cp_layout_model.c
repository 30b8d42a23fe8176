/* cp_layout_model.c: the model's view of the layout family: its accesses, each lane's address
 * (from cp_layout.h), classes and footprints. */
#include "cp_layout.h"
#include "cp_model_family.h"
#include "cp_layout_config.h"

/* ---- layout: access 0 reads one field of "in" (AoS or SoA), access 1 writes "out" ---- */

static void cp_model_layout_describe(const cp_config *c, cp_prediction *out)
{
    const cp_layout_config *cfg = cp_layout_config_of(c);
    uint64_t n = c->elements;
    cp_model_linear_grid(out, n, 2);
    cp_model_element_access(&out->accesses[0], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, 4,
                            cp_layout_extent(n, cfg->fields) * 4, 1);
    cp_model_element_access(&out->accesses[1], "out", CP_OP_STORE, CP_SPACE_GLOBAL, 4, n * 4, 0);
}

static uint64_t cp_layout_element(const cp_config *c, size_t a, uint64_t i)
{
    const cp_layout_config *cfg = cp_layout_config_of(c);
    if (a == 1)
        return i;
    return cfg->layout == CP_LAYOUT_AOS ? cp_layout_aos_index(i, cfg->fields, cfg->field)
                                        : cp_layout_soa_index(i, c->elements, cfg->field);
}

static CP_MODEL_LINEAR_LANES_HOOK(cp_model_layout_lanes, cp_layout_element, 4)

    static size_t cp_model_layout_classes(const cp_config *c, size_t a,
                                          cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    (void)a; /* a full warp spans 32 * fields * 4 (AoS) or 128 (SoA) bytes */
    return cp_model_linear_classes(c->elements, classes);
}

static uint64_t cp_model_layout_footprint(const cp_config *c, size_t a)
{
    const cp_layout_config *cfg = cp_layout_config_of(c);
    if (a == 1)
        return cp_model_monotone_footprint(c->elements, 4, 0, 4);
    if (cfg->layout == CP_LAYOUT_AOS)
        return cp_model_monotone_footprint(c->elements, (uint64_t)cfg->fields * 4,
                                           (uint64_t)cfg->field * 4, 4);
    return cp_model_monotone_footprint(c->elements, 4, (uint64_t)cfg->field * c->elements * 4, 4);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_layout_model = {
    .describe = cp_model_layout_describe,
    .lanes = cp_model_layout_lanes,
    .classes = cp_model_layout_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_layout_footprint,
};
