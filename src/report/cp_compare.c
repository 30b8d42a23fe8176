/* cp_compare.c: coalprobe compare on two sweep reports: each row an item of the comparison
 * (src/report/cp_compare_core.c), matched by pattern and config, its counts judged exactly and
 * its times and rates within a tolerance. */
#include "cp_compare.h"
#include "cp_report.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_COMPARE_SCHEMA_VERSION 1
/* the longest row description in an error message */
#define CP_COMPARE_LABEL_MAX 160
#define CP_COMPARE_HINT_REPORT "compare reads the reports that coalprobe --format json writes"

/* ---- what is compared --------------------------------------------------------------------- */

/* A metric and its path from the row. */
typedef struct cp_compare_path {
    const char *path;
    cp_compare_metric_def def;
} cp_compare_path;

/* A metric named by its path from the row: the predicted ones as they stand, the measured ones
 * without "measured.". */
#define CP_COMPARE_PREDICTED(field)                                                                \
    {                                                                                              \
        "predicted." field,                                                                        \
        {                                                                                          \
            "predicted." field, CP_COMPARE_EXACT, "", 0                                            \
        }                                                                                          \
    }
#define CP_COMPARE_MEASURED(field, sense, unit, card)                                              \
    {                                                                                              \
        "measured." field,                                                                         \
        {                                                                                          \
            field, sense, unit, card                                                               \
        }                                                                                          \
    }
#define CP_COMPARE_COUNTER(field) CP_COMPARE_MEASURED("counters." field, CP_COMPARE_EXACT, "", 1)
static const cp_compare_path cp_compare_paths[] = {
    CP_COMPARE_PREDICTED("load.requests"),
    CP_COMPARE_PREDICTED("load.sectors"),
    CP_COMPARE_PREDICTED("load.bytes_requested"),
    CP_COMPARE_PREDICTED("store.requests"),
    CP_COMPARE_PREDICTED("store.sectors"),
    CP_COMPARE_PREDICTED("store.bytes_requested"),
    CP_COMPARE_COUNTER("load.requests"),
    CP_COMPARE_COUNTER("load.sectors"),
    CP_COMPARE_COUNTER("store.requests"),
    CP_COMPARE_COUNTER("store.sectors"),
    CP_COMPARE_PREDICTED("shared_load.wavefronts"),
    CP_COMPARE_PREDICTED("shared_load.bank_conflicts"),
    CP_COMPARE_PREDICTED("shared_store.wavefronts"),
    CP_COMPARE_PREDICTED("shared_store.bank_conflicts"),
    CP_COMPARE_COUNTER("shared_load.wavefronts"),
    CP_COMPARE_COUNTER("shared_load.bank_conflicts"),
    CP_COMPARE_COUNTER("shared_store.wavefronts"),
    CP_COMPARE_COUNTER("shared_store.bank_conflicts"),
    CP_COMPARE_MEASURED("time_s.median", CP_COMPARE_LOWER, "s", 0),
    CP_COMPARE_MEASURED("useful_bytes_per_s", CP_COMPARE_HIGHER, "B/s", 0),
    CP_COMPARE_MEASURED("flop_per_s", CP_COMPARE_HIGHER, "FLOP/s", 0),
};
#define CP_COMPARE_NMETRICS (sizeof cp_compare_paths / sizeof cp_compare_paths[0])

/* The metrics of each family's own counters (cp_family_desc.counters), after those above:
 * predicted.family_counters.KEY of each and counters.family_counters.KEY of each a metric
 * measures, exact; built once from the descriptors (a pair's metrics are matched by their
 * definition, so both reports' rows point to these). */
#define CP_COMPARE_FAMILY_METRICS (2 * CP_FAMILY_COUNTERS_MAX)
static struct {
    int built;
    cp_compare_path paths[CP_FAMILY_COUNT][CP_COMPARE_FAMILY_METRICS];
    char text[CP_FAMILY_COUNT][CP_COMPARE_FAMILY_METRICS][2][112];
    size_t n[CP_FAMILY_COUNT];
} cp_compare_family;

