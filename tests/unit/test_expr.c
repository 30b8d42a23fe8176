/* test_expr.c: --index expressions against C, errors, C form, random differential, benchmark. */
#include "cp_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "model/cp_expr.h"

static const char *const AB[] = {"a", "b"};

/* --- values against the C compiler --------------------------------------------------------- */

/* Parses text with parameters a and b, evaluates it and compares with what C computed. */
static void check_expr(const char *text, int64_t want, int64_t i, int64_t n, int64_t a, int64_t b,
                       int line)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = NULL;
    if (cp_expr_parse(text, AB, 2, &e, &st) != CP_EXIT_OK) {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: '%s' does not parse: %s\n", __FILE__, line, text, st.message);
        return;
    }
    int64_t params[2] = {a, b}, got = 0;
    int rc = cp_expr_eval(e, i, n, params, &got, &st);
    if (rc == CP_EXIT_OK && got == want) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr,
                "%s:%d: '%s' (i=%" PRId64 " n=%" PRId64 " a=%" PRId64 " b=%" PRId64
                "): got %" PRId64 " rc %d (%s), C says %" PRId64 "\n",
                __FILE__, line, text, i, n, a, b, got, rc, rc ? st.message : "", want);
    }
    /* the canonical text is the same expression */
    cp_expr *again = NULL;
    int64_t got2 = 0;
    CHECK(cp_expr_parse(cp_expr_text(e), AB, 2, &again, &st) == CP_EXIT_OK);
    if (again) {
        CHECK(strcmp(cp_expr_text(again), cp_expr_text(e)) == 0);
        CHECK(cp_expr_eval(again, i, n, params, &got2, &st) == CP_EXIT_OK && got2 == want);
    }
    cp_expr_free(again);
    cp_expr_free(e);
}

/* The C compiler's min, max and abs on int64_t, for the table. */
static int64_t ref_min(int64_t x, int64_t y)
{
    return x < y ? x : y;
}
static int64_t ref_max(int64_t x, int64_t y)
{
    return x > y ? x : y;
}
static int64_t ref_abs(int64_t x)
{
    return x < 0 ? -x : x;
}
#define min(x, y) ref_min(x, y)
#define max(x, y) ref_max(x, y)
#define abs(x) ref_abs(x)

/* Stringifies a C expression in i, n, a, b and compares its value in C with ours. */
#define CHECK_EXPR(expr) check_expr(#expr, (int64_t)(expr), i, n, a, b, __LINE__)

/* C accepts all of these (they are the point): silence its style warnings about them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#pragma GCC diagnostic ignored "-Wbool-operation"
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#pragma GCC diagnostic ignored "-Wlogical-not-parentheses"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wbool-compare"
#else
#pragma GCC diagnostic ignored "-Wtautological-compare"
#pragma GCC diagnostic ignored "-Wconstant-logical-operand"
#pragma GCC diagnostic ignored "-Wshift-op-parentheses"
#pragma GCC diagnostic ignored "-Wbitwise-op-parentheses"
#pragma GCC diagnostic ignored "-Wlogical-op-parentheses"
#endif

/* Every expression here is defined behaviour in C for every binding of test_against_c. */
static void c_table(int64_t i, int64_t n, int64_t a, int64_t b)
{
    /* arithmetic, precedence and associativity */
    CHECK_EXPR(1 - 2 - 3);
    CHECK_EXPR(100 / 10 / 5);
    CHECK_EXPR(100 % 7 % 3);
    CHECK_EXPR(2 * 3 + 4);
    CHECK_EXPR(2 + 3 * 4);
    CHECK_EXPR((2 + 3) * 4);
    CHECK_EXPR(2 * (3 + 4) * 5);
    CHECK_EXPR(i - n + a);
    CHECK_EXPR(i - (n + a));
    CHECK_EXPR(i * n - a * b);
    CHECK_EXPR(i / 32);
    CHECK_EXPR(i % 32);
    CHECK_EXPR(i / 7 * 7 + i % 7);
    CHECK_EXPR((i % 32) * 1024 + i / 32);
    CHECK_EXPR(i % 32 * 1024 + i / 32);
    CHECK_EXPR(a / b);
    CHECK_EXPR(a % b);
    CHECK_EXPR(-a / b);
    CHECK_EXPR(-a % b);
    CHECK_EXPR(i / -3);
    CHECK_EXPR(i % -3);
    CHECK_EXPR(i / 1);
    CHECK_EXPR(i % 1);
    CHECK_EXPR(i / 2);
    CHECK_EXPR(i % 2);
    CHECK_EXPR(-i / 4 * 4);
    CHECK_EXPR(-i % 4);
    CHECK_EXPR(i / 4611686018427387904);
    CHECK_EXPR(i % 4611686018427387904);
    CHECK_EXPR(i * 4 / 8);
    CHECK_EXPR(a * -b);
    CHECK_EXPR(a * b * i * 3 - n);
    CHECK_EXPR(i * a % (b ? b : 1));
    /* unary chains */
    CHECK_EXPR(-i);
    CHECK_EXPR(- -i);
    CHECK_EXPR(-+-i);
    CHECK_EXPR(+i);
    CHECK_EXPR(~i);
    CHECK_EXPR(~~i);
    CHECK_EXPR(!i);
    CHECK_EXPR(!!i);
    CHECK_EXPR(!-i);
    CHECK_EXPR(-~i);
    CHECK_EXPR(~-i);
    CHECK_EXPR(-!i);
    CHECK_EXPR(- - -a);
    CHECK_EXPR(~!a + !~a);
    CHECK_EXPR(-i * -n);
    CHECK_EXPR(-(i + n));
    CHECK_EXPR(~i & 0xf);
    CHECK_EXPR(!i == 0);
    /* shifts */
    CHECK_EXPR((i & 255) << 3);
    CHECK_EXPR(a >> 1);
    CHECK_EXPR(a >> 63);
    CHECK_EXPR(i >> 0);
    CHECK_EXPR(a >> (b & 7));
    CHECK_EXPR((i & 255) << (b & 15));
    CHECK_EXPR(1 << 2 + 3);
    CHECK_EXPR(i >> 1 + 1);
    CHECK_EXPR((i & 1023) << 20 >> 3);
    CHECK_EXPR(1024 >> 3 >> 2);
    CHECK_EXPR(1 << 2 < 5);
    CHECK_EXPR((i & 7) + 1 << 2);
    CHECK_EXPR(-a >> 2);
    CHECK_EXPR((i & 1) << 62);
    /* comparisons */
    CHECK_EXPR(i < n);
    CHECK_EXPR(i <= n);
    CHECK_EXPR(i > n);
    CHECK_EXPR(i >= n);
    CHECK_EXPR(i == n);
    CHECK_EXPR(i != n);
    CHECK_EXPR(i == i);
    CHECK_EXPR(i < n == a < b);
    CHECK_EXPR(a < b < i);
    CHECK_EXPR(1 < 2 == 1);
    CHECK_EXPR(i + 1 > n - 1);
    CHECK_EXPR(i >= 0 != a >= 0);
    CHECK_EXPR((i < n) + (a >= b) * 2);
    /* bitwise */
    CHECK_EXPR(i & n);
    CHECK_EXPR(i | n);
    CHECK_EXPR(i ^ n);
    CHECK_EXPR(i & n | a ^ b);
    CHECK_EXPR(i | n & a);
    CHECK_EXPR(i ^ n & b);
    CHECK_EXPR(a & b ^ i | n);
    CHECK_EXPR(i & 15 == 15);
    CHECK_EXPR(i | 1 ^ 3 & 2);
    CHECK_EXPR(a & -a);
    CHECK_EXPR(i ^ -1);
    /* logical, lazily */
    CHECK_EXPR(i && n);
    CHECK_EXPR(i || n);
    CHECK_EXPR(i && n || a && b);
    CHECK_EXPR(!i || n);
    CHECK_EXPR(i > 0 && n > 0 || a < 0);
    CHECK_EXPR(a || b && 0);
    CHECK_EXPR(0 && a);
    CHECK_EXPR(1 || a);
    CHECK_EXPR(n && i / n);
    CHECK_EXPR(n == 0 || i % n > 2);
    CHECK_EXPR(!n || i / n);
    CHECK_EXPR(i | n && a ^ b);
    CHECK_EXPR((i && n) * 5);
    CHECK_EXPR(i + (n || a));
    /* ternary */
    CHECK_EXPR(i ? n : a);
    CHECK_EXPR(i < n ? i : n);
    CHECK_EXPR(a ? b ? 1 : 2 : 3);
    CHECK_EXPR(a ? 1 : b ? 2 : 3);
    CHECK_EXPR(i > 0 ? i : -i);
    CHECK_EXPR(n > 0 ? i / n : 0);
    CHECK_EXPR(n != 0 ? i % n : -1);
    CHECK_EXPR((a ? b : i) + 1);
    CHECK_EXPR(a < 0 ? a < -5 ? 1 : 2 : 3);
    CHECK_EXPR(i ? n : a ? b : 7);
    CHECK_EXPR(1 + i ? 2 : 3);
    CHECK_EXPR(i || n ? a : b);
    CHECK_EXPR(i ? n ? a : b : n ? 4 : 5);
    CHECK_EXPR(i ? 0 ? 1 : 2 : 3 ? 4 : 5);
    CHECK_EXPR(-(i ? n : a) * 2);
    /* functions */
    CHECK_EXPR(min(i, n));
    CHECK_EXPR(max(i, n));
    CHECK_EXPR(abs(a));
    CHECK_EXPR(abs(i - n));
    CHECK_EXPR(min(max(a, b), i));
    CHECK_EXPR(max(a * b, -i) + min(1, 2));
    CHECK_EXPR(abs(-abs(a)));
    CHECK_EXPR(min(i, n) ? 1 : 2);
    CHECK_EXPR(max(i < n, a) * 3);
    CHECK_EXPR(min(i ? n : a, b));
    /* hex and large numbers */
    CHECK_EXPR(0x10 + i);
    CHECK_EXPR(i & 0xff);
    CHECK_EXPR(i & 0xFF);
    CHECK_EXPR(0x0);
    CHECK_EXPR(0xdeadBEEF + i);
    CHECK_EXPR(0xdeadbeef * i);
    CHECK_EXPR(0x7fffffffffffffff - (i & 255));
    CHECK_EXPR(9223372036854775807 - (i & 1));
    CHECK_EXPR(-9223372036854775807 - 1 + (i & 7));
    CHECK_EXPR(0 + i);
}

