/* cp_sweep.c: parsing sweep specifications (N, a..b, a..b:step, lists, names, byte sizes) and
 * enumerating their cartesian product. */
#include "cp_sweep.h"

#include "cp_number.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYNTAX_HINT                                                                                \
    "a value is N, a..b, a..b:step, a..b:xF (times F), or a comma list of these (1..8,16,32)"
#define LEADING_ZERO_HINT                                                                          \
    "numbers are decimal and written without leading zeros, as in --index expressions (where C "   \
    "would read 010 as octal)"
#define BYTES_HINT "a size is digits with an optional K, M or G suffix (powers of 1024), e.g. 64M"

/* Longest token quoted in a message (the message buffer truncates anyway). */
#define TOK_MAX 200

/* Length of a token as an int for "%.*s", clamped. */
static int tok_len(size_t n)
{
    return n > TOK_MAX ? TOK_MAX : (int)n;
}

static const char *param_or_default(const char *param)
{
    return param ? param : "value";
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parses s[0..len) as a decimal whole number: digits only, no sign, no space, no leading zero
 * ("0" itself is a number). A CP_NUMBER_* result. */
static int parse_digits(const char *s, size_t len, uint64_t *v)
{
    return cp_number_u64(s, len, UINT64_MAX, 0, v);
}

/* The power of 1024 a size suffix of s[0..len) stands for (K, M, G; also KiB, MiB, GiB), or 0,
 * with *digits the length of what precedes it (len when there is no suffix). */
static unsigned size_suffix_shift(const char *s, size_t len, size_t *digits)
{
    size_t n = len;
    if (n > 3 && s[n - 2] == 'i' && s[n - 1] == 'B')
        n -= 2;
    unsigned shift = 0;
    if (n > 0)
        switch (s[n - 1]) {
        case 'K':
        case 'k':
            shift = 10;
            break;
        case 'M':
        case 'm':
            shift = 20;
            break;
        case 'G':
        case 'g':
            shift = 30;
            break;
        default:
            break;
        }
    *digits = shift ? n - 1 : len;
    return shift;
}

/* Parses s[0..len) as a number of the sweep: digits, and for a sweep of sizes an optional K, M
 * or G suffix (also KiB, MiB, GiB; powers of 1024). A CP_NUMBER_* result. */
static int parse_value(const char *s, size_t len, int sizes, uint64_t *v)
{
    unsigned shift = 0;
    if (sizes)
        shift = size_suffix_shift(s, len, &len);
    int k = parse_digits(s, len, v);
    if (k == CP_NUMBER_OK && *v > (UINT64_MAX >> shift))
        return CP_NUMBER_TOO_LARGE;
    *v <<= shift;
    return k;
}

/* Records the error for a number written with a leading zero: s[0..len) from its first digit,
 * what follows the number's digits kept in the suggestion ("010K": write 10K), the enclosing
 * item named when given. */
static int leading_zero_error(cp_status *st, const char *param, const char *s, size_t len,
                              const char *item, size_t ilen)
{
    size_t z = 0;
    while (z + 1 < len && s[z] == '0' && is_digit(s[z + 1]))
        z++;
    if (item)
        cp_status_set(st, CP_EXIT_USAGE,
                      "%s: '%.*s' has a leading zero (write %.*s; octal is not read), in '%.*s'",
                      param, tok_len(len), s, tok_len(len - z), s + z, tok_len(ilen), item);
    else
        cp_status_set(st, CP_EXIT_USAGE,
                      "%s: '%.*s' has a leading zero (write %.*s; octal is not read)", param,
                      tok_len(len), s, tok_len(len - z), s + z);
    cp_status_hint(st, "%s", LEADING_ZERO_HINT);
    return CP_EXIT_USAGE;
}

/* Records a number error for the token tok, naming the enclosing item when it differs. */
static int number_error(cp_status *st, const char *param, int kind, const char *tok, size_t tlen,
                        const char *item, size_t ilen)
{
    if (kind == CP_NUMBER_LEADING_ZERO)
        return leading_zero_error(st, param, tok, tlen, tok == item && tlen == ilen ? NULL : item,
                                  ilen);
    const char *what = kind == CP_NUMBER_TOO_LARGE ? "is too large" : "is not a whole number";
    if (tok == item && tlen == ilen)
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' %s", param, tok_len(tlen), tok, what);
    else
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' %s (in '%.*s')", param, tok_len(tlen), tok,
                      what, tok_len(ilen), item);
    if (kind == CP_NUMBER_TOO_LARGE)
        cp_status_hint(st, "values must be at most %" PRIu64, UINT64_MAX);
    else
        cp_status_hint(st, "%s", SYNTAX_HINT);
    return CP_EXIT_USAGE;
}

