/* cp_cublas.c: row-major SGEMM through cuBLAS, which is column-major: C = A*B row-major is
 * C^T = B^T * A^T column-major, and a row-major matrix read column-major is its transpose, so
 * the call passes B before A with the sizes n, m, k and leading dimensions n, k, n.
 * libcublas is loaded with dlopen on first use (through the executable's RPATH), not linked:
 * loading it and libcublasLt takes about 0.1 s, which every run would pay otherwise. */
#define _GNU_SOURCE /* dladdr */
#include "cp_cublas.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cublas_v2.h> /* types only */

/* The cuBLAS functions coalprobe calls, looked up by their exported names. */
typedef struct cp_cublas_api {
    cublasStatus_t (*create)(cublasHandle_t *);
    cublasStatus_t (*destroy)(cublasHandle_t);
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
    cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t);
    cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const float *, const float *, int, const float *, int, const float *,
                            float *, int);
    const char *(*status_name)(cublasStatus_t);
    const char *(*status_string)(cublasStatus_t);
} cp_cublas_api;

struct cp_cublas {
    void *lib;
    cp_cublas_api api;
    cublasHandle_t handle;
};

/* Loads libcublas and looks up every function of the api. */
static int cp_cublas_load(cp_cublas *h, cp_status *st)
{
    const cp_dl_symbol syms[] = {
        {(void **)&h->api.create, "cublasCreate_v2"},
        {(void **)&h->api.destroy, "cublasDestroy_v2"},
        {(void **)&h->api.set_stream, "cublasSetStream_v2"},
        {(void **)&h->api.set_math_mode, "cublasSetMathMode"},
        {(void **)&h->api.sgemm, "cublasSgemm_v2"},
        {(void **)&h->api.status_name, "cublasGetStatusName"},
        {(void **)&h->api.status_string, "cublasGetStatusString"},
    };
    const char *missing;
    h->lib = cp_dl_load("libcublas.so." CP_CUBLAS_SONAME_MAJOR, syms, CP_COUNT_OF(syms), &missing);
    if (!h->lib && !missing) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot load cuBLAS: %s", dlerror());
        cp_status_hint(st, "install the CUDA Toolkit's cuBLAS, or add its directory to "
                           "LD_LIBRARY_PATH");
        return CP_EXIT_RUNTIME;
    }
    if (!h->lib)
        return cp_status_set(
            st, CP_EXIT_RUNTIME,
            "cannot load cuBLAS: libcublas.so." CP_CUBLAS_SONAME_MAJOR " has no %s", missing);
    return CP_EXIT_OK;
}

/* CP_CUBLAS_CHECK(st, call): records a failed cuBLAS call (its text, status name and
 * file:line) in st and returns CP_EXIT_RUNTIME. */
#define CP_CUBLAS_CHECK(st, call)                                                                  \
    CP_CHECK_RESULT(st, cublasStatus_t, CUBLAS_STATUS_SUCCESS, #call, call, "%s (%s)",             \
                    h->api.status_name(cp_result_), h->api.status_string(cp_result_))

int cp_cublas_open(cudaStream_t stream, cp_cublas **out, cp_status *st)
{
    *out = NULL;
    cp_cublas *h = calloc(1, sizeof *h);
    if (!h)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    int rc = cp_cublas_load(h, st);
    if (rc != CP_EXIT_OK) {
        cp_cublas_close(h);
        return rc;
    }
    cublasStatus_t s = h->api.create(&h->handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cublasCreate failed: %s", h->api.status_name(s));
        cp_cublas_close(h);
        return CP_EXIT_RUNTIME;
    }
    *out = h;
    CP_CUBLAS_CHECK(st, h->api.set_stream(h->handle, stream));
    CP_CUBLAS_CHECK(st, h->api.set_math_mode(h->handle, CUBLAS_DEFAULT_MATH));
    return CP_EXIT_OK;
}

int cp_cublas_sgemm(cp_cublas *h, const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                    uint64_t k, cp_status *st)
{
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cuBLAS takes sizes up to %d", INT_MAX);
    const float one = 1.0f, zero = 0.0f;
    CP_CUBLAS_CHECK(st, h->api.sgemm(h->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k,
                                     &one, B, (int)n, A, (int)k, &zero, C, (int)n));
    return CP_EXIT_OK;
}

int cp_cublas_probe(char *path, size_t len, char *version, size_t vlen, cp_status *st)
{
    if (len)
        path[0] = '\0';
    if (vlen)
        version[0] = '\0';
    cp_cublas h = {0};
    CP_TRY(cp_cublas_load(&h, st)); /* stays loaded, as after cp_cublas_open */
    Dl_info info;
    if (len && dladdr((void *)h.api.create, &info) && info.dli_fname)
        snprintf(path, len, "%s", info.dli_fname);
    /* cublasGetProperty(MAJOR_VERSION = 0, MINOR_VERSION = 1, PATCH_LEVEL = 2): no handle,
     * no GPU needed */
    cublasStatus_t (*property)(libraryPropertyType, int *) = NULL;
    *(void **)&property = dlsym(h.lib, "cublasGetProperty");
    int major = 0, minor = 0, patch = 0;
    if (vlen && property && property(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
        property(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
        property(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
        snprintf(version, vlen, "%d.%d.%d", major, minor, patch);
    return CP_EXIT_OK;
}

void cp_cublas_close(cp_cublas *h)
{
    if (!h)
        return;
    if (h->handle)
        h->api.destroy(h->handle);
    /* libcublas stays loaded (no dlclose): its static state points into its own data, which
     * unloading would turn into leaks, and a later handle reuses it */
    free(h);
}
