/* cp_test_model.h: what the model unit tests share: configuration builders, one per family, a
 * prediction that must succeed, a parsed expression, and counts compared field by field. */
#ifndef CP_TEST_MODEL_H
#define CP_TEST_MODEL_H

#include <string.h>

#include "model/cp_expr.h"
#include "model/cp_model.h"
#include "cp_test.h"

/* A zeroed configuration of a family over n elements (threads) of w-byte accesses of one kind
 * (op); the builders below fill in the rest. */
static inline cp_config cp_test_config(cp_family family, uint32_t width, cp_op op, uint64_t n)
{
    cp_config c;
    memset(&c, 0, sizeof c);
    c.family = family;
    c.width_bytes = width, c.op = op, c.elements = n;
    return c;
}

static inline cp_config stride_cfg(uint64_t stride, uint64_t offset, uint32_t width, cp_op op,
                                   uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_STRIDE, width, op, n);
    c.stride = stride, c.offset = offset;
    return c;
}

static inline cp_config layout_cfg(cp_layout layout, uint32_t fields, uint32_t field, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_LAYOUT, 0, CP_OP_LOAD, n);
    c.layout = layout, c.fields = fields, c.field = field;
    return c;
}

/* m x n times n x k: the dimensions name no element count */
static inline cp_config gemm_cfg(cp_gemm_variant v, uint64_t m, uint64_t n, uint64_t k)
{
    cp_config c = cp_test_config(CP_FAMILY_GEMM, 0, CP_OP_LOAD, 0);
    c.variant = v, c.m = m, c.n = n, c.k = k;
    return c;
}

static inline cp_config gather_cfg(uint64_t run, uint64_t seed, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_GATHER, 0, CP_OP_LOAD, n);
    c.run = run, c.seed = seed;
    return c;
}

static inline cp_config smem_cfg(uint64_t stride, uint32_t width, cp_op op, uint64_t threads,
                                 uint64_t iterations)
{
    cp_config c = cp_test_config(CP_FAMILY_SMEM, width, op, threads);
    c.stride = stride;
    c.iterations = iterations; /* steps of the pattern per thread */
    return c;
}

static inline cp_config transpose_cfg(cp_transpose_variant v, uint64_t m, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_TRANSPOSE, 0, CP_OP_LOAD, 0);
    c.transpose = v, c.m = m, c.n = n;
    return c;
}

/* A user expression with no parameters set (the caller sets them). */
static inline cp_config expr_cfg(const cp_expr *e, cp_op op, uint32_t width, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_EXPR, width, op, n);
    c.expr = e;
    return c;
}

/* The prediction of c, which must succeed (the message printed when it does not). */
static inline cp_prediction predict(const cp_config *c)
{
    cp_prediction p;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_model_predict(c, &p, &st);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "  %s\n", st.message);
    return p;
}

/* The fast prediction of c and the enumeration of every warp (up to limit lanes); 0, with a
 * failed check and the message printed, when the enumeration fails. */
static inline int cp_test_fast_and_exact(const cp_config *c, uint64_t limit, cp_prediction *fast,
                                         cp_prediction *exact)
{
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_model_predict(c, fast, &st) == CP_EXIT_OK);
    int rc = cp_model_predict_exact(c, limit, exact, &st);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "  %s\n", st.message);
    return rc == CP_EXIT_OK;
}

/* The global-memory counts a and b agree on every field the model fills in for them. */
static inline int same_counts(const cp_counts *a, const cp_counts *b)
{
    return a->requests == b->requests && a->sectors == b->sectors && a->lines == b->lines &&
           a->bytes_requested == b->bytes_requested && a->ideal_sectors == b->ideal_sectors &&
           a->footprint_sectors == b->footprint_sectors;
}

#endif