static void cp_compare_family_build(void)
{
    if (cp_compare_family.built)
        return;
    for (int f = 0; f < CP_FAMILY_COUNT; f++) {
        const cp_family_desc *d = cp_family_get((cp_family)f);
        for (int side = 0; side < 2; side++)
            for (size_t i = 0; d && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
                const cp_family_counter *k = &d->counters[i];
                if (side && !k->metric)
                    continue;
                size_t n = cp_compare_family.n[f]++;
                char(*t)[112] = cp_compare_family.text[f][n];
                const char *within = side ? "counters." : "predicted.";
                snprintf(t[1], sizeof t[1], "%sfamily_counters.%s", within, k->key);
                snprintf(t[0], sizeof t[0], "%s%sfamily_counters.%s", side ? "measured." : "",
                         within, k->key);
                cp_compare_family.paths[f][n] =
                    (cp_compare_path){t[0], {t[1], CP_COMPARE_EXACT, "", side}};
            }
    }
    cp_compare_family.built = 1;
}

static const cJSON *cp_compare_lookup(const cJSON *item, const char *path);

/* The values of the metrics of paths[0, n) that row has, appended to item. */
static void cp_compare_add_values(cp_compare_item *item, const cJSON *row,
                                  const cp_compare_path *paths, size_t n)
{
    for (size_t m = 0; m < n; m++) {
        const cJSON *v = cp_compare_lookup(row, paths[m].path);
        if (cJSON_IsNumber(v))
            item->values[item->nvalues++] =
                (cp_compare_value){&paths[m].def, v->valuedouble, v->valuestring};
    }
}

/* A loaded report. */
typedef struct cp_compare_doc {
    const char *path;
    char *text;
    cJSON *root;
    const cJSON *rows;
    const cJSON **items; /* rows[i], for indexing */
    size_t nrows;
    int incomplete;
} cp_compare_doc;

/* "pattern key=value ..." of a row, escaped for a terminal, appended to b. */
static void cp_compare_buf_row(cp_strbuf *b, const cJSON *row);

/* ---- reading a report --------------------------------------------------------------------- */

static int cp_compare_not_report(const cp_compare_doc *d, const char *why, cp_status *st)
{
    cp_status_set(st, CP_EXIT_USAGE, "'%s' is not a coalprobe report: %s", d->path, why);
    cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
    return CP_EXIT_USAGE;
}

/* A report that fails docs/schema/coalprobe-report.schema.json is not compared: the error names
 * the file, the row (its index, pattern and config), the key, what was expected and found. */
static int cp_compare_check_schema(const cp_compare_doc *d, cp_status *st)
{
    cp_schema_error err;
    int rc = cp_schema_validate(CP_SCHEMA_REPORT, d->root, &err, st);
    if (rc != CP_EXIT_USAGE)
        return rc;
    cp_strbuf label = {0};
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
        cp_strbuf_str(&label, "...");
    }
    rc = cp_schema_status(st, d->path, CP_SCHEMA_REPORT, &err,
                          label.len && !label.failed ? label.data : NULL);
    cp_strbuf_free(&label);
    cp_schema_error_free(&err);
    return rc;
}

/* Checks the top level: schema_version 1, tool coalprobe, not an error document, rows. */
static int cp_compare_check_report(cp_compare_doc *d, cp_status *st)
{
    const cJSON *root = d->root;
    if (!cJSON_IsObject(root))
        return cp_compare_not_report(d, "it is not a JSON object", st);
    char why[300];
    cp_report_kind kind = cp_report_identify(root, NULL, why, sizeof why);
    if (kind == CP_REPORT_KIND_NONE && !cJSON_GetObjectItemCaseSensitive(root, "error"))
        return cp_compare_not_report(d, why, st); /* a chart, a timeline, doctor's report... */
    if (kind == CP_REPORT_KIND_COMPARE || kind == CP_REPORT_KIND_TRACE_COMPARE)
        return cp_compare_not_report(d, "it is the output of coalprobe compare, not a report", st);
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(version))
        return cp_compare_not_report(d, "it has no \"schema_version\"", st);
    if (version->valuedouble != CP_COMPARE_SCHEMA_VERSION) {
        char v[40];
        cp_strbuf_format_number(v, sizeof v, version->valuedouble);
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

/* Reads, parses and checks the report at path into report. */
static int cp_compare_load(void *report, const char *path, cp_status *st)
{
    cp_compare_doc *d = report;
    d->path = path;
    cp_json_read_result r;
    int rc = cp_json_read(path, 1, &r, st);
    d->text = r.text;
    d->root = r.root;
    if (rc != CP_EXIT_OK)
        return rc;
    size_t start = 0, len = r.len;
    while (start < len && isspace((unsigned char)d->text[start]))
        start++;
    if (start == len) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not JSON (it is empty)", d->path);
        cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
        return CP_EXIT_USAGE;
    }
    char why[300];
    if (!d->root && cp_report_identify(NULL, d->text, why, sizeof why) == CP_REPORT_KIND_NONE &&
        strcmp(why, "it is not JSON") != 0) /* a CSV report names itself */
        return cp_compare_not_report(d, why, st);
    if (!d->root) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not JSON (error near byte %zu)", d->path,
                      r.error);
        cp_status_hint(st, "%s", CP_COMPARE_HINT_REPORT);
        return CP_EXIT_USAGE;
    }
    return cp_compare_check_report(d, st);
}

