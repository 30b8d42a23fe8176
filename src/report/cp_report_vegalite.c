/* cp_report_vegalite.c: a sweep report's chart as a Vega-Lite specification with the data inline,
 * built from the report's JSON rows (as coalprobe --format json writes them), so that a run and a
 * saved report give the same chart: the first swept parameter that varies on x (a named one, the
 * variant ladder, as bars in the family's order), the others as series sorted by value; a panel per
 * metric, its unit in the y axis title; the model hollow and the measurement filled. */
#include "cp_report.h"
#include "cp_report_kinds.h"
#include "cp_show.h" /* cp_show_num: a number by its dotted path */
#include "cp_report_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"

#define CP_VL_MAX_PARAMS 4 /* chart parameters: the x axis and up to 3 series parameters */
#define CP_VL_SERIES_LEN 160

/* A metric drawn in a panel of its own: its name (the datum's "panel"), the y axis title in two
 * lines (the metric, its unit), and where its predicted and measured values are in a JSON row,
 * times scale (NULL: none); not drawn for a row with a value at `unless` (NULL: always drawn). */
typedef struct cp_vl_panel {
    const char *name, *title[2];
    const char *predicted, *measured;
    double scale;
    int percent;        /* 1: 0 to 100 on the y axis */
    const char *unless; /* a row with a value here has no datum in this panel */
} cp_vl_panel;

static const cp_vl_panel cp_vl_panels[] = {
    {"global load sectors per request",
     {"global load", "sectors per request"},
     "predicted.load.sectors_per_request",
     "measured.counters.load.sectors_per_request",
     1,
     0,
     NULL},
    {"global store sectors per request",
     {"global store", "sectors per request"},
     "predicted.store.sectors_per_request",
     "measured.counters.store.sectors_per_request",
     1,
     0,
     NULL},
    {"global load efficiency (%)",
     {"global load", "efficiency (%)"},
     "predicted.load.efficiency",
     "measured.counters.load.efficiency",
     100,
     1,
     NULL},
    {"shared load wavefronts per request",
     {"shared load", "wavefronts per request"},
     "predicted.shared_load.wavefronts_per_request",
     "measured.counters.shared_load.wavefronts_per_request",
     1,
     0,
     NULL},
    {"shared store wavefronts per request",
     {"shared store", "wavefronts per request"},
     "predicted.shared_store.wavefronts_per_request",
     "measured.counters.shared_store.wavefronts_per_request",
     1,
     0,
     NULL},
    /* not for a row with an arithmetic rate (GEMM): its threads' bytes are mostly served again
     * and again by L1 (the coalesced rung: 13 TB/s, above HBM), so GFLOP/s stands for it, as in
     * the table */
    {"useful bandwidth (GB/s)",
     {"useful bandwidth", "(GB/s, read + written)"},
     NULL,
     "measured.useful_bytes_per_s",
     1e-9,
     0,
     "measured.flop_per_s"},
    {"GFLOP/s", {"arithmetic rate", "(GFLOP/s)"}, NULL, "measured.flop_per_s", 1e-9, 0, NULL},
};
#define CP_VL_NPANELS (sizeof cp_vl_panels / sizeof *cp_vl_panels)

/* A chart parameter: a config key, or (sub set) a member of the config's object under key (an
 * expression's parameter). */
typedef struct cp_vl_param {
    const char *key;
    char sub[64];              /* "" for a key of its own */
    const cp_family_field *of; /* the family's field of key (NULL: an expression's parameter) */
    int named;                 /* its first value is a string */
    char column[72]; /* its field in the data: its name, "param_NAME" for a name the data uses */
} cp_vl_param;

/* The panels of a family's own counters (cp_family_desc.counters), after cp_vl_panels: one
 * each, predicted beside measured (the model's own, predicted alone). */
#define CP_VL_PANELS_MAX (CP_VL_NPANELS + CP_FAMILY_COUNTERS_MAX)

typedef struct cp_vl_axes {
    const cp_family_desc *family;
    cp_vl_panel family_panels[CP_FAMILY_COUNTERS_MAX];
    char family_text[CP_FAMILY_COUNTERS_MAX][2][112]; /* their paths, predicted and measured */
    size_t nfamily;
    cp_vl_param x; /* x.named: x takes names: bars */
    cp_vl_param series[CP_VL_MAX_PARAMS - 1];
    size_t nseries;
} cp_vl_axes;

/* A sweep report's rows as JSON, one at a time: row i (with full 0 its pattern and config are
 * enough), *owned set to what the caller deletes (NULL when the row belongs to a document); NULL,
 * with st, when it cannot be had. */
