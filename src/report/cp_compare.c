/* cp_compare.c: coalprobe compare: loads two JSON reports, matches their rows by pattern and
 * config, and judges counts (exactly) and times and rates (within a tolerance). */
#include "cp_compare.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CP_COMPARE_SCHEMA_VERSION 1
/* integers below 2^53 are exact in a double and print as digits */
#define CP_COMPARE_EXACT_INT 9007199254740992.0
/* cJSON_Print writes integers from 1e15 up in exponent form: those are added as raw digits */
#define CP_COMPARE_JSON_RAW_FROM 1e15
#define CP_COMPARE_NO_PARTNER SIZE_MAX
/* the longest row description in an error message */
#define CP_COMPARE_LABEL_MAX 160
#define CP_COMPARE_HINT_REPORT "compare reads the reports that coalprobe --format json writes"

/* ---- what is compared --------------------------------------------------------------------- */

typedef enum {
    CP_COMPARE_COUNT, /* must be equal */
    CP_COMPARE_TIME,  /* lower is better, within the tolerance */
    CP_COMPARE_RATE,  /* higher is better, within the tolerance */
} cp_compare_kind;

/* A metric: its path from the row ("measured." is left out of its name) and its unit. */
typedef struct cp_compare_metric_def {
    const char *path;
    cp_compare_kind kind;
    const char *unit;
} cp_compare_metric_def;

static const cp_compare_metric_def cp_compare_metric_defs[] = {
    {"predicted.load.requests", CP_COMPARE_COUNT, ""},
    {"predicted.load.sectors", CP_COMPARE_COUNT, ""},
    {"predicted.load.bytes_requested", CP_COMPARE_COUNT, ""},
    {"predicted.store.requests", CP_COMPARE_COUNT, ""},
    {"predicted.store.sectors", CP_COMPARE_COUNT, ""},
    {"predicted.store.bytes_requested", CP_COMPARE_COUNT, ""},
    {"measured.counters.load.requests", CP_COMPARE_COUNT, ""},
    {"measured.counters.load.sectors", CP_COMPARE_COUNT, ""},
    {"measured.counters.store.requests", CP_COMPARE_COUNT, ""},
    {"measured.counters.store.sectors", CP_COMPARE_COUNT, ""},
    {"predicted.shared_load.wavefronts", CP_COMPARE_COUNT, ""},
    {"predicted.shared_load.bank_conflicts", CP_COMPARE_COUNT, ""},
    {"predicted.shared_store.wavefronts", CP_COMPARE_COUNT, ""},
    {"predicted.shared_store.bank_conflicts", CP_COMPARE_COUNT, ""},
    {"measured.counters.shared_load.wavefronts", CP_COMPARE_COUNT, ""},
    {"measured.counters.shared_load.bank_conflicts", CP_COMPARE_COUNT, ""},
    {"measured.counters.shared_store.wavefronts", CP_COMPARE_COUNT, ""},
    {"measured.counters.shared_store.bank_conflicts", CP_COMPARE_COUNT, ""},
    {"measured.time_s.median", CP_COMPARE_TIME, "s"},
    {"measured.useful_bytes_per_s", CP_COMPARE_RATE, "B/s"},
    {"measured.flop_per_s", CP_COMPARE_RATE, "FLOP/s"},
};
#define CP_COMPARE_NMETRICS (sizeof cp_compare_metric_defs / sizeof cp_compare_metric_defs[0])

/* Verdicts of a metric and statuses of a row, mildest first: a row takes its worst metric's. */
typedef enum {
    CP_COMPARE_SAME,
    CP_COMPARE_NOT_COMPARABLE, /* rows only: measured in one report, model only in the other */
    CP_COMPARE_IMPROVED,
    CP_COMPARE_REGRESSED,
    CP_COMPARE_CHANGED, /* a count differs: a regression too */
    CP_COMPARE_NVERDICTS
} cp_compare_verdict;

static const char *const cp_compare_verdict_json[CP_COMPARE_NVERDICTS] = {
    "same", "not_comparable", "improved", "regressed", "changed"};
static const char *const cp_compare_verdict_text[CP_COMPARE_NVERDICTS] = {
    "same", "not comparable", "improved", "REGRESSED", "changed"};

typedef struct cp_compare_metric {
    const cp_compare_metric_def *def;
    double base, now;
    cp_compare_verdict verdict;
} cp_compare_metric;

/* A matched pair of rows, judged. */
typedef struct cp_compare_row {
    const cJSON *base, *now;
    cp_compare_metric metrics[CP_COMPARE_NMETRICS];
    size_t nmetrics;
    cp_compare_verdict status;
    const char *note; /* why the measurements were not compared; NULL when they were */
} cp_compare_row;

/* A loaded report. */
typedef struct cp_compare_doc {
    const char *path;
    const char *label; /* "base" or "new" */
    char *text;
    cJSON *root;
    const cJSON *rows;
    const cJSON **items; /* rows[i], for indexing */
    size_t nrows;
    int incomplete;
} cp_compare_doc;

