/* cp_report_vegalite.c: the report as a Vega-Lite specification with the data inline: the swept
 * parameter on x; sectors per request, efficiency and bandwidth on y, one panel each; predicted
 * as lines, measured as points. Any Vega-Lite renderer draws it. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/cp_model.h"

#define CP_VL_MAX_PARAMS 4

/* A parameter the x axis may show: a field of the family's descriptor (an expression's
 * parameters one by one, by position k). */
typedef struct cp_vl_param {
    const cp_family_field *field;
    uint32_t k;
} cp_vl_param;

/* The field name of parameter p in the data: an expression's parameters go by their names. */
static const char *cp_vl_param_name(const cp_config *c, cp_vl_param p)
{
    static const char *const positional[] = {"p0", "p1"};
    if (p.field->kind == CP_FIELD_PARAMS) {
        const char *name = cp_expr_param_name(c->expr, p.k);
        return name ? name : positional[p.k];
    }
    return p.field->key;
}

/* The family's chart parameters in the order the x axis is chosen from: the first that varies
 * (an expression's first two parameters in the place of its parameters). */
static size_t cp_vl_family_params(const cp_family_desc *d, cp_vl_param out[CP_VL_MAX_PARAMS])
{
    size_t n = 0;
    for (size_t i = 0; i < CP_SHOWN_MAX && d->chart[i]; i++) {
        const cp_family_field *f = cp_family_field_of(d, d->chart[i]);
        for (uint32_t k = 0; k < (f->kind == CP_FIELD_PARAMS ? 2u : 1u) && n < CP_VL_MAX_PARAMS;
             k++)
            out[n++] = (cp_vl_param){f, k};
    }
    return n;
}

/* A parameter's value: a number, or (for names) a string with *num NAN. */
static const char *cp_vl_value(const cp_config *c, cp_vl_param p, double *num)
{
    *num = NAN;
    switch (p.field->kind) {
    case CP_FIELD_NAME:
        return cp_family_field_name(p.field, c);
    case CP_FIELD_PARAMS:
        *num = p.k < c->nexpr_params ? (double)c->expr_params[p.k] : 0;
        return NULL;
    case CP_FIELD_INDEX:
        return c->expr ? cp_expr_text(c->expr) : "?";
    default:
        *num = (double)p.field->get(c);
        return NULL;
    }
}

static int cp_vl_same(const cp_config *a, const cp_config *b, cp_vl_param p)
{
    double x, y;
    const char *s = cp_vl_value(a, p, &x), *t = cp_vl_value(b, p, &y);
    return s ? strcmp(s, t) == 0 : x == y;
}

/* Whether parameter p takes more than one value over the rows. */
static int cp_vl_varies(const cp_report *r, cp_vl_param p)
{
    for (size_t i = 1; i < r->nrows; i++)
        if (!cp_vl_same(&r->rows[0].config, &r->rows[i].config, p))
            return 1;
    return 0;
}

typedef struct cp_vl_axes {
    cp_vl_param x;
    cp_vl_param series[CP_VL_MAX_PARAMS]; /* the other parameters that vary */
    size_t nseries;
} cp_vl_axes;

static cp_vl_axes cp_vl_choose_axes(const cp_report *r)
{
    cp_vl_param params[CP_VL_MAX_PARAMS];
    /* no rows: the first family's (stride's) parameters */
    size_t n = cp_vl_family_params(cp_family_get(r->nrows ? r->rows[0].config.family : 0), params);
    cp_vl_axes ax = {params[0], {{0}}, 0};
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cp_vl_varies(r, params[i]))
            continue;
        if (!found++)
            ax.x = params[i];
        else
            ax.series[ax.nseries++] = params[i];
    }
    return ax;
}

/* The series label of a row, e.g. "width_bytes=16 op=load" ("all" when nothing else varies). */
static void cp_vl_series(const cp_config *c, const cp_vl_axes *ax, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ax->nseries && used < len; i++) {
        double num;
        const char *s = cp_vl_value(c, ax->series[i], &num);
        int n = s ? snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "",
                             cp_vl_param_name(c, ax->series[i]), s)
                  : snprintf(buf + used, len - used, "%s%s=%.15g", i ? " " : "",
                             cp_vl_param_name(c, ax->series[i]), num);
        used += n > 0 ? (size_t)n : 0;
    }
    if (!buf[0])
        snprintf(buf, len, "all");
}