typedef struct cp_vegalite_rows {
    size_t n;
    const cJSON *(*get)(const void *ctx, size_t i, int full, cJSON **owned, cp_status *st);
    const void *ctx;
} cp_vegalite_rows;

/* A distinct value of the series (or of x): its label and the values that sort it. */
typedef struct cp_vl_key {
    char label[CP_VL_SERIES_LEN];
    double order[CP_VL_MAX_PARAMS];
} cp_vl_key;

typedef struct cp_vl_keys {
    cp_vl_key *v;
    size_t n, cap;
} cp_vl_keys;

/* Panel p: one of cp_vl_panels, or from CP_VL_NPANELS on the family's own counters'. */
static const cp_vl_panel *cp_vl_panel_of(const cp_vl_axes *ax, size_t p)
{
    return p < CP_VL_NPANELS ? &cp_vl_panels[p] : &ax->family_panels[p - CP_VL_NPANELS];
}

/* The panels of family d's own counters into ax: "LABEL UNIT" (the model's alone predicted
 * only), their values at predicted.family_counters.KEY and measured.counters.family_counters.KEY.
 */
static void cp_vl_family_panels(const cp_family_desc *d, cp_vl_axes *ax)
{
    ax->nfamily = 0;
    for (size_t i = 0; d && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        const cp_family_counter *k = &d->counters[i];
        char(*t)[112] = ax->family_text[i];
        snprintf(t[0], sizeof t[0], "predicted.family_counters.%s", k->key);
        snprintf(t[1], sizeof t[1], "measured.counters.family_counters.%s", k->key);
        /* the datum's panel: the JSON key */
        ax->family_panels[i] =
            (cp_vl_panel){k->key, {k->label, k->unit}, t[0], k->metric ? t[1] : NULL, 1, 0, NULL};
        ax->nfamily = i + 1;
    }
}

/* ---- reading the JSON rows ---------------------------------------------------------------- */

/* The value of parameter p in a row's config: a number or a string; NULL when missing. */
static const cJSON *cp_vl_value(const cJSON *row, const cp_vl_param *p)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(row, "config"), p->key);
    return p->sub[0] ? cJSON_GetObjectItemCaseSensitive(v, p->sub) : v;
}

static int cp_vl_same(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return a->valuedouble == b->valuedouble;
    if (cJSON_IsString(a) && cJSON_IsString(b))
        return strcmp(a->valuestring, b->valuestring) == 0;
    return !a && !b;
}

/* Where a value sorts: a number by itself, a name by its place in the list of the family's field
 * that names its values (the ladder's order). */
static double cp_vl_order(const cp_vl_param *p, const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    const cp_family_field *f = p->of && p->of->kind == CP_FIELD_NAME ? p->of : NULL;
    for (size_t i = 0; cJSON_IsString(v) && f && i < f->nnames; i++)
        if (f->names[i] && strcmp(f->names[i], v->valuestring) == 0)
            return (double)i;
    return INFINITY;
}

/* ---- choosing the axes -------------------------------------------------------------------- */

/* The family's chart parameters in the order x is chosen from; an expression's parameters are
 * those of the first row's config, in their order. */
static size_t cp_vl_params(const cp_family_desc *d, const cJSON *first, cp_vl_param *out)
{
    size_t n = 0;
    for (size_t i = 0; i < CP_SHOWN_MAX && d->chart[i] && n < CP_VL_MAX_PARAMS; i++) {
        const cp_family_field *f = cp_family_field_of(d, d->chart[i]);
        if (f && f->kind == CP_FIELD_PARAMS) {
            const cJSON *sub;
            cJSON_ArrayForEach(sub,
                               cJSON_GetObjectItem(cJSON_GetObjectItem(first, "config"), f->key))
            {
                if (n < CP_VL_MAX_PARAMS && sub->string) {
                    out[n] = (cp_vl_param){f->key, "", NULL, 0, ""};
                    snprintf(out[n++].sub, sizeof out->sub, "%s", sub->string);
                }
            }
        } else if (f) {
            out[n++] = (cp_vl_param){f->key, "", f, 0, ""};
        }
    }
    static const char *const taken[] = {"series", "source", "bar", "panel", "value", "row"};
    for (size_t i = 0; i < n; i++) {
        out[i].named = cJSON_IsString(cp_vl_value(first, &out[i]));
        const char *name = out[i].sub[0] ? out[i].sub : out[i].key;
        int clash = 0;
        for (size_t t = 0; t < sizeof taken / sizeof *taken; t++)
            clash |= strcmp(name, taken[t]) == 0;
        snprintf(out[i].column, sizeof out[i].column, "%s%s", clash ? "param_" : "", name);
    }
    return n;
}

