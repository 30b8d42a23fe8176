/* cp_number.c: the number parsers (cp_number.h). */
#include "cp_number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cp_number_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int cp_number_u64(const char *s, size_t len, uint64_t max, int zeros_ok, uint64_t *out)
{
    if (len == 0)
        return CP_NUMBER_BAD;
    for (size_t i = 0; i < len; i++)
        if (!cp_number_is_digit(s[i]))
            return CP_NUMBER_BAD;
    if (!zeros_ok && len > 1 && s[0] == '0')
        return CP_NUMBER_LEADING_ZERO;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10 || d > max)
            return CP_NUMBER_TOO_LARGE;
        v = v * 10 + d;
    }
    *out = v;
    return CP_NUMBER_OK;
}

int cp_number_long(const char *s, long max, long *out)
{
    int neg = *s == '-';
    uint64_t v;
    if (max < 0 || cp_number_u64(s + neg, strlen(s + neg), (uint64_t)max, 1, &v) != CP_NUMBER_OK)
        return CP_NUMBER_BAD;
    *out = neg ? -(long)v : (long)v;
    return CP_NUMBER_OK;
}

int cp_number_hex32(const char *s, int prefixed, uint32_t *out)
{
    if (prefixed) {
        if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
            return CP_NUMBER_BAD;
        s += 2;
    }
    size_t n = strlen(s);
    if (n == 0 || n > 8 || strspn(s, "0123456789abcdefABCDEF") != n)
        return CP_NUMBER_BAD;
    *out = (uint32_t)strtoul(s, NULL, 16);
    return CP_NUMBER_OK;
}

int cp_number_real(const char *s, double *out)
{
    if (!*s || s[strspn(s, "0123456789.eE+-")]) /* decimal only: no hex, inf or nan */
        return CP_NUMBER_BAD;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return CP_NUMBER_BAD;
    *out = v;
    return errno == ERANGE ? CP_NUMBER_UNDERFLOW : CP_NUMBER_OK;
}

int cp_number_seconds(const char *s, double *out)
{
    if (!cp_number_is_digit(*s) && *s != '.')
        return CP_NUMBER_BAD;
    return cp_number_real(s, out) == CP_NUMBER_OK ? CP_NUMBER_OK : CP_NUMBER_BAD;
}