static void cp_compare_unload(void *report)
{
    cp_compare_doc *d = report;
    cJSON_Delete(d->root);
    free(d->text);
    free(d->items);
}

/* A config value: as read (canonical == 0) or tagged and length-prefixed for a match key. */
static void cp_compare_buf_value(cp_strbuf *b, const cJSON *v, int canonical)
{
    char num[48];
    const char *text = num;
    char *printed = NULL;
    char tag = 'n';
    if (cJSON_IsNumber(v)) {
        cp_strbuf_format_number(num, sizeof num, v->valuedouble);
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
        cp_strbuf_printf(b, "%c%zu:", tag, strlen(text));
        cp_strbuf_str(b, text);
    } else {
        cp_strbuf_printable(b, text);
    }
    cJSON_free(printed);
}

static int cp_compare_key_order(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    return strcmp(x->string, y->string);
}

/* The match key of a row: pattern, then config's members sorted by name. */
static int cp_compare_row_key(const cp_compare_doc *d, size_t i, const cJSON *row, cp_strbuf *b,
                              cp_status *st)
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
    cp_strbuf_reset(b);
    cp_strbuf_printf(b, "%zu:", strlen(pattern->valuestring));
    cp_strbuf_str(b, pattern->valuestring);
    for (size_t j = 0; j < k; j++) {
        cp_strbuf_printf(b, "|%zu:", strlen(members[j]->string));
        cp_strbuf_str(b, members[j]->string);
        cp_compare_buf_value(b, members[j], 1);
    }
    free(members);
    return CP_EXIT_OK;
}

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

/* A time or rate with an SI prefix chosen by ref (times stop at seconds), 4 digits; all of its
 * integer digits however many. */
static void cp_compare_format_scaled(cp_strbuf *out, double v, double ref,
                                     const cp_compare_metric_def *def)
{
    static const struct {
        double factor;
        const char *prefix;
    } prefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"}, {1e3, "k"},
                    {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
    size_t n = sizeof prefixes / sizeof prefixes[0], i = 0;
    double max = def->sense == CP_COMPARE_LOWER ? 1 : 1e15;
    while (i + 1 < n && (prefixes[i].factor > max || fabs(ref) < prefixes[i].factor))
        i++;
    double x = v / prefixes[i].factor, ax = fabs(x);
    if (ax >= 100)
        cp_strbuf_printf(out, "%.1f %s%s", x, prefixes[i].prefix, def->unit);
    else if (ax >= 10)
        cp_strbuf_printf(out, "%.2f %s%s", x, prefixes[i].prefix, def->unit);
    else if (ax >= 1 || x == 0)
        cp_strbuf_printf(out, "%.3f %s%s", x, prefixes[i].prefix, def->unit);
    else
        cp_strbuf_printf(out, "%.3g %s%s", x, prefixes[i].prefix, def->unit);
}

/* ---- the report's items -------------------------------------------------------------------- */

static void cp_compare_buf_row(cp_strbuf *b, const cJSON *row)
{
    cp_strbuf_printable(b, cJSON_GetObjectItemCaseSensitive(row, "pattern")->valuestring);
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(row, "config");
    for (const cJSON *m = config->child; m; m = m->next) {
        cp_strbuf_str(b, " ");
        cp_strbuf_printable(b, m->string);
        cp_strbuf_str(b, "=");
        cp_compare_buf_value(b, m, 0);
    }
}

static void cp_compare_text_id(cp_strbuf *b, const cp_compare_item *item)
{
    cp_compare_buf_row(b, item->id);
}

/* {"pattern", "config"} of a row. */
static void cp_compare_json_id(cp_json *j, cJSON *o, const cp_compare_item *item)
{
    const cJSON *row = item->id;
    cp_json_string(j, o, "pattern", cJSON_GetObjectItemCaseSensitive(row, "pattern")->valuestring);
    cJSON *config =
        cp_json_check(j, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(row, "config"), 1));
    if (config && !cJSON_AddItemToObject(o, "config", config)) {
        cJSON_Delete(config);
        j->failed = 1;
    }
}

/* A count with its difference, which the percentage of a large count can hide; a time or rate
 * scaled; then the change. */
