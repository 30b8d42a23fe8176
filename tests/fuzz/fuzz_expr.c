/* fuzz_expr.c: libFuzzer target for the --index expression language (parse, eval, C, text). */

/* Parses arbitrary text with parameters a and b; when it parses, evaluates it at extremes, writes
 * its C form and checks that its canonical text parses to the same expression. Any crash, leak,
 * abort or sanitizer report is a bug. */
#include "cp_fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_expr.h"

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