/* Records a bound error (value below min or above max) for the token tok. */
static int bound_error(cp_status *st, const char *param, const char *tok, size_t tlen,
                       const char *item, size_t ilen, int above, uint64_t min, uint64_t max)
{
    const char *what = above ? "above the maximum" : "below the minimum";
    uint64_t lim = above ? max : min;
    if (tok == item && tlen == ilen)
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' is %s %" PRIu64, param, tok_len(tlen), tok,
                      what, lim);
    else
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' is %s %" PRIu64 " (in '%.*s')", param,
                      tok_len(tlen), tok, what, lim, tok_len(ilen), item);
    cp_status_hint(st, "%s takes values from %" PRIu64 " to %" PRIu64, param, min, max);
    return CP_EXIT_USAGE;
}

/* Finds ".." in s[0..len); returns its offset or len when absent. */
static size_t find_dots(const char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] == '.')
            return i;
    return len;
}

/* One parsed item: the values start, start+step, ... up to end (factor 0), or start,
 * start*factor, ... (factor 2 or more); n of them. */
typedef struct item_range {
    uint64_t start;
    uint64_t step;
    uint64_t factor;
    uint64_t n;
} item_range;

/* Value k of r. */
static uint64_t item_value(const item_range *r, uint64_t k)
{
    if (!r->factor)
        return r->start + k * r->step;
    uint64_t v = r->start;
    while (k--)
        v *= r->factor;
    return v;
}

/* What a numeric sweep's items are checked against. */
typedef struct sweep_rules {
    const char *param;
    uint64_t min, max;
    int sizes; /* 1: numbers take K, M, G suffixes */
} sweep_rules;

/* Records a usage error about item s[0..len): "PARAM: 'ITEM' <what>", and the hint. */
static int cp_sweep_item_error(cp_status *st, const char *param, const char *s, size_t len,
                               const char *what, const char *hint)
{
    cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' %s", param, tok_len(len), s, what);
    cp_status_hint(st, "%s", hint);
    return CP_EXIT_USAGE;
}