#pragma GCC diagnostic pop
#undef min
#undef max
#undef abs

static void test_against_c(void)
{
    static const int64_t bind[][4] = {
        {37, 1024, -7, 3}, {0, 1, 5, -2}, {-1000, 7, 123456789, 17}, {1023, 0, -1, 1},
        {31, -5, 0, -100}, {1, 1, 1, 1},  {4097, 65536, 9, 4},       {-1, 32, -1, -1},
    };
    for (size_t k = 0; k < sizeof bind / sizeof bind[0]; k++)
        c_table(bind[k][0], bind[k][1], bind[k][2], bind[k][3]);
}

/* --- helpers ------------------------------------------------------------------------------- */

static cp_expr *parse_ok(const char *text, const char *const *names, size_t nparams)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = NULL;
    if (cp_expr_parse(text, names, nparams, &e, &st) != CP_EXIT_OK) {
        fprintf(stderr, "'%s' does not parse: %s\n", text, st.message);
        return NULL;
    }
    return e;
}

/* The value of text (parameters a, b), or a marked failure. */
static int64_t value_of(const char *text, int64_t i, int64_t n, int64_t a, int64_t b)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = parse_ok(text, AB, 2);
    int64_t v = -424242, params[2] = {a, b};
    if (!e || cp_expr_eval(e, i, n, params, &v, &st) != CP_EXIT_OK) {
        fprintf(stderr, "'%s' fails: %s\n", text, st.message);
        v = -424242;
    }
    cp_expr_free(e);
    return v;
}

/* The caret line expected under position pos of a short text. */
static void expected_hint(const char *text, size_t pos, char *buf, size_t len)
{
    size_t k = 0;
    for (; text[k] && k + 1 < len; k++) {
        unsigned char c = (unsigned char)text[k];
        buf[k] = c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ? ' '
                 : c < 0x20 || c > 0x7e                                        ? '?'
                                                                               : (char)c;
    }
    buf[k++] = '\n';
    for (size_t j = 0; j < pos && k + 2 < len; j++)
        buf[k++] = ' ';
    buf[k++] = '^';
    buf[k] = '\0';
}

/* Checks that parsing text fails with a message holding want and "at position pos". */
static void check_parse_error_at(const char *text, const char *want, size_t pos, int line)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = (cp_expr *)&st; /* must become NULL */
    int rc = cp_expr_parse(text, AB, 2, &e, &st);
    char at[64], hint[1200];
    snprintf(at, sizeof at, "at position %zu", pos);
    int ok = rc == CP_EXIT_USAGE && e == NULL && st.code == CP_EXIT_USAGE &&
             strncmp(st.message, "--index: ", 9) == 0 && strstr(st.message, want) &&
             strstr(st.message, at);
    if (ok && strlen(text) <= 100) {
        expected_hint(text, pos, hint, sizeof hint);
        ok = strcmp(st.hint, hint) == 0;
    }
    if (ok) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: parsing '%s': rc %d, message \"%s\", hint\n%s\nwanted \"%s\" %s\n",
                __FILE__, line, text, rc, st.message, st.hint, want, at);
    }
    if (rc == CP_EXIT_OK && e != (cp_expr *)&st)
        cp_expr_free(e);
}
#define CHECK_PARSE_ERROR(text, want, pos) check_parse_error_at(text, want, pos, __LINE__)

/* Checks that evaluating text fails with a message holding want and "at position pos". */
static void check_eval_error_at(const char *text, int64_t i, int64_t n, int64_t a, int64_t b,
                                const char *want, size_t pos, int line)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = parse_ok(text, AB, 2);
    if (!e) {
        cp_test_failed++;
        return;
    }
    int64_t params[2] = {a, b}, v = 12345;
    int rc = cp_expr_eval(e, i, n, params, &v, &st);
    char at[64], hint[1200];
    snprintf(at, sizeof at, "at position %zu", pos);
    expected_hint(text, pos, hint, sizeof hint);
    if (rc == CP_EXIT_USAGE && v == 12345 && strncmp(st.message, "--index: ", 9) == 0 &&
        strstr(st.message, want) && strstr(st.message, at) && strcmp(st.hint, hint) == 0) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr,
                "%s:%d: evaluating '%s': rc %d, message \"%s\", hint\n%s\nwanted \"%s\" %s\n",
                __FILE__, line, text, rc, st.message, st.hint, want, at);
    }
    cp_expr_free(e);
}
#define CHECK_EVAL_ERROR(text, i, n, a, b, want, pos)                                              \
    check_eval_error_at(text, i, n, a, b, want, pos, __LINE__)

/* --- semantics beyond the table -------------------------------------------------------------- */

