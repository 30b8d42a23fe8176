/* cp_sweep.h: the sweep grammar. A numeric parameter takes N, a..b (inclusive), a..b:step,
 * a..b:xF (a, a*F, a*F^2, ... up to b), comma lists and mixtures of them (1..8,16,32); names
 * take comma lists (load,store) or "all"; sizes take bytes with K, M, G suffixes (powers of
 * 1024). Several swept parameters form a cartesian product in a stable order. Errors name the
 * bad token. */
#ifndef CP_SWEEP_H
#define CP_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "cp_status.h"

/* Most values one parameter may take, and most configurations of a product. */
#define CP_SWEEP_MAX_VALUES 100000u

/* The values of one swept parameter, in the order written, duplicates dropped. */
typedef struct cp_sweep {
    uint64_t *values;
    size_t count;
} cp_sweep;

/* Parses a numeric specification for the option `param` (e.g. "--stride") into out; every
 * value must lie in [min, max]. On error returns CP_EXIT_USAGE with a message that names the
 * bad token, e.g. "--stride: '32..1' is an empty range (start above end)", and a hint. */
int cp_sweep_parse(const char *spec, const char *param, uint64_t min, uint64_t max, cp_sweep *out,
                   cp_status *st);

/* The same for a parameter in bytes: every number may carry a K, M or G suffix (also KiB, MiB,
 * GiB; powers of 1024), as in 4K..64M:x4. */
int cp_sweep_parse_sizes(const char *spec, const char *param, uint64_t min, uint64_t max,
                         cp_sweep *out, cp_status *st);

/* Parses a comma list of names (or "all", meaning every name in order); values are indices
 * into names[]. */
int cp_sweep_parse_names(const char *spec, const char *param, const char *const *names,
                         size_t nnames, cp_sweep *out, cp_status *st);

/* Parses one whole number in [min, max] (no ranges), with an end-pointer check. */
int cp_sweep_parse_u64(const char *spec, const char *param, uint64_t min, uint64_t max,
                       uint64_t *out, cp_status *st);

/* Parses a byte count: digits with an optional suffix K, M or G (also KiB, MiB, GiB;
 * powers of 1024), in [min, max]. */
int cp_sweep_parse_bytes(const char *spec, const char *param, uint64_t min, uint64_t max,
                         uint64_t *out, cp_status *st);

/* A byte count as cp_sweep_parse_bytes reads it, with the largest suffix that divides it whole:
 * 4096 is "4K", 67108864 "64M", 1073741824 "1G", 130 "130". */
void cp_sweep_format_bytes(uint64_t bytes, char *buf, size_t len);

/* Refuses a number whose whole part is written with a leading zero ("010", "05%", "00.5"),
 * for options that read a number of their own (fractions, percentages): coalprobe reads every
 * number as decimal and, as --index expressions do, takes none that C would read as octal.
 * "0", "0.05" and anything not starting with "0" and a digit pass. The sweep and number parsers
 * above apply the same rule themselves. */
int cp_sweep_check_leading_zero(const char *spec, const char *param, cp_status *st);

struct option;

/* An option that takes a value may be given once: for the option whose getopt_long value is
 * opt in options[] (terminated by a NULL name), sets its bit in *seen, and returns
 * CP_EXIT_USAGE ("--size is given twice (give it once)") when the bit was set already.
 * Options without a value (flags) and values not in options[] always pass. */
int cp_sweep_once(const struct option *options, int opt, uint64_t *seen, cp_status *st);

/* Frees the values of s and empties it. */
void cp_sweep_free(cp_sweep *s);

/* Number of configurations of the product of dims[0..ndims-1]; CP_EXIT_USAGE when it is
 * larger than `limit`. */
int cp_sweep_product_count(const cp_sweep *const *dims, size_t ndims, uint64_t limit,
                           uint64_t *count, cp_status *st);

/* The value of each dimension at position `index` of the product, dims[0] outermost (it
 * changes slowest) and dims[ndims-1] innermost. */
void cp_sweep_product_at(const cp_sweep *const *dims, size_t ndims, uint64_t index,
                         uint64_t *values);

#endif
