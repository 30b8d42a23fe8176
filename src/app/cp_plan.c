/* cp_plan.c: the cartesian product of a command line's sweeps, as configurations. */
#include "cp_plan.h"

#include <stdlib.h>

#include "cp_smem.h"

/* Each family's parameters, outermost first. */
static const cp_param cp_plan_stride[] = {CP_PARAM_OP, CP_PARAM_WIDTH, CP_PARAM_OFFSET,
                                          CP_PARAM_STRIDE};
static const cp_param cp_plan_layout[] = {CP_PARAM_LAYOUT, CP_PARAM_FIELDS, CP_PARAM_FIELD};
static const cp_param cp_plan_gemm[] = {CP_PARAM_VARIANT, CP_PARAM_M, CP_PARAM_N, CP_PARAM_K};
static const cp_param cp_plan_gather[] = {CP_PARAM_SEED, CP_PARAM_RUN};
static const cp_param cp_plan_smem[] = {CP_PARAM_OP, CP_PARAM_WIDTH, CP_PARAM_STRIDE};
static const cp_param cp_plan_transpose[] = {CP_PARAM_VARIANT, CP_PARAM_M, CP_PARAM_N};
static const cp_param cp_plan_expr[] = {CP_PARAM_OP, CP_PARAM_WIDTH};

#define CP_PLAN_MAX_DIMS (4 + CP_EXPR_MAX_PARAMS)

static void cp_plan_set(cp_config *c, cp_param p, uint64_t v)
{
    switch (p) {
    case CP_PARAM_VARIANT:
        if (c->family == CP_FAMILY_TRANSPOSE)
            c->transpose = (cp_transpose_variant)v;
        else
            c->variant = (cp_gemm_variant)v;
        break;
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
    } else if (o->family == CP_FAMILY_SMEM) {
        params = cp_plan_smem;
        nparams = sizeof cp_plan_smem / sizeof *params;
    } else if (o->family == CP_FAMILY_TRANSPOSE) {
        params = cp_plan_transpose;
        nparams = sizeof cp_plan_transpose / sizeof *params;
    } else if (o->family == CP_FAMILY_EXPR) {
        params = cp_plan_expr;
        nparams = sizeof cp_plan_expr / sizeof *params;
    }
    /* the family's parameters, then (expr) the expression's, innermost last */
    const cp_sweep *dims[CP_PLAN_MAX_DIMS];
    size_t ndims = nparams;
    for (size_t i = 0; i < nparams; i++)
        dims[i] = &o->params[params[i]];
    if (o->family == CP_FAMILY_EXPR)
        for (size_t k = 0; k < o->nexpr_params; k++)
            dims[ndims++] = &o->expr_params[k];
    uint64_t n;
    *configs = NULL;
    *count = 0;
    uint64_t limit = o->allow_large_sweep ? CP_PLAN_MAX_CONFIGS_ALLOWED : CP_PLAN_MAX_CONFIGS;
    int rc = cp_sweep_product_count(dims, ndims, limit, &n, st);
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
        uint64_t values[CP_PLAN_MAX_DIMS];
        cp_sweep_product_at(dims, ndims, i, values);
        cp_config *c = &list[i];
        c->family = o->family;
        for (size_t d = 0; d < nparams; d++)
            cp_plan_set(c, params[d], values[d]);
        if (c->family == CP_FAMILY_EXPR) {
            c->expr = o->expr;
            c->nexpr_params = (uint32_t)o->nexpr_params;
            for (size_t k = 0; k < o->nexpr_params; k++)
                c->expr_params[k] = (int64_t)values[nparams + k];
        }
        if (c->family == CP_FAMILY_SMEM) {
            c->elements = (uint64_t)CP_SMEM_BLOCKS * CP_SMEM_BLOCK;
            c->iterations = CP_SMEM_ITERATIONS;
        }
        if (c->family == CP_FAMILY_STRIDE || c->family == CP_FAMILY_EXPR)
            c->elements = cp_config_elements_for_size(o->size_bytes, c->width_bytes);
        else if (c->family == CP_FAMILY_LAYOUT || c->family == CP_FAMILY_GATHER)
            c->elements = cp_config_elements_for_size(o->size_bytes, 4);
    }
    /* --explain draws the same warp of every configuration: each is checked here, before the
     * first picture is written */
    for (uint64_t i = 0; o->explain && i < n; i++) {
        rc = cp_explain_check(&list[i], o->warp, st);
        if (rc != CP_EXIT_OK) {
            free(list);
            return rc;
        }
    }
    *configs = list;
    *count = (size_t)n;
    return CP_EXIT_OK;
}
