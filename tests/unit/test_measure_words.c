/* test_measure_words.c: the output checks' comparison of host words against expected values
 * (cp_cuda_check_words), as raw words and as floats, and the resources hook called in its
 * general form through cp_measure_family_resources, all without a GPU. */
#include <math.h>

#include "measure/cp_measure_family.h"
#include "cp_gather_kernels.h"
#include "cp_layout_kernels.h"
#include "cp_gemm_config.h"
#include "cp_test.h"

/* Word w is expected to be 3 * w (raw words). */
static uint32_t triple(const void *ctx, uint64_t word)
{
    (void)ctx;
    return (uint32_t)(3 * word);
}

/* Word w is expected to be ctx[0] + w, as a float. */
static uint32_t float_from(const void *ctx, uint64_t word)
{
    return cp_cuda_float_bits(*(const float *)ctx + (float)word);
}

static void test_raw_words(void)
{
    cp_cuda_expect e = {"smem thread", 0, triple, NULL};
    uint32_t got[4] = {30, 33, 36, 39}; /* words 10 .. 13 */
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_cuda_check_words(got, 10, 4, &e, &st) == CP_EXIT_OK);
    CHECK(cp_cuda_check_words(got, 0, 0, &e, &st) == CP_EXIT_OK); /* nothing to check */
    /* the first wrong word, named by its device offset */
    got[2] = 0xdeadbeef;
    got[3] = 0;
    CHECK(cp_cuda_check_words(got, 10, 4, &e, &st) == CP_EXIT_RUNTIME);
    CHECK(strcmp(st.message, "wrong kernel output: smem thread 12 is 0xdeadbeef, expected "
                             "0x00000024") == 0);
    CHECK_STR_CONTAINS(st.hint, "coalprobe's kernel or index functions");
    /* from another offset every word is wrong: the first one is reported */
    cp_status_clear(&st);
    CHECK(cp_cuda_check_words(got, 11, 4, &e, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "smem thread 11 is 0x0000001e, expected 0x00000021");
}

static void test_float_words(void)
{
    float base = 1.25f;
    cp_cuda_expect e = {"out element", 1, float_from, &base};
    uint32_t got[3] = {cp_cuda_float_bits(3.25f), cp_cuda_float_bits(4.25f),
                       cp_cuda_float_bits(5.25f)}; /* words 2 .. 4 */
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_cuda_check_words(got, 2, 3, &e, &st) == CP_EXIT_OK);
    /* the poison (0xFF bytes, a NaN) never passes, though its bits are compared as a float */
    got[1] = 0xFFFFFFFFu;
    CHECK(cp_cuda_check_words(got, 2, 3, &e, &st) == CP_EXIT_RUNTIME);
    CHECK(strcmp(st.message, "wrong kernel output: out element 3 is nan, expected 4.25") == 0 ||
          strcmp(st.message, "wrong kernel output: out element 3 is -nan, expected 4.25") == 0);
    /* floats compare as floats: -0 is +0 */
    base = 0.0f;
    uint32_t zero[1] = {cp_cuda_float_bits(-0.0f)};
    cp_status_clear(&st);
    CHECK(cp_cuda_check_words(zero, 0, 1, &e, &st) == CP_EXIT_OK);
    CHECK(cp_cuda_float_bits(1.0f) == 0x3f800000u);
}

/* The general form of the resources hook, through the call every form goes through: cuBLAS's
 * GEMM reports why it has none, an expr kernel not loaded is an error (no CUDA call either). */
static void test_resources_call(void)
{
    cp_config c;
    memset(&c, 0, sizeof c);
    c.family = CP_FAMILY_GEMM;
    cp_gemm_config_of(&c)->variant = CP_GEMM_CUBLAS;
    cp_resources r;
    memset(&r, 0, sizeof r);
    cp_kernel_resources k;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_measure_family_resources(cp_measure_family_of(CP_FAMILY_GEMM), &c, NULL, &k, &r,
                                      &st) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(r.reason, "not coalprobe's kernel: cuBLAS chooses its own kernels");
    memset(&r, 0, sizeof r);
    c.family = CP_FAMILY_EXPR;
    CHECK(cp_measure_family_resources(cp_measure_family_of(CP_FAMILY_EXPR), &c, NULL, &k, &r,
                                      &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "expr: no kernel loaded");
    /* the families of built-in kernels name their kernels' resources functions */
    CHECK(cp_measure_family_of(CP_FAMILY_LAYOUT)->fixed_resources == cp_kernels_layout_resources);
    CHECK(cp_measure_family_of(CP_FAMILY_GATHER)->fixed_resources == cp_kernels_gather_resources);
    CHECK(cp_measure_family_of(CP_FAMILY_STRIDE)->config_resources &&
          cp_measure_family_of(CP_FAMILY_SMEM)->config_resources &&
          cp_measure_family_of(CP_FAMILY_TRANSPOSE)->config_resources);
}

int main(void)
{
    test_raw_words();
    test_float_words();
    test_resources_call();
    return cp_test_finish();
}
