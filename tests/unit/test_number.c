/* test_number.c: the number parsers of src/base (cp_number) under the sweep grammar and trace:
 * whole numbers with and without leading zeros and their maximum, signed, hex and real ones. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_test.h"

static int u64(const char *s, uint64_t max, int zeros_ok, uint64_t *v)
{
    return cp_number_u64(s, strlen(s), max, zeros_ok, v);
}

static void test_u64(void)
{
    uint64_t v = 0;
    CHECK(u64("0", UINT64_MAX, 0, &v) == CP_NUMBER_OK && v == 0);
    CHECK(u64("18446744073709551615", UINT64_MAX, 0, &v) == CP_NUMBER_OK && v == UINT64_MAX);
    CHECK(u64("18446744073709551616", UINT64_MAX, 0, &v) == CP_NUMBER_TOO_LARGE);
    CHECK(u64("99999999999999999999999", UINT64_MAX, 1, &v) == CP_NUMBER_TOO_LARGE);
    CHECK(u64("", UINT64_MAX, 1, &v) == CP_NUMBER_BAD);
    CHECK(u64("+1", UINT64_MAX, 1, &v) == CP_NUMBER_BAD);
    CHECK(u64("-1", UINT64_MAX, 1, &v) == CP_NUMBER_BAD);
    CHECK(u64(" 1", UINT64_MAX, 1, &v) == CP_NUMBER_BAD);
    CHECK(u64("1x", UINT64_MAX, 1, &v) == CP_NUMBER_BAD);
    /* not a number first, then the leading zero, then the maximum */
    CHECK(u64("010", UINT64_MAX, 0, &v) == CP_NUMBER_LEADING_ZERO);
    CHECK(u64("01x", UINT64_MAX, 0, &v) == CP_NUMBER_BAD);
    CHECK(u64("099999999999999999999", UINT64_MAX, 0, &v) == CP_NUMBER_LEADING_ZERO);
    CHECK(u64("010", UINT64_MAX, 1, &v) == CP_NUMBER_OK && v == 10);
    CHECK(u64("4294967295", UINT32_MAX, 1, &v) == CP_NUMBER_OK && v == UINT32_MAX);
    CHECK(u64("4294967296", UINT32_MAX, 1, &v) == CP_NUMBER_TOO_LARGE);
    CHECK(u64("7", 5, 1, &v) == CP_NUMBER_TOO_LARGE);
    CHECK(u64("0", 0, 1, &v) == CP_NUMBER_OK && v == 0);
    CHECK(u64("1", 0, 1, &v) == CP_NUMBER_TOO_LARGE);
    /* only len characters are read */
    CHECK(cp_number_u64("12..34", 2, UINT64_MAX, 0, &v) == CP_NUMBER_OK && v == 12);
}

static void test_long_hex(void)
{
    long l = 0;
    CHECK(cp_number_long("-2147483647", 0x7fffffffL, &l) == CP_NUMBER_OK && l == -2147483647L);
    CHECK(cp_number_long("2147483648", 0x7fffffffL, &l) == CP_NUMBER_BAD);
    CHECK(cp_number_long("-", 10, &l) == CP_NUMBER_BAD);
    CHECK(cp_number_long("--1", 10, &l) == CP_NUMBER_BAD);
    uint32_t x = 0;
    CHECK(cp_number_hex32("deadBEEF", 0, &x) == CP_NUMBER_OK && x == 0xdeadbeefu);
    CHECK(cp_number_hex32("0x1a", 1, &x) == CP_NUMBER_OK && x == 0x1a);
    CHECK(cp_number_hex32("1a", 1, &x) == CP_NUMBER_BAD);
    CHECK(cp_number_hex32("0x", 1, &x) == CP_NUMBER_BAD);
    CHECK(cp_number_hex32("123456789", 0, &x) == CP_NUMBER_BAD);
    CHECK(cp_number_hex32("12g", 0, &x) == CP_NUMBER_BAD);
}

static void test_real(void)
{
    double d = 0;
    CHECK(cp_number_real("0.25", &d) == CP_NUMBER_OK && d == 0.25);
    CHECK(cp_number_real("-3", &d) == CP_NUMBER_OK && d == -3);
    CHECK(cp_number_real("", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("1.5x", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("inf", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("nan", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("1e999", &d) == CP_NUMBER_BAD);
    d = -1;
    CHECK(cp_number_real("1e-400", &d) == CP_NUMBER_UNDERFLOW && d >= 0 && d < 1e-300);
    /* decimal only: strtod's hex floats are refused */
    CHECK(cp_number_real("0x10", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("0x1p4", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_real("1.5e+3", &d) == CP_NUMBER_OK && d == 1500);
    /* seconds from the environment: no sign, no space, no hex */
    CHECK(cp_number_seconds("2.5", &d) == CP_NUMBER_OK && d == 2.5);
    CHECK(cp_number_seconds(".5", &d) == CP_NUMBER_OK && d == 0.5);
    CHECK(cp_number_seconds("0x10", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_seconds("-1", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_seconds(" 1", &d) == CP_NUMBER_BAD);
    CHECK(cp_number_seconds("1e-400", &d) == CP_NUMBER_BAD);
}

int main(void)
{
    test_u64();
    test_long_hex();
    test_real();
    return cp_test_finish();
}
