/* cp_number.h: the number parsers under every option and file coalprobe reads: decimal whole
 * numbers (with or without leading zeros), signed ones, 32-bit hex and reals. They say what is
 * wrong with a number; the callers (the sweep grammar, trace's options and raw-file reader) word
 * the message. */
#ifndef CP_NUMBER_H
#define CP_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* What a parser found. */
enum {
    CP_NUMBER_OK = 0,
    CP_NUMBER_BAD,          /* not a number of the kind asked for */
    CP_NUMBER_TOO_LARGE,    /* a number, above the maximum */
    CP_NUMBER_LEADING_ZERO, /* a whole number written with a leading zero ("010") */
    CP_NUMBER_UNDERFLOW,    /* a real too small to represent: *out holds strtod's result */
};

/* s[0..len) as a decimal whole number at most max: digits only (no sign, no space, at least one).
 * A leading zero ("007"; "0" itself is a number) is CP_NUMBER_LEADING_ZERO unless zeros_ok, then
 * it is read as decimal. Checked in that order: BAD, LEADING_ZERO, TOO_LARGE. */
int cp_number_u64(const char *s, size_t len, uint64_t max, int zeros_ok, uint64_t *out);

/* s as a decimal number in [-max, max]: an optional '-', then digits (leading zeros read as
 * decimal). CP_NUMBER_OK or CP_NUMBER_BAD. */
int cp_number_long(const char *s, long max, long *out);

/* s as 1 to 8 hex digits ("0x" or "0X" first when prefixed). CP_NUMBER_OK or CP_NUMBER_BAD. */
int cp_number_hex32(const char *s, int prefixed, uint32_t *out);

/* s as a finite real in decimal notation (digits, '.', an exponent; no hex "0x10", no "inf"),
 * as strtod reads it, with nothing after it: CP_NUMBER_OK, CP_NUMBER_BAD (nothing read,
 * something after it, not decimal, infinite or not a number) or CP_NUMBER_UNDERFLOW. */
int cp_number_real(const char *s, double *out);

/* s as a number of seconds from the environment: cp_number_real that starts with a digit or
 * '.' (no sign, no space) and does not underflow. CP_NUMBER_OK or CP_NUMBER_BAD. */
int cp_number_seconds(const char *s, double *out);

#endif
