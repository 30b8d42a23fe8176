/* cp_show.c: coalprobe show's common part: what a JSON document is, its rows sorted by a key,
 * JSON printed as coalprobe prints it, the schema check; and a sweep report shown again: read
 * back into rows (cp_report_load.c) and written by the writers of a run. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "cp_report.h"
#include "cp_report_kinds.h"
#include "cp_report_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CP_SHOW_HINT "show reads the JSON reports of coalprobe, coalprobe trace and compare"

/* ---- what a document is ------------------------------------------------------------------ */

static cp_report_kind cp_show_none(char *why, size_t n, const char *text)
{
    snprintf(why, n, "%s", text);
    return CP_REPORT_KIND_NONE;
}

/* A document that is not JSON: a CSV report names itself by its first column. */
static cp_report_kind cp_show_identify_text(const char *text, char *why, size_t n)
{
    if (text && strncmp(text, "pattern,", 8) == 0)
        return cp_show_none(why, n, "it is a CSV report (coalprobe --format csv), not JSON");
    if (text && strncmp(text, "rank,pid,", 9) == 0)
        return cp_show_none(why, n,
                            "it is a trace's CSV report (coalprobe trace --format csv), "
                            "not JSON");
    return cp_show_none(why, n, "it is not JSON");
}

cp_report_kind cp_report_identify(const cJSON *root, const char *text, char *why, size_t n)
{
    if (!root)
        return cp_show_identify_text(text, why, n);
    if (!cJSON_IsObject(root))
        return cp_show_none(why, n, "it is not a JSON object");
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "$schema"));
    if (schema && strstr(schema, "vega"))
        return cp_show_none(why, n, "it is a Vega-Lite chart (--format vega-lite), not a report");
    if (cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
        return cp_show_none(why, n,
                            "it is a timeline (coalprobe trace --format chrome-trace): "
                            "open it in Perfetto or chrome://tracing");
    const char *tool = cJSON_GetStringValue(cp_show_at(root, "tool.name"));
    if (tool && strcmp(tool, "coalprobe") != 0)
        return cp_show_none(why, n, "its tool.name is not \"coalprobe\"");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    if (cJSON_IsObject(error)) {
        char shown[200];
        const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(error, "message"));
        cp_text_printable(shown, sizeof shown, msg ? msg : "no message");
        snprintf(why, n, "it is the error document of a failed run (%s)", shown);
        return CP_REPORT_KIND_NONE;
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "checks"))
        return cp_show_none(why, n,
                            "it is coalprobe doctor's report, not a sweep, trace or "
                            "compare report");
    if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "schema_version")))
        return cp_show_none(why, n, "it has no \"schema_version\"");
    const cp_report_kind_desc *named = cp_report_kind_of(root);
    if (named)
        return named->show;
    if (cJSON_GetObjectItemCaseSensitive(root, "kind"))
        return cp_show_none(why, n, "its \"kind\" is not one this coalprobe reads");
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "rows")))
        return cp_show_none(why, n, "it has no \"rows\" array");
    if (cJSON_GetObjectItemCaseSensitive(root, "base") &&
        cJSON_GetObjectItemCaseSensitive(root, "new"))
        return CP_REPORT_KIND_COMPARE;
    return CP_REPORT_KIND_SWEEP;
}

/* ---- sorting --------------------------------------------------------------------------- */

const cJSON *cp_show_at(const cJSON *o, const char *path)
{
    char key[128];
    while (o && *path) {
        size_t len = strcspn(path, ".");
        if (len >= sizeof key)
            return NULL;
        memcpy(key, path, len);
        key[len] = '\0';
        o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
        path += len + (path[len] == '.');
    }
    return o;
}

