/* test_cublas.c: cuBLAS loads on demand (dlopen through the RPATH) and every function coalprobe
 * calls resolves, with or without a GPU: without one, only cublasCreate may fail. */
#include "measure/cp_cublas.h"
#include "cp_test.h"

int main(void)
{
    cp_cublas *h = NULL;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_cublas_open(NULL, &h, &st);
    if (rc != CP_EXIT_OK) {
        printf("no cuBLAS handle here: %s\n", st.message);
        CHECK(strstr(st.message, "cannot load cuBLAS") == NULL); /* the library loaded */
        CHECK(strstr(st.message, "has no") == NULL);             /* every symbol resolved */
        CHECK_STR_CONTAINS(st.message, "cublasCreate failed");
        CHECK(h == NULL);
    } else {
        printf("cuBLAS handle created\n");
        CHECK(h != NULL);
    }
    cp_cublas_close(h);
    cp_cublas_close(NULL);
    return cp_test_finish();
}
