/* cp_plan.c: the cartesian product of a command line's sweeps, as configurations. */
#include "cp_plan.h"

#include <stdlib.h>

#define CP_PLAN_MAX_DIMS (4 + CP_EXPR_MAX_PARAMS)

/* Leaves out of list[0..*n) the configurations that do not exist, keeping the order. */
static int cp_plan_drop_absent(const cp_family_desc *fd, cp_config *list, uint64_t *n,
                               cp_plan_absent *absent, cp_status *st)
{
    uint64_t kept = 0;
    for (uint64_t i = 0; fd->absent && i < *n; i++) {
        const char *why = fd->absent(&list[i]);
        if (why && absent->count++ == 0)
            absent->reason = why;
        if (!why)
            list[kept++] = list[i];
    }
    if (!fd->absent || kept == *n)
        return CP_EXIT_OK;
    *n = kept;
    if (kept == 0) {
        cp_status_set(st, CP_EXIT_USAGE, "no configuration of the sweep exists: %s",
                      absent->reason);
        cp_status_hint(st, "see coalprobe --list for what each parameter takes");
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}

int cp_plan_build(const cp_options *o, cp_config **configs, size_t *count, cp_plan_absent *absent,
                  cp_status *st)
{
    absent->count = 0;
    absent->reason = NULL;
    /* the family's parameters, outermost first, then the expression's (expr), innermost last */
    const cp_family_desc *fd = cp_family_get(o->family);
    size_t nparams = fd->nparams;
    const cp_sweep *dims[CP_PLAN_MAX_DIMS];
    size_t ndims = nparams;
    for (size_t i = 0; i < nparams; i++)
        dims[i] = &o->params[cp_param_index(&fd->params[i])];
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
            fd->params[d].set(c, values[d]);
        c->expr = o->expr;
        c->nexpr_params = (uint32_t)o->nexpr_params;
        for (size_t k = 0; k < o->nexpr_params; k++)
            c->expr_params[k] = (int64_t)values[nparams + k];
        if (fd->init)
            fd->init(c, o->size_bytes);
    }
    rc = cp_plan_drop_absent(fd, list, &n, absent, st);
    if (rc != CP_EXIT_OK) {
        free(list);
        return rc;
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