/* Parses and checks the range a..b or a..b:step, item s[0..len), whose ".." is at dots. */
static int cp_sweep_parse_range(const char *s, size_t len, size_t dots, const sweep_rules *rules,
                                item_range *r, cp_status *st)
{
    const char *param = rules->param;
    uint64_t min = rules->min, max = rules->max;
    const char *a = s, *b = s + dots + 2, *c = NULL;
    size_t alen = dots, blen = len - dots - 2, clen = 0;
    const char *colon = memchr(b, ':', blen);
    if (colon) {
        c = colon + 1;
        clen = (size_t)(s + len - c);
        blen = (size_t)(colon - b);
    }
    if (alen == 0)
        return cp_sweep_item_error(st, param, s, len, "is missing the start of the range",
                                   SYNTAX_HINT);
    if (blen == 0)
        return cp_sweep_item_error(st, param, s, len, "is missing the end of the range",
                                   SYNTAX_HINT);
    if (c && clen == 0)
        return cp_sweep_item_error(st, param, s, len, "is missing the step after ':'", SYNTAX_HINT);

    uint64_t lo, hi, step = 1, factor = 0;
    int k;
    if ((k = parse_value(a, alen, rules->sizes, &lo)) != CP_NUMBER_OK)
        return number_error(st, param, k, a, alen, s, len);
    if ((k = parse_value(b, blen, rules->sizes, &hi)) != CP_NUMBER_OK)
        return number_error(st, param, k, b, blen, s, len);
    int times = c && (c[0] == 'x' || c[0] == '*');
    if (times && clen == 1)
        return cp_sweep_item_error(st, param, s, len, "is missing the factor after ':x'",
                                   SYNTAX_HINT);
    if (times && (k = parse_digits(c + 1, clen - 1, &factor)) != CP_NUMBER_OK)
        return number_error(st, param, k, c + 1, clen - 1, s, len);
    if (c && !times && (k = parse_value(c, clen, rules->sizes, &step)) != CP_NUMBER_OK)
        return number_error(st, param, k, c, clen, s, len);

    if (lo > hi)
        return cp_sweep_item_error(st, param, s, len, "is an empty range (start above end)",
                                   "write the smaller value first, e.g. 1..32");
    if (step == 0)
        return cp_sweep_item_error(st, param, s, len, "has step 0 (the step must be at least 1)",
                                   SYNTAX_HINT);
    if (times && factor < 2)
        return cp_sweep_item_error(
            st, param, s, len, "has a factor below 2 (a..b:xF multiplies by F >= 2)", SYNTAX_HINT);
    if (times && lo == 0)
        return cp_sweep_item_error(st, param, s, len,
                                   "starts at 0, which a factor never leaves (start at 1 or more)",
                                   SYNTAX_HINT);
    /* (hi - lo) / step + 1 values; compare before adding 1 so that nothing overflows. A
     * geometric range has at most 64 values. */
    uint64_t span = 0;
    if (times)
        for (uint64_t v = lo; v <= hi / factor; v *= factor)
            span++;
    else
        span = (hi - lo) / step;
    if (span >= CP_SWEEP_MAX_VALUES) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' gives more than %u values", param,
                      tok_len(len), s, CP_SWEEP_MAX_VALUES);
        cp_status_hint(st, "use a larger step (a..b:step) or a smaller range");
        return CP_EXIT_USAGE;
    }
    if (lo < min || lo > max)
        return bound_error(st, param, a, alen, s, len, lo > max, min, max);
    if (hi > max)
        return bound_error(st, param, b, blen, s, len, 1, min, max);
    r->start = lo;
    r->step = step;
    r->factor = factor;
    r->n = span + 1;
    return CP_EXIT_OK;
}

/* Parses and checks one non-empty item s[0..len) of a numeric spec: a value or a range. */
static int parse_item(const char *s, size_t len, const sweep_rules *rules, item_range *r,
                      cp_status *st)
{
    size_t dots = find_dots(s, len);
    if (dots != len)
        return cp_sweep_parse_range(s, len, dots, rules, r, st);
    uint64_t v;
    int k = parse_value(s, len, rules->sizes, &v);
    if (k != CP_NUMBER_OK)
        return number_error(st, rules->param, k, s, len, s, len);
    if (v < rules->min || v > rules->max)
        return bound_error(st, rules->param, s, len, s, len, v > rules->max, rules->min,
                           rules->max);
    r->start = v;
    r->step = 1;
    r->factor = 0;
    r->n = 1;
    return CP_EXIT_OK;
}

/* Records the error for an empty spec. */
static int empty_spec_error(cp_status *st, const char *param, const char *hint)
{
    cp_status_set(st, CP_EXIT_USAGE, "%s: the value '' is empty", param);
    cp_status_hint(st, "%s", hint);
    return CP_EXIT_USAGE;
}

/* Records the error for an empty item of a comma list. */
static int empty_item_error(cp_status *st, const char *param, const char *spec, const char *hint)
{
    cp_status_set(st, CP_EXIT_USAGE, "%s: empty item in '%.*s'", param, tok_len(strlen(spec)),
                  spec);
    cp_status_hint(st, "%s", hint);
    return CP_EXIT_USAGE;
}

/* A set of distinct values kept in insertion order, with an open-addressing index. */
typedef struct value_set {
    uint64_t *values;
    size_t count, cap;
    uint32_t *slots; /* 0: empty, else position + 1 in values */
    size_t mask;
} value_set;

static size_t hash_u64(uint64_t v, size_t mask)
{
    v ^= v >> 33;
    v *= UINT64_C(0xff51afd7ed558ccd);
    v ^= v >> 33;
    v *= UINT64_C(0xc4ceb9fe1a85ec53);
    v ^= v >> 33;
    return (size_t)v & mask;
}

