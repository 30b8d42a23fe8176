/* test_strbuf.c: unit tests of cp_strbuf: a growing string, its escapes for a terminal, its
 * shortest numbers, and the caller's one check after many additions. */
#include "cp_test.h"
#include "base/cp_base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_grow(void)
{
    cp_strbuf b = {0};
    CHECK(strcmp(cp_strbuf_text(&b, "?"), "") == 0); /* empty before anything is added */
    cp_strbuf_str(&b, "abc");
    cp_strbuf_add(&b, "defgh", 2);
    cp_strbuf_printf(&b, "-%d-%s", 42, "x");
    CHECK(strcmp(b.data, "abcde-42-x") == 0);
    CHECK_EQ_U64(b.len, 10);
    /* far past the first allocation and past printf's small buffer */
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cp_strbuf_printf(&b, "[%s]", big);
    CHECK_EQ_U64(b.len, 10 + 2 + 999);
    CHECK(b.data[10] == '[' && b.data[10 + 1000] == ']' && b.data[b.len] == '\0');
    cp_strbuf_reset(&b);
    CHECK_EQ_U64(b.len, 0);
    CHECK(strcmp(cp_strbuf_text(&b, "?"), "") == 0);
    cp_strbuf_str(&b, "again");
    char *text = cp_strbuf_steal(&b);
    CHECK(text && strcmp(text, "again") == 0);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
    free(text);
    text = cp_strbuf_steal(&b); /* an empty one gives "" of its own */
    CHECK(text && strcmp(text, "") == 0);
    free(text);
    cp_strbuf_free(&b);
}

static void test_printable(void)
{
    cp_strbuf b = {0};
    cp_strbuf_str(&b, "<");
    cp_strbuf_printable(&b, "a\tb\x1b[31m\xc2\x85\xc3\xa9");
    cp_strbuf_str(&b, ">");
    CHECK(strcmp(b.data, "<a\\tb\\e[31m\\u0085\xc3\xa9>") == 0);
    /* the same escapes as cp_text_printable, however long */
    char *long_text = malloc(5001);
    CHECK(long_text != NULL);
    if (long_text) {
        for (int i = 0; i < 5000; i++)
            long_text[i] = i % 2 ? '\n' : 'x';
        long_text[5000] = '\0';
        cp_strbuf_reset(&b);
        cp_strbuf_printable(&b, long_text);
        CHECK_EQ_U64(b.len, cp_text_printable(NULL, 0, long_text));
        CHECK_EQ_U64(b.len, 2500 + 2500 * 2);
        CHECK(strncmp(b.data, "x\\nx\\n", 6) == 0);
        free(long_text);
    }
    cp_strbuf_reset(&b);
    cp_strbuf_printable(&b, NULL);
    CHECK(strcmp(cp_strbuf_text(&b, "?"), "") == 0);
    cp_strbuf_free(&b);
}

static void check_number(double v, const char *want, int line)
{
    char text[40];
    cp_strbuf_format_number(text, sizeof text, v);
    cp_strbuf b = {0};
    cp_strbuf_number(&b, v);
    if (strcmp(text, want) == 0 && b.data && strcmp(b.data, want) == 0) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: number: got '%s' / '%s', wanted '%s'\n", __FILE__, line, text,
                b.data ? b.data : "(null)", want);
    }
    cp_strbuf_free(&b);
}

static void test_numbers(void)
{
    check_number(0, "0", __LINE__);
    check_number(-0.0, "0", __LINE__);
    check_number(42, "42", __LINE__);
    check_number(-7, "-7", __LINE__);
    check_number(0.1, "0.1", __LINE__);
    check_number(1.0 / 3, "0.33333333333333331", __LINE__);
    check_number(9007199254740991.0, "9007199254740991", __LINE__);
    check_number(1e16, "1e+16", __LINE__);
    check_number(1e300, "1e+300", __LINE__);
    check_number(-1.7976931348623157e308, "-1.7976931348623157e+308", __LINE__);
}

/* A failed allocation is recorded once and every later addition ignored. */
static void test_failed(void)
{
    cp_strbuf b = {0};
    cp_strbuf_str(&b, "kept");
    b.failed = 1;
    cp_strbuf_str(&b, " ignored");
    cp_strbuf_printf(&b, "%d", 1);
    cp_strbuf_printable(&b, "x");
    CHECK_EQ_U64(b.len, 4);
    CHECK(strcmp(cp_strbuf_text(&b, "?"), "?") == 0);
    CHECK(cp_strbuf_steal(&b) == NULL); /* and freed */
    CHECK(b.data == NULL && !b.failed);
}

int main(void)
{
    test_grow();
    test_printable();
    test_numbers();
    test_failed();
    return cp_test_finish();
}
