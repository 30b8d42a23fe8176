/* cp_expr_measure.c: measuring the expr family: the CUDA source of the expression's kernels,
 * compiled by NVRTC and loaded (kept for the expressions that follow), their launch and
 * resources, and the check of out[i] = in[EXPR(i)] (op load) or out[EXPR(i)] = in[i] (op
 * store). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_measure_family.h"
#include "cp_fill.h"
#include "cp_linear.h"
#include "cp_expr_config.h"
#include "cp_expr_measure.h"
#include "cp_expr_kernel_source.h" /* generated: cp_expr_kernel_text[] */

/* families/expr/cp_expr_kernel.cuh receives the parameters as struct cp_expr_params { long long
 * v[8]; }
 */
_Static_assert(CP_EXPR_MAX_PARAMS == 8 && sizeof(long long) == sizeof(int64_t),
               "the expr kernel takes the config's parameters as they are");

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

/* The expr family's state of a backend (cp_cuda_state.own): the CUBIN of the expression compiled
 * last, and its kernels loaded so far (by cp_expr_kernel_index). */
typedef struct cp_expr_state {
    const cp_expr *expr;
    void *cubin;
    cp_rtc_module *kernels[CP_EXPR_KERNEL_COUNT];
} cp_expr_state;

/* Unloads the expr kernels and forgets the expression they were compiled for. */
static void cp_measure_expr_release(cp_cuda_state *s)
{
    cp_expr_state *x = s->own[CP_FAMILY_EXPR];
    if (!x)
        return;
    for (int k = 0; k < CP_EXPR_KERNEL_COUNT; k++)
        cp_rtc_unload(x->kernels[k]);
    free(x->cubin);
    free(x);
    s->own[CP_FAMILY_EXPR] = NULL;
}

/* The expr kernel of c: its expression compiled by NVRTC for this GPU (once per expression),
 * the kernel for c's op and width loaded (once). */
static int cp_measure_expr_loaded_kernel(cp_cuda_state *s, const cp_config *c, cp_rtc_module **k,
                                         cp_status *st)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    cp_expr_state *x = s->own[CP_FAMILY_EXPR];
    if (!x || x->expr != c->expr) {
        cp_measure_expr_release(s);
        x = calloc(1, sizeof *x);
        if (!x)
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for the expr kernels");
        s->own[CP_FAMILY_EXPR] = x;
        char *src;
        size_t size;
        CP_TRY(cp_expr_kernel_source(c->expr, &src, st));
        int rc = cp_rtc_compile(src, "coalprobe_expr.cu", s->dev.cc_major, s->dev.cc_minor,
                                &x->cubin, &size, st);
        free(src);
        CP_TRY(rc);
        x->expr = c->expr;
    }
    int index = cp_expr_kernel_index(cfg->op, cfg->width_bytes);
    if (index < 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "expr: no kernel for width %u",
                             (unsigned)cfg->width_bytes);
    cp_rtc_module **slot = &x->kernels[index];
    if (!*slot)
        CP_TRY(cp_rtc_load(x->cubin, cp_expr_kernel_name(cfg->op, cfg->width_bytes), slot, st));
    *k = *slot;
    return CP_EXIT_OK;
}

/* c's kernel compiled and loaded for device d alone, for --explain without the backend. */
static int cp_measure_expr_load_kernel(const cp_device_info *d, const cp_config *c,
                                       cp_rtc_module **k, cp_status *st)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    char *src;
    void *cubin = NULL;
    size_t size;
    CP_TRY(cp_expr_kernel_source(c->expr, &src, st));
    int rc = cp_rtc_compile(src, "coalprobe_expr.cu", d->cc_major, d->cc_minor, &cubin, &size, st);
    free(src);
    if (rc == CP_EXIT_OK)
        rc = cp_rtc_load(cubin, cp_expr_kernel_name(cfg->op, cfg->width_bytes), k, st);
    free(cubin);
    return rc;
}

static int cp_measure_expr_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_config *c = r->c;
    cp_rtc_module *k = NULL;
    CP_TRY(cp_measure_expr_loaded_kernel(r->s, c, &k, st));
    long long n = (long long)c->elements;
    /* the kernel's cp_expr_params is the 8 int64 of the config, unused ones 0 */
    void *args[] = {(void *)&r->bufs[0], (void *)&r->bufs[1], &n, (void *)c->expr_params};
    uint64_t blocks = (c->elements + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    if (blocks > 0x7fffffffull)
        return cp_status_set(st, CP_EXIT_RUNTIME, "expr: %" PRIu64 " blocks are too many", blocks);
    return cp_rtc_launch(k, (unsigned)blocks, CP_LINEAR_BLOCK, 0, r->s->stream, args, st);
}

static int cp_measure_expr_resources(const cp_config *c, const cp_rtc_module *expr,
                                     cp_kernel_resources *k, cp_resources *r, cp_status *st)
{
    (void)c;
    (void)r;
    if (!expr)
        return cp_status_set(st, CP_EXIT_RUNTIME, "expr: no kernel loaded");
    CP_CUDA_CHECK(st, cp_kernels_resources(cp_rtc_function(expr), CP_LINEAR_BLOCK, 0, k));
    return CP_EXIT_OK;
}

/* The whole output, access 1. */
static int cp_measure_expr_poison(const cp_cuda_run *r, cp_status *st)
{
    return cp_cuda_poison_access(r, 1, st);
}

/* 16 chunks of threads. op load: out[i] = in[EXPR(i)] exactly. op store: out[EXPR(i)] holds
 * in[i], or, where several threads share an index (their stores race), the value of one of
 * them: some fill value of in, never the poison. */
static int cp_measure_expr_verify(const cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    (void)m;
    const cp_config *c = r->c;
    const cp_expr_config *cfg = cp_expr_config_of(c);
    uint64_t words = cfg->width_bytes / 4, n = c->elements;
    uint32_t *out;
    CP_TRY(cp_cuda_copy_words(r->bufs[1], 0, n * words, &out, st));
    int rc = CP_EXIT_OK;
    for (int k = 0; k < CP_CUDA_CHUNKS && rc == CP_EXIT_OK; k++) {
        uint64_t count = n < 256 ? n : 256, i0 = (n - count) * (uint64_t)k / (CP_CUDA_CHUNKS - 1);
        for (uint64_t i = i0; i < i0 + count && rc == CP_EXIT_OK; i++) {
            uint64_t e = (uint64_t)cp_expr_value(c->expr, (int64_t)i, (int64_t)n, c->expr_params);
            uint64_t src = cfg->op == CP_OP_LOAD ? e : i, dst = cfg->op == CP_OP_LOAD ? i : e;
            for (uint64_t j = 0; j < words && rc == CP_EXIT_OK; j++) {
                float want = cp_fill_value(src * words + j, cp_cuda_seed(0)), g;
                memcpy(&g, &out[dst * words + j], sizeof g);
                int raced = cfg->op == CP_OP_STORE && g >= 1.0f && g < 2.0f;
                if (g != want && !raced)
                    rc = cp_cuda_wrong(st, "out word", dst * words + j, g, want);
            }
        }
    }
    free(out);
    return rc;
}

/* The hooks the CUDA backend calls (cp_measure_family.h). */
const cp_measure_family cp_expr_measure = {
    .launch = cp_measure_expr_launch,
    .poison = cp_measure_expr_poison,
    .verify = cp_measure_expr_verify,
    .resources = cp_measure_expr_resources,
    .loaded_kernel = cp_measure_expr_loaded_kernel,
    .load_kernel = cp_measure_expr_load_kernel,
    .release = cp_measure_expr_release,
};
