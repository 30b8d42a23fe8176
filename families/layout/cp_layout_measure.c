/* cp_layout_measure.c: measuring the layout family: its kernel's launch and resources, and the
 * check that thread i copied field `field` of element i (AoS or SoA) to out[i]. */
#include "cp_measure_family.h"
#include "cp_layout_kernels.h"
#include "cp_layout.h"
#include "cp_layout_config.h"

static int cp_measure_layout_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    const cp_layout_config *cfg = cp_layout_config_of(c);
    CP_CUDA_CHECK(st,
                  cp_kernels_layout_launch(r->bufs[0], r->bufs[1], c->elements, cfg->fields,
                                           cfg->field, cfg->layout == CP_LAYOUT_SOA, r->s->stream));
    return CP_EXIT_OK;
}

static uint64_t cp_measure_layout_src(const cp_config *c, uint64_t i)
{
    const cp_layout_config *cfg = cp_layout_config_of(c);
    return cfg->layout == CP_LAYOUT_AOS ? cp_layout_aos_index(i, cfg->fields, cfg->field)
                                        : cp_layout_soa_index(i, c->elements, cfg->field);
}

static const cp_cuda_copy cp_measure_layout_copy = {
    .out = 1,
    .data = 0,
    .src = cp_measure_layout_src,
};

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_layout_measure = {
    .launch = cp_measure_layout_launch,
    .copy = &cp_measure_layout_copy,
    .fixed_resources = cp_kernels_layout_resources,
};
