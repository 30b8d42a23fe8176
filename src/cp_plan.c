/* cp_plan.c: the cartesian product of a command line's sweeps, as configurations. */
#include "cp_plan.h"

#include <stdlib.h>

/* Each family's parameters, outermost first. */
static const cp_param cp_plan_stride[] = {CP_PARAM_OP, CP_PARAM_WIDTH, CP_PARAM_OFFSET,
                                          CP_PARAM_STRIDE};
static const cp_param cp_plan_layout[] = {CP_PARAM_LAYOUT, CP_PARAM_FIELDS, CP_PARAM_FIELD};
static const cp_param cp_plan_gemm[] = {CP_PARAM_VARIANT, CP_PARAM_M, CP_PARAM_N, CP_PARAM_K};
static const cp_param cp_plan_gather[] = {CP_PARAM_SEED, CP_PARAM_RUN};

static void cp_plan_set(cp_config *c, cp_param p, uint64_t v)
{
    switch (p) {
    case CP_PARAM_STRIDE:
        c->stride = v;
        break;
    case CP_PARAM_OFFSET:
        c->offset = v;
        break;
    case CP_PARAM_WIDTH:
        c->width_bytes = (uint32_t)v;
        break;
    case CP_PARAM_OP:
        c->op = (cp_op)v;
        break;
    case CP_PARAM_LAYOUT:
        c->layout = (cp_layout)v;
        break;
    case CP_PARAM_FIELDS:
        c->fields = (uint32_t)v;
        break;
    case CP_PARAM_FIELD:
        c->field = (uint32_t)v;
        break;
    case CP_PARAM_VARIANT:
        c->variant = (cp_gemm_variant)v;
        break;
    case CP_PARAM_M:
        c->m = v;
        break;
    case CP_PARAM_N:
        c->n = v;
        break;
    case CP_PARAM_K:
        c->k = v;
        break;
    case CP_PARAM_RUN:
        c->run = v;
        break;
    case CP_PARAM_SEED:
        c->seed = v;
        break;
    default:
        break;
    }
}

int cp_plan_build(const cp_options *o, cp_config **configs, size_t *count, cp_status *st)
{
    const cp_param *params = cp_plan_gemm;
    size_t nparams = sizeof cp_plan_gemm / sizeof *params;
    if (o->family == CP_FAMILY_STRIDE) {
        params = cp_plan_stride;
        nparams = sizeof cp_plan_stride / sizeof *params;
    } else if (o->family == CP_FAMILY_LAYOUT) {
        params = cp_plan_layout;
        nparams = sizeof cp_plan_layout / sizeof *params;
    } else if (o->family == CP_FAMILY_GATHER) {
        params = cp_plan_gather;
        nparams = sizeof cp_plan_gather / sizeof *params;
    }
    const cp_sweep *dims[4];
    for (size_t i = 0; i < nparams; i++)
        dims[i] = &o->params[params[i]];
    uint64_t n;
    *configs = NULL;
    *count = 0;
    uint64_t limit = o->allow_large_sweep ? CP_PLAN_MAX_CONFIGS_ALLOWED : CP_PLAN_MAX_CONFIGS;
    int rc = cp_sweep_product_count(dims, nparams, limit, &n, st);
    if (rc != CP_EXIT_OK) {
        if (!o->allow_large_sweep)
            cp_status_hint(st, "narrow the sweep, or confirm it with --allow-large-sweep (up to "
                               "1,000,000 configurations)");
        return rc;
    }
    cp_config *list = calloc(n ? n : 1, sizeof *list);
    if (!list)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %llu configurations",
                             (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t values[4];
        cp_sweep_product_at(dims, nparams, i, values);
        cp_config *c = &list[i];
        c->family = o->family;
        for (size_t d = 0; d < nparams; d++)
            cp_plan_set(c, params[d], values[d]);
        if (c->family == CP_FAMILY_STRIDE)
            c->elements = cp_config_elements_for_size(o->size_bytes, c->width_bytes);
        else if (c->family == CP_FAMILY_LAYOUT || c->family == CP_FAMILY_GATHER)
            c->elements = cp_config_elements_for_size(o->size_bytes, 4);
    }
    *configs = list;
    *count = (size_t)n;
    return CP_EXIT_OK;
}
