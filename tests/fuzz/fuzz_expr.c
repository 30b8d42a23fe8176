/* fuzz_expr.c: libFuzzer target for the --index expression language (parse, eval, C, text, the
 * period the model proves). */

/* Parses arbitrary text with parameters a and b; when it parses, evaluates it at extremes, writes
 * its C form and checks that its canonical text parses to the same expression; where a period is
 * proved over a few thousand threads, checks it at every one of them. Any crash, leak, abort or
 * sanitizer report is a bug. */
#include "cp_fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_expr.h"
#include "model/cp_expr_period.h"

static const char *const names[] = {"a", "b"};

/* i, n, a, b */
static const int64_t points[][4] = {
    {0, 0, 0, 0},
    {1, 1024, 7, -1},
    {31, 32, -7, 3},
    {-1, 1, 64, 63},
    {1000, 4096, INT64_MIN, -1},
    {INT64_MAX, INT64_MAX, INT64_MAX, 2},
    {INT64_MIN, 0, -1, INT64_MIN},
    {INT64_MAX - 1, INT64_MIN + 1, 3037000500, 0},
};

/* Where cp_expr_period_find proves a period of e over n threads, every thread evaluates, inside
 * the range proved, and thread i + T is thread i moved (or wrapped around) as proved. */
static void check_period(const cp_expr *e, int64_t n, const int64_t *params)
{
    cp_expr_period p;
    if (!cp_expr_period_find(e, n, params, 32, 8, 1024, &p))
        return;
    if (p.threads == 0 || p.threads % 32 || p.shift % 8 || p.window_base % 8 || p.window_size % 8)
        abort();
    for (int64_t i = 0; i < n; i++) {
        int64_t v = 0, w = 0;
        if (cp_expr_eval(e, i, n, params, &v, NULL) != CP_EXIT_OK || v < p.lo || v > p.hi)
            abort();
        if (i + (int64_t)p.threads >= n)
            continue;
        if (cp_expr_eval(e, i + (int64_t)p.threads, n, params, &w, NULL) != CP_EXIT_OK)
            abort();
        __int128 want =
            p.window_size ? p.window_base + ((__int128)v - p.window_base + p.shift) % p.window_size
                          : (__int128)v + p.shift;
        if (w != want ||
            (p.window_size && (v < p.window_base || v >= (__int128)p.window_base + p.window_size)))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cp_fuzz_text(data, size);
    if (!text)
        return 0;
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = NULL;
    if (cp_expr_parse(text, names, 2, &e, &st) != CP_EXIT_OK) {
        if (e || st.code != CP_EXIT_USAGE || strncmp(st.message, "--index: ", 9) != 0 ||
            !strchr(st.hint, '^'))
            abort();
        free(text);
        return 0;
    }
    const char *canon = cp_expr_text(e);
    cp_expr *again = NULL;
    if (strlen(canon) <= CP_EXPR_MAX_TEXT) {
        if (cp_expr_parse(canon, names, 2, &again, &st) != CP_EXIT_OK ||
            strcmp(cp_expr_text(again), canon) != 0)
            abort(); /* the canonical text must be the same expression */
    }
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++) {
        const int64_t *p = points[k];
        int64_t v = 0, v2 = 0;
        int rc = cp_expr_eval(e, p[0], p[1], p + 2, &v, &st);
        if (rc != CP_EXIT_OK && (rc != CP_EXIT_USAGE || strncmp(st.message, "--index: ", 9) != 0))
            abort();
        if (again) {
            int rc2 = cp_expr_eval(again, p[0], p[1], p + 2, &v2, NULL);
            if (rc2 != rc || (rc == CP_EXIT_OK && v2 != v))
                abort();
        }
    }
    static const int64_t params[][2] = {{3, 5}, {32, 1}, {-7, 1024}};
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++)
        check_period(e, k == 0 ? 4096 : 1000 + 37 * (int64_t)k, params[k]);
    static char big[1 << 16];
    char small[24];
    if (cp_expr_to_c(e, "cp_i", "cp_n", "cp_p[%zu]", "cp_", big, sizeof big, &st) != CP_EXIT_OK)
        abort();
    int rc = cp_expr_to_c(e, "cp_i", "cp_n", "cp_p[%zu]", "cp_", small, sizeof small, &st);
    if (rc == CP_EXIT_OK ? strcmp(small, big) != 0 : small[0] != '\0')
        abort();
    cp_expr_free(again);
    cp_expr_free(e);
    free(text);
    return 0;
}
