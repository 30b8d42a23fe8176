/* cp_expr_kernel.c: builds the CUDA source of the expr family's kernels for one expression. */
#include "cp_expr_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_expr_kernel_source.h" /* generated: cp_expr_kernel_text[] */

/* Room for the C of the largest expression (CP_EXPR_MAX_NODES nodes, each at most a
 * parenthesised long long literal or an operator with its casts). */
#define CP_EXPR_KERNEL_C_MAX (CP_EXPR_MAX_NODES * 64 + 256)

int cp_expr_kernel_source(const cp_expr *e, char **out, cp_status *st)
{
    *out = NULL;
    char *c_text = malloc(CP_EXPR_KERNEL_C_MAX);
    if (!c_text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for the expr kernel");
    int rc = cp_expr_to_c(e, "i", "n", "cp_p.v[%zu]", "cp_", c_text, CP_EXPR_KERNEL_C_MAX, st);
    if (rc != CP_EXIT_OK) {
        free(c_text);
        return rc;
    }
    static const char head[] = "#define CP_EXPR_INDEX(i, n, cp_p) (";
    static const char tail[] = ")\n#line 1 \"cp_expr_kernel.cuh\"\n";
    size_t len = strlen(head) + strlen(c_text) + strlen(tail) + sizeof cp_expr_kernel_text;
    char *src = malloc(len);
    if (!src) {
        free(c_text);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for the expr kernel");
    }
    int k = snprintf(src, len, "%s%s%s", head, c_text, tail);
    memcpy(src + k, cp_expr_kernel_text, sizeof cp_expr_kernel_text);
    free(c_text);
    *out = src;
    return CP_EXIT_OK;
}

int cp_expr_kernel_index(cp_op op, uint32_t width_bytes)
{
    int k = width_bytes == 4    ? 0
            : width_bytes == 8  ? 1
            : width_bytes == 16 ? 2
            : width_bytes == 32 ? 3
                                : -1;
    return k < 0 ? -1 : (op == CP_OP_STORE ? 4 : 0) + k;
}

const char *cp_expr_kernel_name(cp_op op, uint32_t width_bytes)
{
    static const char *const names[CP_EXPR_KERNEL_COUNT] = {
        "cp_expr_load_4",  "cp_expr_load_8",  "cp_expr_load_16",  "cp_expr_load_32",
        "cp_expr_store_4", "cp_expr_store_8", "cp_expr_store_16", "cp_expr_store_32"};
    int k = cp_expr_kernel_index(op, width_bytes);
    return k < 0 ? NULL : names[k];
}