/* A row's match key (pattern and config, canonical) and its position in the report. */
typedef struct cp_compare_entry {
    char *key;
    size_t index;
} cp_compare_entry;

/* ---- a growing string --------------------------------------------------------------------- */

/* Any failed allocation sets `failed`; later additions are ignored and the caller checks once. */
typedef struct cp_compare_buf {
    char *data;
    size_t len, cap;
    int failed;
} cp_compare_buf;

static void cp_compare_buf_add(cp_compare_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void cp_compare_buf_str(cp_compare_buf *b, const char *s)
{
    cp_compare_buf_add(b, s, strlen(s));
}

/* Text from a report, its control characters escaped for a terminal. */
static void cp_compare_buf_printable(cp_compare_buf *b, const char *s)
{
    size_t n = cp_text_printable(NULL, 0, s);
    char *text = malloc(n + 1);
    if (!text) {
        b->failed = 1;
        return;
    }
    cp_text_printable(text, n + 1, s);
    cp_compare_buf_add(b, text, n);
    free(text);
}

static void cp_compare_buf_printf(cp_compare_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void cp_compare_buf_printf(cp_compare_buf *b, const char *fmt, ...)
{
    char small[128];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
    } else if ((size_t)n < sizeof small) {
        cp_compare_buf_add(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, again);
            cp_compare_buf_add(b, big, (size_t)n);
            free(big);
        } else {
            b->failed = 1;
        }
    }
    va_end(again);
}

static void cp_compare_buf_reset(cp_compare_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

/* ---- numbers ------------------------------------------------------------------------------ */

/* A number in the fewest digits that read back to it; integers as digits; -0 as 0. */
static void cp_compare_format_number(char *out, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < CP_COMPARE_EXACT_INT) {
        snprintf(out, size, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    snprintf(out, size, "%.15g", v);
    if (strtod(out, NULL) != v)
        snprintf(out, size, "%.17g", v);
}

/* A time or rate with an SI prefix chosen by ref (times stop at seconds), 4 digits; all of its
 * integer digits however many. */
static void cp_compare_format_scaled(cp_compare_buf *out, double v, double ref,
                                     const cp_compare_metric_def *def)
{
    static const struct {
        double factor;
        const char *prefix;
    } prefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"}, {1e3, "k"},
                    {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
    size_t n = sizeof prefixes / sizeof prefixes[0], i = 0;
    double max = def->kind == CP_COMPARE_TIME ? 1 : 1e15;
    while (i + 1 < n && (prefixes[i].factor > max || fabs(ref) < prefixes[i].factor))
        i++;
    double x = v / prefixes[i].factor, ax = fabs(x);
    if (ax >= 100)
        cp_compare_buf_printf(out, "%.1f %s%s", x, prefixes[i].prefix, def->unit);
    else if (ax >= 10)
        cp_compare_buf_printf(out, "%.2f %s%s", x, prefixes[i].prefix, def->unit);
    else if (ax >= 1 || x == 0)
        cp_compare_buf_printf(out, "%.3f %s%s", x, prefixes[i].prefix, def->unit);
    else
        cp_compare_buf_printf(out, "%.3g %s%s", x, prefixes[i].prefix, def->unit);
}

/* The relative change (new - base) / base: 0 when it cannot be computed (base 0). */
static int cp_compare_change(const cp_compare_metric *m, double *change)
{
    if (m->base == 0 || !isfinite(m->base) || !isfinite(m->now))
        return 0;
    *change = (m->now - m->base) / m->base;
    return isfinite(*change);
}

/* The tolerance as a percentage: "5%". */
static void cp_compare_format_tolerance(char *out, size_t size, double tolerance)
{
    snprintf(out, size, "%g%%", tolerance * 100);
}

/* ---- reading a report --------------------------------------------------------------------- */

static int cp_compare_read_file(cp_compare_doc *d, size_t *len, cp_status *st)
{
    d->text = cp_text_read_file(d->path, len);
    if (!d->text)
        return cp_text_read_failed(d->path, errno, st);
    return CP_EXIT_OK;
}

static int cp_compare_not_report(const cp_compare_doc *d, const char *why, cp_status *st)
{
    cp_status_set(st, CP_EXIT_USAGE, "'%s' is not a coalprobe report: %s", d->path, why);
    cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
    return CP_EXIT_USAGE;
}

/* "pattern key=value ..." of a row, escaped for a terminal, into b (from its start). */
static void cp_compare_buf_row(cp_compare_buf *b, const cJSON *row);

/* A report that fails docs/schema/coalprobe-report.schema.json is not compared: the error names
 * the file, the row (its index, pattern and config), the key, what was expected and found. */
static int cp_compare_check_schema(const cp_compare_doc *d, cp_status *st)
{
    cp_schema_error err;
    int rc = cp_schema_validate(CP_SCHEMA_REPORT, d->root, &err, st);
    if (rc != CP_EXIT_USAGE)
        return rc;
    cp_compare_buf label = {0};
    const cJSON *row = err.array && strcmp(err.array, "rows") == 0
                           ? cJSON_GetArrayItem(d->rows, (int)err.index)
                           : NULL;
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(row, "pattern");
    if (cJSON_IsString(pattern) && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(row, "config")))
        cp_compare_buf_row(&label, row);
    if (label.len > CP_COMPARE_LABEL_MAX) { /* a row too long to name whole: cut visibly */
        label.len = CP_COMPARE_LABEL_MAX;
        while (label.len > 0 && ((unsigned char)label.data[label.len] & 0xc0) == 0x80)
            label.len--;
        label.data[label.len] = '\0';
        cp_compare_buf_str(&label, "...");
    }
    rc = cp_schema_status(st, d->path, CP_SCHEMA_REPORT, &err,
                          label.len && !label.failed ? label.data : NULL);
    free(label.data);
    cp_schema_error_free(&err);
    return rc;
}

/* Checks the top level: schema_version 1, tool coalprobe, not an error document, rows. */
static int cp_compare_check_report(cp_compare_doc *d, cp_status *st)
{
    const cJSON *root = d->root;
    if (!cJSON_IsObject(root))
        return cp_compare_not_report(d, "it is not a JSON object", st);
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(version))
        return cp_compare_not_report(d, "it has no \"schema_version\"", st);
    if (version->valuedouble != CP_COMPARE_SCHEMA_VERSION) {
        char v[40];
        cp_compare_format_number(v, sizeof v, version->valuedouble);
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' has schema_version %s, and this coalprobe (%s) reads schema_version "
                      "%d",
                      d->path, v, CP_VERSION, CP_COMPARE_SCHEMA_VERSION);
        cp_status_hint(st, "compare reports of the same schema: run the sweep again with this "
                           "coalprobe, or compare with the coalprobe that wrote them");
        return CP_EXIT_USAGE;
    }
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(root, "tool");
    const cJSON *name =
        cJSON_IsObject(tool) ? cJSON_GetObjectItemCaseSensitive(tool, "name") : NULL;
    if (cJSON_IsString(name) && strcmp(name->valuestring, "coalprobe") != 0)
        return cp_compare_not_report(d, "its tool.name is not \"coalprobe\"", st);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    if (cJSON_IsObject(error)) {
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(error, "message");
        char shown[256];
        cp_text_printable(shown, sizeof shown,
                          cJSON_IsString(msg) ? msg->valuestring : "no message");
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' is the error document of a failed run (%s), not a report", d->path,
                      shown);
        cp_status_hint(st, "run the sweep again and compare its report");
        return CP_EXIT_USAGE;
    }
    d->rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    if (!cJSON_IsArray(d->rows))
        return cp_compare_not_report(d, "it has no \"rows\" array", st);
    CP_TRY(cp_compare_check_schema(d, st));
    d->nrows = (size_t)cJSON_GetArraySize(d->rows);
    d->items = malloc((d->nrows ? d->nrows : 1) * sizeof *d->items);
    if (!d->items)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot read '%s': out of memory", d->path);
    size_t i = 0;
    for (const cJSON *row = d->rows->child; row && i < d->nrows; row = row->next)
        d->items[i++] = row;
    d->incomplete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "incomplete"));
    return CP_EXIT_OK;
}

