/* cp_test_model.h: what the model unit tests share: configuration builders, one per family (through
 * its own configuration), a prediction that must succeed, a parsed expression, and counts compared
 * field by field. */
#ifndef CP_TEST_MODEL_H
#define CP_TEST_MODEL_H

#include <string.h>

#include "model/cp_expr.h"
#include "model/cp_model.h"
#include "cp_test.h"
/* the families' own configurations (white-box: a test names the families it builds) */
#include "cp_async_config.h"
#include "cp_expr_config.h"
#include "cp_gather_config.h"
#include "cp_gemm_config.h"
#include "cp_layout_config.h"
#include "cp_readonly_config.h"
#include "cp_smem_config.h"
#include "cp_stride_config.h"
#include "cp_transpose_config.h"

/* A zeroed configuration of a family over n elements (threads) of w-byte accesses of one kind
 * (op), width and op set through the family's fields when it has them; the builders below fill
 * in the rest of the family's own configuration. */
static inline cp_config cp_test_config(cp_family family, uint32_t width, cp_op op, uint64_t n)
{
    cp_config c;
    memset(&c, 0, sizeof c);
    c.family = family;
    c.elements = n;
    const cp_family_desc *d = cp_family_get(family);
    const cp_family_field *fw = d ? cp_family_field_of(d, "width_bytes") : NULL;
    const cp_family_field *fo = d ? cp_family_field_of(d, "op") : NULL;
    if (fw && fw->set)
        fw->set(&c, width);
    if (fo && fo->set)
        fo->set(&c, op);
    return c;
}

static inline cp_config stride_cfg(uint64_t stride, uint64_t offset, uint32_t width, cp_op op,
                                   uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_STRIDE, width, op, n);
    cp_stride_config_of(&c)->stride = stride, cp_stride_config_of(&c)->offset = offset;
    return c;
}

static inline cp_config layout_cfg(cp_layout layout, uint32_t fields, uint32_t field, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_LAYOUT, 0, CP_OP_LOAD, n);
    cp_layout_config *l = cp_layout_config_of(&c);
    l->layout = layout, l->fields = fields, l->field = field;
    return c;
}

/* m x n times n x k: the dimensions name no element count */
static inline cp_config gemm_cfg(cp_gemm_variant v, uint64_t m, uint64_t n, uint64_t k)
{
    cp_config c = cp_test_config(CP_FAMILY_GEMM, 0, CP_OP_LOAD, 0);
    cp_gemm_config *g = cp_gemm_config_of(&c);
    g->variant = v, g->m = m, g->n = n, g->k = k;
    return c;
}

static inline cp_config gather_cfg(uint64_t run, uint64_t seed, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_GATHER, 0, CP_OP_LOAD, n);
    cp_gather_config_of(&c)->run = run, cp_gather_config_of(&c)->seed = seed;
    return c;
}

static inline cp_config smem_cfg(uint64_t stride, uint32_t width, cp_op op, uint64_t threads,
                                 uint64_t iterations)
{
    cp_config c = cp_test_config(CP_FAMILY_SMEM, width, op, threads);
    cp_smem_config_of(&c)->stride = stride;
    cp_smem_config_of(&c)->iterations = iterations; /* steps of the pattern per thread */
    return c;
}

static inline cp_config transpose_cfg(cp_transpose_variant v, uint64_t m, uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_TRANSPOSE, 0, CP_OP_LOAD, 0);
    cp_transpose_config *t = cp_transpose_config_of(&c);
    t->variant = v, t->m = m, t->n = n;
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
