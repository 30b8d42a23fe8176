/* cp_cublas.c: row-major SGEMM through cuBLAS, which is column-major: C = A*B row-major is
 * C^T = B^T * A^T column-major, and a row-major matrix read column-major is its transpose, so
 * the call passes B before A with the sizes n, m, k and leading dimensions n, k, n. */
#include "cp_cublas.h"

#include <limits.h>
#include <stdlib.h>

#include <cublas_v2.h>

struct cp_cublas {
    cublasHandle_t handle;
};

/* CP_CUBLAS_CHECK(st, call): records a failed cuBLAS call (its text, status name and
 * file:line) in st and returns CP_EXIT_RUNTIME. */
#define CP_CUBLAS_CHECK(st, call)                                                                  \
    do {                                                                                           \
        cublasStatus_t cp_s_ = (call);                                                             \
        if (cp_s_ != CUBLAS_STATUS_SUCCESS)                                                        \
            return cp_status_set((st), CP_EXIT_RUNTIME, "%s failed: %s (%s) at %s:%d", #call,      \
                                 cublasGetStatusName(cp_s_), cublasGetStatusString(cp_s_),         \
                                 __FILE__, __LINE__);                                              \
    } while (0)

int cp_cublas_open(cudaStream_t stream, cp_cublas **out, cp_status *st)
{
    *out = NULL;
    cp_cublas *h = calloc(1, sizeof *h);
    if (!h)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    cublasStatus_t s = cublasCreate(&h->handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        free(h);
        return cp_status_set(st, CP_EXIT_RUNTIME, "cublasCreate failed: %s",
                             cublasGetStatusName(s));
    }
    *out = h;
    CP_CUBLAS_CHECK(st, cublasSetStream(h->handle, stream));
    CP_CUBLAS_CHECK(st, cublasSetMathMode(h->handle, CUBLAS_DEFAULT_MATH));
    return CP_EXIT_OK;
}

int cp_cublas_sgemm(cp_cublas *h, const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                    uint64_t k, cp_status *st)
{
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cuBLAS takes sizes up to %d", INT_MAX);
    const float one = 1.0f, zero = 0.0f;
    CP_CUBLAS_CHECK(st, cublasSgemm(h->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k,
                                    &one, B, (int)n, A, (int)k, &zero, C, (int)n));
    return CP_EXIT_OK;
}

void cp_cublas_close(cp_cublas *h)
{
    if (!h)
        return;
    cublasDestroy(h->handle);
    free(h);
}
