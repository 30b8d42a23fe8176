/* test_sweep.c: unit tests of the sweep grammar (numbers, ranges, lists, names, byte sizes) and
 * of the cartesian product's count and order. */
#include "base/cp_sweep.h"

#include "cp_test.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>

/* Parses spec with [min, max] and checks that it gives exactly want[0..n). */
static void expect_values(const char *spec, uint64_t min, uint64_t max, const uint64_t *want,
                          size_t n)
{
    int failed = cp_test_failed;
    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_sweep_parse(spec, "--stride", min, max, &s, &st);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "  spec '%s': %s\n", spec, st.message);
    CHECK_EQ_U64(s.count, n);
    if (s.count == n)
        for (size_t i = 0; i < n; i++)
            CHECK_EQ_U64(s.values[i], want[i]);
    cp_sweep_free(&s);
    CHECK(s.values == NULL && s.count == 0);
    if (cp_test_failed != failed)
        fprintf(stderr, "  in spec '%s'\n", spec);
}

/* Parses spec and checks that it fails with CP_EXIT_USAGE, an empty result, a message
 * containing `needle` and a hint. */
static void expect_error(const char *spec, uint64_t min, uint64_t max, const char *needle)
{
    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_sweep_parse(spec, "--stride", min, max, &s, &st);
    CHECK_EQ_U64(rc, CP_EXIT_USAGE);
    CHECK_EQ_U64(st.code, CP_EXIT_USAGE);
    CHECK(s.values == NULL);
    CHECK_EQ_U64(s.count, 0);
    CHECK_STR_CONTAINS(st.message, "--stride: ");
    CHECK_STR_CONTAINS(st.message, needle);
    CHECK(st.hint[0] != '\0');
    cp_sweep_free(&s);
}

/* A spec, its bounds and the values it gives, in order. */
typedef struct valid_form {
    const char *spec;
    uint64_t min, max;
    size_t n;
    uint64_t want[10];
} valid_form;

static void test_valid_forms(void)
{
    static const valid_form forms[] = {
        {"4", 1, 4096, 1, {4}},
        {"1..5", 1, 4096, 5, {1, 2, 3, 4, 5}},
        {"7..7", 1, 4096, 1, {7}},
        {"1..10:4", 1, 4096, 3, {1, 5, 9}},
        {"0..32:8", 0, 4096, 5, {0, 8, 16, 24, 32}},
        {"3..10:100", 1, 4096, 1, {3}},
        {"32,1,8", 1, 4096, 3, {32, 1, 8}},
        {"1..8,16,32", 1, 4096, 10, {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}},
        {"1,1..3", 1, 4096, 3, {1, 2, 3}},
        {"5,1..6,3,5", 1, 4096, 6, {5, 1, 2, 3, 4, 6}},
        {"0..3,10", 0, 4096, 5, {0, 1, 2, 3, 10}}, /* "0" is a number, not a leading zero */
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        expect_values(forms[i].spec, forms[i].min, forms[i].max, forms[i].want, forms[i].n);

    /* Exactly CP_SWEEP_MAX_VALUES values is allowed, also spread over items with overlaps. */
    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse("1..100000", "--n", 1, 1000000, &s, &st), CP_EXIT_OK);
    CHECK_EQ_U64(s.count, CP_SWEEP_MAX_VALUES);
    CHECK_EQ_U64(s.values[0], 1);
    CHECK_EQ_U64(s.values[CP_SWEEP_MAX_VALUES - 1], 100000);
    cp_sweep_free(&s);
    CHECK_EQ_U64(cp_sweep_parse("1..100000,1..100000,50000", "--n", 1, 1000000, &s, &st),
                 CP_EXIT_OK);
    CHECK_EQ_U64(s.count, CP_SWEEP_MAX_VALUES);
    cp_sweep_free(&s);
    cp_sweep_free(&s); /* freeing an empty sweep is safe */
    CHECK(s.values == NULL && s.count == 0);
}