static int set_init(value_set *s, size_t cap)
{
    size_t nslots = 16;
    while (nslots < 2 * cap)
        nslots *= 2;
    s->values = malloc(cap * sizeof *s->values);
    s->slots = calloc(nslots, sizeof *s->slots);
    s->count = 0;
    s->cap = cap;
    s->mask = nslots - 1;
    if (!s->values || !s->slots) {
        free(s->values);
        free(s->slots);
        s->values = NULL;
        s->slots = NULL;
        return -1;
    }
    return 0;
}

/* Adds v unless present; returns 0, or -1 when a new value does not fit. */
static int set_add(value_set *s, uint64_t v)
{
    size_t i = hash_u64(v, s->mask);
    while (s->slots[i]) {
        if (s->values[s->slots[i] - 1] == v)
            return 0;
        i = (i + 1) & s->mask;
    }
    if (s->count == s->cap)
        return -1;
    s->values[s->count++] = v;
    s->slots[i] = (uint32_t)s->count;
    return 0;
}

/* Calls parse_item on each comma-separated item of spec; sums their counts into *total
 * (saturating), or adds their values to set when set is not NULL. */
static int walk_items(const char *spec, const sweep_rules *rules, uint64_t *total, value_set *set,
                      cp_status *st)
{
    const char *param = rules->param;
    const char *p = spec;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0)
            return empty_item_error(st, param, spec, SYNTAX_HINT);
        item_range r = {0, 0, 0, 0};
        CP_TRY(parse_item(p, len, rules, &r, st));
        if (set) {
            for (uint64_t i = 0; i < r.n; i++) {
                if (set_add(set, item_value(&r, i)) != 0) {
                    cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' gives more than %u values", param,
                                  tok_len(strlen(spec)), spec, CP_SWEEP_MAX_VALUES);
                    cp_status_hint(st, "use a larger step (a..b:step) or fewer items");
                    return CP_EXIT_USAGE;
                }
            }
        } else {
            *total = *total > UINT64_MAX - r.n ? UINT64_MAX : *total + r.n;
        }
        if (!comma)
            return CP_EXIT_OK;
        p = comma + 1;
    }
}

/* Parses a numeric sweep under rules (cp_sweep_parse, cp_sweep_parse_sizes). */
static int parse_numbers(const char *spec, const sweep_rules *rules, cp_sweep *out, cp_status *st)
{
    out->values = NULL;
    out->count = 0;
    const char *param = rules->param;
    if (!spec || !*spec)
        return empty_spec_error(st, param, rules->sizes ? BYTES_HINT : SYNTAX_HINT);

    /* First pass: check every item and count values before allocating anything. */
    uint64_t total = 0;
    CP_TRY(walk_items(spec, rules, &total, NULL, st));

    value_set set;
    size_t cap = total > CP_SWEEP_MAX_VALUES ? CP_SWEEP_MAX_VALUES : (size_t)total;
    if (set_init(&set, cap) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "%s: out of memory", param);
    int rc = walk_items(spec, rules, &total, &set, st);
    free(set.slots);
    if (rc != CP_EXIT_OK) {
        free(set.values);
        return rc;
    }
    out->values = set.values;
    out->count = set.count;
    return CP_EXIT_OK;
}

int cp_sweep_parse(const char *spec, const char *param, uint64_t min, uint64_t max, cp_sweep *out,
                   cp_status *st)
{
    sweep_rules rules = {param_or_default(param), min, max, 0};
    return parse_numbers(spec, &rules, out, st);
}

int cp_sweep_parse_sizes(const char *spec, const char *param, uint64_t min, uint64_t max,
                         cp_sweep *out, cp_status *st)
{
    sweep_rules rules = {param_or_default(param), min, max, 1};
    return parse_numbers(spec, &rules, out, st);
}

/* Writes "a, b, c, all" into buf (truncating safely). */
static void list_names(char *buf, size_t size, const char *const *names, size_t nnames)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i <= nnames && used + 1 < size; i++) {
        const char *n = i < nnames ? names[i] : "all";
        size_t room = size - used;
        size_t need = strlen(n) + (i ? 2 : 0);
        if (need >= room)
            break;
        if (i) {
            memcpy(buf + used, ", ", 2);
            used += 2;
        }
        memcpy(buf + used, n, strlen(n));
        used += strlen(n);
        buf[used] = '\0';
    }
}