/* Reads, parses and checks one report. */
static int cp_compare_load(cp_compare_doc *d, cp_status *st)
{
    size_t len = 0;
    CP_TRY(cp_compare_read_file(d, &len, st));
    size_t start = 0;
    while (start < len && isspace((unsigned char)d->text[start]))
        start++;
    if (start == len) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not JSON (it is empty)", d->path);
        cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
        return CP_EXIT_USAGE;
    }
    const char *end = NULL;
    /* length + 1: cJSON wants the terminating NUL inside the buffer */
    d->root = strlen(d->text) == len ? cJSON_ParseWithLengthOpts(d->text, len + 1, &end, 1) : NULL;
    if (!d->root) {
        size_t at = end && end >= d->text ? (size_t)(end - d->text) : strlen(d->text);
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not JSON (error near byte %zu)", d->path, at);
        cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
        return CP_EXIT_USAGE;
    }
    return cp_compare_check_report(d, st);
}

static void cp_compare_unload(cp_compare_doc *d)
{
    cJSON_Delete(d->root);
    free(d->text);
    free(d->items);
}

/* ---- matching rows ------------------------------------------------------------------------ */

/* A config value: as read (canonical == 0) or tagged and length-prefixed for a match key. */
static void cp_compare_buf_value(cp_compare_buf *b, const cJSON *v, int canonical)
{
    char num[48];
    const char *text = num;
    char *printed = NULL;
    char tag = 'n';
    if (cJSON_IsNumber(v)) {
        cp_compare_format_number(num, sizeof num, v->valuedouble);
    } else if (cJSON_IsString(v)) {
        text = v->valuestring;
        tag = 's';
    } else {
        printed = cJSON_PrintUnformatted(v);
        if (!printed) {
            b->failed = 1;
            return;
        }
        text = printed;
        tag = 'j';
    }
    if (canonical) {
        cp_compare_buf_printf(b, "%c%zu:", tag, strlen(text));
        cp_compare_buf_str(b, text);
    } else {
        cp_compare_buf_printable(b, text);
    }
    cJSON_free(printed);
}

