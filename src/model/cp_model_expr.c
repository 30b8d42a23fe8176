/* cp_model_expr.c: the model's view of the expr family: thread i accesses element EXPR(i) of
 * the indexed buffer (the side --op picks) and element i of the other, like the stride family
 * with a user's index. The model evaluates the expression for every thread with the checked
 * evaluator of src/model/cp_expr.c (the kernel runs the same expression compiled by NVRTC):
 * first to refuse undefined behaviour and indices outside [0, n), then to count every warp and
 * the footprint from the same lanes; the engine spreads both passes over the CPUs. */
#include <inttypes.h>

#include "cp_expr.h"
#include "cp_model_family.h"

/* Access 0 reads "in", access 1 writes "out"; op picks the indexed one, as in the stride
 * family. */
static int cp_expr_is_indexed(const cp_config *c, size_t a)
{
    return (c->op == CP_OP_LOAD) == (a == 0);
}

static void cp_expr_access(const cp_config *c, cp_access_prediction *ap, const char *name, cp_op op,
                           int indexed)
{
    cp_model_element_access(ap, name, op, CP_SPACE_GLOBAL, c->width_bytes,
                            c->elements * c->width_bytes, indexed);
}

void cp_model_expr_describe(const cp_config *c, cp_prediction *out)
{
    cp_model_linear_grid(out, c->elements, 2);
    cp_expr_access(c, &out->accesses[0], "in", CP_OP_LOAD, cp_expr_is_indexed(c, 0));
    cp_expr_access(c, &out->accesses[1], "out", CP_OP_STORE, cp_expr_is_indexed(c, 1));
}

/* The element thread i accesses through access a: EXPR(i) on the indexed side (validate checked
 * every thread already), i on the other. */
static uint64_t cp_expr_element(const cp_config *c, size_t a, uint64_t i)
{
    if (!cp_expr_is_indexed(c, a))
        return i;
    return (uint64_t)cp_expr_value(c->expr, (int64_t)i, (int64_t)c->elements, c->expr_params);
}

CP_MODEL_LINEAR_LANES_HOOK(cp_model_expr_lanes, cp_expr_element, c->width_bytes)

size_t cp_model_expr_classes(const cp_config *c, size_t a,
                             cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    if (cp_expr_is_indexed(c, a))
        return CP_MODEL_EVERY_WARP; /* nothing known of a user's expression */
    return cp_model_linear_classes(c->elements, classes);
}

/* The dense side touches every sector of its buffer; the indexed side is counted exactly by
 * the engine, from the lanes it evaluates (one bit per sector of the buffer: n * width / 32
 * bits, 2 MB for the default 64 MB). */
uint64_t cp_model_expr_footprint(const cp_config *c, size_t a)
{
    uint64_t w = c->width_bytes;
    if (!cp_expr_is_indexed(c, a))
        return cp_model_monotone_footprint(c->elements, w, 0, w);
    return CP_MODEL_FOOTPRINT_FROM_LANES;
}

/* The index of every thread in [begin, end): defined (no undefined behaviour on the way) and
 * inside [0, n). */
int cp_model_expr_validate(const cp_config *c, uint64_t begin, uint64_t end, uint64_t *failed,
                           cp_status *st)
{
    *failed = begin;
    if (!c->expr)
        return cp_status_set(st, CP_EXIT_USAGE, "expr: no --index expression");
    for (uint64_t i = begin; i < end; i++) {
        int64_t v;
        int rc = cp_expr_eval(c->expr, (int64_t)i, (int64_t)c->elements, c->expr_params, &v, st);
        if (rc != CP_EXIT_OK) {
            *failed = i;
            return rc;
        }
        if (v < 0 || (uint64_t)v >= c->elements) {
            *failed = i;
            if (!st)
                return CP_EXIT_USAGE;
            cp_status_set(
                st, CP_EXIT_USAGE,
                "--index: the expression at position 0 gives %" PRId64 " for i = %" PRIu64
                " (n = %" PRIu64
                "), outside the buffer's elements 0..n-1 (keep it inside, e.g. with %% n)",
                v, i, c->elements);
            cp_expr_hint_at(c->expr, 0, st);
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}
