/* test_measure_family.c: the measure layer's table of families, without a GPU: every family of
 * the enumeration has its launch, poison, check and resources; the steps only some families
 * take belong to those; the checks' messages; what the resources of a family report before any
 * CUDA call (cuBLAS's GEMM, an expr kernel not loaded). */
#include "measure/cp_measure_family.h"
#include "cp_test.h"
#include "cp_gemm_config.h"
#include "cp_transpose_config.h"

static int alone(const cp_measure_family *f, const cp_config *c)
{
    return f->profiled_alone && f->profiled_alone(c);
}

int main(void)
{
    for (int i = 0; i < CP_FAMILY_COUNT; i++) {
        const cp_measure_family *f = cp_measure_family_of((cp_family)i);
        CHECK(f != NULL);
        if (!f)
            continue;
        /* a launch, and the resources in exactly one of their three forms */
        CHECK(f->launch);
        CHECK(!!f->fixed_resources + !!f->config_resources + !!f->resources == 1);
        /* the output check: the family's own, or the common one of its copy */
        CHECK(f->copy ? !f->poison && !f->verify && f->copy->src : f->poison && f->verify);
        for (int j = 0; j < i; j++)
            CHECK(f != cp_measure_family_of((cp_family)j));
        /* load_kernel and loaded_kernel come together: run-time compiled kernels */
        CHECK(!f->load_kernel == !f->loaded_kernel);
    }
    CHECK(cp_measure_family_of(CP_FAMILY_COUNT) == NULL);
    CHECK(cp_measure_family_of((cp_family)-1) == NULL);

    const cp_measure_family *stride = cp_measure_family_of(CP_FAMILY_STRIDE),
                            *layout = cp_measure_family_of(CP_FAMILY_LAYOUT),
                            *gemm = cp_measure_family_of(CP_FAMILY_GEMM),
                            *gather = cp_measure_family_of(CP_FAMILY_GATHER),
                            *smem = cp_measure_family_of(CP_FAMILY_SMEM),
                            *transpose = cp_measure_family_of(CP_FAMILY_TRANSPOSE),
                            *expr = cp_measure_family_of(CP_FAMILY_EXPR),
                            *readonly = cp_measure_family_of(CP_FAMILY_READONLY),
                            *async = cp_measure_family_of(CP_FAMILY_ASYNC);
    /* each family's entry is its own measure part's, in the registry's order */
    CHECK(stride == &cp_stride_measure && layout == &cp_layout_measure &&
          gemm == &cp_gemm_measure && gather == &cp_gather_measure && smem == &cp_smem_measure &&
          transpose == &cp_transpose_measure && expr == &cp_expr_measure &&
          readonly == &cp_readonly_measure && async == &cp_async_measure);

    /* one block per SM when profiled: smem, and the transposes through shared memory */
    cp_config c;
    memset(&c, 0, sizeof c);
    CHECK(alone(smem, &c));
    cp_transpose_config_of(&c)->variant = CP_TRANSPOSE_NAIVE;
    CHECK(!alone(transpose, &c));
    cp_transpose_config_of(&c)->variant = CP_TRANSPOSE_TILED;
    CHECK(alone(transpose, &c));
    cp_transpose_config_of(&c)->variant = CP_TRANSPOSE_PADDED;
    CHECK(alone(transpose, &c));
    CHECK(!alone(stride, &c) && !alone(layout, &c) && !alone(gemm, &c) && !alone(gather, &c) &&
          !alone(expr, &c));

    /* the steps one family takes */
    for (int i = 0; i < CP_FAMILY_COUNT; i++) {
        const cp_measure_family *f = cp_measure_family_of((cp_family)i);
        if (!f)
            continue;
        CHECK(!f->useful_shared == (f != smem));
        CHECK(!f->fill_input == (f != gather && f != readonly));
        CHECK(!f->after_timing == (f != gemm && f != readonly));
        CHECK(!f->load_kernel == (f != expr));
        CHECK(!f->release == (f != gemm && f != expr));
        CHECK(!f->copy == (f != stride && f != layout && f != gather && f != readonly));
    }

    /* cuBLAS's GEMM: no resources, and why, without asking CUDA */
    cp_status st;
    cp_status_clear(&st);
    cp_resources r;
    cp_kernel_resources k;
    memset(&r, 0, sizeof r);
    memset(&c, 0, sizeof c);
    c.family = CP_FAMILY_GEMM;
    cp_gemm_config_of(&c)->variant = CP_GEMM_CUBLAS;
    CHECK(gemm->resources(&c, NULL, &k, &r, &st) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(r.reason, "not coalprobe's kernel: cuBLAS chooses its own kernels");
    CHECK(!r.known);

    /* an expr configuration whose kernel was not loaded */
    memset(&r, 0, sizeof r);
    c.family = CP_FAMILY_EXPR;
    CHECK(expr->resources(&c, NULL, &k, &r, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "expr: no kernel loaded");
    CHECK(r.reason[0] == '\0');

    /* the checks' messages */
    CHECK(cp_cuda_seed(0) == 1 && cp_cuda_seed(2) == 3);
    cp_status_clear(&st);
    CHECK(cp_cuda_wrong(&st, "output word", 7, 1.5f, 2.0f) == CP_EXIT_RUNTIME);
    CHECK(strcmp(st.message, "wrong kernel output: output word 7 is 1.5, expected 2") == 0);
    CHECK_STR_CONTAINS(st.hint, "coalprobe's kernel or index functions");
    cp_status_clear(&st);
    CHECK(cp_cuda_wrong_word(&st, "smem thread", 33, 0xdeadbeef, 0x1) == CP_EXIT_RUNTIME);
    CHECK(strcmp(st.message, "wrong kernel output: smem thread 33 is 0xdeadbeef, expected "
                             "0x00000001") == 0);

    return cp_test_finish();
}