static int cp_compare_key_order(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    return strcmp(x->string, y->string);
}

/* The match key of a row: pattern, then config's members sorted by name. */
static int cp_compare_row_key(const cp_compare_doc *d, size_t i, const cJSON *row,
                              cp_compare_buf *b, cp_status *st)
{
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(row, "pattern");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(row, "config");
    char why[96];
    if (!cJSON_IsObject(row) || !cJSON_IsString(pattern) || !cJSON_IsObject(config)) {
        snprintf(why, sizeof why, "rows[%zu] has no \"pattern\" string and \"config\" object", i);
        return cp_compare_not_report(d, why, st);
    }
    size_t n = (size_t)cJSON_GetArraySize(config);
    const cJSON **members = malloc((n ? n : 1) * sizeof *members);
    if (!members)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    size_t k = 0;
    for (const cJSON *m = config->child; m && k < n; m = m->next)
        members[k++] = m;
    qsort(members, k, sizeof *members, cp_compare_key_order);
    cp_compare_buf_reset(b);
    cp_compare_buf_printf(b, "%zu:", strlen(pattern->valuestring));
    cp_compare_buf_str(b, pattern->valuestring);
    for (size_t j = 0; j < k; j++) {
        cp_compare_buf_printf(b, "|%zu:", strlen(members[j]->string));
        cp_compare_buf_str(b, members[j]->string);
        cp_compare_buf_value(b, members[j], 1);
    }
    free(members);
    return CP_EXIT_OK;
}

static int cp_compare_entry_order(const void *a, const void *b)
{
    const cp_compare_entry *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

static void cp_compare_free_entries(cp_compare_entry *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++)
        free(e[i].key);
    free(e);
}

/* The rows of d with their keys, sorted by key and then position. */
static int cp_compare_entries(const cp_compare_doc *d, cp_compare_entry **out, cp_status *st)
{
    cp_compare_entry *e = calloc(d->nrows ? d->nrows : 1, sizeof *e);
    cp_compare_buf b = {0};
    int rc = e ? CP_EXIT_OK
               : cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    for (size_t i = 0; rc == CP_EXIT_OK && i < d->nrows; i++) {
        rc = cp_compare_row_key(d, i, d->items[i], &b, st);
        e[i].index = i;
        e[i].key = rc == CP_EXIT_OK && !b.failed ? malloc(b.len + 1) : NULL;
        if (e[i].key)
            memcpy(e[i].key, b.data, b.len + 1);
        if (rc == CP_EXIT_OK && !e[i].key)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    }
    free(b.data);
    if (rc != CP_EXIT_OK) {
        cp_compare_free_entries(e, d->nrows);
        return rc;
    }
    qsort(e, d->nrows, sizeof *e, cp_compare_entry_order);
    *out = e;
    return CP_EXIT_OK;
}

/* partner[i]: the new row matched to base row i, or CP_COMPARE_NO_PARTNER; taken_base[i] and
 * taken_new[j]: 1 when the row is matched. Equal keys pair up in report order. */
static void cp_compare_match(const cp_compare_entry *b, size_t nb, const cp_compare_entry *n,
                             size_t nn, size_t *partner, unsigned char *taken_base,
                             unsigned char *taken_new)
{
    size_t i = 0, j = 0;
    while (i < nb && j < nn) {
        int c = strcmp(b[i].key, n[j].key);
        if (c == 0) {
            partner[b[i].index] = n[j].index;
            taken_base[b[i].index] = 1;
            taken_new[n[j].index] = 1;
        }
        i += c <= 0;
        j += c >= 0;
    }
}

/* ---- judging ------------------------------------------------------------------------------ */

/* The member at a dotted path under item, or NULL. */
static const cJSON *cp_compare_lookup(const cJSON *item, const char *path)
{
    char key[64];
    while (item && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key || !cJSON_IsObject(item))
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        item = cJSON_GetObjectItemCaseSensitive(item, key);
        path += n + (path[n] == '.');
    }
    return item;
}

/* A count must not change; a time must not grow, nor a rate fall, beyond the tolerance. */
static cp_compare_verdict cp_compare_judge_metric(cp_compare_kind kind, double base, double now,
                                                  double tolerance)
{
    if (kind == CP_COMPARE_COUNT)
        return base == now ? CP_COMPARE_SAME : CP_COMPARE_CHANGED;
    int above = now > base * (1 + tolerance), below = now < base * (1 - tolerance);
    if (!above && !below)
        return CP_COMPARE_SAME;
    return above == (kind == CP_COMPARE_TIME) ? CP_COMPARE_REGRESSED : CP_COMPARE_IMPROVED;
}