static void test_semantics(void)
{
    const int64_t MAX = INT64_MAX, MIN = INT64_MIN;
    /* extremes that do not overflow */
    CHECK_EQ_U64(value_of("a + b", 0, 0, MAX, MIN), (uint64_t)-1);
    CHECK_EQ_U64(value_of("a - b", 0, 0, -1, MIN), (uint64_t)MAX);
    CHECK_EQ_U64(value_of("a * b", 0, 0, MIN, 1), (uint64_t)MIN);
    CHECK_EQ_U64(value_of("a * b", 0, 0, -1, MAX), (uint64_t)-MAX);
    CHECK_EQ_U64(value_of("a / b", 0, 0, MIN, 1), (uint64_t)MIN);
    CHECK_EQ_U64(value_of("a / b", 0, 0, MIN, -2), (uint64_t)(MIN / -2));
    CHECK_EQ_U64(value_of("a % b", 0, 0, MIN, 3), (uint64_t)(MIN % 3));
    CHECK_EQ_U64(value_of("a / 2", 0, 0, MIN, 0), (uint64_t)(MIN / 2));
    CHECK_EQ_U64(value_of("a % 2", 0, 0, MIN + 1, 0), (uint64_t)-1);
    CHECK_EQ_U64(value_of("a / 4611686018427387904", 0, 0, MIN, 0), (uint64_t)-2);
    CHECK_EQ_U64(value_of("a % 4611686018427387904", 0, 0, MIN + 1, 0),
                 (uint64_t)(-4611686018427387903LL));
    CHECK_EQ_U64(value_of("a >> 63", 0, 0, MIN, 0), (uint64_t)-1);
    CHECK_EQ_U64(value_of("a >> b", 0, 0, MIN, 1), (uint64_t)(MIN / 2));
    CHECK_EQ_U64(value_of("a >> b", 0, 0, -5, 1), (uint64_t)-3);
    CHECK_EQ_U64(value_of("1 << 62", 0, 0, 0, 0), (uint64_t)1 << 62);
    CHECK_EQ_U64(value_of("a << b", 0, 0, 1, 62), (uint64_t)1 << 62);
    CHECK_EQ_U64(value_of("a << b", 0, 0, 0, 63), 0);
    CHECK_EQ_U64(value_of("a << 1", 0, 0, MAX >> 1, 0), (uint64_t)(MAX - 1));
    CHECK_EQ_U64(value_of("-a", 0, 0, MAX, 0), (uint64_t)-MAX);
    CHECK_EQ_U64(value_of("abs(a)", 0, 0, MIN + 1, 0), (uint64_t)MAX);
    CHECK_EQ_U64(value_of("~a", 0, 0, MIN, 0), (uint64_t)MAX);
    CHECK_EQ_U64(value_of("-9223372036854775807 - 1", 0, 0, 0, 0), (uint64_t)MIN);
    CHECK_EQ_U64(value_of("min(a, b)", 0, 0, MIN, MAX), (uint64_t)MIN);
    CHECK_EQ_U64(value_of("max(a, b)", 0, 0, MIN, MAX), (uint64_t)MAX);
    CHECK_EQ_U64(value_of("a % -1", 0, 0, MAX, 0), 0);
    CHECK_EQ_U64(value_of("a / -1", 0, 0, MAX, 0), (uint64_t)-MAX);
    /* laziness: the branch not taken never raises */
    CHECK_EQ_U64(value_of("n > 0 ? i / n : 0", 5, 0, 0, 0), 0);
    CHECK_EQ_U64(value_of("n > 0 ? i / n : 0", 10, 3, 0, 0), 3);
    CHECK_EQ_U64(value_of("n == 0 ? 7 : i % n", 10, 0, 0, 0), 7);
    CHECK_EQ_U64(value_of("n && i / n", 5, 0, 0, 0), 0);
    CHECK_EQ_U64(value_of("!n || i / n", 5, 0, 0, 0), 1);
    CHECK_EQ_U64(value_of("0 && 1 / 0", 0, 0, 0, 0), 0);
    CHECK_EQ_U64(value_of("1 || 1 / 0", 0, 0, 0, 0), 1);
    CHECK_EQ_U64(value_of("1 ? 2 : 1 / 0", 0, 0, 0, 0), 2);
    CHECK_EQ_U64(value_of("0 ? 1 / 0 : 3", 0, 0, 0, 0), 3);
    CHECK_EQ_U64(value_of("a && a * a", 0, 0, 0, 0), 0);
    CHECK_EQ_U64(value_of("a > 0 && -a", 0, 0, MIN, 0), 0); /* -a would overflow */
    CHECK_EQ_U64(value_of("a || -a", 0, 0, MIN, 0), 1);
    CHECK_EQ_U64(value_of("a != -9223372036854775807 - 1 ? -a : 0", 0, 0, MIN, 0), 0);
    /* && and || give 0 or 1 whatever the operands */
    CHECK_EQ_U64(value_of("a && b", 0, 0, 5, -3), 1);
    CHECK_EQ_U64(value_of("a || b", 0, 0, 0, -3), 1);
    CHECK_EQ_U64(value_of("(a || b) + (a && b)", 0, 0, 7, 0), 1);
    /* whitespace anywhere between tokens */
    CHECK_EQ_U64(value_of(" \t(i\n%\r32 )\f*\v1024+i/32 ", 100, 0, 0, 0), 4099);
    CHECK_EQ_U64(value_of("min ( i , n )", 3, 9, 0, 0), 3);
}