static void test_bounds(void)
{
    static const valid_form bounds[] = {
        {"18446744073709551615", 0, UINT64_MAX, 1, {UINT64_MAX}},
        {"18446744073709551613..18446744073709551615",
         0,
         UINT64_MAX,
         3,
         {UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX}},
        {"0..18446744073709551615:18446744073709551615", 0, UINT64_MAX, 2, {0, UINT64_MAX}},
        {"0", 0, 0, 1, {0}},
        {"1,4096", 1, 4096, 2, {1, 4096}},
    };
    for (size_t i = 0; i < sizeof bounds / sizeof *bounds; i++)
        expect_values(bounds[i].spec, bounds[i].min, bounds[i].max, bounds[i].want, bounds[i].n);

    expect_error("18446744073709551616", 0, UINT64_MAX, "'18446744073709551616' is too large");
    expect_error("0..18446744073709551615", 0, UINT64_MAX, "gives more than 100000 values");
    expect_error("0..18446744073709551616", 0, UINT64_MAX, "'18446744073709551616' is too large");
    expect_error("4097", 1, 4096, "'4097' is above the maximum 4096");
    expect_error("1..4097", 1, 4096, "'4097' is above the maximum 4096 (in '1..4097')");
    expect_error("0..8", 1, 4096, "'0' is below the minimum 1 (in '0..8')");
    expect_error("5000..6000", 1, 4096, "'5000' is above the maximum 4096");
}

