/* test_inject_tmaps.c: the injection library's tensor map records without a GPU: CUPTI's
 * callbacks of the encode calls fed by hand (the driver's parameter structs, as CUPTI hands them
 * over), the records written, and read back by the report side's reader: identical maps counted
 * together, failed calls and the enter site ignored, address replacements counted. */
#define _GNU_SOURCE
#include "cp_test.h"
#include "trace/cp_trace_report.h"

/* the module itself, its statics included; cuptiEnableCallback is this test's own below */
#include "inject/cp_inject_format.c"
#include "inject/cp_inject_tensormaps.c"

static int enabled_calls;

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    (void)subscriber, (void)cbid;
    enabled_calls += enable == 1 && domain == CUPTI_CB_DOMAIN_DRIVER_API;
    return CUPTI_SUCCESS;
}

/* One callback of cbid with params, at site, returning rc. */
static int call(CUpti_CallbackId cbid, void *params, CUpti_ApiCallbackSite site, CUresult rc)
{
    CUpti_CallbackData cb = {0};
    cb.callbackSite = site;
    cb.functionParams = params;
    cb.functionReturnValue = &rc;
    return cp_inject_tmaps_call(cbid, &cb);
}

/* The parameters of a tiled float16 map of 4096 x 4096 elements in boxes of 64 x 64, swizzled
 * 128B, at an address aligned to 4 KiB, written into descriptor. */
static cuTensorMapEncodeTiled_params tiled_4096(CUtensorMap *descriptor)
{
    static cuuint64_t dims[2] = {4096, 4096}, strides[1] = {8192};
    static cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
    cuTensorMapEncodeTiled_params p = {descriptor,
                                       CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                       2,
                                       (void *)(uintptr_t)0x7f0000001000,
                                       dims,
                                       strides,
                                       box,
                                       es,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE,
                                       CU_TENSOR_MAP_SWIZZLE_128B,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE};
    return p;
}

static void test_round_trip(void)
{
    CHECK(cp_inject_tmaps_enable(NULL) == CUPTI_SUCCESS);
    CHECK_EQ_U64(enabled_calls, 4);
    cuTensorMapEncodeTiled_params p = tiled_4096(NULL);
    for (int i = 0; i < 3; i++) { /* a map per step, at another address each: one map, 3 */
        p.globalAddress = (void *)(uintptr_t)(0x7f0000001000 + 0x10000 * i);
        CHECK(
            call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT, CUDA_SUCCESS));
    }
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_ENTER, CUDA_SUCCESS));
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT,
               CUDA_ERROR_INVALID_VALUE));
    p.globalAddress = (void *)(uintptr_t)0x7f0000001010; /* aligned to 16: another map */
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT, CUDA_SUCCESS));
    cuuint64_t dims4[4] = {64, 32, 32, 8}, strides4[3] = {128, 4096, 131072};
    cuuint32_t es4[4] = {1, 1, 1, 1};
    int lower[2] = {-1, -1}, upper[2] = {1, 1};
    cuTensorMapEncodeIm2col_params q = {NULL,
                                        CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
                                        4,
                                        (void *)(uintptr_t)0x7f0000002000,
                                        dims4,
                                        strides4,
                                        lower,
                                        upper,
                                        64,
                                        128,
                                        es4,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_64B,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA};
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col, &q, CUPTI_API_EXIT, CUDA_SUCCESS));
    cuTensorMapReplaceAddress_params r = {NULL, NULL};
    CHECK(
        call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress, &r, CUPTI_API_EXIT, CUDA_SUCCESS));
    CHECK(!call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &r, CUPTI_API_EXIT, CUDA_SUCCESS));

    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    fputs("coalprobe-trace-raw\t2\nprocess\t1\t0\t./app\n", mem);
    cp_inject_tmaps_write(mem);
    fputs("end\t0\t0\n", mem);
    fclose(mem);
    cp_trace t = {0};
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_load_text(&t, "raw-1.tsv", text, len, &st) == CP_EXIT_OK);
    CHECK_EQ_U64(t.nprocs, 1);
    const cp_trace_process *pr = t.nprocs ? &t.procs[0] : NULL;
    if (pr) {
        CHECK_EQ_U64(pr->malformed, 0);
        CHECK(pr->tmaps_watched);
        CHECK_EQ_U64(pr->tmap_encodes, 5);
        CHECK_EQ_U64(pr->tmap_unrecorded, 0);
        CHECK_EQ_U64(pr->tmap_replaced, 1);
        CHECK_EQ_U64(pr->ntmaps, 3);
    }
    if (pr && pr->ntmaps == 3) {
        const cp_trace_tmap *m = &pr->tmaps[0];
        CHECK_EQ_U64(m->count, 3);
        CHECK(strcmp(m->data_type, "float16") == 0 && m->element_bits == 16 && m->rank == 2);
        CHECK(m->dims[1] == 4096 && m->strides[0] == 8192 && m->box[0] == 64);
        CHECK(strcmp(m->swizzle, "128B") == 0 && strcmp(m->l2_promotion, "128B") == 0);
        CHECK_EQ_U64(m->alignment, 256);
        CHECK_EQ_U64(pr->tmaps[1].alignment, 16);
        m = &pr->tmaps[2];
        CHECK(strcmp(m->kind, "im2col") == 0 && strcmp(m->data_type, "bfloat16") == 0);
        CHECK(m->nbox == 2 && m->box[0] == 64 && m->box[1] == 128 && m->strides[2] == 131072);
        CHECK(strcmp(m->swizzle, "64B") == 0 && strcmp(m->oob_fill, "nan_request_zero_fma") == 0);
    }
    cp_trace_free(&t);
    free(text);
}