static void test_params(void)
{
    cp_status st;
    cp_status_clear(&st);
    static const char *const names[] = {"stride", "off_set", "_x9"};
    cp_expr *e = parse_ok("i * stride + off_set - _x9", names, 3);
    int64_t v = 0, p[3] = {4, 100, 1};
    CHECK(e && cp_expr_eval(e, 10, 0, p, &v, &st) == CP_EXIT_OK && v == 139);
    cp_expr_free(e);
    /* parameters are not visible when not given */
    cp_expr *none = NULL;
    CHECK(cp_expr_parse("i + stride", NULL, 0, &none, &st) == CP_EXIT_USAGE && !none);
    CHECK_STR_CONTAINS(st.message, "--index: unknown name 'stride' at position 4 (names: i, n)");
    CHECK(cp_expr_parse("i + j", names, 1, &none, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--index: unknown name 'j' at position 4 (names: i, n, stride)");
    CHECK(strcmp(st.hint, "i + j\n    ^") == 0);
    /* eight parameters */
    static const char *const eight[] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
    int64_t pv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    e = parse_ok("p0 + p1 * p2 - p3 + p4 * p5 + p6 * p7", eight, 8);
    CHECK(e && cp_expr_eval(e, 0, 0, pv, &v, &st) == CP_EXIT_OK && v == 1 + 6 - 4 + 30 + 56);
    cp_expr_free(e);
    CHECK(cp_expr_parse("i", eight, 9, &none, &st) == CP_EXIT_USAGE && !none);
    CHECK_STR_CONTAINS(st.message, "--param: 9 parameters, more than the limit 8");
    /* names */
    CHECK(cp_expr_check_param_name("stride", &st) == CP_EXIT_OK);
    CHECK(cp_expr_check_param_name("_", &st) == CP_EXIT_OK);
    CHECK(cp_expr_check_param_name("a234567890123456789012345678901", &st) == CP_EXIT_OK);
    static const char *const bad[] = {
        "",    "A",    "1x",  "x-y", "a2345678901234567890123456789012",
        "i",   "n",    "min", "max", "abs",
        "int", "long", "new", "or",  "Stride"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cp_status_clear(&st);
        CHECK(cp_expr_check_param_name(bad[k], &st) == CP_EXIT_USAGE);
        CHECK_STR_CONTAINS(st.message, "--param: '");
        CHECK_STR_CONTAINS(st.hint, "[a-z_][a-z0-9_]*");
        const char *one[1] = {bad[k]};
        CHECK(cp_expr_parse("i", one, 1, &none, &st) == CP_EXIT_USAGE && !none);
    }
    CHECK(cp_expr_check_param_name(NULL, &st) == CP_EXIT_USAGE);
    static const char *const twice[] = {"a", "b", "a"};
    CHECK(cp_expr_parse("i", twice, 3, &none, &st) == CP_EXIT_USAGE && !none);
    CHECK_STR_CONTAINS(st.message, "--param: 'a' is given twice");
}

/* --- errors ------------------------------------------------------------------------------------
 */

static void test_parse_errors(void)
{
    /* the example of the documentation */
    CHECK_PARSE_ERROR("(i % 32) * 1024 + )", "unexpected ')'", 18);
    cp_status st;
    cp_expr *e = NULL;
    cp_expr_parse("(i % 32) * 1024 + )", NULL, 0, &e, &st);
    CHECK(strcmp(st.hint, "(i % 32) * 1024 + )\n                  ^") == 0);
    /* unexpected tokens */
    CHECK_PARSE_ERROR("i +", "unexpected end of the expression", 3);
    CHECK_PARSE_ERROR("* i", "unexpected '*'", 0);
    CHECK_PARSE_ERROR("i * / 2", "unexpected '/'", 4);
    CHECK_PARSE_ERROR("i 2", "unexpected '2' at position 2 (expected an operator or the end", 2);
    CHECK_PARSE_ERROR("i n", "unexpected 'n'", 2);
    CHECK_PARSE_ERROR("i ? 1", "missing ':' at position 5 for the '?' at position 2", 5);
    CHECK_PARSE_ERROR("i ? 1 2", "unexpected '2'", 6);
    CHECK_PARSE_ERROR("i : 1", "unexpected ':'", 2);
    CHECK_PARSE_ERROR("i, n", "unexpected ','", 1);
    CHECK_PARSE_ERROR("i = 1", "unexpected '='", 2);
    CHECK_PARSE_ERROR("i <<= 1", "unexpected '='", 4);
    CHECK_PARSE_ERROR("i $ 1", "unexpected character '$'", 2);
    CHECK_PARSE_ERROR("i + \x01", "unexpected byte 0x01", 4);
    CHECK_PARSE_ERROR("i + \xc3\xa9", "unexpected byte 0xc3", 4);
    CHECK_PARSE_ERROR("i--1", "'--' at position 1 is not an operator", 1);
    CHECK_PARSE_ERROR("--i", "'--'", 0);
    CHECK_PARSE_ERROR("i ++ 1", "'++'", 2);
    CHECK_PARSE_ERROR("&i", "unexpected '&'", 0);
    CHECK_PARSE_ERROR("i[0]", "unexpected character '['", 1);
    CHECK_PARSE_ERROR("i.x", "unexpected character '.'", 1);
    CHECK_PARSE_ERROR("\"i\"", "unexpected character '\"'", 0);
    /* unbalanced parentheses */
    CHECK_PARSE_ERROR("(i + 1", "missing ')' at position 6 to close '(' at position 0", 6);
    CHECK_PARSE_ERROR("((i + 1)", "missing ')' at position 8 to close '(' at position 0", 8);
    CHECK_PARSE_ERROR("i + 1)", "unmatched ')'", 5);
    CHECK_PARSE_ERROR("(i))", "unmatched ')'", 3);
    CHECK_PARSE_ERROR("()", "unexpected ')'", 1);
    CHECK_PARSE_ERROR(")", "unexpected ')'", 0);
    CHECK_PARSE_ERROR("(i 1)", "unexpected '1' at position 3 (expected an operator or ')')", 3);
    CHECK_PARSE_ERROR("min(i, n", "missing ')' at position 8 to close 'min(' at position 0", 8);
    CHECK_PARSE_ERROR("min(i n)", "unexpected 'n' at position 6 (expected ',' or ')')", 6);
    /* trailing input */
    CHECK_PARSE_ERROR("i + 1 i", "unexpected 'i'", 6);
    CHECK_PARSE_ERROR("(i) (n)", "unexpected '('", 4);
    CHECK_PARSE_ERROR("min(i, n) 3", "unexpected '3'", 10);
    /* empty */
    CHECK_PARSE_ERROR("", "the expression is empty", 0);
    CHECK_PARSE_ERROR("   ", "the expression is empty", 3);
    e = (cp_expr *)&st;
    CHECK(cp_expr_parse(NULL, NULL, 0, &e, &st) == CP_EXIT_USAGE && !e);
    /* numbers */
    CHECK_PARSE_ERROR("i + 0755",
                      "number '0755' at position 4 starts with 0 (C would read it as octal)", 4);
    CHECK_PARSE_ERROR("00", "starts with 0", 0);
    CHECK_PARSE_ERROR("09", "starts with 0", 0);
    CHECK_PARSE_ERROR("i + 0x", "bad hexadecimal number '0x'", 4);
    CHECK_PARSE_ERROR("0x1g", "bad hexadecimal number '0x1g'", 0);
    CHECK_PARSE_ERROR("0xg1", "bad hexadecimal number", 0);
    CHECK_PARSE_ERROR("0X1F", "write hexadecimal numbers with 0x", 0);
    CHECK_PARSE_ERROR("0x1p3", "bad hexadecimal number", 0);
    CHECK_PARSE_ERROR("i * 12u", "bad number '12u' at position 4 (digits only, no suffix)", 4);
    CHECK_PARSE_ERROR("1024LL", "bad number '1024LL'", 0);
    CHECK_PARSE_ERROR("2i", "bad number '2i'", 0);
    CHECK_PARSE_ERROR("1.5 * i", "bad number '1.5' at position 0 (numbers are integers)", 0);
    CHECK_PARSE_ERROR("1e3", "bad number '1e3'", 0);
    CHECK_PARSE_ERROR("9223372036854775808", "is too large (at most 9223372036854775807)", 0);
    CHECK_PARSE_ERROR("i - 99999999999999999999999",
                      "number '99999999999999999999999' at position 4 is too large", 4);
    CHECK_PARSE_ERROR("0x8000000000000000", "is too large", 0);
    CHECK_PARSE_ERROR("0xffffffffffffffff", "is too large", 0);
    CHECK_PARSE_ERROR("0x10000000000000000", "is too large", 0);
    /* names */
    CHECK_PARSE_ERROR("i + j", "unknown name 'j' at position 4 (names: i, n, a, b)", 4);
    CHECK_PARSE_ERROR("I", "unknown name 'I'", 0);
    CHECK_PARSE_ERROR("n + int", "unknown name 'int'", 4);
    CHECK_PARSE_ERROR("i2", "unknown name 'i2'", 0);
    CHECK_PARSE_ERROR("threadIdx", "unknown name 'threadIdx'", 0);
    CHECK_PARSE_ERROR("sqrt(i)", "unknown name 'sqrt'", 0);
    CHECK_PARSE_ERROR("i + min", "'min' at position 4 is a function: write min(a, b)", 4);
    CHECK_PARSE_ERROR("abs + 1", "'abs' at position 0 is a function: write abs(a)", 0);
    /* argument counts */
    CHECK_PARSE_ERROR("min(i)", "min takes 2 arguments, not 1, at position 0", 0);
    CHECK_PARSE_ERROR("i + max(i, n, 3)", "max takes 2 arguments, not 3, at position 4", 4);
    CHECK_PARSE_ERROR("abs(i, n)", "abs takes 1 argument, not 2", 0);
    CHECK_PARSE_ERROR("abs()", "abs takes 1 argument, not 0", 0);
    CHECK_PARSE_ERROR("min()", "min takes 2 arguments, not 0", 0);
    CHECK_PARSE_ERROR("min(i,)", "unexpected ')'", 6);
    CHECK_PARSE_ERROR("min(,i)", "unexpected ','", 4);
}

/* text: open n times, then core, then close n times (the nested expressions of the limits);
 * returns its length. */
static size_t nested(char *text, size_t size, const char *open, int n, const char *core,
                     const char *close)
{
    size_t k = 0;
    for (int d = 0; d < n; d++)
        k += (size_t)snprintf(text + k, size - k, "%s", open);
    k += (size_t)snprintf(text + k, size - k, "%s", core);
    for (int d = 0; d < n; d++)
        k += (size_t)snprintf(text + k, size - k, "%s", close);
    return k;
}

static void test_limits(void)
{
    char text[2100];
    /* 1024 characters is fine, 1025 is not */
    memset(text, ' ', 1023);
    text[1023] = 'i';
    text[1024] = '\0';
    cp_expr *e = parse_ok(text, NULL, 0);
    CHECK(e != NULL);
    cp_expr_free(e);
    memset(text, ' ', 2000);
    text[2000] = 'i';
    text[2001] = '\0';
    CHECK_PARSE_ERROR(text, "the expression is longer than 1024 characters (at position 1024)",
                      1024);
    cp_status st;
    e = NULL;
    CHECK(cp_expr_parse(text, NULL, 0, &e, &st) == CP_EXIT_USAGE);
    /* a window of the text, the caret under position 1024 */
    const char *nl = strchr(st.hint, '\n');
    CHECK(nl && strncmp(st.hint, "...", 3) == 0 && strlen(st.hint) < sizeof st.hint - 1);
    CHECK(nl && nl[1 + (1024 - (1024 - 50)) + 3] == '^');

    /* depth 64 */
    nested(text, sizeof text, "(", 64, "i", ")");
    e = parse_ok(text, NULL, 0);
    CHECK(e != NULL);
    if (e)
        CHECK(strcmp(cp_expr_text(e), "(i)") == 0);
    cp_expr_free(e);
    nested(text, sizeof text, "(", 65, "i", ")");
    CHECK_PARSE_ERROR(text, "nests deeper than 64 at position 64", 64);
    /* unary chains and ternaries count too */
    nested(text, sizeof text, "- ", 65, "i", "");
    CHECK_PARSE_ERROR(text, "nests deeper than 64", 128);
    nested(text, sizeof text, "i?1:", 65, "0", "");
    CHECK_PARSE_ERROR(text, "nests deeper than 64", 64 * 4 + 1);
    nested(text, sizeof text, "abs(", 65, "i", ")");
    CHECK_PARSE_ERROR(text, "nests deeper than 64", 64 * 4 + 3);

    /* 256 nodes: 128 ones and 127 '+' make 255; 129 ones make 257 */
    size_t k = nested(text, sizeof text, "1+", 127, "1", "");
    e = parse_ok(text, NULL, 0);
    int64_t v = 0;
    CHECK(e && cp_expr_eval(e, 0, 0, NULL, &v, &st) == CP_EXIT_OK && v == 128);
    cp_expr_free(e);
    k += (size_t)snprintf(text + k, sizeof text - k, "+i"); /* the '+' at 255 is the 257th */
    CHECK_PARSE_ERROR(text, "more than 256 numbers, names and operators", 255);
    /* 256 exactly: -1 + 1 + ... */
    k = 0;
    for (int d = 0; d < 128; d++)
        k += (size_t)snprintf(text + k, sizeof text - k, d ? "+i" : "-i");
    e = parse_ok(text, NULL, 0);
    CHECK(e && cp_expr_eval(e, 3, 0, NULL, &v, &st) == CP_EXIT_OK && v == 126 * 3);
    cp_expr_free(e);
    /* the deepest stack the machine can need: i+(i+(i+...)) */
    nested(text, sizeof text, "i+(", 63, "i", ")");
    e = parse_ok(text, NULL, 0);
    CHECK(e && cp_expr_eval(e, 2, 0, NULL, &v, &st) == CP_EXIT_OK && v == 128);
    cp_expr_free(e);
    /* nested calls */
    k = 0;
    k += (size_t)snprintf(text + k, sizeof text - k, "%s",
                          "min(min(min(min(min(min(min(i,i),n),n),n),n),n),n)");
    e = parse_ok(text, NULL, 0);
    CHECK(e && cp_expr_eval(e, 2, 1, NULL, &v, &st) == CP_EXIT_OK && v == 1);
    cp_expr_free(e);
}

static void test_eval_errors(void)
{
    const int64_t MAX = INT64_MAX, MIN = INT64_MIN;
    /* the example of the documentation */
    CHECK_EVAL_ERROR("(i % 32) + i / n", 5, 0, 0, 0,
                     "division by zero at position 13: 5 / 0 (i = 5, n = 0, a = 0, b = 0)", 13);
    /* overflow of each operator */
    CHECK_EVAL_ERROR("i + a", 1, 0, MAX, 0,
                     "signed overflow at position 2: 1 + 9223372036854775807 (i = 1", 2);
    CHECK_EVAL_ERROR("a + i", -1, 0, MIN, 0,
                     "signed overflow at position 2: (-9223372036854775808) + (-1)", 2);
    CHECK_EVAL_ERROR("a + 1", 0, 0, MAX, 0,
                     "signed overflow at position 2: 9223372036854775807 + 1", 2);
    CHECK_EVAL_ERROR("i - a", -2, 0, MAX, 0,
                     "signed overflow at position 2: (-2) - 9223372036854775807", 2);
    CHECK_EVAL_ERROR("a - 1", 0, 0, MIN, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("a * b", 0, 0, 3037000500, 3037000500,
                     "signed overflow at position 2: 3037000500 * 3037000500", 2);
    CHECK_EVAL_ERROR("a * -1", 0, 0, MIN, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("i * (a + 0)", -1, 0, MIN, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("1 + -a", 0, 0, MIN, 0,
                     "signed overflow at position 4: -(-9223372036854775808)", 4);
    CHECK_EVAL_ERROR("abs(a)", 0, 0, MIN, 0,
                     "signed overflow at position 0: abs(-9223372036854775808)", 0);
    CHECK_EVAL_ERROR("i + abs(a)", 0, 0, MIN, 0, "signed overflow at position 4", 4);
    CHECK_EVAL_ERROR("a / b", 0, 0, MIN, -1,
                     "signed overflow at position 2: (-9223372036854775808) / (-1)", 2);
    CHECK_EVAL_ERROR("a / -1", 0, 0, MIN, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("a % b", 0, 0, MIN, -1,
                     "signed overflow at position 2: (-9223372036854775808) % (-1)", 2);
    CHECK_EVAL_ERROR("a % -1", 0, 0, MIN, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("-9223372036854775807 - 2", 0, 0, 0, 0, "signed overflow at position 21", 21);
    CHECK_EVAL_ERROR("9223372036854775807 * 2", 0, 0, 0, 0, "signed overflow at position 20", 20);
    /* division and remainder by zero */
    CHECK_EVAL_ERROR("i / n", 7, 0, 0, 0, "division by zero at position 2: 7 / 0", 2);
    CHECK_EVAL_ERROR("i % n", 7, 0, 0, 0, "division by zero at position 2: 7 % 0", 2);
    CHECK_EVAL_ERROR("i / 0", 7, 0, 0, 0, "division by zero at position 2", 2);
    CHECK_EVAL_ERROR("1 / 0", 7, 0, 0, 0, "division by zero at position 2", 2);
    CHECK_EVAL_ERROR("i % (n - n)", 7, 3, 0, 0, "division by zero at position 2", 2);
    CHECK_EVAL_ERROR("n > 0 ? 0 : i / n", 7, 0, 0, 0, "division by zero at position 14", 14);
    CHECK_EVAL_ERROR("n || i / n", 7, 0, 0, 0, "division by zero at position 7", 7);
    CHECK_EVAL_ERROR("!n && i / n", 7, 0, 0, 0, "division by zero at position 8", 8);
    /* shifts */
    CHECK_EVAL_ERROR("i << a", 1, 0, -1, 0, "negative shift count at position 2: 1 << (-1)", 2);
    CHECK_EVAL_ERROR("i >> a", 1, 0, -1, 0, "negative shift count at position 2: 1 >> (-1)", 2);
    CHECK_EVAL_ERROR("i << -1", 1, 0, 0, 0, "negative shift count at position 2", 2);
    CHECK_EVAL_ERROR("i << a", 1, 0, 64, 0, "shift count above 63 at position 2: 1 << 64", 2);
    CHECK_EVAL_ERROR("i >> 64", 1, 0, 0, 0, "shift count above 63 at position 2: 1 >> 64", 2);
    CHECK_EVAL_ERROR("a >> b", 0, 0, -1, MAX, "shift count above 63 at position 2", 2);
    CHECK_EVAL_ERROR("i << 3", -1, 0, 0, 0,
                     "left shift of a negative value at position 2: (-1) << 3", 2);
    CHECK_EVAL_ERROR("i << 0", -1, 0, 0, 0, "left shift of a negative value at position 2", 2);
    CHECK_EVAL_ERROR("1 << 63", 0, 0, 0, 0, "signed overflow at position 2: 1 << 63", 2);
    CHECK_EVAL_ERROR("i << 62", 2, 0, 0, 0, "signed overflow at position 2: 2 << 62", 2);
    CHECK_EVAL_ERROR("a << 1", 0, 0, MAX, 0, "signed overflow at position 2", 2);
    /* the first error met, in C's order of evaluation */
    CHECK_EVAL_ERROR("i / n + a * a", 1, 0, MAX, 0, "division by zero at position 2", 2);
    CHECK_EVAL_ERROR("a * a + i / n", 1, 0, MAX, 0, "signed overflow at position 2", 2);
    CHECK_EVAL_ERROR("min(i / n, a * a)", 1, 0, MAX, 0, "division by zero at position 6", 6);
    /* parameters appear in the message */
    cp_status st;
    static const char *const names[] = {"stride"};
    cp_expr *e = parse_ok("i / stride", names, 1);
    int64_t p[1] = {0}, v = 0;
    CHECK(e && cp_expr_eval(e, 3, 8, p, &v, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message,
                       "--index: division by zero at position 2: 3 / 0 (i = 3, n = 8, stride = 0)");
    CHECK(strcmp(st.hint, "i / stride\n  ^") == 0);
    /* a NULL status is fine */
    CHECK(e && cp_expr_eval(e, 3, 8, p, &v, NULL) == CP_EXIT_USAGE);
    cp_expr_free(e);
    /* tabs in the text keep the caret aligned */
    e = parse_ok("i\t/\tn", NULL, 0);
    CHECK(e && cp_expr_eval(e, 3, 0, NULL, &v, &st) == CP_EXIT_USAGE);
    CHECK(strcmp(st.hint, "i / n\n  ^") == 0);
    cp_expr_free(e);
}

/* --- C form and canonical text ------------------------------------------------------------- */

static void check_to_c(const char *text, const char *const *names, size_t nparams, const char *want,
                       int line)
{
    cp_status st;
    cp_status_clear(&st);
    cp_expr *e = parse_ok(text, names, nparams);
    char buf[2048];
    int rc = e ? cp_expr_to_c(e, "cp_i", "cp_n", "cp_p[%zu]", "cp_", buf, sizeof buf, &st) : -1;
    if (rc == CP_EXIT_OK && strcmp(buf, want) == 0) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: C of '%s': rc %d \"%s\" (%s), wanted \"%s\"\n", __FILE__, line,
                text, rc, rc == CP_EXIT_OK ? buf : "", st.message, want);
    }
    cp_expr_free(e);
}
#define CHECK_TO_C(text, names, nparams, want) check_to_c(text, names, nparams, want, __LINE__)

static void test_to_c(void)
{
    static const char *const stride[] = {"stride", "off"};
    CHECK_TO_C("(i % 32) * 1024 + i / 32", NULL, 0,
               "((((cp_i) % (32LL)) * (1024LL)) + ((cp_i) / (32LL)))");
    CHECK_TO_C("i < n ? min(i, stride) : abs(-n) + off", stride, 2,
               "(((long long)((cp_i) < (cp_n))) ? cp_min((cp_i), (cp_p[0])) : "
               "(cp_abs((-(cp_n))) + (cp_p[1])))");
    CHECK_TO_C("!i && n || ~i", NULL, 0,
               "((long long)(((long long)(((long long)!(cp_i)) && (cp_n))) || (~(cp_i))))");
    CHECK_TO_C("- -i + +n", NULL, 0, "((-(-(cp_i))) + (+(cp_n)))");
    CHECK_TO_C("0xff << 2 >> 1 == max(i, 9223372036854775807) ^ 1", NULL, 0,
               "(((long long)((((255LL) << (2LL)) >> (1LL)) == cp_max((cp_i), "
               "(9223372036854775807LL)))) ^ (1LL))");
    CHECK_TO_C("i <= n & i >= n | i > n != i < n", NULL, 0,
               "((((long long)((cp_i) <= (cp_n))) & ((long long)((cp_i) >= (cp_n)))) | "
               "((long long)(((long long)((cp_i) > (cp_n))) != ((long long)((cp_i) < (cp_n))))))");
    CHECK_TO_C("i - 1 * 2 / 3 % 4", NULL, 0, "((cp_i) - ((((1LL) * (2LL)) / (3LL)) % (4LL)))");

    /* the buffer too small: the size needed, an empty string */
    cp_status st;
    cp_expr *e = parse_ok("i + 1", NULL, 0);
    char buf[64];
    const char *want = "((cp_i) + (1LL))";
    CHECK(e && cp_expr_to_c(e, "cp_i", "cp_n", "p[%zu]", "f_", buf, strlen(want), &st) ==
                   CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "needs 17 bytes, more than the buffer's 16");
    CHECK(buf[0] == '\0');
    CHECK(e && cp_expr_to_c(e, "cp_i", "cp_n", "p[%zu]", "f_", buf, strlen(want) + 1, &st) ==
                   CP_EXIT_OK);
    CHECK(strcmp(buf, want) == 0);
    CHECK(e && cp_expr_to_c(e, "cp_i", "cp_n", "p[%zu]", "f_", NULL, 0, &st) == CP_EXIT_RUNTIME);
    /* the parameter format must hold one %zu and nothing else with a % */
    CHECK(e &&
          cp_expr_to_c(e, "cp_i", "cp_n", "p[%d]", "f_", buf, sizeof buf, &st) == CP_EXIT_RUNTIME);
    CHECK(e && cp_expr_to_c(e, "cp_i", "cp_n", "p[%zu]%s", "f_", buf, sizeof buf, &st) ==
                   CP_EXIT_RUNTIME);
    CHECK(e && cp_expr_to_c(e, "cp_i", "cp_n", "%%p[%zu]", "f_", buf, sizeof buf, &st) ==
                   CP_EXIT_RUNTIME);
    CHECK(e &&
          cp_expr_to_c(e, NULL, "cp_n", "p[%zu]", "f_", buf, sizeof buf, &st) == CP_EXIT_RUNTIME);
    cp_expr_free(e);
    static const char *const one[] = {"s"};
    e = parse_ok("s", one, 1);
    CHECK(e && cp_expr_to_c(e, "x", "y", "params_of_the_kernel_with_a_long_name.v%zu_end", "f_",
                            buf, sizeof buf, &st) == CP_EXIT_OK);
    CHECK(strcmp(buf, "(params_of_the_kernel_with_a_long_name.v0_end)") == 0);
    cp_expr_free(e);
}

static void check_text(const char *text, const char *want, int line)
{
    cp_expr *e = parse_ok(text, AB, 2);
    const char *got = e ? cp_expr_text(e) : "(no parse)";
    if (strcmp(got, want) == 0) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: text of '%s' is '%s', wanted '%s'\n", __FILE__, line, text, got,
                want);
    }
    cp_expr_free(e);
}
#define CHECK_TEXT(text, want) check_text(text, want, __LINE__)

static void test_text(void)
{
    CHECK_TEXT("(i%32)*1024+i/32", "(i % 32) * 1024 + i / 32");
    CHECK_TEXT("  i  ", "i");
    CHECK_TEXT("- -i", "- -i");
    CHECK_TEXT("-(-i)", "-(-i)");
    CHECK_TEXT("-+ - i", "-+-i");
    CHECK_TEXT("+ +i", "+ +i");
    CHECK_TEXT("!  ~i", "!~i");
    CHECK_TEXT("((i))", "(i)");
    CHECK_TEXT("min( i ,n )", "min(i, n)");
    CHECK_TEXT("abs(-a)", "abs(-a)");
    CHECK_TEXT("0x00FF+0x0", "0xff + 0x0");
    CHECK_TEXT("a?b:i?1:2", "a ? b : i ? 1 : 2");
    CHECK_TEXT("i&&n||a", "i && n || a");
    CHECK_TEXT("i<<2>>1<=n", "i << 2 >> 1 <= n");
    CHECK_TEXT("i - -1", "i - -1");
    CHECK_TEXT("i- - - 1", "i - - -1");
    cp_expr *e = NULL;
    cp_status st;
    CHECK(cp_expr_parse("i", NULL, 0, &e, &st) == CP_EXIT_OK);
    CHECK(strcmp(cp_expr_text(e), "i") == 0);
    cp_expr_free(e);
    cp_expr_free(NULL);
}

/* --- random differential test against an independent reference ------------------------------ */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnd(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static unsigned rndn(rng *r, unsigned n)
{
    return (unsigned)(rnd(r) % n);
}

enum { G_LIT, G_VAR, G_UN, G_BIN, G_COND };
static const char *const g_bin[] = {"+",  "-",  "*",  "/", "%", "<<", ">>", "<",  "<=",  ">",
                                    ">=", "==", "!=", "&", "^", "|",  "&&", "||", "min", "max"};
static const char *const g_un[] = {"-", "+", "~", "!", "abs"};
static const char *const g_var[] = {"i", "n", "a", "b"};
static const int64_t g_lits[] = {0,        1,          2,          3,          7,
                                 31,       32,         63,         64,         65,
                                 1024,     4294967295, 3037000499, 3037000500, 4611686018427387904,
                                 INT64_MAX};

typedef struct gnode {
    int kind, op, a, b, c;
    int64_t lit;
    size_t pos;
} gnode;

typedef struct gen {
    rng r;
    gnode nodes[600];
    int count;
    char text[4096];
    size_t len;
} gen;

static int gen_tree(gen *g, int depth)
{
    int k = g->count++;
    gnode *nd = &g->nodes[k];
    memset(nd, 0, sizeof *nd);
    unsigned pick = rndn(&g->r, 10);
    if (depth == 0 || pick < 3 || g->count > 200) {
        if (rndn(&g->r, 2)) {
            nd->kind = G_VAR;
            nd->op = (int)rndn(&g->r, 4);
        } else {
            nd->kind = G_LIT;
            nd->lit = g_lits[rndn(&g->r, sizeof g_lits / sizeof g_lits[0])];
            nd->op = (int)rndn(&g->r, 2); /* hex */
        }
        return k;
    }
    if (pick < 5) {
        nd->kind = G_UN;
        nd->op = (int)rndn(&g->r, 5);
        int a = gen_tree(g, depth - 1);
        g->nodes[k].a = a;
    } else if (pick < 9) {
        nd->kind = G_BIN;
        nd->op = (int)rndn(&g->r, sizeof g_bin / sizeof g_bin[0]);
        int a = gen_tree(g, depth - 1);
        int b = gen_tree(g, depth - 1);
        g->nodes[k].a = a;
        g->nodes[k].b = b;
    } else {
        nd->kind = G_COND;
        int a = gen_tree(g, depth - 1);
        int b = gen_tree(g, depth - 1);
        int c = gen_tree(g, depth - 1);
        g->nodes[k].a = a;
        g->nodes[k].b = b;
        g->nodes[k].c = c;
    }
    return k;
}

static void gput(gen *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n < sizeof g->text) {
        memcpy(g->text + g->len, s, n + 1);
        g->len += n;
    }
}

static void gspace(gen *g)
{
    static const char *const sp[] = {"", "", "", " ", "  ", "\t"};
    gput(g, sp[rndn(&g->r, 6)]);
}

/* Prints node k, fully parenthesised, recording the positions of the operators. */
static void gen_print(gen *g, int k)
{
    gnode *nd = &g->nodes[k];
    char num[40];
    switch (nd->kind) {
    case G_LIT:
        if (nd->op)
            snprintf(num, sizeof num, "0x%" PRIx64, (uint64_t)nd->lit);
        else
            snprintf(num, sizeof num, "%" PRId64, nd->lit);
        gput(g, num);
        return;
    case G_VAR:
        gput(g, g_var[nd->op]);
        return;
    case G_UN: {
        nd->pos = g->len;
        if (nd->op == 4) {
            gput(g, "abs(");
            gen_print(g, nd->a);
            gput(g, ")");
            return;
        }
        gput(g, g_un[nd->op]);
        const gnode *child = &g->nodes[nd->a];
        if (child->kind == G_UN && (nd->op == 0 || nd->op == 1) && child->op == nd->op)
            gput(g, " "); /* no -- or ++ */
        else
            gspace(g);
        gen_print(g, nd->a);
        return;
    }
    case G_BIN:
        if (nd->op >= 18) {
            nd->pos = g->len;
            gput(g, g_bin[nd->op]);
            gput(g, "(");
            gen_print(g, nd->a);
            gput(g, ",");
            gspace(g);
            gen_print(g, nd->b);
            gput(g, ")");
            return;
        }
        gput(g, "(");
        gen_print(g, nd->a);
        gspace(g);
        nd->pos = g->len;
        gput(g, g_bin[nd->op]);
        if (g->nodes[nd->b].kind == G_UN && g->nodes[nd->b].op < 2)
            gput(g, " "); /* no "+ +" run together */
        else
            gspace(g);
        gen_print(g, nd->b);
        gput(g, ")");
        return;
    default:
        gput(g, "(");
        gen_print(g, nd->a);
        gspace(g);
        nd->pos = g->len;
        gput(g, "?");
        gspace(g);
        gen_print(g, nd->b);
        gput(g, " : ");
        gen_print(g, nd->c);
        gput(g, ")");
        return;
    }
}

/* The reference: __int128 arithmetic, checked by range; 0 or 1 with *err_pos set. */
static int ref_eval(const gen *g, int k, const int64_t *vars, int64_t *out, size_t *err_pos)
{
    const gnode *nd = &g->nodes[k];
    int64_t x, y;
    __int128 r = 0;
    switch (nd->kind) {
    case G_LIT:
        *out = nd->lit;
        return 0;
    case G_VAR:
        *out = vars[nd->op];
        return 0;
    case G_UN:
        if (ref_eval(g, nd->a, vars, &x, err_pos))
            return 1;
        switch (nd->op) {
        case 0:
            r = -(__int128)x;
            break;
        case 1:
            r = x;
            break;
        case 2:
            r = -(__int128)x - 1;
            break;
        case 3:
            r = x == 0;
            break;
        default:
            r = x < 0 ? -(__int128)x : x;
            break;
        }
        break;
    case G_COND:
        if (ref_eval(g, nd->a, vars, &x, err_pos))
            return 1;
        return ref_eval(g, x ? nd->b : nd->c, vars, out, err_pos);
    default:
        if (ref_eval(g, nd->a, vars, &x, err_pos))
            return 1;
        if (nd->op == 16 && x == 0) { /* && */
            *out = 0;
            return 0;
        }
        if (nd->op == 17 && x != 0) { /* || */
            *out = 1;
            return 0;
        }
        if (ref_eval(g, nd->b, vars, &y, err_pos))
            return 1;
        switch (nd->op) {
        case 0:
            r = (__int128)x + y;
            break;
        case 1:
            r = (__int128)x - y;
            break;
        case 2:
            r = (__int128)x * y;
            break;
        case 3:
        case 4:
            if (y == 0)
                goto fail;
            r = nd->op == 3 ? (__int128)x / y : (__int128)x % y;
            if (nd->op == 4 && x == INT64_MIN && y == -1)
                goto fail;
            break;
        case 5:
            if (y < 0 || y > 63 || x < 0)
                goto fail;
            r = (__int128)x << y;
            break;
        case 6:
            if (y < 0 || y > 63)
                goto fail;
            r = x >> y; /* gcc and clang: arithmetic */
            break;
        case 7:
            r = x < y;
            break;
        case 8:
            r = x <= y;
            break;
        case 9:
            r = x > y;
            break;
        case 10:
            r = x >= y;
            break;
        case 11:
            r = x == y;
            break;
        case 12:
            r = x != y;
            break;
        case 13:
            r = x & y;
            break;
        case 14:
            r = x ^ y;
            break;
        case 15:
            r = x | y;
            break;
        case 16:
        case 17:
            r = y != 0;
            break;
        case 18:
            r = x < y ? x : y;
            break;
        default:
            r = x > y ? x : y;
            break;
        }
        break;
    }
    if (r < INT64_MIN || r > INT64_MAX)
        goto fail;
    *out = (int64_t)r;
    return 0;
fail:
    *err_pos = nd->pos;
    return 1;
}

static void test_random(void)
{
    static const int64_t vals[] = {0,
                                   1,
                                   -1,
                                   2,
                                   -2,
                                   31,
                                   32,
                                   63,
                                   64,
                                   -64,
                                   1000,
                                   3037000500,
                                   -3037000500,
                                   (int64_t)1 << 32,
                                   (int64_t)1 << 62,
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_MAX - 1,
                                   INT64_MIN + 1};
    const size_t nvals = sizeof vals / sizeof vals[0];
    gen *g = malloc(sizeof *g);
    if (!g) {
        CHECK(0);
        return;
    }
    g->r.s = 0x9e3779b97f4a7c15ULL;
    long exprs = 0, evals = 0, errors = 0, mismatches = 0;
    for (int round = 0; round < 40000 && mismatches < 10; round++) {
        g->count = 0;
        g->len = 0;
        g->text[0] = '\0';
        int root = gen_tree(g, 1 + (int)rndn(&g->r, 6));
        gen_print(g, root);
        if (g->len > CP_EXPR_MAX_TEXT || g->count > CP_EXPR_MAX_NODES)
            continue;
        cp_status st;
        cp_expr *e = NULL;
        if (cp_expr_parse(g->text, AB, 2, &e, &st) != CP_EXIT_OK) {
            mismatches++;
            fprintf(stderr, "random: '%s' does not parse: %s\n", g->text, st.message);
            continue;
        }
        exprs++;
        cp_expr *canon = NULL;
        if (cp_expr_parse(cp_expr_text(e), AB, 2, &canon, &st) != CP_EXIT_OK ||
            strcmp(cp_expr_text(canon), cp_expr_text(e)) != 0) {
            mismatches++;
            fprintf(stderr, "random: canonical text of '%s' is '%s', which gives '%s'\n", g->text,
                    cp_expr_text(e), canon ? cp_expr_text(canon) : st.message);
        }
        for (int t = 0; t < 12; t++) {
            int64_t vars[4];
            for (int v = 0; v < 4; v++)
                vars[v] = vals[rndn(&g->r, (unsigned)nvals)];
            int64_t want = 0, got = 0, got2 = 0;
            size_t pos = 0;
            int bad = ref_eval(g, root, vars, &want, &pos);
            int rc = cp_expr_eval(e, vars[0], vars[1], vars + 2, &got, &st);
            evals++;
            errors += bad;
            char at[48];
            snprintf(at, sizeof at, "at position %zu:", pos);
            int same = bad ? rc == CP_EXIT_USAGE && strstr(st.message, at) != NULL
                           : rc == CP_EXIT_OK && got == want;
            if (canon && same) {
                int rc2 = cp_expr_eval(canon, vars[0], vars[1], vars + 2, &got2, &st);
                same = bad ? rc2 == CP_EXIT_USAGE : rc2 == CP_EXIT_OK && got2 == want;
            }
            if (!same) {
                mismatches++;
                fprintf(stderr,
                        "random: '%s' with i=%" PRId64 " n=%" PRId64 " a=%" PRId64 " b=%" PRId64
                        ": reference %s %" PRId64 " (%s), ours rc %d %" PRId64 " (%s)\n",
                        g->text, vars[0], vars[1], vars[2], vars[3], bad ? "error" : "value", want,
                        at, rc, got, rc ? st.message : "");
                break;
            }
        }
        cp_expr_free(canon);
        cp_expr_free(e);
    }
    CHECK(mismatches == 0);
    CHECK(exprs > 30000);
    printf("random: %ld expressions, %ld evaluations (%ld errors) agree with the reference\n",
           exprs, evals, errors);
    free(g);
}

/* --- micro-benchmark -------------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench(const char *text, int64_t count)
{
    static const char *const names[] = {"stride"};
    cp_expr *e = parse_ok(text, names, 1);
    if (!e) {
        CHECK(0);
        return;
    }
    cp_status st;
    int64_t p[1] = {3}, sum = 0, v = 0;
    int ok = 1;
    double t0 = now_ns();
    for (int64_t i = 0; i < count; i++) {
        ok &= cp_expr_eval(e, i, count, p, &v, &st) == CP_EXIT_OK;
        sum += v & 0xffff;
    }
    double t1 = now_ns();
    CHECK(ok);
    printf("bench: %-40s %6.1f ns/eval (checksum %" PRId64 ")\n", text, (t1 - t0) / (double)count,
           sum);
    cp_expr_free(e);
}

int main(void)
{
    test_against_c();
    test_semantics();
    test_params();
    test_parse_errors();
    test_limits();
    test_eval_errors();
    test_to_c();
    test_text();
    test_random();
    int64_t count = 2000000;
    const char *env = getenv("CP_EXPR_BENCH_EVALS");
    if (env)
        count = strtoll(env, NULL, 10);
    bench("(i % 32) * 1024 + i / 32", count);
    bench("i * stride % n", count);
    bench("n > 0 && i < n ? min(i * stride, n - 1) : 0", count);
    return cp_test_finish();
}