static void test_invalid_forms(void)
{
    expect_error("", 1, 4096, "empty");
    expect_error("x", 1, 4096, "'x' is not a whole number");
    expect_error("1..", 1, 4096, "'1..' is missing the end of the range");
    expect_error("..5", 1, 4096, "'..5' is missing the start of the range");
    expect_error("1...3", 1, 4096, "'1...3'");
    expect_error("1..3..5", 1, 4096, "'1..3..5'");
    expect_error("1.5", 1, 4096, "'1.5' is not a whole number");
    expect_error("32..1", 1, 4096, "'32..1' is an empty range (start above end)");
    expect_error("1..8:0", 1, 4096, "'1..8:0' has step 0 (the step must be at least 1)");
    expect_error("1..8:", 1, 4096, "'1..8:'");
    expect_error("1..:2", 1, 4096, "'1..:2' is missing the end of the range");
    expect_error("1..8:x", 1, 4096, "'1..8:x' is missing the factor after ':x'");
    expect_error("1..8:y", 1, 4096, "'y' is not a whole number (in '1..8:y')");
    expect_error("1..8:x1", 1, 4096, "has a factor below 2");
    expect_error("0..8:x2", 0, 4096, "starts at 0");
    expect_error("1..8:xq", 1, 4096, "'q' is not a whole number (in '1..8:xq')");
    expect_error("4K", 1, 1u << 20, "'4K' is not a whole number"); /* sizes only */
    expect_error("1..8:-1", 1, 4096, "'-1' is not a whole number");
    expect_error("5:2", 1, 4096, "'5:2' is not a whole number");
    expect_error("1,,2", 1, 4096, "empty item in '1,,2'");
    expect_error(",1", 1, 4096, "empty item in ',1'");
    expect_error("1,", 1, 4096, "empty item in '1,'");
    expect_error(",", 1, 4096, "empty item in ','");
    expect_error("-1", 1, 4096, "'-1' is not a whole number");
    expect_error("+1", 1, 4096, "'+1' is not a whole number");
    expect_error(" 1", 1, 4096, "' 1' is not a whole number");
    expect_error("1 ", 1, 4096, "'1 ' is not a whole number");
    expect_error("1, 2", 1, 4096, "' 2' is not a whole number");
    expect_error("0x10", 1, 4096, "'0x10' is not a whole number");
    expect_error("99999999999999999999999", 1, 4096, "'99999999999999999999999' is too large");
    expect_error("1..99999999999999999999999", 1, 4096,
                 "'99999999999999999999999' is too large (in '1..99999999999999999999999')");
    expect_error("0", 1, 4096, "'0' is below the minimum 1");
    expect_error("5000", 1, 4096, "'5000' is above the maximum 4096");
    expect_error("8,5000", 1, 4096, "'5000' is above the maximum 4096");
    expect_error("1..100000000", 1, 4096, "'1..100000000' gives more than 100000 values");
    expect_error("1..100001", 1, UINT64_MAX, "'1..100001' gives more than 100000 values");
    expect_error("1..60000,60001..120000", 1, UINT64_MAX,
                 "'1..60000,60001..120000' gives more than 100000 values");
    /* an error in a later item leaves nothing allocated */
    expect_error("1..50000,x", 1, UINT64_MAX, "'x' is not a whole number");

    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse(NULL, "--stride", 1, 8, &s, &st), CP_EXIT_USAGE);
    CHECK(s.values == NULL && s.count == 0);
    /* the hint for syntax errors shows the grammar */
    CHECK_EQ_U64(cp_sweep_parse("x", "--stride", 1, 8, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.hint, "a..b:step");
    CHECK_EQ_U64(cp_sweep_parse("9", "--stride", 1, 8, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.hint, "1 to 8");
}

static void test_names(void)
{
    static const char *const ops[] = {"load", "store"};
    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);

    CHECK_EQ_U64(cp_sweep_parse_names("load", "--op", ops, 2, &s, &st), CP_EXIT_OK);
    CHECK_EQ_U64(s.count, 1);
    CHECK_EQ_U64(s.values[0], 0);
    cp_sweep_free(&s);

    CHECK_EQ_U64(cp_sweep_parse_names("store,load,store", "--op", ops, 2, &s, &st), CP_EXIT_OK);
    CHECK_EQ_U64(s.count, 2);
    CHECK_EQ_U64(s.values[0], 1);
    CHECK_EQ_U64(s.values[1], 0);
    cp_sweep_free(&s);

    CHECK_EQ_U64(cp_sweep_parse_names("all", "--op", ops, 2, &s, &st), CP_EXIT_OK);
    CHECK_EQ_U64(s.count, 2);
    CHECK_EQ_U64(s.values[0], 0);
    CHECK_EQ_U64(s.values[1], 1);
    cp_sweep_free(&s);

    CHECK_EQ_U64(cp_sweep_parse_names("lod", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--op: unknown value 'lod' (expected one of: load, store, all)");
    CHECK(s.values == NULL && s.count == 0);

    CHECK_EQ_U64(cp_sweep_parse_names("load,Store", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "unknown value 'Store'");
    CHECK(s.values == NULL && s.count == 0);

    CHECK_EQ_U64(cp_sweep_parse_names("load,,store", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--op: empty item in 'load,,store'");
    CHECK(s.values == NULL && s.count == 0);

    CHECK_EQ_U64(cp_sweep_parse_names("load,", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "empty item in 'load,'");
    CHECK_EQ_U64(cp_sweep_parse_names("", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--op:");
    CHECK_EQ_U64(cp_sweep_parse_names("load,all", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "'all'");
    CHECK_EQ_U64(cp_sweep_parse_names("loads", "--op", ops, 2, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "'loads'");
    CHECK(s.values == NULL && s.count == 0);
}

static void test_u64(void)
{
    uint64_t v = 0;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse_u64("32", "--warps", 1, 64, &v, &st), CP_EXIT_OK);
    CHECK_EQ_U64(v, 32);
    CHECK_EQ_U64(cp_sweep_parse_u64("18446744073709551615", "--n", 0, UINT64_MAX, &v, &st),
                 CP_EXIT_OK);
    CHECK_EQ_U64(v, UINT64_MAX);
    /* refusals: the option named, and the reason (" 3" only refused) */
    static const struct {
        const char *spec, *option;
        uint64_t min, max;
        const char *needle;
    } refused[] = {
        {"18446744073709551616", "--n", 0, UINT64_MAX, "--n: '18446744073709551616' is too large"},
        {"1..4", "--warps", 1, 64, "--warps: '1..4' is not a whole number"},
        {"x", "--warps", 1, 64, "--warps: 'x' is not a whole number"},
        {"-3", "--warps", 1, 64, "'-3' is not a whole number"},
        {" 3", "--warps", 1, 64, NULL},
        {"", "--warps", 1, 64, "--warps:"},
        {"0", "--warps", 1, 64, "--warps: '0' is below the minimum 1"},
        {"65", "--warps", 1, 64, "--warps: '65' is above the maximum 64"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        CHECK_EQ_U64(cp_sweep_parse_u64(refused[i].spec, refused[i].option, refused[i].min,
                                        refused[i].max, &v, &st),
                     CP_EXIT_USAGE);
        if (refused[i].needle)
            CHECK_STR_CONTAINS(st.message, refused[i].needle);
    }
    CHECK(st.hint[0] != '\0');
    CHECK_EQ_U64(v, UINT64_MAX); /* untouched on error */
}

/* Parses a byte count in [0, UINT64_MAX] and checks the result. */
static void expect_bytes(const char *spec, uint64_t want)
{
    uint64_t v = 0;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_sweep_parse_bytes(spec, "--size", 0, UINT64_MAX, &v, &st);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "  spec '%s': %s\n", spec, st.message);
    CHECK_EQ_U64(v, want);
}

static void expect_bytes_error(const char *spec, uint64_t min, uint64_t max, const char *needle)
{
    uint64_t v = 0;
    cp_status st;
    cp_status_clear(&st);
    CHECK_USAGE_ERROR(cp_sweep_parse_bytes(spec, "--size", min, max, &v, &st), st, needle);
}

static void test_bytes(void)
{
    expect_bytes("4096", 4096);
    expect_bytes("0", 0);
    expect_bytes("1K", 1024);
    expect_bytes("1k", 1024);
    expect_bytes("64M", UINT64_C(64) << 20);
    expect_bytes("64m", UINT64_C(64) << 20);
    expect_bytes("2G", UINT64_C(2) << 30);
    expect_bytes("2g", UINT64_C(2) << 30);
    expect_bytes("3KiB", 3072);
    expect_bytes("5MiB", UINT64_C(5) << 20);
    expect_bytes("1GiB", UINT64_C(1) << 30);
    expect_bytes("18446744073709551615", UINT64_MAX);
    expect_bytes("17179869183G", UINT64_C(17179869183) << 30);

    expect_bytes_error("17179869184G", 0, UINT64_MAX, "--size: '17179869184G' is too large");
    expect_bytes_error("18014398509481984K", 0, UINT64_MAX, "'18014398509481984K' is too large");
    expect_bytes_error("18446744073709551616", 0, UINT64_MAX, "is too large");
    expect_bytes_error("12Q", 0, UINT64_MAX,
                       "--size: '12Q' is not a byte count (digits with an optional K, M or G "
                       "suffix)");
    expect_bytes_error("K", 0, UINT64_MAX, "'K' is not a byte count");
    expect_bytes_error("", 0, UINT64_MAX, "--size:");
    expect_bytes_error("1KB", 0, UINT64_MAX, "'1KB' is not a byte count");
    expect_bytes_error("1Ki", 0, UINT64_MAX, "'1Ki' is not a byte count");
    expect_bytes_error("1KiBx", 0, UINT64_MAX, "'1KiBx' is not a byte count");
    expect_bytes_error("-1K", 0, UINT64_MAX, "'-1K' is not a byte count");
    expect_bytes_error("+1K", 0, UINT64_MAX, "'+1K' is not a byte count");
    expect_bytes_error(" 1K", 0, UINT64_MAX, "' 1K' is not a byte count");
    expect_bytes_error("1K ", 0, UINT64_MAX, "'1K ' is not a byte count");
    expect_bytes_error("1.5M", 0, UINT64_MAX, "'1.5M' is not a byte count");
    expect_bytes_error("0x10", 0, UINT64_MAX, "'0x10' is not a byte count");
    expect_bytes_error("1K", 4096, UINT64_C(1) << 30,
                       "--size: '1K' is below the minimum 4096 bytes");
    expect_bytes_error("2G", 4096, UINT64_C(1) << 30,
                       "--size: '2G' is above the maximum 1073741824 bytes");
}

/* Every number is decimal without leading zeros: sweeps, whole numbers, byte counts and the
 * numbers other options read themselves (cp_sweep_check_leading_zero). */
static void test_leading_zeros(void)
{
    expect_error("010", 1, 4096,
                 "--stride: '010' has a leading zero (write 10; octal is not read)");
    expect_error("007", 1, 4096, "'007' has a leading zero (write 7;");
    expect_error("00", 0, 4096, "'00' has a leading zero (write 0;");
    expect_error("1..010", 1, 4096,
                 "'010' has a leading zero (write 10; octal is not read), in "
                 "'1..010'");
    expect_error("01..8", 1, 4096, "'01' has a leading zero (write 1;");
    expect_error("1..8:02", 1, 4096, "'02' has a leading zero (write 2;");
    expect_error("1,2,08", 1, 4096, "'08' has a leading zero (write 8;");
    expect_error("0x10", 1, 4096, "'0x10' is not a whole number");

    uint64_t v = 5;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse_u64("07", "--warp", 0, 64, &v, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--warp: '07' has a leading zero (write 7; octal is not read)");
    CHECK(st.hint[0] != '\0');
    CHECK_EQ_U64(v, 5);
    CHECK_EQ_U64(cp_sweep_parse_u64("0", "--warp", 0, 64, &v, &st), CP_EXIT_OK);
    CHECK_EQ_U64(v, 0);

    expect_bytes_error("010K", 0, UINT64_MAX,
                       "--size: '010K' has a leading zero (write 10K; octal is not read)");
    expect_bytes_error("0064MiB", 0, UINT64_MAX, "(write 64MiB;");
    expect_bytes_error("00", 0, UINT64_MAX, "'00' has a leading zero (write 0;");
    expect_bytes("0K", 0);

    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_check_leading_zero("05%", "--tolerance", &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--tolerance: '05%' has a leading zero (write 5%;");
    CHECK_EQ_U64(cp_sweep_check_leading_zero("00.5", "--tolerance", &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "(write 0.5;");
    static const char *const fine[] = {"0", "0.05", "5%", "10", "0%", "x", ""};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_sweep_check_leading_zero(fine[i], "--tolerance", &st), CP_EXIT_OK);
        CHECK_EQ_U64(st.code, CP_EXIT_OK);
    }
}

/* An option with a value may come once; flags and options not in the table always pass. */
static void test_once(void)
{
    static const struct option options[] = {
        {"size", required_argument, NULL, 's'},
        {"model", no_argument, NULL, 'm'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    uint64_t seen = 0;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_once(options, 's', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'f', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'm', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'm', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'x', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'x', &seen, &st), CP_EXIT_OK);
    CHECK_EQ_U64(st.code, CP_EXIT_OK);
    CHECK_EQ_U64(cp_sweep_once(options, 'f', &seen, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--format is given twice (give it once)");
    CHECK(st.hint[0] != '\0');
    CHECK_EQ_U64(cp_sweep_once(options, 's', &seen, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "--size is given twice (give it once)");
}

static void test_product(void)
{
    uint64_t a_vals[] = {1, 2};
    uint64_t b_vals[] = {10, 20, 30};
    uint64_t c_vals[] = {7};
    cp_sweep a = {a_vals, 2}, b = {b_vals, 3}, c = {c_vals, 1};
    const cp_sweep *dims[] = {&a, &b, &c};
    cp_status st;
    cp_status_clear(&st);
    uint64_t n = 0;

    CHECK_EQ_U64(cp_sweep_product_count(dims, 3, 100, &n, &st), CP_EXIT_OK);
    CHECK_EQ_U64(n, 6);
    CHECK_EQ_U64(cp_sweep_product_count(dims, 3, 6, &n, &st), CP_EXIT_OK);
    CHECK_EQ_U64(n, 6);
    CHECK_EQ_U64(cp_sweep_product_count(dims, 0, 6, &n, &st), CP_EXIT_OK);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(cp_sweep_product_count(dims, 3, 5, &n, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the sweep has 6 configurations, more than the limit 5");
    CHECK(st.hint[0] != '\0');

    /* dims[0] changes slowest, dims[ndims-1] fastest */
    static const uint64_t want[6][3] = {{1, 10, 7}, {1, 20, 7}, {1, 30, 7},
                                        {2, 10, 7}, {2, 20, 7}, {2, 30, 7}};
    for (uint64_t i = 0; i < 6; i++) {
        uint64_t v[3] = {0, 0, 0};
        cp_sweep_product_at(dims, 3, i, v);
        for (int d = 0; d < 3; d++)
            CHECK_EQ_U64(v[d], want[i][d]);
    }

    /* Big products: 100000^3 fits in 64 bits, 100000^4 does not. */
    cp_sweep big = {NULL, 0};
    CHECK_EQ_U64(cp_sweep_parse("1..100000", "--n", 1, UINT64_MAX, &big, &st), CP_EXIT_OK);
    const cp_sweep *many[] = {&big, &big, &big, &big, &big};
    CHECK_EQ_U64(cp_sweep_product_count(many, 2, 100000, &n, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "the sweep has 10000000000 configurations, more than the "
                                   "limit 100000");
    CHECK_EQ_U64(cp_sweep_product_count(many, 3, UINT64_MAX, &n, &st), CP_EXIT_OK);
    CHECK_EQ_U64(n, UINT64_C(1000000000000000));
    CHECK_EQ_U64(cp_sweep_product_count(many, 4, UINT64_MAX, &n, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "more than 18446744073709551615 configurations");
    CHECK_EQ_U64(cp_sweep_product_count(many, 5, 100000, &n, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "more than the limit 100000");
    uint64_t v[2];
    cp_sweep_product_at(many, 2, UINT64_C(100000) * 3 + 7, v);
    CHECK_EQ_U64(v[0], 4);
    CHECK_EQ_U64(v[1], 8);
    cp_sweep_free(&big);

    /* An empty dimension makes an empty product. */
    cp_sweep empty = {NULL, 0};
    const cp_sweep *with_empty[] = {&a, &empty};
    CHECK_EQ_U64(cp_sweep_product_count(with_empty, 2, 100, &n, &st), CP_EXIT_OK);
    CHECK_EQ_U64(n, 0);
}

/* a..b:xF multiplies; a sweep of sizes takes K, M, G suffixes on every number. */
/* a byte count shown as the input spells it, read back to the same bytes */
static void test_format_bytes(void)
{
    const struct {
        uint64_t v;
        const char *text;
    } cases[] = {{0, "0"},           {130, "130"},        {1024, "1K"},
                 {4096, "4K"},       {6144, "6K"},        {1536, "1536"},
                 {1048576, "1M"},    {67108864, "64M"},   {3 << 20, "3M"},
                 {1ull << 30, "1G"}, {5ull << 32, "20G"}, {(1ull << 30) + 4096, "1048580K"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        cp_sweep_format_bytes(cases[i].v, buf, sizeof buf);
        CHECK(strcmp(buf, cases[i].text) == 0);
        uint64_t back = 1;
        cp_status st;
        cp_status_clear(&st);
        CHECK(cp_sweep_parse_bytes(buf, "--table", 0, UINT64_MAX, &back, &st) == CP_EXIT_OK);
        CHECK_EQ_U64(back, cases[i].v);
    }
}

static void test_geometric_and_sizes(void)
{
    const uint64_t g[] = {1, 4, 16, 64};
    expect_values("1..100:x4", 1, 4096, g, 4);
    const uint64_t g2[] = {3, 6, 12, 24, 5};
    expect_values("3..24:x2,5", 1, 4096, g2, 5);
    const uint64_t one[] = {7};
    expect_values("7..20:x3", 1, 4096, one + 0, 1); /* 7, then 21 > 20 */

    cp_sweep s = {NULL, 0};
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(
        cp_sweep_parse_sizes("4K..64M:x4,1G,128,2KiB", "--table", 128, 1ull << 32, &s, &st),
        CP_EXIT_OK);
    const uint64_t want[] = {4096,     16384,    65536,      262144, 1048576, 4194304,
                             16777216, 67108864, 1ull << 30, 128,    2048};
    CHECK_EQ_U64(s.count, (sizeof want / sizeof want[0]));
    for (size_t i = 0; i < s.count && i < (sizeof want / sizeof want[0]); i++)
        CHECK_EQ_U64(s.values[i], want[i]);
    cp_sweep_free(&s);
    CHECK_EQ_U64(cp_sweep_parse_sizes("1K..8K:2K", "--table", 128, 1u << 20, &s, &st), CP_EXIT_OK);
    CHECK_EQ_U64(s.count, 4); /* 1K, 3K, 5K, 7K */
    CHECK(s.count == 4 && s.values[3] == 7168);
    cp_sweep_free(&s);
    CHECK_EQ_U64(cp_sweep_parse_sizes("64..4K", "--table", 128, 1u << 20, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "below the minimum 128");
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse_sizes("4X", "--table", 128, 1u << 20, &s, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "'4X' is not a whole number");
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse_sizes("iB", "--table", 0, 1u << 20, &s, &st), CP_EXIT_USAGE);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_sweep_parse_sizes("99999999999G", "--table", 0, UINT64_MAX, &s, &st),
                 CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "is too large");
}

int main(void)
{
    test_geometric_and_sizes();
    test_format_bytes();
    test_valid_forms();
    test_bounds();
    test_invalid_forms();
    test_names();
    test_u64();
    test_bytes();
    test_leading_zeros();
    test_once();
    test_product();
    return cp_test_finish();
}