/* Every metric that both rows have as a number, and the row's status. */
static void cp_compare_judge_row(cp_compare_row *r, double tolerance)
{
    r->nmetrics = 0;
    r->status = CP_COMPARE_SAME;
    r->note = NULL;
    for (size_t i = 0; i < CP_COMPARE_NMETRICS; i++) {
        const cp_compare_metric_def *def = &cp_compare_metric_defs[i];
        const cJSON *b = cp_compare_lookup(r->base, def->path);
        const cJSON *n = cp_compare_lookup(r->now, def->path);
        if (!cJSON_IsNumber(b) || !cJSON_IsNumber(n))
            continue;
        cp_compare_metric *m = &r->metrics[r->nmetrics++];
        m->def = def;
        m->base = b->valuedouble;
        m->now = n->valuedouble;
        m->verdict = cp_compare_judge_metric(def->kind, m->base, m->now, tolerance);
        if (m->verdict > r->status)
            r->status = m->verdict;
    }
    int base_measured = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r->base, "measured"));
    int new_measured = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r->now, "measured"));
    if (base_measured != new_measured) {
        r->note = base_measured ? "measured in base only (new is model only)"
                                : "measured in new only (base is model only)";
        if (r->status < CP_COMPARE_NOT_COMPARABLE)
            r->status = CP_COMPARE_NOT_COMPARABLE;
    }
}

static const char *cp_compare_metric_name(const cp_compare_metric_def *def)
{
    static const char measured[] = "measured.";
    size_t n = sizeof measured - 1;
    return strncmp(def->path, measured, n) == 0 ? def->path + n : def->path;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* The state of one comparison being written. A failed cJSON call sets json_failed. */
typedef struct cp_compare_writer {
    const cp_compare_doc *base, *now;
    double tolerance;
    char tolerance_text[32];
    FILE *out;
    int json, json_failed;
    cJSON *root, *rows;
    size_t nstatus[CP_COMPARE_NVERDICTS];
    size_t matched, only_in_base, only_in_new, text_rows;
    cp_compare_buf line;
} cp_compare_writer;

static cJSON *cp_compare_json_check(cp_compare_writer *w, cJSON *item)
{
    if (!item)
        w->json_failed = 1;
    return item;
}

/* A number: null when absent; large integers as raw digits so that they never print as 1e+15. */
static void cp_compare_json_number(cp_compare_writer *w, cJSON *obj, const char *key, int present,
                                   double v)
{
    if (!present || !isfinite(v)) {
        cp_compare_json_check(w, cJSON_AddNullToObject(obj, key));
    } else if (v == floor(v) && fabs(v) >= CP_COMPARE_JSON_RAW_FROM) {
        char digits[48];
        cp_compare_format_number(digits, sizeof digits, v);
        cp_compare_json_check(w, cJSON_AddRawToObject(obj, key, digits));
    } else {
        cp_compare_json_check(w, cJSON_AddNumberToObject(obj, key, v));
    }
}

static void cp_compare_json_string(cp_compare_writer *w, cJSON *obj, const char *key, const char *s)
{
    cp_compare_json_check(w, s ? cJSON_AddStringToObject(obj, key, s)
                               : cJSON_AddNullToObject(obj, key));
}

/* {"pattern", "config"} of a row, appended to the array list. */
static cJSON *cp_compare_json_row_id(cp_compare_writer *w, cJSON *list, const cJSON *row)
{
    cJSON *o = cp_compare_json_check(w, cJSON_CreateObject());
    if (!o)
        return NULL;
    if (!cJSON_AddItemToArray(list, o)) {
        cJSON_Delete(o);
        w->json_failed = 1;
        return NULL;
    }
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(row, "pattern");
    cp_compare_json_string(w, o, "pattern", pattern->valuestring);
    cJSON *config = cp_compare_json_check(
        w, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(row, "config"), 1));
    if (config && !cJSON_AddItemToObject(o, "config", config)) {
        cJSON_Delete(config);
        w->json_failed = 1;
    }
    return o;
}

static void cp_compare_buf_row(cp_compare_buf *b, const cJSON *row)
{
    cp_compare_buf_reset(b);
    cp_compare_buf_printable(b, cJSON_GetObjectItemCaseSensitive(row, "pattern")->valuestring);
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(row, "config");
    for (const cJSON *m = config->child; m; m = m->next) {
        cp_compare_buf_str(b, " ");
        cp_compare_buf_printable(b, m->string);
        cp_compare_buf_str(b, "=");
        cp_compare_buf_value(b, m, 0);
    }
}

/* "pattern key=value ..." of a row, in w->line. */
static const char *cp_compare_describe(cp_compare_writer *w, const cJSON *row)
{
    cp_compare_buf_row(&w->line, row);
    return w->line.failed ? "?" : w->line.data;
}

