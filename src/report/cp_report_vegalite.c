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

/* A family's parameters in the order the x axis is chosen from: the first that varies. */
typedef enum {
    CP_VL_STRIDE,
    CP_VL_OFFSET,
    CP_VL_WIDTH,
    CP_VL_OP,
    CP_VL_FIELDS,
    CP_VL_FIELD,
    CP_VL_LAYOUT,
    CP_VL_M,
    CP_VL_N,
    CP_VL_K,
    CP_VL_VARIANT,
    CP_VL_RUN,
    CP_VL_SEED,
    CP_VL_PARAM0, /* expr: the expression's parameters, by position */
    CP_VL_PARAM1
} cp_vl_param;

static const char *const cp_vl_param_names[] = {"stride",  "offset", "width_bytes", "op", "fields",
                                                "field",   "layout", "m",           "n",  "k",
                                                "variant", "run",    "seed",        "p0", "p1"};

/* The field name of parameter p in the data: an expression's parameters go by their names. */
static const char *cp_vl_param_name(const cp_config *c, cp_vl_param p)
{
    if ((p == CP_VL_PARAM0 || p == CP_VL_PARAM1) && c->family == CP_FAMILY_EXPR) {
        const char *name = cp_expr_param_name(c->expr, (size_t)(p - CP_VL_PARAM0));
        if (name)
            return name;
    }
    return cp_vl_param_names[p];
}

static size_t cp_vl_family_params(cp_family f, cp_vl_param out[CP_VL_MAX_PARAMS])
{
    static const cp_vl_param stride[] = {CP_VL_STRIDE, CP_VL_OFFSET, CP_VL_WIDTH, CP_VL_OP};
    static const cp_vl_param layout[] = {CP_VL_FIELDS, CP_VL_FIELD, CP_VL_LAYOUT};
    static const cp_vl_param gemm[] = {CP_VL_M, CP_VL_N, CP_VL_K, CP_VL_VARIANT};
    static const cp_vl_param gather[] = {CP_VL_RUN, CP_VL_SEED};
    static const cp_vl_param smem[] = {CP_VL_STRIDE, CP_VL_WIDTH, CP_VL_OP};
    static const cp_vl_param transpose[] = {CP_VL_M, CP_VL_N, CP_VL_VARIANT};
    static const cp_vl_param expr[] = {CP_VL_PARAM0, CP_VL_PARAM1, CP_VL_WIDTH, CP_VL_OP};
    const cp_vl_param *p = f == CP_FAMILY_STRIDE      ? stride
                           : f == CP_FAMILY_LAYOUT    ? layout
                           : f == CP_FAMILY_GATHER    ? gather
                           : f == CP_FAMILY_SMEM      ? smem
                           : f == CP_FAMILY_TRANSPOSE ? transpose
                           : f == CP_FAMILY_EXPR      ? expr
                                                      : gemm;
    size_t n = f == CP_FAMILY_STRIDE || f == CP_FAMILY_EXPR ? 4
               : f == CP_FAMILY_GATHER                      ? 2
               : f == CP_FAMILY_GEMM                        ? 4
                                                            : 3;
    memcpy(out, p, n * sizeof *p);
    return n;
}

/* A parameter's value: a number, or (for names) a string with *num NAN. */
static const char *cp_vl_value(const cp_config *c, cp_vl_param p, double *num)
{
    *num = NAN;
    switch (p) {
    case CP_VL_STRIDE:
        *num = (double)c->stride;
        return NULL;
    case CP_VL_OFFSET:
        *num = (double)c->offset;
        return NULL;
    case CP_VL_WIDTH:
        *num = c->width_bytes;
        return NULL;
    case CP_VL_FIELDS:
        *num = c->fields;
        return NULL;
    case CP_VL_RUN:
        *num = (double)c->run;
        return NULL;
    case CP_VL_SEED:
        *num = (double)c->seed;
        return NULL;
    case CP_VL_FIELD:
        *num = c->field;
        return NULL;
    case CP_VL_M:
        *num = (double)c->m;
        return NULL;
    case CP_VL_N:
        *num = (double)c->n;
        return NULL;
    case CP_VL_K:
        *num = (double)c->k;
        return NULL;
    case CP_VL_OP:
        return cp_config_op_name(c->op);
    case CP_VL_LAYOUT:
        return cp_config_layout_name(c->layout);
    case CP_VL_PARAM0:
    case CP_VL_PARAM1: {
        uint32_t k = (uint32_t)(p - CP_VL_PARAM0);
        *num = k < c->nexpr_params ? (double)c->expr_params[k] : 0;
        return NULL;
    }
    default:
        return c->family == CP_FAMILY_TRANSPOSE ? cp_config_transpose_name(c->transpose)
                                                : cp_config_variant_name(c->variant);
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
    size_t n = cp_vl_family_params(r->nrows ? r->rows[0].config.family : CP_FAMILY_STRIDE, params);
    cp_vl_axes ax = {params[0], {0}, 0};
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