/* x: the first chart parameter that varies (the first one when none does); the series: the
 * others that vary. CP_EXIT_RUNTIME when a row cannot be read. */
static int cp_vl_axes_choose(const cp_vegalite_rows *rows, cp_vl_axes *ax, cp_status *st)
{
    cJSON *owned0;
    const cJSON *first = rows->get(rows->ctx, 0, 0, &owned0, st);
    if (!first)
        return st->code ? st->code : CP_EXIT_RUNTIME;
    cp_family family = (cp_family)0;
    const cJSON *pattern = cJSON_GetObjectItem(first, "pattern");
    if (!cJSON_IsString(pattern) || !cp_family_find(pattern->valuestring, &family)) {
        cJSON_Delete(owned0);
        return cp_status_set(st, CP_EXIT_USAGE, "row 0 has no known \"pattern\"");
    }
    cp_vl_param params[CP_VL_MAX_PARAMS];
    memset(ax, 0, sizeof *ax);
    ax->family = cp_family_get(family);
    cp_vl_family_panels(ax->family, ax);
    size_t n = cp_vl_params(ax->family, first, params);
    if (!n) {
        cJSON_Delete(owned0);
        return cp_status_set(st, CP_EXIT_USAGE, "the rows' config has none of the chart's keys");
    }
    /* which parameters vary: one pass over the rows against the first, until all do */
    int varies[CP_VL_MAX_PARAMS] = {0};
    size_t nvaried = 0;
    for (size_t i = 1; nvaried < n && i < rows->n; i++) {
        cJSON *owned;
        const cJSON *row = rows->get(rows->ctx, i, 0, &owned, st);
        for (size_t k = 0; row && k < n; k++)
            if (!varies[k] &&
                !cp_vl_same(cp_vl_value(first, &params[k]), cp_vl_value(row, &params[k]))) {
                varies[k] = 1;
                nvaried++;
            }
        cJSON_Delete(owned);
        if (!row) {
            cJSON_Delete(owned0);
            return st->code ? st->code : CP_EXIT_RUNTIME;
        }
    }
    cJSON_Delete(owned0);
    ax->x = params[0];
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (varies[i] && !found++)
            ax->x = params[i];
        else if (varies[i])
            ax->series[ax->nseries++] = params[i];
    }
    return CP_EXIT_OK;
}

/* ---- labels ------------------------------------------------------------------------------- */

static const char *cp_vl_param_name(const cp_vl_param *p)
{
    return p->sub[0] ? p->sub : p->key;
}

/* The axis title of p, with its unit (its field's title; else its name). */
static const char *cp_vl_param_title(const cp_vl_param *p)
{
    return p->of && p->of->title ? p->of->title : cp_vl_param_name(p);
}

/* The unit of p's values ("B"), NULL when they have none. */
static const char *cp_vl_param_unit(const cp_vl_param *p)
{
    return p->of ? p->of->unit : NULL;
}

/* "16 B", "smem", "3": a value as the legend shows it. */
static void cp_vl_value_label(const cp_vl_param *p, const cJSON *v, char *buf, size_t len)
{
    const char *unit = cp_vl_param_unit(p);
    if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else if (cJSON_IsNumber(v))
        snprintf(buf, len, "%.15g%s%s", v->valuedouble, unit ? " " : "", unit ? unit : "");
    else
        snprintf(buf, len, "-");
}

/* The row's series: its label, the values of the series parameters ("16 B, load"; "all" when
 * nothing else varies), and the values that sort it. */
static void cp_vl_series_key(const cJSON *row, const cp_vl_axes *ax, cp_vl_key *k)
{
    size_t used = 0;
    k->label[0] = '\0';
    for (size_t i = 0; i < ax->nseries && used < sizeof k->label; i++) {
        const cJSON *v = cp_vl_value(row, &ax->series[i]);
        char value[96];
        cp_vl_value_label(&ax->series[i], v, value, sizeof value);
        int w = snprintf(k->label + used, sizeof k->label - used, "%s%s", i ? ", " : "", value);
        used += w > 0 ? (size_t)w : 0;
        k->order[i] = cp_vl_order(&ax->series[i], v);
    }
    if (!ax->nseries)
        snprintf(k->label, sizeof k->label, "all");
}

/* Adds k to the set unless a key of the same label is there. 0 when out of memory. */
static int cp_vl_keys_add(cp_vl_keys *s, const cp_vl_key *k)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].label, k->label) == 0)
            return 1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        cp_vl_key *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return 0;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = *k;
    return 1;
}