/* One value's line, built whole in w->line: however large its numbers, nothing is cut. */
static void cp_compare_text_metric(cp_compare_writer *w, const cp_compare_metric *m, int width)
{
    cp_compare_buf *b = &w->line;
    cp_compare_buf_reset(b);
    cp_compare_buf_printf(b, "  %-*s  ", width, cp_compare_metric_name(m->def));
    double change = 0;
    if (m->def->kind == CP_COMPARE_COUNT) {
        char base[48], now[48], diff[48];
        cp_compare_format_number(base, sizeof base, m->base);
        cp_compare_format_number(now, sizeof now, m->now);
        cp_compare_format_number(diff, sizeof diff, m->now - m->base);
        /* a count shows its difference too, which the percentage of a large count can hide */
        cp_compare_buf_printf(b, "%s -> %s (%s%s, ", base, now, m->now > m->base ? "+" : "", diff);
    } else {
        double ref = m->base != 0 ? m->base : m->now;
        cp_compare_format_scaled(b, m->base, ref, m->def);
        cp_compare_buf_str(b, " -> ");
        cp_compare_format_scaled(b, m->now, ref, m->def);
        cp_compare_buf_str(b, " (");
    }
    if (!cp_compare_change(m, &change))
        cp_compare_buf_str(b, "n/a");
    else if (change != 0 && fabs(change) < 0.0005)
        cp_compare_buf_printf(b, "%+.2g%%", change * 100);
    else
        cp_compare_buf_printf(b, "%+.1f%%", change * 100);
    cp_compare_buf_printf(b, ")  %s\n", cp_compare_verdict_text[m->verdict]);
    fputs(b->failed ? "  ?\n" : b->data, w->out);
}

/* Text: the row and each metric that is not the same; nothing for a row that is the same. */
static void cp_compare_text_row(cp_compare_writer *w, const cp_compare_row *r)
{
    if (r->status == CP_COMPARE_SAME)
        return;
    if (w->text_rows++ == 0)
        fputc('\n', w->out);
    fprintf(w->out, "%s\n", cp_compare_describe(w, r->base));
    int width = 0;
    for (size_t i = 0; i < r->nmetrics; i++) {
        int len = (int)strlen(cp_compare_metric_name(r->metrics[i].def));
        if (r->metrics[i].verdict != CP_COMPARE_SAME && len > width)
            width = len;
    }
    for (size_t i = 0; i < r->nmetrics; i++)
        if (r->metrics[i].verdict != CP_COMPARE_SAME)
            cp_compare_text_metric(w, &r->metrics[i], width);
    if (r->note)
        fprintf(w->out, "  not comparable: %s\n", r->note);
}

static void cp_compare_json_row(cp_compare_writer *w, const cp_compare_row *r)
{
    cJSON *o = cp_compare_json_row_id(w, w->rows, r->base);
    cp_compare_json_string(w, o, "status", cp_compare_verdict_json[r->status]);
    cp_compare_json_string(w, o, "note", r->note);
    cJSON *metrics = cp_compare_json_check(w, cJSON_AddArrayToObject(o, "metrics"));
    for (size_t i = 0; i < r->nmetrics; i++) {
        const cp_compare_metric *m = &r->metrics[i];
        cJSON *item = cp_compare_json_check(w, cJSON_CreateObject());
        if (item && !cJSON_AddItemToArray(metrics, item)) {
            cJSON_Delete(item);
            w->json_failed = 1;
            continue;
        }
        double change = 0;
        int has_change = cp_compare_change(m, &change);
        cp_compare_json_string(w, item, "name", cp_compare_metric_name(m->def));
        cp_compare_json_number(w, item, "base", 1, m->base);
        cp_compare_json_number(w, item, "new", 1, m->now);
        cp_compare_json_number(w, item, "change", has_change, change);
        cp_compare_json_string(w, item, "verdict", cp_compare_verdict_json[m->verdict]);
    }
}

/* The rows of d that have no partner: counted, then listed. */
static size_t cp_compare_write_unmatched(cp_compare_writer *w, const cp_compare_doc *d,
                                         const unsigned char *matched, const char *title,
                                         const char *json_key)
{
    size_t count = 0;
    for (size_t i = 0; i < d->nrows; i++)
        count += !matched[i];
    cJSON *list =
        w->json ? cp_compare_json_check(w, cJSON_AddArrayToObject(w->root, json_key)) : NULL;
    if (!w->json && count)
        fprintf(w->out, "\n%s: %zu row%s\n", title, count, count == 1 ? "" : "s");
    for (size_t i = 0; i < d->nrows; i++) {
        if (matched[i])
            continue;
        if (w->json)
            cp_compare_json_row_id(w, list, d->items[i]);
        else
            fprintf(w->out, "  %s\n", cp_compare_describe(w, d->items[i]));
    }
    return count;
}