/* The table is bounded: distinct maps past it are counted as unrecorded. */
static void test_bounded(void)
{
    cuuint64_t dims[1] = {1024};
    cuuint32_t box[1] = {16}, es[1] = {1};
    cuTensorMapEncodeTiled_params p = {NULL,
                                       CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                                       1,
                                       (void *)(uintptr_t)0x1000,
                                       dims,
                                       NULL,
                                       box,
                                       es,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE,
                                       CU_TENSOR_MAP_SWIZZLE_NONE,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE};
    for (int i = 0; i < CP_INJECT_TMAPS_MAX + 10; i++) {
        dims[0] = 1024 + (cuuint64_t)i;
        call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT, CUDA_SUCCESS);
    }
    CHECK_EQ_U64(cp_inject_tmaps.n, CP_INJECT_TMAPS_MAX);
    CHECK_EQ_U64(cp_inject_tmaps.encodes, CP_INJECT_TMAPS_MAX + 10);
    CHECK_EQ_U64(cp_inject_tmaps.unrecorded, 10);
    FILE *null = fopen("/dev/null", "w");
    cp_inject_tmaps_write(null);
    fclose(null);
    CHECK_EQ_U64(cp_inject_tmaps.n, 0);
}

/* Which map each launch passed: the descriptors the encode calls wrote are remembered, an address
 * replacement keeps its map (at the new address's alignment), and a 128-byte parameter that is
 * no remembered descriptor is unseen; the kernel_tmap records reach the kernels. */
static void test_launch_maps(void)
{
    CHECK(cp_inject_tmaps_enable(NULL) == CUPTI_SUCCESS);
    CHECK(!cp_inject_tmaps_any());
    CUtensorMap a, b, other;
    memset(&a, 0xa1, sizeof a), memset(&b, 0xb2, sizeof b), memset(&other, 0x0c, sizeof other);
    CHECK(sizeof a == CP_INJECT_TMAP_BYTES);
    cuuint64_t dims48[2] = {12, 4096}, strides48[1] = {48};
    cuuint32_t box48[2] = {12, 64};
    cuTensorMapEncodeTiled_params p = tiled_4096(&a);
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT, CUDA_SUCCESS));
    p.tensorMap = &b, p.tensorDataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32, p.globalDim = dims48;
    p.globalStrides = strides48, p.boxDim = box48, p.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    CHECK(call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &p, CUPTI_API_EXIT, CUDA_SUCCESS));
    CHECK(cp_inject_tmaps_any());
    CHECK(cp_inject_tmaps_find(&a) == 0 && cp_inject_tmaps_find(&b) == 1);
    CHECK(cp_inject_tmaps_find(&other) == -1);
    /* a moved to an address aligned to 16: the driver rewrites it; its map, of alignment 16 */
    cuTensorMapReplaceAddress_params r = {&a, (void *)(uintptr_t)0x7f0000002010};
    CHECK(
        call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress, &r, CUPTI_API_ENTER, CUDA_SUCCESS));
    memset(&a, 0xa3, sizeof a);
    CHECK(
        call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress, &r, CUPTI_API_EXIT, CUDA_SUCCESS));
    CHECK(cp_inject_tmaps_find(&a) == 2);
    uint32_t hint_b = 0; /* with and without the caller's hint: the same counts */
    for (int i = 0; i < 3; i++) {
        cp_inject_tmaps_used(0, 0, "k", cp_inject_tmaps_find(&b), &hint_b);
        cp_inject_tmaps_used(0, 0, "k", cp_inject_tmaps_find(&a), NULL);
    }
    cp_inject_tmaps_used(0, 0, "k", cp_inject_tmaps_find(&other), &hint_b);
    cp_inject_tmaps_used(0, 0x0c0ffee0u, "k", 0, NULL); /* another cubin's k */

    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    fputs("coalprobe-trace-raw\t2\nprocess\t1\t0\t./app\nlaunch\t0\tk\t4\n", mem);
    cp_inject_tmaps_write(mem);
    fputs("end\t0\t4\n", mem);
    fclose(mem);
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\tk\t1\t3\n");
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\tk\t2\t3\n");
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\tk\t-\t1\n");
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\tk\t0\t1\t0c0ffee0\n");
    cp_trace t = {0};
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_trace_load_text(&t, "raw-1.tsv", text, len, &st) == CP_EXIT_OK);
    const cp_trace_process *pr = t.nprocs == 1 ? &t.procs[0] : NULL;
    CHECK(pr && pr->malformed == 0 && pr->ntmaps == 3);
    if (pr && pr->ntmaps == 3) {
        CHECK_EQ_U64(pr->tmaps[2].count, 0); /* seen through the replacement only */
        CHECK_EQ_U64(pr->tmaps[2].alignment, 16);
    }
    const cp_trace_kernel *k = pr && pr->nkernels == 1 ? &pr->kernels[0] : NULL;
    CHECK(k && k->ntmaps == 2 && k->tmap_unseen == 1); /* the other cubin's: no kernel of it */
    if (k && k->ntmaps == 2)
        CHECK(k->tmaps[0].map == 1 && k->tmaps[0].launches == 3 && k->tmaps[1].map == 2 &&
              k->tmaps[1].launches == 3);
    cp_trace_free(&t);
    free(text);
    CHECK(!cp_inject_tmaps_any()); /* written: forgotten */
}

int main(void)
{
    test_round_trip();
    test_bounded();
    test_launch_maps();
    return cp_test_finish();
}