static int cp_vl_key_cmp(const void *a, const void *b)
{
    const cp_vl_key *x = a, *y = b;
    for (size_t i = 0; i < CP_VL_MAX_PARAMS; i++)
        if (x->order[i] != y->order[i])
            return x->order[i] < y->order[i] ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* ---- the data ----------------------------------------------------------------------------- */

/* What the data holds: the sorted series and x categories, and per panel and source whether
 * it has a value. */
typedef struct cp_vl_data {
    cJSON *values;
    cp_vl_keys series, categories;
    int has[CP_VL_PANELS_MAX][2]; /* [panel][0 predicted, 1 measured] */
    double lo, hi;                /* numeric x: the least and the greatest value */
    int fractions;                /* numeric x: a value is not a whole number */
} cp_vl_data;

/* Appends {x, series, source, panel, value, row} when value is finite. 0 when out of memory. */
static int cp_vl_datum(cp_vl_data *data, const cJSON *x, const cp_vl_axes *ax, const char *series,
                       size_t panel, int measured, double value, size_t row)
{
    if (!isfinite(value))
        return 1;
    cJSON *d = cJSON_CreateObject();
    if (!d || !cJSON_AddItemToArray(data->values, d))
        return cJSON_Delete(d), 0;
    data->has[panel][measured] = 1;
    const char *source = measured ? "measured" : "predicted";
    int ok = cJSON_AddItemToObject(d, ax->x.column, x ? cJSON_Duplicate(x, 0) : cJSON_CreateNull());
    ok = ok && cJSON_AddStringToObject(d, "series", series);
    ok = ok && cJSON_AddStringToObject(d, "source", source);
    char bar[CP_VL_SERIES_LEN + 16];
    snprintf(bar, sizeof bar, "%s / %s", series, source);
    ok = ok && (!ax->x.named || cJSON_AddStringToObject(d, "bar", bar));
    ok = ok && cJSON_AddStringToObject(d, "panel", cp_vl_panel_of(ax, panel)->name);
    ok = ok && cJSON_AddNumberToObject(d, "value", value);
    return ok && cJSON_AddNumberToObject(d, "row", (double)row);
}

/* Every datum of one row, and its series and x value in the sets. 0 when out of memory. */
static int cp_vl_row(cp_vl_data *data, const cJSON *row, size_t index, const cp_vl_axes *ax)
{
    cp_vl_key series, category = {{0}, {0}};
    cp_vl_series_key(row, ax, &series);
    const cJSON *x = cp_vl_value(row, &ax->x);
    if (cJSON_IsNumber(x)) {
        data->lo = fmin(data->lo, x->valuedouble);
        data->hi = fmax(data->hi, x->valuedouble);
        data->fractions |= x->valuedouble != floor(x->valuedouble);
    }
    int ok = cp_vl_keys_add(&data->series, &series);
    if (ax->x.named) {
        cp_vl_value_label(&ax->x, x, category.label, sizeof category.label);
        category.order[0] = cp_vl_order(&ax->x, x);
        ok = ok && cp_vl_keys_add(&data->categories, &category);
    }
    for (size_t p = 0; ok && p < CP_VL_NPANELS + ax->nfamily; p++) {
        const cp_vl_panel *pn = cp_vl_panel_of(ax, p);
        if (pn->unless && isfinite(cp_show_num(row, pn->unless)))
            continue;
        ok = cp_vl_datum(data, x, ax, series.label, p, 0,
                         (pn->predicted ? cp_show_num(row, pn->predicted) : NAN) * pn->scale,
                         index) &&
             cp_vl_datum(data, x, ax, series.label, p, 1,
                         (pn->measured ? cp_show_num(row, pn->measured) : NAN) * pn->scale, index);
    }
    return ok;
}

static int cp_vl_rows_data(const cp_vegalite_rows *rows, const cp_vl_axes *ax, cp_vl_data *data,
                           cp_status *st)
{
    for (size_t i = 0; i < rows->n; i++) {
        cJSON *owned;
        const cJSON *row = rows->get(rows->ctx, i, 1, &owned, st);
        int ok = row && cp_vl_row(data, row, i, ax);
        cJSON_Delete(owned);
        if (!row)
            return st->code ? st->code : CP_EXIT_RUNTIME;
        if (!ok)
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the chart");
    }
    if (data->series.n > 1) /* (qsort must not be given a NULL array, even of none) */
        qsort(data->series.v, data->series.n, sizeof *data->series.v, cp_vl_key_cmp);
    if (data->categories.n > 1)
        qsort(data->categories.v, data->categories.n, sizeof *data->categories.v, cp_vl_key_cmp);
    return CP_EXIT_OK;
}

/* ---- the specification -------------------------------------------------------------------- */

/* A value parsed from constant JSON text under key. */
static void cp_vl_add_parsed(cp_json *j, cJSON *o, const char *key, const char *text)
{
    cJSON_AddItemToObject(o, key, cp_json_check(j, cJSON_Parse(text)));
}

/* The keys' labels in their order; with suffixes, each label once per suffix ("smem / predicted").
 */
static cJSON *cp_vl_labels(cp_json *j, const cp_vl_keys *k, const char *const *suffixes,
                           size_t nsuffixes)
{
    cJSON *a = cp_json_check(j, cJSON_CreateArray());
    char s[CP_VL_SERIES_LEN + 16];
    for (size_t i = 0; i < k->n; i++)
        for (size_t x = 0; x < (nsuffixes ? nsuffixes : 1); x++) {
            snprintf(s, sizeof s, "%s%s%s", k->v[i].label, nsuffixes ? " / " : "",
                     nsuffixes ? suffixes[x] : "");
            cJSON_AddItemToArray(a, cp_json_check(j, cJSON_CreateString(s)));
        }
    return a;
}

/* The sources that have values in any panel: "predicted", "measured" or both, in that order. */
static size_t cp_vl_sources(const cp_vl_data *data, const char *out[2])
{
    int has[2] = {0, 0};
    for (size_t p = 0; p < CP_VL_PANELS_MAX; p++)
        has[0] |= data->has[p][0], has[1] |= data->has[p][1];
    size_t n = 0;
    if (has[0])
        out[n++] = "predicted";
    if (has[1])
        out[n++] = "measured";
    return n;
}

/* The series' color (or stroke): one field with its values sorted, a legend for color only. */
static cJSON *cp_vl_color(cp_json *j, const cp_vl_axes *ax, const cp_vl_data *data, int legend)
{
    cJSON *c = cp_json_check(j, cJSON_CreateObject());
    if (data->series.n < 2) {
        cp_json_string(j, c, "value", "#4c78a8");
        return c;
    }
    cp_json_string(j, c, "field", "series");
    cp_json_string(j, c, "type", "nominal");
    cJSON_AddItemToObject(c, "sort", cp_vl_labels(j, &data->series, NULL, 0));
    char title[96] = "";
    for (size_t i = 0; i < ax->nseries; i++)
        snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s", i ? ", " : "",
                 ax->nseries == 1 ? cp_vl_param_title(&ax->series[i])
                                  : cp_vl_param_name(&ax->series[i]));
    if (legend) {
        cp_json_string(j, c, "title", title);
        cJSON *l = cp_json_object(j, c, "legend");
        cp_json_number(j, l, "labelLimit", 240);
        cp_json_number(j, l, "titleLimit", 240);
    } else
        cp_json_null(j, c, "legend");
    return c;
}

