/* test_expr_kernel.c: the expr family's kernel source: generated for expressions using every
 * part of the language, it compiles with NVRTC to a CUBIN holding all eight kernels (no GPU
 * needed); the source carries the expression only as generated C. */
#include "model/cp_expr.h"
#include "measure/cp_measure.h"
#include "cp_expr_measure.h" /* the expr family's, after measure's face */
#include "measure/cp_rtc.h"
#include "cp_test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the bytes of name occur in the image (the ELF string table holds kernel names). */
static int image_has(const void *image, size_t size, const char *name)
{
    size_t len = strlen(name);
    const char *p = image;
    for (size_t i = 0; i + len <= size; i++)
        if (memcmp(p + i, name, len) == 0)
            return 1;
    return 0;
}

int main(void)
{
    const char *names[] = {"s", "k"};
    const char *exprs[] = {
        "(i % 32) * 1024 + i / 32",
        "min(max(i * s - k, 0), n - 1)",
        "i < n / 2 ? abs(n / 2 - i) : (i << 1) % n",
        "(i ^ 0x1f) & ~0 | (i >> 3 && !k)",
    };
    /* what each expression's parameters become in the generated C */
    const char *params[] = {NULL, "cp_p.v[0]", NULL, "cp_p.v[1]"};
    for (size_t x = 0; x < sizeof exprs / sizeof *exprs; x++) {
        cp_status st;
        cp_status_clear(&st);
        cp_expr *e = NULL;
        CHECK_EQ_U64(cp_expr_parse(exprs[x], names, 2, &e, &st), CP_EXIT_OK);
        char *src = NULL;
        CHECK_EQ_U64(cp_expr_kernel_source(e, &src, &st), CP_EXIT_OK);
        CHECK(src && strncmp(src, "#define CP_EXPR_INDEX(i, n, cp_p) (", 35) == 0);
        if (params[x])
            CHECK_STR_CONTAINS(src, params[x]);
        else
            CHECK(!strstr(src, "cp_p.v[0]") && !strstr(src, "cp_p.v[1]"));
        CHECK(strstr(src, exprs[x]) == NULL); /* the user's text never reaches the compiler */
        void *cubin = NULL;
        size_t size = 0;
        int rc = cp_rtc_compile(src, "coalprobe_expr.cu", 9, 0, &cubin, &size, &st);
        CHECK_EQ_U64(rc, CP_EXIT_OK);
        if (rc != CP_EXIT_OK)
            fprintf(stderr, "%s\n%s\nhint: %s\n", exprs[x], st.message, st.hint);
        const cp_op ops[] = {CP_OP_LOAD, CP_OP_STORE};
        const uint32_t widths[] = {4, 8, 16, 32};
        for (int o = 0; o < 2 && cubin; o++)
            for (int w = 0; w < 4; w++)
                CHECK(image_has(cubin, size, cp_expr_kernel_name(ops[o], widths[w])));
        free(cubin);
        free(src);
        cp_expr_free(e);
    }
    /* The expr kernels compile for every architecture CUDA 13.0 knows (NVRTC compiles for the
     * device's own at run time, so every GPU coalprobe runs on gets them). */
    {
        cp_status st;
        cp_status_clear(&st);
        cp_expr *e = NULL;
        CHECK_EQ_U64(cp_expr_parse("(i % 32) * 1024 + i / 32", names, 2, &e, &st), CP_EXIT_OK);
        char *src = NULL;
        CHECK_EQ_U64(cp_expr_kernel_source(e, &src, &st), CP_EXIT_OK);
        for (const int *a = cp_arch_cuda_archs; src && *a; a++) {
            void *cubin = NULL;
            size_t size = 0;
            cp_status_clear(&st);
            int rc = cp_rtc_compile(src, "coalprobe_expr.cu", *a / 10, *a % 10, &cubin, &size, &st);
            CHECK_EQ_U64(rc, CP_EXIT_OK);
            if (rc != CP_EXIT_OK)
                fprintf(stderr, "sm_%d: %s\nhint: %s\n", *a, st.message, st.hint);
            CHECK(cubin && image_has(cubin, size, cp_expr_kernel_name(CP_OP_LOAD, 32)));
            printf("sm_%d: expr kernels, CUBIN of %zu bytes\n", *a, size);
            free(cubin);
        }
        free(src);
        cp_expr_free(e);
    }
    CHECK(cp_expr_kernel_name(CP_OP_LOAD, 12) == NULL);
    CHECK_STR_CONTAINS(cp_expr_kernel_name(CP_OP_STORE, 16), "store_16");
    return cp_test_finish();
}