int cp_sweep_parse_names(const char *spec, const char *param, const char *const *names,
                         size_t nnames, cp_sweep *out, cp_status *st)
{
    out->values = NULL;
    out->count = 0;
    param = param_or_default(param);
    char expected[240];
    list_names(expected, sizeof expected, names, nnames);
    char hint[300];
    snprintf(hint, sizeof hint, "expected a comma list of: %s", expected);
    if (!spec || !*spec)
        return empty_spec_error(st, param, hint);

    if (strcmp(spec, "all") == 0) {
        if (nnames == 0)
            return CP_EXIT_OK;
        out->values = malloc(nnames * sizeof *out->values);
        if (!out->values)
            return cp_status_set(st, CP_EXIT_RUNTIME, "%s: out of memory", param);
        for (size_t i = 0; i < nnames; i++)
            out->values[i] = i;
        out->count = nnames;
        return CP_EXIT_OK;
    }

    /* Check every item first, then allocate: at most nnames distinct values. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            out->values = malloc(nnames * sizeof *out->values);
            if (!out->values)
                return cp_status_set(st, CP_EXIT_RUNTIME, "%s: out of memory", param);
        }
        const char *p = spec;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (len == 0) {
                cp_sweep_free(out);
                return empty_item_error(st, param, spec, hint);
            }
            size_t idx = nnames;
            for (size_t i = 0; i < nnames; i++)
                if (names[i] && strlen(names[i]) == len && memcmp(names[i], p, len) == 0) {
                    idx = i;
                    break;
                }
            if (idx == nnames) {
                if (len == 3 && memcmp(p, "all", 3) == 0)
                    cp_status_set(st, CP_EXIT_USAGE,
                                  "%s: 'all' cannot be combined with other values in '%.*s'", param,
                                  tok_len(strlen(spec)), spec);
                else
                    cp_status_set(st, CP_EXIT_USAGE,
                                  "%s: unknown value '%.*s' (expected one of: %s)", param,
                                  tok_len(len), p, expected);
                cp_status_hint(st, "%s", hint);
                cp_sweep_free(out);
                return CP_EXIT_USAGE;
            }
            if (pass == 1) {
                int seen = 0;
                for (size_t j = 0; j < out->count; j++)
                    if (out->values[j] == idx)
                        seen = 1;
                if (!seen)
                    out->values[out->count++] = idx;
            }
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    return CP_EXIT_OK;
}

int cp_sweep_parse_u64(const char *spec, const char *param, uint64_t min, uint64_t max,
                       uint64_t *out, cp_status *st)
{
    param = param_or_default(param);
    if (!spec || !*spec) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: the value '' is empty", param);
        cp_status_hint(st, "%s takes one whole number from %" PRIu64 " to %" PRIu64, param, min,
                       max);
        return CP_EXIT_USAGE;
    }
    size_t len = strlen(spec);
    uint64_t v;
    int k = parse_digits(spec, len, &v);
    if (k == CP_NUMBER_LEADING_ZERO)
        return leading_zero_error(st, param, spec, len, NULL, 0);
    if (k != CP_NUMBER_OK) {
        number_error(st, param, k, spec, len, spec, len);
        cp_status_hint(st, "%s takes one whole number from %" PRIu64 " to %" PRIu64, param, min,
                       max);
        return CP_EXIT_USAGE;
    }
    if (v < min || v > max)
        return bound_error(st, param, spec, len, spec, len, v > max, min, max);
    *out = v;
    return CP_EXIT_OK;
}

void cp_sweep_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char suffix[] = "GMK";
    for (unsigned i = 0; i < 3; i++) {
        unsigned shift = 30 - 10 * i;
        if (bytes && bytes % (1ull << shift) == 0) {
            snprintf(buf, len, "%" PRIu64 "%c", bytes >> shift, suffix[i]);
            return;
        }
    }
    snprintf(buf, len, "%" PRIu64, bytes);
}

int cp_sweep_parse_bytes(const char *spec, const char *param, uint64_t min, uint64_t max,
                         uint64_t *out, cp_status *st)
{
    param = param_or_default(param);
    if (!spec || !*spec)
        return empty_spec_error(st, param, BYTES_HINT);
    size_t len = strlen(spec);
    size_t ndig;
    unsigned shift = size_suffix_shift(spec, len, &ndig);
    int ok = ndig > 0;
    for (size_t i = 0; i < ndig; i++)
        ok &= spec[i] >= '0' && spec[i] <= '9';
    if (!ok) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "%s: '%.*s' is not a byte count (digits with an optional K, M or G suffix)",
                      param, tok_len(len), spec);
        cp_status_hint(st, "%s", BYTES_HINT);
        return CP_EXIT_USAGE;
    }
    uint64_t v;
    int k = parse_digits(spec, ndig, &v);
    if (k == CP_NUMBER_LEADING_ZERO)
        return leading_zero_error(st, param, spec, len, NULL, 0);
    if (k == CP_NUMBER_OK && v > (UINT64_MAX >> shift))
        k = CP_NUMBER_TOO_LARGE;
    if (k != CP_NUMBER_OK) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' is too large", param, tok_len(len), spec);
        cp_status_hint(st, "%s takes sizes from %" PRIu64 " to %" PRIu64 " bytes", param, min, max);
        return CP_EXIT_USAGE;
    }
    v <<= shift;
    if (v < min || v > max) {
        cp_status_set(st, CP_EXIT_USAGE, "%s: '%.*s' is %s %" PRIu64 " bytes", param, tok_len(len),
                      spec, v < min ? "below the minimum" : "above the maximum",
                      v < min ? min : max);
        cp_status_hint(st, "%s takes sizes from %" PRIu64 " to %" PRIu64 " bytes", param, min, max);
        return CP_EXIT_USAGE;
    }
    *out = v;
    return CP_EXIT_OK;
}

int cp_sweep_check_leading_zero(const char *spec, const char *param, cp_status *st)
{
    if (!spec || spec[0] != '0' || !is_digit(spec[1]))
        return CP_EXIT_OK;
    return leading_zero_error(st, param_or_default(param), spec, strlen(spec), NULL, 0);
}

int cp_sweep_once(const struct option *options, int opt, uint64_t *seen, cp_status *st)
{
    for (unsigned i = 0; options[i].name; i++) {
        if (options[i].val != opt || options[i].has_arg == no_argument)
            continue;
        uint64_t bit = i < 64 ? UINT64_C(1) << i : 0;
        if (!(*seen & bit)) {
            *seen |= bit;
            return CP_EXIT_OK;
        }
        cp_status_set(st, CP_EXIT_USAGE, "--%s is given twice (give it once)", options[i].name);
        cp_status_hint(st, "a later value does not replace an earlier one: keep the one you mean");
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}

void cp_sweep_free(cp_sweep *s)
{
    if (!s)
        return;
    free(s->values);
    s->values = NULL;
    s->count = 0;
}

int cp_sweep_product_count(const cp_sweep *const *dims, size_t ndims, uint64_t limit,
                           uint64_t *count, cp_status *st)
{
    uint64_t n = 1;
    int overflow = 0;
    for (size_t i = 0; i < ndims; i++)
        if (dims[i]->count == 0) {
            *count = 0;
            return CP_EXIT_OK;
        }
    for (size_t i = 0; i < ndims; i++) {
        uint64_t c = (uint64_t)dims[i]->count;
        if (n > UINT64_MAX / c) {
            overflow = 1;
            break;
        }
        n *= c;
    }
    if (overflow || n > limit) {
        *count = 0;
        if (overflow)
            cp_status_set(st, CP_EXIT_USAGE,
                          "the sweep has more than %" PRIu64
                          " configurations, more than the limit %" PRIu64,
                          UINT64_MAX, limit);
        else
            cp_status_set(st, CP_EXIT_USAGE,
                          "the sweep has %" PRIu64 " configurations, more than the limit %" PRIu64,
                          n, limit);
        cp_status_hint(st, "sweep fewer values (use a step, a..b:step), or split the sweep into "
                           "several runs");
        return CP_EXIT_USAGE;
    }
    *count = n;
    return CP_EXIT_OK;
}

void cp_sweep_product_at(const cp_sweep *const *dims, size_t ndims, uint64_t index,
                         uint64_t *values)
{
    for (size_t i = ndims; i-- > 0;) {
        uint64_t c = (uint64_t)dims[i]->count;
        if (c == 0) {
            values[i] = 0;
            continue;
        }
        values[i] = dims[i]->values[index % c];
        index /= c;
    }
}