/* The source (predicted, measured) as a channel of the marks, each mapped to its value in range
 * (numbers, or names when names is set); a legend titled "source" naming the sources that have
 * values (symbol: its shape), or none. */
static cJSON *cp_vl_source(cp_json *j, const cp_vl_data *data, const double range[2],
                           const char *const *names, const char *symbol)
{
    const char *sources[2];
    size_t n = cp_vl_sources(data, sources);
    cJSON *c = cp_json_check(j, cJSON_CreateObject());
    cp_json_string(j, c, "field", "source");
    cp_json_string(j, c, "type", names ? "nominal" : "ordinal");
    cJSON *scale = cp_json_object(j, c, "scale");
    if (!names)
        cp_json_string(j, scale, "type", "ordinal");
    cp_vl_add_parsed(j, scale, "domain", "[\"predicted\",\"measured\"]");
    cJSON *values = cp_json_array(j, scale, "range");
    for (size_t s = 0; s < 2; s++)
        cJSON_AddItemToArray(values, cp_json_check(j, names ? cJSON_CreateString(names[s])
                                                            : cJSON_CreateNumber(range[s])));
    if (!symbol) {
        cp_json_null(j, c, "legend");
        return c;
    }
    cJSON *l = cp_json_check(j, cJSON_Parse("{\"title\":\"source\",\"labelLimit\":240,"
                                            "\"symbolStrokeColor\":\"#444\","
                                            "\"symbolFillColor\":\"#444\",\"labelExpr\":"
                                            "\"datum.label === 'predicted' ? 'predicted (model)' "
                                            ": 'measured (GPU)'\"}"));
    cJSON_AddItemToObject(c, "legend", l);
    if (*symbol)
        cp_json_string(j, l, "symbolType", symbol);
    cJSON *shown = cp_json_array(j, l, "values");
    for (size_t s = 0; s < n; s++)
        cJSON_AddItemToArray(shown, cp_json_check(j, cJSON_CreateString(sources[s])));
    return c;
}