static void cp_compare_text_values(cp_strbuf *b, const cp_compare_metric *m)
{
    if (m->def->sense == CP_COMPARE_EXACT) {
        char base[48], now[48], diff[48];
        cp_strbuf_format_number(base, sizeof base, m->base);
        cp_strbuf_format_number(now, sizeof now, m->now);
        cp_strbuf_format_number(diff, sizeof diff, m->now - m->base);
        if (m->base == m->now && m->base_text && m->now_text &&
            m->verdict == CP_COMPARE_CHANGED) /* apart past a double's precision: as written */
            cp_strbuf_printf(b, "%.40s -> %.40s (past a double's precision, ", m->base_text,
                             m->now_text);
        else
            cp_strbuf_printf(b, "%s -> %s (%s%s, ", base, now, m->now > m->base ? "+" : "", diff);
    } else {
        double ref = m->base != 0 ? m->base : m->now;
        cp_compare_format_scaled(b, m->base, ref, m->def);
        cp_strbuf_str(b, " -> ");
        cp_compare_format_scaled(b, m->now, ref, m->def);
        cp_strbuf_str(b, " (");
    }
    double change = 0;
    if (!cp_compare_change(m, &change))
        cp_strbuf_str(b, "n/a");
    else if (change != 0 && fabs(change) < 0.0005)
        cp_strbuf_printf(b, "%+.2g%%", change * 100);
    else
        cp_strbuf_printf(b, "%+.1f%%", change * 100);
}

static void cp_compare_text_same(FILE *out, size_t same, size_t matched, const char *tolerance)
{
    fprintf(out, "%s%zu %smatched row%s the same within %s\n", same == matched ? "all " : "", same,
            same == matched ? "" : "other ", same == 1 ? "" : "s", tolerance);
}

static const char *const cp_compare_mode_notes[2] = {"measured in new only (base is model only)",
                                                     "measured in base only (new is model only)"};

/* The rows of d as items: the match key, whether measured (the mode), every metric the row has
 * as a number. */
static int cp_compare_side_of(void *report, cp_compare_side *s, cp_status *st)
{
    const cp_compare_doc *d = report;
    s->incomplete = d->incomplete;
    cp_compare_devices_of(d->root, s->device, sizeof s->device);
    s->items = calloc(d->nrows ? d->nrows : 1, sizeof *s->items);
    cp_strbuf key = {0};
    int rc = s->items ? CP_EXIT_OK
                      : cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    for (size_t i = 0; rc == CP_EXIT_OK && i < d->nrows; i++) {
        const cJSON *row = d->items[i];
        cp_compare_item *item = &s->items[s->n++];
        rc = cp_compare_row_key(d, i, row, &key, st);
        if (rc != CP_EXIT_OK)
            break;
        item->id = row;
        item->mode = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(row, "measured"));
        item->key = cp_strbuf_steal(&key);
        item->values =
            malloc((CP_COMPARE_NMETRICS + CP_COMPARE_FAMILY_METRICS) * sizeof *item->values);
        if (!item->key || !item->values) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
            break;
        }
        cp_compare_add_values(item, row, cp_compare_paths, CP_COMPARE_NMETRICS);
        const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(row, "pattern");
        cp_family f;
        if (cJSON_IsString(pattern) && cp_family_find(pattern->valuestring, &f)) {
            cp_compare_family_build();
            cp_compare_add_values(item, row, cp_compare_family.paths[f], cp_compare_family.n[f]);
        }
    }
    cp_strbuf_free(&key);
    return rc;
}

static const cp_compare_kind cp_compare_sweep = {
    .report_size = sizeof(cp_compare_doc),
    .load = cp_compare_load,
    .items = cp_compare_side_of,
    .unload = cp_compare_unload,
    .schema_version = CP_COMPARE_SCHEMA_VERSION,
    .incomplete_note = " (incomplete: its sweep was interrupted)",
    .items_words = "rows",
    .none_matched = "no row of one report matches a row of the other",
    .count_words = {" row", " rows"},
    .hint = "the comparison lists every regressed or changed value",
    .mode_notes = cp_compare_mode_notes,
    .text_id = cp_compare_text_id,
    .json_id = cp_compare_json_id,
    .text_values = cp_compare_text_values,
    .text_same = cp_compare_text_same,
};

int cp_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                     FILE *out, cp_status *st)
{
    if (!base_path || !new_path || !out)
        return cp_status_set(st, CP_EXIT_USAGE, "compare needs two report files: BASE and NEW");
    return cp_compare_run(&cp_compare_sweep, base_path, new_path, tolerance, json, out, st);
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