double cp_show_num(const cJSON *o, const char *path)
{
    const cJSON *v = cp_show_at(o, path);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *cp_show_str(const cJSON *o, const char *path)
{
    const cJSON *v = cp_show_at(o, path);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* One object to sort: its value at the key, and its place before. */
typedef struct cp_show_item {
    cJSON *item;
    const cJSON *value; /* a number or a string; NULL: none (sorted last) */
    size_t index;
} cp_show_item;

static int cp_show_descending; /* qsort has no argument: the order of the sort under way */

static int cp_show_compare_items(const void *pa, const void *pb)
{
    const cp_show_item *a = pa, *b = pb;
    int c = 0;
    if (!a->value || !b->value) {
        c = !a->value - !b->value; /* the ones without a value last, either order */
    } else if (cJSON_IsNumber(a->value) && cJSON_IsNumber(b->value)) {
        double x = a->value->valuedouble, y = b->value->valuedouble;
        c = (x > y) - (x < y);
        c = cp_show_descending ? -c : c;
    } else if (cJSON_IsString(a->value) && cJSON_IsString(b->value)) {
        c = strcmp(a->value->valuestring, b->value->valuestring);
        c = cp_show_descending ? -c : c;
    } else {
        c = cJSON_IsNumber(a->value) ? -1 : 1; /* numbers before strings */
    }
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* The value of item at path: a number or a string, else NULL. */
static const cJSON *cp_show_value(const cJSON *item, const char *path)
{
    const cJSON *v = cp_show_at(item, path);
    return cJSON_IsNumber(v) || cJSON_IsString(v) ? v : NULL;
}

/* The path spec's key stands for in array (written into path): an alias's, the key itself, or
 * under a prefix; 0 when no object has a value there. */
static int cp_show_resolve(const cJSON *array, const char *key, const cp_show_alias *aliases,
                           size_t naliases, const char *const *prefixes, size_t nprefixes,
                           char *path, size_t n)
{
    for (size_t a = 0; a < naliases; a++)
        if (strcmp(aliases[a].name, key) == 0)
            key = aliases[a].path;
    for (size_t p = 0; p <= nprefixes; p++) {
        snprintf(path, n, "%s%s", p ? prefixes[p - 1] : "", key);
        const cJSON *item;
        cJSON_ArrayForEach(item, array)
        {
            if (cp_show_value(item, path))
                return 1;
        }
    }
    return 0;
}

int cp_show_sort(cJSON *array, const char *spec, const cp_show_alias *aliases, size_t naliases,
                 const char *const *prefixes, size_t nprefixes, cp_status *st)
{
    int descending = spec[0] == '-';
    const char *key = spec + (spec[0] == '-' || spec[0] == '+');
    char path[256];
    if (!cp_show_resolve(array, key, aliases, naliases, prefixes, nprefixes, path, sizeof path)) {
        cp_strbuf names = {0};
        for (size_t a = 0; a < naliases; a++)
            cp_strbuf_printf(&names, "%s%s", a ? ", " : "", aliases[a].name);
        cp_status_set(st, CP_EXIT_USAGE, "--sort: no row of the report has '%s'", key);
        cp_status_hint(st, "sort by %s, or a path in a row of the JSON (-KEY: largest first)",
                       cp_strbuf_text(&names, "a key"));
        cp_strbuf_free(&names);
        return CP_EXIT_USAGE;
    }
    size_t n = (size_t)cJSON_GetArraySize(array);
    cp_show_item *items = malloc((n ? n : 1) * sizeof *items);
    if (!items)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory sorting the report");
    size_t i = 0;
    for (cJSON *item = array->child; item && i < n; item = item->next, i++)
        items[i] = (cp_show_item){item, cp_show_value(item, path), i};
    cp_show_descending = descending;
    qsort(items, n, sizeof *items, cp_show_compare_items);
    for (i = 0; i < n; i++) { /* relinked in the new order */
        items[i].item->prev = i ? items[i - 1].item : NULL;
        items[i].item->next = i + 1 < n ? items[i + 1].item : NULL;
    }
#if CJSON_VERSION_MAJOR * 10000 + CJSON_VERSION_MINOR * 100 + CJSON_VERSION_PATCH >= 10713
    if (n) /* since cJSON 1.7.13 the first item's prev is the last, for appending */
        items[0].item->prev = items[n - 1].item;
#endif
    if (n)
        array->child = items[0].item;
    free(items);
    return CP_EXIT_OK;
}

void cp_show_keep(cJSON *array, size_t n)
{
    cJSON *item = array ? array->child : NULL;
    for (size_t i = 0; item && i < n; i++)
        item = item->next;
    while (item) { /* each detached in constant time: it has a previous item */
        cJSON *next = item->next;
        cJSON_Delete(cJSON_DetachItemViaPointer(array, item));
        item = next;
    }
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* Whole numbers from 1e15 up made raw digits again, as cp_json_number writes them. */
static int cp_show_raw_numbers(cJSON *o)
{
    for (cJSON *c = o ? o->child : NULL; c; c = c->next) {
        double v = c->valuedouble;
        if (cJSON_IsNumber(c) && v == floor(v) && fabs(v) >= 1e15 && fabs(v) < 1e19) {
            char digits[32];
            snprintf(digits, sizeof digits, "%.0f", v);
            char *raw = strdup(digits);
            if (!raw)
                return 0;
            c->type = cJSON_Raw;
            c->valuestring = raw;
        } else if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && !cp_show_raw_numbers(c)) {
            return 0;
        }
    }
    return 1;
}

int cp_show_print_json(FILE *out, cJSON *doc, cp_status *st)
{
    char *text = cp_show_raw_numbers(doc) ? cJSON_Print(doc) : NULL;
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory printing the report");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return cp_report_check_stream(out, st);
}

int cp_show_check_schema(const cJSON *doc, const char *path, int trace, cp_status *st)
{
    double version = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc, "schema_version"));
    if (version != 1) { /* the reports' only schema_version so far (both kinds) */
        char v[40];
        cp_strbuf_format_number(v, sizeof v, version);
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' has schema_version %s, and this coalprobe (%s) reads schema_version 1",
                      path, v, CP_VERSION);
        cp_status_hint(st, "show it with the coalprobe that wrote it");
        return CP_EXIT_USAGE;
    }
    cp_schema_kind kind = trace ? CP_SCHEMA_TRACE : CP_SCHEMA_REPORT;
    cp_schema_error err;
    int rc = cp_schema_validate(kind, doc, &err, st);
    if (rc != CP_EXIT_USAGE)
        return rc;
    rc = cp_schema_status(st, path, kind, &err, NULL);
    cp_schema_error_free(&err);
    return rc;
}