/* x: the parameter's values, named ones in the family's order; sizes in bytes with K, M, G; a
 * log scale for positive numbers spanning a factor of 256 or more. */
static cJSON *cp_vl_x(cp_json *j, const cp_vl_axes *ax, const cp_vl_data *data)
{
    double lo = data->lo, hi = data->hi;
    cJSON *x = cp_json_check(j, cJSON_CreateObject());
    cp_json_string(j, x, "field", ax->x.column);
    cp_json_string(j, x, "title", cp_vl_param_title(&ax->x));
    if (ax->x.named) {
        cp_json_string(j, x, "type", "nominal");
        /* every category, one without a value too (cuBLAS is not modelled) */
        cJSON_AddItemToObject(cp_json_object(j, x, "scale"), "domain",
                              cp_vl_labels(j, &data->categories, NULL, 0));
        cJSON *axis = cp_json_object(j, x, "axis");
        cp_json_number(j, axis, "labelAngle", 0);
        return x;
    }
    cp_json_string(j, x, "type", "quantitative");
    cJSON *scale = cp_json_object(j, x, "scale");
    if (lo > 0 && hi / lo >= 256) { /* powers of 2 (sizes swept with :x2, :x4) */
        cp_json_string(j, scale, "type", "log");
        cp_json_number(j, scale, "base", 2);
    } else
        cp_json_bool(j, scale, "zero", 0);
    cp_json_bool(j, scale, "nice", 0);
    const char *unit = cp_vl_param_unit(&ax->x);
    cJSON *axis = cp_json_object(j, x, "axis");
    if (unit && hi >= 1024)
        cp_json_string(j, axis, "labelExpr",
                       "datum.value >= 1073741824 ? format(datum.value / 1073741824, '~g') + 'G' "
                       ": datum.value >= 1048576 ? format(datum.value / 1048576, '~g') + 'M' "
                       ": datum.value >= 1024 ? format(datum.value / 1024, '~g') + 'K' "
                       ": format(datum.value, '~g')");
    else
        cp_json_string(j, axis, "format", "~g");
    if (!data->fractions) /* no ticks between whole values (stages 1 and 2) */
        cp_json_number(j, axis, "tickMinStep", 1);
    return x;
}

/* A filter of the data on field == value, appended to the spec's transforms. */
static void cp_vl_filter(cp_json *j, cJSON *spec, const char *field, const char *value)
{
    cJSON *transform = cJSON_GetObjectItem(spec, "transform");
    if (!transform)
        transform = cp_json_array(j, spec, "transform");
    cJSON *filter = cp_json_object(j, cp_json_append(j, transform), "filter");
    cp_json_string(j, filter, "field", field);
    cp_json_string(j, filter, "equal", value);
}

/* The encoding every mark of a panel shares: x, y (the metric and its unit), the series' color
 * and stroke, the tooltip. */
static void cp_vl_panel_encoding(cp_json *j, cJSON *spec, const cp_vl_axes *ax,
                                 const cp_vl_data *data, const cp_vl_panel *pn)
{
    cJSON *enc = cp_json_object(j, spec, "encoding");
    cJSON_AddItemToObject(enc, "x", cp_vl_x(j, ax, data));
    cJSON *y = cp_json_object(j, enc, "y");
    cp_json_string(j, y, "field", "value");
    cp_json_string(j, y, "type", "quantitative");
    cJSON *title = cp_json_array(j, y, "title");
    for (size_t i = 0; i < 2; i++)
        cJSON_AddItemToArray(title, cp_json_check(j, cJSON_CreateString(pn->title[i])));
    if (pn->percent)
        cp_vl_add_parsed(j, cp_json_object(j, y, "scale"), "domain", "[0,100]");
    cJSON_AddItemToObject(enc, "color", cp_vl_color(j, ax, data, 1));
    cJSON *tooltip = cp_json_array(j, enc, "tooltip");
    cp_json_string(j, cp_json_append(j, tooltip), "field", ax->x.column);
    cp_json_string(j, cp_json_append(j, tooltip), "field", "series");
    cp_json_string(j, cp_json_append(j, tooltip), "field", "source");
    cJSON *value = cp_json_append(j, tooltip);
    cp_json_string(j, value, "field", "value");
    cp_json_string(j, value, "format", ".4~g");
}

/* Bars: one per row and source, the series and sources side by side in each category, the
 * model's light, the measurement's solid. */
