/* test_text.c: unit tests of cp_text: text made safe for a terminal, CSV lines. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "base/cp_base.h"

/* What cp_text_put_printable writes for text. */
static char *put(const char *text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cp_text_put_printable(f, text);
    fclose(f);
    return buf;
}

static void check_printable(const char *text, const char *want, int line)
{
    char *got = put(text);
    char small[256];
    size_t need = cp_text_printable(small, sizeof small, text);
    if (got && strcmp(got, want) == 0 && strcmp(small, want) == 0 && need == strlen(want)) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: printable: got '%s' / '%s' (%zu), wanted '%s'\n", __FILE__, line,
                got ? got : "(null)", small, need, want);
    }
    CHECK(cp_text_has_control(text) == (strcmp(text, want) != 0));
    free(got);
}
#define CHECK_PRINTABLE(text, want) check_printable(text, want, __LINE__)

static void test_printable(void)
{
    CHECK_PRINTABLE("plain kernel<int>(float*)", "plain kernel<int>(float*)");
    CHECK_PRINTABLE("", "");
    CHECK_PRINTABLE("\x1b]0;owned\x07", "\\e]0;owned\\x07");
    CHECK_PRINTABLE("\x1b[2J", "\\e[2J");
    CHECK_PRINTABLE("a\nb\rc\td", "a\\nb\\rc\\td");
    CHECK_PRINTABLE("del\x7f", "del\\x7f");
    CHECK_PRINTABLE("csi\xc2\x9b"
                    "31m",
                    "csi\\u009b31m");                                /* U+009B, the 8-bit CSI */
    CHECK_PRINTABLE("caf\xc3\xa9 \xc2\xa0", "caf\xc3\xa9 \xc2\xa0"); /* UTF-8 passes */
    CHECK_PRINTABLE("\xc2", "\xc2");                                 /* a lone lead byte too */
    char *null = put(NULL);
    CHECK(null && strcmp(null, "") == 0);
    free(null);
}

/* A short destination: cut between escapes, never inside one; the length needed returned. */
static void test_printable_cut(void)
{
    char dst[6];
    CHECK_EQ_U64(cp_text_printable(dst, sizeof dst,
                                   "ab\x1b"
                                   "cdef"),
                 8);
    CHECK(strcmp(dst, "ab\\ec") == 0);
    CHECK_EQ_U64(cp_text_printable(dst, 4,
                                   "ab\x1b"
                                   "c"),
                 5);
    CHECK(strcmp(dst, "ab") == 0); /* "\e" does not fit whole */
    CHECK_EQ_U64(cp_text_printable(dst, 1, "abc"), 3);
    CHECK(strcmp(dst, "") == 0);
    CHECK_EQ_U64(cp_text_printable(NULL, 0, "a\tb"), 4);
}

/* A CSV line: commas between cells, fields quoted where needed, a new line after each. */
static void test_csv_line(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cp_text_csv_line l = {f, 0};
    cp_text_csv_cell(&l, "a");
    cp_text_csv_cell(&l, "b,c");
    cp_text_csv_cell(&l, NULL);
    cp_text_csv_end_line(&l);
    cp_text_csv_cell(&l, "say \"hi\"");
    cp_text_csv_end_line(&l);
    fclose(f);
    CHECK(buf && strcmp(buf, "a,\"b,c\",\n\"say \"\"hi\"\"\"\n") == 0);
    free(buf);
}

/* What cp_text_wrap_first writes for text at width, after first and rest. */
static char *wrapped(const char *text, size_t width, const char *first, const char *rest)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cp_text_wrap_first(f, text, width, first, rest);
    fclose(f);
    return buf;
}

/* The one wrapper: at spaces, prefixes counted, never inside a `quoted command` when it can be
 * helped, a word longer than a line cut; width 0: one line. */
static void test_wrap(void)
{
    const struct {
        const char *text, *first, *rest;
        size_t width;
        const char *want;
    } cases[] = {
        {"one two three four", "", "  ", 9, "one two\n  three\n  four\n"},
        {"one two three four", "note: ", "  ", 12, "note: one\n  two three\n  four\n"},
        {"a `b c d` e", "", "", 7, "a\n`b c d`\ne\n"},
        {"`abc def ghi`", "", "", 6, "`abc\ndef\nghi`\n"}, /* longer than a line: cut anyway */
        {"abcdefghij", "", "", 4, "abcd\nefgh\nij\n"},
        {"one two three", "", "  ", 0, "one two three\n"},
        {"  kept", "", "", 20, "  kept\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = wrapped(cases[i].text, cases[i].width, cases[i].first, cases[i].rest);
        CHECK(got && strcmp(got, cases[i].want) == 0);
        if (got && strcmp(got, cases[i].want) != 0)
            fprintf(stderr, "wrap case %zu: got '%s'\n", i, got);
        free(got);
    }
}

int main(void)
{
    test_wrap();
    test_csv_line();
    test_printable();
    test_printable_cut();
    return cp_test_finish();
}