/* Appends one datum {x, series, panel, source, value} when value is finite. */
static int cp_vl_datum(cJSON *values, const cp_config *c, const cp_vl_axes *ax, const char *series,
                       const char *panel, const char *source, double value)
{
    if (!isfinite(value))
        return 1;
    cJSON *d = cJSON_CreateObject();
    if (!d || !cJSON_AddItemToArray(values, d))
        return cJSON_Delete(d), 0;
    double num;
    const char *s = cp_vl_value(c, ax->x, &num);
    int ok = (s ? cJSON_AddStringToObject(d, cp_vl_param_name(c, ax->x), s)
                : cJSON_AddNumberToObject(d, cp_vl_param_name(c, ax->x), num)) != NULL;
    ok = ok && cJSON_AddStringToObject(d, "series", series);
    ok = ok && cJSON_AddStringToObject(d, "panel", panel);
    ok = ok && cJSON_AddStringToObject(d, "source", source);
    ok = ok && cJSON_AddNumberToObject(d, "value", value);
    return ok;
}

static const char *const cp_vl_panels[] = {
    "load sectors per request",
    "store sectors per request",
    "load efficiency",
    "useful bandwidth (GB/s)",
    "GFLOP/s",
    "shared load wavefronts per request",
    "shared store wavefronts per request",
};

/* Every datum of one row: predicted beside measured for each panel. */
static int cp_vl_row(cJSON *values, const cp_row *row, const cp_vl_axes *ax)
{
    char series[160];
    cp_vl_series(&row->config, ax, series, sizeof series);
    const cp_prediction *p = &row->predicted;
    cp_measurement scratch;
    const cp_measurement *m = cp_report_get_measurement(row, &scratch);
    const cp_counter_values *v = &m->counters;
    const double nan = NAN;
    int shared = p->modelled && p->shared_modelled;
    const double pred[] = {p->modelled ? cp_counts_sectors_per_request(&p->load) : nan,
                           p->modelled ? cp_counts_sectors_per_request(&p->store) : nan,
                           p->modelled ? cp_counts_efficiency(&p->load) : nan,
                           nan,
                           nan,
                           shared ? cp_counts_wavefronts_per_request(&p->shared_load) : nan,
                           shared ? cp_counts_wavefronts_per_request(&p->shared_store) : nan};
    const double meas[] = {
        cp_report_compute_per_request(v->load_requests, v->load_sectors),
        cp_report_compute_per_request(v->store_requests, v->store_sectors),
        cp_report_compute_efficiency(v->load_bytes_requested, v->load_sectors),
        m->useful_bytes_per_s * 1e-9,
        m->flop_per_s * 1e-9,
        cp_report_compute_per_request(v->shared_load_requests, v->shared_load_wavefronts),
        cp_report_compute_per_request(v->shared_store_requests, v->shared_store_wavefronts)};
    int ok = 1;
    for (size_t k = 0; k < sizeof cp_vl_panels / sizeof *cp_vl_panels; k++) {
        ok = ok &&
             cp_vl_datum(values, &row->config, ax, series, cp_vl_panels[k], "predicted", pred[k]);
        ok = ok &&
             cp_vl_datum(values, &row->config, ax, series, cp_vl_panels[k], "measured", meas[k]);
    }
    return ok;
}

