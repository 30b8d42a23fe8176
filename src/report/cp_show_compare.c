/* cp_show_compare.c: a comparison (coalprobe compare --format json, of sweep or trace reports)
 * shown again: as text, the rows that changed with the metrics that did; as CSV, a line per row
 * and metric; as JSON, the document. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <math.h>
#include <string.h>

/* The columns that name a row: a sweep's pattern and configuration, a trace's process, kernel
 * and source line. */
static const char *const cp_show_cmp_sweep_id[] = {"pattern", "config"};
static const char *const cp_show_cmp_trace_id[] = {"process", "kernel", "where"};

/* "stride stride=2 offset=0 ..." or "./app | kernel | file.cu:12" of a row, escaped. */
static void cp_show_cmp_label(cp_strbuf *b, const cJSON *row)
{
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(row, "config");
    if (!config) { /* a trace's instruction: process, kernel, where */
        for (size_t i = 0; i < CP_COUNT_OF(cp_show_cmp_trace_id); i++) {
            const char *s = cJSON_GetStringValue(cp_show_at(row, cp_show_cmp_trace_id[i]));
            cp_strbuf_str(b, i ? " | " : "");
            cp_strbuf_printable(b, s ? s : "?");
        }
        return;
    }
    const char *pattern = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "pattern"));
    cp_strbuf_printable(b, pattern ? pattern : "?");
    const cJSON *v;
    cJSON_ArrayForEach(v, config)
    {
        cp_strbuf_printf(b, " ");
        cp_strbuf_printable(b, v->string);
        cp_strbuf_str(b, "=");
        if (cJSON_IsNumber(v))
            cp_strbuf_number(b, v->valuedouble);
        else if (cJSON_IsString(v))
            cp_strbuf_printable(b, v->valuestring);
        else
            cp_strbuf_str(b, "...");
    }
}

/* A metric's value with its unit, by its name: times in s/ms/us/ns, rates with an SI prefix,
 * counts as numbers; "-" when null. */
static void cp_show_cmp_value(char *buf, size_t n, const char *name, const cJSON *v)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P"};
    if (!cJSON_IsNumber(v)) {
        snprintf(buf, n, "-");
        return;
    }
    double x = v->valuedouble;
    const char *unit = strstr(name, "bytes_per_s")  ? "B/s"
                       : strstr(name, "flop_per_s") ? "FLOP/s"
                                                    : NULL;
    if (strncmp(name, "time_s", 6) == 0 && x > 0) {
        double scale = x >= 1 ? 1 : x >= 1e-3 ? 1e3 : x >= 1e-6 ? 1e6 : 1e9;
        const char *u = x >= 1 ? "s" : x >= 1e-3 ? "ms" : x >= 1e-6 ? "us" : "ns";
        snprintf(buf, n, "%.4g %s", x * scale, u);
    } else if (unit && x > 0) {
        size_t p = 0;
        for (; x >= 1000 && p + 1 < CP_COUNT_OF(prefixes); p++)
            x /= 1000;
        snprintf(buf, n, "%.4g %s%s", x, prefixes[p], unit);
    } else {
        snprintf(buf, n, "%.10g", x);
    }
}

/* The change: "+10.0%", "-" when null. */
static void cp_show_cmp_change(char *buf, size_t n, const cJSON *v)
{
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        snprintf(buf, n, "%+.1f%%", 100 * v->valuedouble);
    else
        snprintf(buf, n, "-");
}

/* One row that is not the same: its label, then each metric that is not, or its note. */
static void cp_show_cmp_row(FILE *out, const cJSON *row, const cp_show_options *o)
{
    cp_strbuf label = {0};
    cp_show_cmp_label(&label, row);
    size_t width = o->view && o->view->width ? o->view->width : 0;
    cp_text_wrap(out, cp_strbuf_text(&label, "?"), width, "    ");
    cp_strbuf_free(&label);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "note"));
    if (note)
        fprintf(out, "  %s\n", note);
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(row, "metrics"))
    {
        const char *verdict = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "verdict"));
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "name"));
        if (!verdict || !name || strcmp(verdict, "same") == 0)
            continue;
        char base[48], now[48], change[32];
        cp_show_cmp_value(base, sizeof base, name, cJSON_GetObjectItemCaseSensitive(m, "base"));
        cp_show_cmp_value(now, sizeof now, name, cJSON_GetObjectItemCaseSensitive(m, "new"));
        cp_show_cmp_change(change, sizeof change, cJSON_GetObjectItemCaseSensitive(m, "change"));
        int bad = strcmp(verdict, "regressed") == 0 || strcmp(verdict, "changed") == 0;
        int color = o->view && o->view->color;
        fprintf(out, "  %-30s %12s -> %-12s %8s  %s", name, base, now, change,
                color ? (bad ? CP_TERM_RED : CP_TERM_GREEN) : "");
        for (const char *c = verdict; *c; c++) /* REGRESSED, CHANGED: loud; improved: quiet */
            fputc(bad && *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, out);
        fprintf(out, "%s\n", color ? CP_TERM_RESET : "");
    }
}

/* The rows of one report only, listed under their title. */
static void cp_show_cmp_only(FILE *out, const cJSON *doc, const char *key, const char *title,
                             const cp_show_options *o)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, key);
    int n = cJSON_GetArraySize(list);
    if (n == 0)
        return;
    fprintf(out, "\n%s: %d\n", title, n);
    const cJSON *row;
    cJSON_ArrayForEach(row, list)
    {
        cp_strbuf label = {0};
        cp_strbuf_str(&label, "  ");
        cp_show_cmp_label(&label, row);
        cp_text_wrap(out, cp_strbuf_text(&label, "?"), o->view ? o->view->width : 0, "      ");
        cp_strbuf_free(&label);
    }
}