static void cp_vl_bars(cp_json *j, cJSON *layer, const cp_vl_axes *ax, const cp_vl_data *data)
{
    cJSON *bar = cp_json_append(j, layer);
    cp_vl_add_parsed(j, bar, "mark", "{\"type\":\"bar\",\"strokeWidth\":1.5}");
    cJSON *enc = cp_json_object(j, bar, "encoding");
    cJSON *offset = cp_json_object(j, enc, "xOffset");
    cp_json_string(j, offset, "field", "bar");
    cp_json_string(j, offset, "type", "nominal");
    const char *sources[2];
    size_t n = cp_vl_sources(data, sources);
    cJSON_AddItemToObject(offset, "sort", cp_vl_labels(j, &data->series, sources, n));
    double light = n > 1 ? 0.35 : 0.85; /* the model's bars light beside the measurement's */
    cJSON_AddItemToObject(enc, "stroke", cp_vl_color(j, ax, data, 0));
    cJSON_AddItemToObject(enc, "opacity",
                          cp_vl_source(j, data, (const double[2]){light, 1}, NULL, "square"));
}

/* A line through the model's values (the measurement's in a panel without a model) and a point
 * per value: the model's hollow and larger, the measurement's filled, inside it when they agree. */
static void cp_vl_lines(cp_json *j, cJSON *layer, const cp_vl_axes *ax, const cp_vl_data *data,
                        size_t p)
{
    cJSON *line = cp_json_append(j, layer);
    cp_vl_filter(j, line, "source", data->has[p][0] ? "predicted" : "measured");
    cp_vl_add_parsed(j, line, "mark", "{\"type\":\"line\",\"strokeWidth\":1.2}");
    cJSON *points = cp_json_append(j, layer);
    cp_vl_add_parsed(j, points, "mark",
                     "{\"type\":\"point\",\"filled\":true,\"strokeWidth\":1.5,\"opacity\":1}");
    cJSON *enc = cp_json_object(j, points, "encoding");
    static const char *const shapes[2] = {"circle", "diamond"};
    cJSON_AddItemToObject(enc, "stroke", cp_vl_color(j, ax, data, 0));
    cJSON_AddItemToObject(enc, "fillOpacity",
                          cp_vl_source(j, data, (const double[2]){0, 1}, NULL, NULL));
    cJSON_AddItemToObject(enc, "size", cp_vl_source(j, data, (const double[2]){90, 40}, NULL, ""));
    cJSON_AddItemToObject(enc, "shape", cp_vl_source(j, data, NULL, shapes, ""));
}

/* Panel p: its data, encoding and marks. */
static cJSON *cp_vl_panel_spec(cp_json *j, const cp_vl_axes *ax, const cp_vl_data *data, size_t p)
{
    cJSON *spec = cp_json_check(j, cJSON_CreateObject());
    cp_json_number(j, spec, "width", 480);
    cp_json_number(j, spec, "height", ax->x.named ? 170 : 150);
    cp_vl_filter(j, spec, "panel", cp_vl_panel_of(ax, p)->name);
    cp_vl_panel_encoding(j, spec, ax, data, cp_vl_panel_of(ax, p));
    cJSON *layer = cp_json_array(j, spec, "layer");
    if (ax->x.named)
        cp_vl_bars(j, layer, ax, data);
    else
        cp_vl_lines(j, layer, ax, data, p);
    return spec;
}

/* The report's title: the command over the device (or "model only"). */
typedef struct cp_vl_header {
    const char *command;
    const char *device; /* NULL: model only */
    int incomplete;
} cp_vl_header;

void cp_report_title_command(const char *command, char *buf, size_t len)
{
    static const char *const drop[] = {"-o", "--output", "--format"};
    size_t used = 0;
    buf[0] = '\0';
    for (const char *w = command; *w && used + 1 < len;) {
        size_t n = strcspn(w, " ");
        int skip = 0;
        for (size_t i = 0; i < sizeof drop / sizeof *drop; i++) {
            size_t d = strlen(drop[i]);
            if (n == d && strncmp(w, drop[i], d) == 0)
                skip = 2; /* the option and its value */
            else if (n > d && strncmp(w, drop[i], d) == 0 && w[d] == '=')
                skip = 1;
        }
        for (int k = 0; k < skip && *w; k++) {
            w += strcspn(w, " ");
            w += strspn(w, " ");
        }
        if (skip)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? " " : "", (int)n, w);
        w += n;
        w += strspn(w, " ");
    }
}

static cJSON *cp_vl_document(cp_json *j, const cp_vl_header *h)
{
    cJSON *doc = cp_json_check(j, cJSON_CreateObject());
    cp_json_string(j, doc, "$schema", "https://vega.github.io/schema/vega-lite/v5.json");
    char subtitle[320];
    snprintf(subtitle, sizeof subtitle, "%s%s", h->device ? h->device : "model only",
             h->incomplete ? " (incomplete: the sweep was interrupted)" : "");
    cJSON *title = cp_json_object(j, doc, "title");
    char command[1024];
    cp_report_title_command(h->command ? h->command : "coalprobe", command, sizeof command);
    cp_json_string(j, title, "text", command);
    cp_json_string(j, title, "subtitle", subtitle);
    return doc;
}