static void cp_compare_write_header(cp_compare_writer *w)
{
    const cp_compare_doc *docs[2] = {w->base, w->now};
    if (w->json) {
        w->root = cp_compare_json_check(w, cJSON_CreateObject());
        cp_compare_json_number(w, w->root, "schema_version", 1, CP_COMPARE_SCHEMA_VERSION);
        cJSON *tool = cp_compare_json_check(w, cJSON_AddObjectToObject(w->root, "tool"));
        cp_compare_json_string(w, tool, "name", "coalprobe");
        cp_compare_json_string(w, tool, "version", CP_VERSION);
        for (int i = 0; i < 2; i++)
            cp_compare_json_string(w, w->root, docs[i]->label, docs[i]->path);
        cp_compare_json_number(w, w->root, "tolerance", 1, w->tolerance);
        cp_compare_json_check(
            w, cJSON_AddBoolToObject(w->root, "base_incomplete", w->base->incomplete != 0));
        cp_compare_json_check(
            w, cJSON_AddBoolToObject(w->root, "new_incomplete", w->now->incomplete != 0));
        w->rows = cp_compare_json_check(w, cJSON_AddArrayToObject(w->root, "rows"));
        return;
    }
    for (int i = 0; i < 2; i++) {
        fprintf(w->out, "%-5s ", i ? "new:" : "base:");
        cp_text_put_printable(w->out, docs[i]->path);
        fprintf(w->out, "%s\n",
                docs[i]->incomplete ? " (incomplete: its sweep was interrupted)" : "");
    }
}

static void cp_compare_write_summary(cp_compare_writer *w, size_t regressed)
{
    const size_t *s = w->nstatus;
    if (w->json) {
        cJSON *sum = cp_compare_json_check(w, cJSON_AddObjectToObject(w->root, "summary"));
        const struct {
            const char *key;
            size_t n;
        } items[] = {
            {"regressed", regressed},          {"improved", s[CP_COMPARE_IMPROVED]},
            {"same", s[CP_COMPARE_SAME]},      {"not_comparable", s[CP_COMPARE_NOT_COMPARABLE]},
            {"only_in_base", w->only_in_base}, {"only_in_new", w->only_in_new}};
        for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
            cp_compare_json_number(w, sum, items[i].key, 1, (double)items[i].n);
        cp_compare_json_check(w, cJSON_AddBoolToObject(w->root, "regressed", regressed != 0));
        return;
    }
    fprintf(w->out, "\ncompare: %zu regressed, %zu improved, %zu same, ", regressed,
            s[CP_COMPARE_IMPROVED], s[CP_COMPARE_SAME]);
    if (s[CP_COMPARE_NOT_COMPARABLE])
        fprintf(w->out, "%zu not comparable, ", s[CP_COMPARE_NOT_COMPARABLE]);
    fprintf(w->out, "%zu only in base, %zu only in new (tolerance %s)\n", w->only_in_base,
            w->only_in_new, w->tolerance_text);
}

/* The text line on the rows that are the same, which have no line of their own. */
static void cp_compare_text_same(cp_compare_writer *w)
{
    size_t same = w->nstatus[CP_COMPARE_SAME];
    if (w->matched == 0)
        fprintf(w->out, "\nno row of one report matches a row of the other\n");
    else if (same == w->matched)
        fprintf(w->out, "\nall %zu matched row%s the same within %s\n", same, same == 1 ? "" : "s",
                w->tolerance_text);
    else if (same)
        fprintf(w->out, "%zu other matched row%s the same within %s\n", same, same == 1 ? "" : "s",
                w->tolerance_text);
}

/* Prints the JSON document (pretty, then a newline) or reports the failure to build it. */
static int cp_compare_json_emit(cp_compare_writer *w, cp_status *st)
{
    char *text = w->json_failed ? NULL : cJSON_Print(w->root);
    cJSON_Delete(w->root);
    w->root = NULL;
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the comparison");
    fputs(text, w->out);
    fputc('\n', w->out);
    cJSON_free(text);
    return CP_EXIT_OK;
}

/* Writes the comparison: matched rows in base order, then the rows of one report only. */
static int cp_compare_write(cp_compare_writer *w, const size_t *partner,
                            const unsigned char *taken_base, const unsigned char *taken_new,
                            cp_status *st)
{
    cp_compare_write_header(w);
    for (size_t i = 0; i < w->base->nrows; i++) {
        if (partner[i] == CP_COMPARE_NO_PARTNER)
            continue;
        cp_compare_row r = {.base = w->base->items[i], .now = w->now->items[partner[i]]};
        cp_compare_judge_row(&r, w->tolerance);
        w->matched++;
        w->nstatus[r.status]++;
        if (w->json)
            cp_compare_json_row(w, &r);
        else
            cp_compare_text_row(w, &r);
    }
    if (!w->json)
        cp_compare_text_same(w);
    w->only_in_base = cp_compare_write_unmatched(w, w->base, taken_base,
                                                 "only in base (missing in new)", "only_in_base");
    w->only_in_new = cp_compare_write_unmatched(w, w->now, taken_new, "only in new", "only_in_new");
    size_t regressed = w->nstatus[CP_COMPARE_REGRESSED] + w->nstatus[CP_COMPARE_CHANGED];
    cp_compare_write_summary(w, regressed);
    int rc = w->json ? cp_compare_json_emit(w, st) : CP_EXIT_OK;
    if (rc == CP_EXIT_OK && w->line.failed)
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while writing the comparison");
    if (rc == CP_EXIT_OK && (fflush(w->out) != 0 || ferror(w->out)))
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the comparison: %s",
                           strerror(errno ? errno : EIO));
    if (rc == CP_EXIT_OK && regressed) {
        rc = cp_status_set(st, CP_EXIT_MISMATCH, "%zu of %zu matched rows regressed (tolerance %s)",
                           regressed, w->matched, w->tolerance_text);
        cp_status_hint(st, "the comparison lists every regressed or changed value");
    }
    return rc;
}

