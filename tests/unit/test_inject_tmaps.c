/* test_inject_tmaps.c: the injection library's tensor map records without a GPU: CUPTI's
 * callbacks of the encode calls fed by hand (the driver's parameter structs, as CUPTI hands them
 * over), the records written, and read back by the report side's reader: identical maps counted
 * together, failed calls and the enter site ignored, address replacements counted. */
#define _GNU_SOURCE
#include "cp_test.h"
#include "trace/cp_trace_report.h"

/* the module itself, its statics included; cuptiEnableCallback is this test's own below */
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

static void test_round_trip(void)
{
    CHECK(cp_inject_tmaps_enable(NULL) == CUPTI_SUCCESS);
    CHECK_EQ_U64(enabled_calls, 4);
    cuuint64_t dims[2] = {4096, 4096}, strides[1] = {8192};
    cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
    cuTensorMapEncodeTiled_params p = {NULL,
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

int main(void)
{
    test_round_trip();
    test_bounded();
    return cp_test_finish();
}