/* The chart of the rows: the panels that have values, one above the other, sharing x and the
 * legends. */
static int cp_vl_write(FILE *out, const cp_vl_header *h, const cp_vegalite_rows *rows,
                       cp_status *st)
{
    cp_json j = {0};
    cJSON *doc = cp_vl_document(&j, h);
    cp_vl_axes ax;
    cp_vl_data data = {
        cp_json_check(&j, cJSON_CreateArray()), {0}, {0}, {{0}}, INFINITY, -INFINITY, 0};
    cJSON_AddItemToObject(cp_json_object(&j, doc, "data"), "values", data.values);
    int rc = rows->n ? cp_vl_axes_choose(rows, &ax, st) : CP_EXIT_OK;
    if (rc == CP_EXIT_OK && rows->n)
        rc = cp_vl_rows_data(rows, &ax, &data, st);
    cJSON *panels = cp_json_array(&j, doc, "vconcat");
    for (size_t p = 0; rc == CP_EXIT_OK && rows->n && p < CP_VL_NPANELS + ax.nfamily; p++)
        if (data.has[p][0] || data.has[p][1])
            cJSON_AddItemToArray(panels, cp_vl_panel_spec(&j, &ax, &data, p));
    if (!cJSON_GetArraySize(panels)) /* no values: an empty chart */
        cJSON_AddItemToArray(panels, cp_json_check(&j, cJSON_Parse("{\"mark\":\"point\"}")));
    cp_vl_add_parsed(&j, doc, "resolve",
                     "{\"scale\":{\"x\":\"shared\",\"xOffset\":\"shared\",\"color\":\"shared\","
                     "\"stroke\":\"shared\",\"fillOpacity\":\"shared\",\"size\":\"shared\"}}");
    free(data.series.v);
    free(data.categories.v);
    char *text = cp_json_finish(&j, doc);
    if (rc != CP_EXIT_OK) {
        cJSON_free(text);
        return rc;
    }
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the chart");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return cp_report_check_stream(out, st);
}

/* ---- the two sources of rows -------------------------------------------------------------- */

static const cJSON *cp_vl_report_row(const void *ctx, size_t i, int full, cJSON **owned,
                                     cp_status *st)
{
    const cp_report *r = ctx;
    *owned = cp_report_json_row_object(&r->rows[i], full);
    if (!*owned)
        cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while building the chart");
    return *owned;
}

int cp_report_write_vegalite(FILE *out, const cp_report *r, cp_status *st)
{
    CP_TRY(cp_report_check_report(r, st));
    cp_vl_header h = {r->command, r->device ? r->device->name : NULL, r->incomplete};
    cp_vegalite_rows rows = {r->nrows, cp_vl_report_row, r};
    return cp_vl_write(out, &h, &rows, st);
}

static const cJSON *cp_vl_doc_row(const void *ctx, size_t i, int full, cJSON **owned, cp_status *st)
{
    (void)full;
    *owned = NULL;
    const cJSON *row = cJSON_GetArrayItem(ctx, (int)i);
    if (cJSON_IsObject(row) && cJSON_IsObject(cJSON_GetObjectItem(row, "config")))
        return row;
    cp_status_set(st, CP_EXIT_USAGE, "rows[%zu] is not a row with a config", i);
    return NULL;
}

int cp_report_write_vegalite_doc(FILE *out, const cJSON *doc, cp_status *st)
{
    const cp_report_kind_desc *named = cp_report_kind_of(doc);
    if (named && named->chart)
        return named->chart(out, doc, st);
    const cJSON *rows = cJSON_GetObjectItem(doc, "rows");
    if (!cJSON_IsArray(rows))
        return cp_status_set(st, CP_EXIT_USAGE, "not a coalprobe report: it has no \"rows\"");
    const cJSON *device = cJSON_GetObjectItem(doc, "device"), *command;
    command = cJSON_GetObjectItem(doc, "command");
    const cJSON *name = cJSON_GetObjectItem(device, "name");
    cp_vl_header h = {cJSON_IsString(command) ? command->valuestring : NULL,
                      cJSON_IsString(name) ? name->valuestring : NULL,
                      cJSON_IsTrue(cJSON_GetObjectItem(doc, "incomplete"))};
    cp_vegalite_rows source = {(size_t)cJSON_GetArraySize(rows), cp_vl_doc_row, rows};
    return cp_vl_write(out, &h, &source, st);
}