static void cp_show_cmp_table(FILE *out, const cJSON *doc, const cp_show_options *o)
{
    static const char *const sides[2][2] = {{"base", "base_incomplete"}, {"new", "new_incomplete"}};
    for (int i = 0; i < 2; i++) {
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, sides[i][0]));
        fputs(i ? "new:  " : "base: ", out);
        cp_text_put_printable(out, path ? path : "?");
        fprintf(out, "%s\n",
                cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, sides[i][1])) ? " (incomplete)"
                                                                                 : "");
    }
    size_t same = 0, shown = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(doc, "rows"))
    {
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "status"));
        if (status && strcmp(status, "same") == 0) {
            same++;
            continue;
        }
        fputs(shown++ ? "" : "\n", out);
        cp_show_cmp_row(out, row, o);
    }
    if (same)
        fprintf(out, "%s%zu matched row%s the same\n", shown ? "" : "\n", same,
                same == 1 ? "" : "s");
    cp_show_cmp_only(out, doc, "only_in_base", "only in base (missing in new)", o);
    cp_show_cmp_only(out, doc, "only_in_new", "only in new", o);
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(doc, "summary"), *s;
    fputs("\ncompare:", out);
    const char *sep = " ";
    cJSON_ArrayForEach(s, summary)
    {
        if (!cJSON_IsNumber(s))
            continue;
        fprintf(out, "%s%.0f ", sep, s->valuedouble);
        for (const char *c = s->string; c && *c; c++) /* only_in_base: only in base */
            fputc(*c == '_' ? ' ' : *c, out);
        sep = ", ";
    }
    double tolerance = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc, "tolerance"));
    if (isfinite(tolerance))
        fprintf(out, " (tolerance %g%%)", 100 * tolerance);
    fputc('\n', out);
}

/* A line per row and metric: the row's identifying columns, its status, the metric's name,
 * values, change and verdict. */
static void cp_show_cmp_csv(FILE *out, const cJSON *doc)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    int trace = rows && rows->child && !cJSON_GetObjectItemCaseSensitive(rows->child, "config");
    const char *const *id = trace ? cp_show_cmp_trace_id : cp_show_cmp_sweep_id;
    size_t nid = trace ? CP_COUNT_OF(cp_show_cmp_trace_id) : CP_COUNT_OF(cp_show_cmp_sweep_id);
    static const char *const tail[] = {"status", "metric", "base", "new", "change", "verdict"};
    cp_text_csv_line l = {out, 0};
    for (size_t i = 0; i < nid; i++)
        cp_text_csv_cell(&l, id[i]);
    for (size_t i = 0; i < CP_COUNT_OF(tail); i++)
        cp_text_csv_cell(&l, tail[i]);
    cp_text_csv_end_line(&l);
    const cJSON *row, *m;
    cJSON_ArrayForEach(row, rows)
    {
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(row, "metrics"))
        {
            for (size_t i = 0; i < nid; i++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, id[i]);
                cp_strbuf config = {0};
                if (cJSON_IsObject(v)) /* a configuration as key=value pairs */
                    cp_show_cmp_label(&config, row);
                const char *text = cJSON_IsObject(v) ? strchr(cp_strbuf_text(&config, ""), ' ')
                                                     : cJSON_GetStringValue(v);
                cp_text_csv_cell(&l, text && *text == ' ' ? text + 1 : text);
                cp_strbuf_free(&config);
            }
            cp_text_csv_cell(&l,
                             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "status")));
            for (size_t i = 1; i < CP_COUNT_OF(tail); i++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, i == 1 ? "name" : tail[i]);
                char num[40] = "";
                if (cJSON_IsNumber(v))
                    cp_strbuf_format_number(num, sizeof num, v->valuedouble);
                cp_text_csv_cell(&l, cJSON_IsString(v) ? v->valuestring : num);
            }
            cp_text_csv_end_line(&l);
        }
    }
}

int cp_show_compare(cJSON *doc, const char *path, const cp_show_options *o, FILE *out,
                    cp_status *st)
{
    static const char *const prefixes[] = {"config."};
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    double version = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc, "schema_version"));
    if (version != 1) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' is a comparison of schema_version %g, and this "
                      "coalprobe reads schema_version 1",
                      path, version);
        cp_status_hint(st, "show it with the coalprobe that wrote it");
        return CP_EXIT_USAGE;
    }
    if (o->format == CP_FORMAT_VEGALITE) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is a comparison, which has no chart", path);
        cp_status_hint(st, "draw either report: coalprobe show REPORT.json --format vega-lite");
        return CP_EXIT_USAGE;
    }
    if (o->sort)
        CP_TRY(cp_show_sort(rows, o->sort, NULL, 0, prefixes, CP_COUNT_OF(prefixes), st));
    if (o->top_given)
        cp_show_keep(rows, o->top);
    if (o->format == CP_FORMAT_JSON)
        return cp_show_print_json(out, doc, st);
    if (o->format == CP_FORMAT_CSV)
        cp_show_cmp_csv(out, doc);
    else
        cp_show_cmp_table(out, doc, o);
    return cp_report_check_stream(out, st);
}