/* ---- a sweep report ------------------------------------------------------------------------- */

/* The short names of --sort for sweep reports (a config key or a path in the row goes too). */
static const cp_show_alias cp_show_sweep_aliases[] = {
    {"time", "measured.time_s.median"},
    {"bandwidth", "measured.useful_bytes_per_s"},
    {"dram", "measured.dram_bytes_per_s"},
    {"gflops", "measured.flop_per_s"},
    {"sectors", "predicted.load.sectors_per_request"},
    {"efficiency", "predicted.load.efficiency"},
    {"measured_sectors", "measured.counters.load.sectors_per_request"},
};

int cp_show_sweep(cJSON *doc, const char *path, const cp_show_options *o, FILE *out, cp_status *st)
{
    static const char *const prefixes[] = {"config.", "predicted.", "measured."};
    CP_TRY(cp_show_check_schema(doc, path, 0, st));
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    if (o->sort)
        CP_TRY(cp_show_sort(rows, o->sort, cp_show_sweep_aliases,
                            CP_COUNT_OF(cp_show_sweep_aliases), prefixes, CP_COUNT_OF(prefixes),
                            st));
    if (o->top_given)
        cp_show_keep(rows, o->top);
    cp_report_loaded r;
    int rc = cp_report_load(doc, path, &r, st);
    r.report.view = o->view;
    if (rc == CP_EXIT_OK)
        rc = cp_report_write(out, (cp_format)o->format, &r.report, st);
    cp_report_loaded_free(&r);
    return rc;
}