/* {"transform": [filter source], "mark": ..., "encoding": {x, y, color, tooltip}} */
static cJSON *cp_vl_layer(const cp_vl_axes *ax, const cp_config *first, int quantitative_x,
                          const char *source)
{
    char spec[1024];
    const char *x = cp_vl_param_name(first, ax->x);
    int predicted = strcmp(source, "predicted") == 0;
    snprintf(spec, sizeof spec,
             "{\"transform\":[{\"filter\":\"datum.source === '%s'\"}],"
             "\"mark\":%s,"
             "\"encoding\":{\"x\":{\"field\":\"%s\",\"type\":\"%s\"},"
             "\"y\":{\"field\":\"value\",\"type\":\"quantitative\",\"title\":null},"
             "\"color\":{\"field\":\"series\",\"type\":\"nominal\"},"
             "\"tooltip\":[{\"field\":\"%s\"},{\"field\":\"series\"},{\"field\":\"source\"},"
             "{\"field\":\"value\",\"format\":\".4~g\"}]}}",
             source,
             predicted ? "{\"type\":\"line\",\"point\":{\"filled\":false}}"
                       : "{\"type\":\"point\",\"filled\":true,\"size\":60}",
             x, quantitative_x ? "quantitative" : "nominal", x);
    return cJSON_Parse(spec);
}

int cp_report_write_vegalite(FILE *out, const cp_report *r, cp_status *st)
{
    CP_TRY(cp_report_check_report(r, st));
    cp_vl_axes ax = cp_vl_choose_axes(r);
    double num = NAN;
    int quantitative_x = r->nrows && !cp_vl_value(&r->rows[0].config, ax.x, &num);
    cJSON *doc = cJSON_CreateObject();
    cJSON *values = cJSON_CreateArray();
    int ok = doc && values;
    ok = ok &&
         cJSON_AddStringToObject(doc, "$schema", "https://vega.github.io/schema/vega-lite/v5.json");
    char subtitle[320];
    snprintf(subtitle, sizeof subtitle, "%s%s", r->device ? r->device->name : "model only",
             r->incomplete ? " (incomplete: the sweep was interrupted)" : "");
    cJSON *title = cJSON_CreateObject();
    ok = ok && title && cJSON_AddItemToObject(doc, "title", title);
    ok = ok && cJSON_AddStringToObject(title, "text", r->command ? r->command : "coalprobe");
    ok = ok && cJSON_AddStringToObject(title, "subtitle", subtitle);
    for (size_t i = 0; ok && i < r->nrows; i++)
        ok = cp_vl_row(values, &r->rows[i], &ax);
    cJSON *data = cJSON_CreateObject();
    ok = ok && data && cJSON_AddItemToObject(doc, "data", data);
    ok = ok && cJSON_AddItemToObject(data, "values", values);
    if (!ok && values && (!data || !cJSON_GetObjectItem(data, "values")))
        cJSON_Delete(values);
    cJSON *facet = cJSON_Parse("{\"row\":{\"field\":\"panel\",\"type\":\"nominal\",\"title\":null,"
                               "\"sort\":[\"load sectors per request\",\"store sectors per "
                               "request\",\"load efficiency\",\"useful bandwidth (GB/s)\","
                               "\"GFLOP/s\",\"shared load wavefronts per request\","
                               "\"shared store wavefronts per request\"]}}");
    ok = ok && facet && cJSON_AddItemToObject(doc, "facet", facet);
    cJSON *resolve = cJSON_Parse("{\"scale\":{\"y\":\"independent\"}}");
    ok = ok && resolve && cJSON_AddItemToObject(doc, "resolve", resolve);
    cJSON *spec = cJSON_CreateObject(), *layer = cJSON_CreateArray();
    ok = ok && spec && cJSON_AddItemToObject(doc, "spec", spec);
    ok = ok && cJSON_AddNumberToObject(spec, "width", 480);
    ok = ok && cJSON_AddNumberToObject(spec, "height", 160);
    ok = ok && layer && cJSON_AddItemToObject(spec, "layer", layer);
    const cp_config *first = r->nrows ? &r->rows[0].config : NULL;
    cJSON *pl = ok && first ? cp_vl_layer(&ax, first, quantitative_x, "predicted") : NULL;
    ok = ok && pl && cJSON_AddItemToArray(layer, pl);
    cJSON *ml = ok && first ? cp_vl_layer(&ax, first, quantitative_x, "measured") : NULL;
    ok = ok && ml && cJSON_AddItemToArray(layer, ml);
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "out of memory while building the Vega-Lite spec");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return cp_report_check_stream(out, st);
}