/* Matches the rows of the two loaded reports and writes the comparison. */
static int cp_compare_docs(const cp_compare_doc *base, const cp_compare_doc *now, double tolerance,
                           int json, FILE *out, cp_status *st)
{
    cp_compare_entry *eb = NULL, *en = NULL;
    int rc = cp_compare_entries(base, &eb, st);
    if (rc == CP_EXIT_OK)
        rc = cp_compare_entries(now, &en, st);
    size_t *partner = NULL;
    unsigned char *taken_base = NULL, *taken_new = NULL;
    if (rc == CP_EXIT_OK) {
        partner = malloc((base->nrows ? base->nrows : 1) * sizeof *partner);
        taken_base = calloc(base->nrows ? base->nrows : 1, 1);
        taken_new = calloc(now->nrows ? now->nrows : 1, 1);
        if (!partner || !taken_base || !taken_new)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing reports");
    }
    if (rc == CP_EXIT_OK) {
        for (size_t i = 0; i < base->nrows; i++)
            partner[i] = CP_COMPARE_NO_PARTNER;
        cp_compare_match(eb, base->nrows, en, now->nrows, partner, taken_base, taken_new);
        cp_compare_writer w = {
            .base = base, .now = now, .tolerance = tolerance, .out = out, .json = json};
        cp_compare_format_tolerance(w.tolerance_text, sizeof w.tolerance_text, tolerance);
        rc = cp_compare_write(&w, partner, taken_base, taken_new, st);
        free(w.line.data);
    }
    free(partner);
    free(taken_base);
    free(taken_new);
    cp_compare_free_entries(eb, base->nrows);
    cp_compare_free_entries(en, now->nrows);
    return rc;
}

int cp_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                     FILE *out, cp_status *st)
{
    if (!base_path || !new_path || !out)
        return cp_status_set(st, CP_EXIT_USAGE, "compare needs two report files: BASE and NEW");
    if (!(tolerance >= 0 && tolerance <= 1))
        return cp_status_set(st, CP_EXIT_USAGE, "tolerance %g is outside 0..1 (0%%..100%%)",
                             tolerance);
    cp_compare_doc docs[2] = {{.path = base_path, .label = "base"},
                              {.path = new_path, .label = "new"}};
    int rc = cp_compare_load(&docs[0], st);
    if (rc == CP_EXIT_OK)
        rc = cp_compare_load(&docs[1], st);
    if (rc == CP_EXIT_OK)
        rc = cp_compare_docs(&docs[0], &docs[1], tolerance, json, out, st);
    cp_compare_unload(&docs[0]);
    cp_compare_unload(&docs[1]);
    return rc;
}

/* ---- --tolerance -------------------------------------------------------------------------- */

int cp_compare_parse_tolerance(const char *spec, double *fraction, cp_status *st)
{
    const char *s = spec ? spec : "";
    size_t digits = strspn(s, "0123456789");
    size_t len = digits;
    if (s[len] == '.') {
        size_t more = strspn(s + len + 1, "0123456789");
        digits += more;
        len += 1 + more;
    }
    const char *rest = s + len;
    while (*rest == ' ')
        rest++;
    int percent = *rest == '%';
    rest += percent;
    if (s[0] == '-' && strspn(s + 1, "0123456789.% ") == strlen(s + 1) && s[1]) {
        cp_status_set(st, CP_EXIT_USAGE, "--tolerance: '%s' is negative", s);
    } else if (digits == 0 || *rest != '\0' || (!percent && len != (size_t)(rest - s))) {
        cp_status_set(st, CP_EXIT_USAGE, "--tolerance: '%s' is not a tolerance", s);
    } else {
        double v = strtod(s, NULL) / (percent ? 100 : 1);
        if (v <= 1) {
            *fraction = v;
            return CP_EXIT_OK;
        }
        cp_status_set(st, CP_EXIT_USAGE, "--tolerance: '%s' is above 100%%", s);
    }
    cp_status_hint(st, "write a percentage such as 5%% or a fraction such as 0.05 (0 to 100%%)");
    return CP_EXIT_USAGE;
}
