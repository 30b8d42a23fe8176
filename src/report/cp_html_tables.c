/* cp_html_tables.c: the page's tables, written from the JSON document so that the page reads
 * without scripts: a sweep's rows (the text table's columns, numbers shown as it shows them), a
 * trace's kernels and instructions, a comparison's values. Each cell keeps its JSON value in
 * data-v, for sorting and for the page's tests. */
#include "cp_html.h"
#include "cp_html_page.h"
#include "cp_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"

/* ---- looking values up -------------------------------------------------------------------- */

const cJSON *cp_html_lookup(const cJSON *o, const cJSON *row, const char *path)
{
    char key[64];
    for (const char *p = path; o && *p;) {
        size_t len = strcspn(p, ".");
        if (len >= sizeof key)
            return NULL;
        memcpy(key, p, len);
        key[len] = '\0';
        p += len + (p[len] == '.');
        char *op = strstr(key, "{op}"); /* shared_{op}: the side of the row's pattern */
        if (op) {
            const cJSON *v = row ? cp_html_lookup(row, NULL, "config.op") : NULL;
            char full[64];
            snprintf(full, sizeof full, "%.*s%s%s", (int)(op - key), key,
                     cJSON_IsString(v) ? v->valuestring : "load", op + 4);
            snprintf(key, sizeof key, "%s", full);
        }
        if (cJSON_IsArray(o))
            o = key[0] >= '0' && key[0] <= '9' ? cJSON_GetArrayItem(o, atoi(key)) : NULL;
        else
            o = cJSON_GetObjectItemCaseSensitive(o, key);
    }
    return o;
}

/* The string at path under o, "" when there is none; the number there, or, when none, or. */
static const char *cp_html_string_at(const cJSON *o, const char *path)
{
    const cJSON *v = cp_html_lookup(o, NULL, path);
    return cJSON_IsString(v) ? v->valuestring : "";
}
static double cp_html_number_at(const cJSON *o, const char *path, double or)
{
    const cJSON *v = cp_html_lookup(o, NULL, path);
    return cJSON_IsNumber(v) ? v->valuedouble : or ;
}

/* ---- one table ---------------------------------------------------------------------------- */

/* "%.17g" of v into buf[40]; a whole number under 1e15 (most cells) without printf: the same
 * digits. */
static const char *cp_html_g17(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        char *p = buf + (cp_json_digits(buf, size, (uint64_t)fabs(v)) - buf);
        if (signbit(v)) /* -0 too, as printf writes it */
            *--p = '-';
        return p;
    }
    snprintf(buf, size, "%.17g", v);
    return buf;
}

/* The cell of value v (NULL: absent) in column c. */
static void cp_html_cell(FILE *out, const cJSON *v, const cp_html_column *c)
{
    char shown[64] = "-";
    fputs("<td", out);
    if (cJSON_IsNumber(v)) {
        char g17[40];
        fputs(" data-v=\"", out);
        fputs(cp_html_g17(g17, sizeof g17, v->valuedouble), out);
        fputc('"', out);
        double x = v->valuedouble * c->scale;
        if (c->decimals == CP_HTML_BYTES && x == floor(x) && x >= 0 && x < 1e19)
            cp_sweep_format_bytes((uint64_t)x, shown, sizeof shown);
        else if (c->decimals == 0 && x == floor(x) && fabs(x) < 1e15 && isfinite(x))
            snprintf(shown, sizeof shown, "%s%s", cp_html_g17(g17, sizeof g17, x),
                     c->suffix ? c->suffix : ""); /* "%.0f" of a whole number: its digits */
        else if (c->decimals >= 0 && isfinite(v->valuedouble))
            snprintf(shown, sizeof shown, "%.*f%s", c->decimals, x, c->suffix ? c->suffix : "");
    } else if (cJSON_IsBool(v)) {
        fprintf(out, " data-v=\"%s\"", cJSON_IsTrue(v) ? "true" : "false");
        snprintf(shown, sizeof shown, "%s", cJSON_IsTrue(v) ? "yes" : "NO");
    } else if (cJSON_IsString(v)) {
        fputs(" data-v=\"", out);
        cp_html_put_text(out, v->valuestring);
        fputs("\" class=\"t\">", out);
        cp_html_put_text(out, v->valuestring);
        fputs("</td>", out);
        return;
    }
    fprintf(out, ">%s</td>", shown);
}

/* 1 when the value at path of row is not what it counts: a trace kernel whose coverage leaves
 * its excess unknown (coverage.excess_known false) has counted bytes, not its excess, so its
 * excess columns say "unknown" as the text table does, never a number (no data-v). */
static int cp_html_unknown(const cJSON *row, const char *path)
{
    static const char *const excess[] = {"excess_bytes", "excess_pct", "excess_share"};
    for (size_t i = 0; i < CP_COUNT_OF(excess); i++)
        if (!strcmp(path, excess[i]))
            return cJSON_IsFalse(cp_html_lookup(row, NULL, "coverage.excess_known"));
    return 0;
}

void cp_html_write_table(FILE *out, const char *id, const char *caption, const cJSON *rows,
                         const cp_html_column *cols, size_t ncols)
{
    fprintf(out, "<table class=\"cp-table\" id=\"%s\">\n<caption>", id);
    cp_html_put_text(out, caption);
    fputs("</caption>\n<thead><tr>", out);
    for (size_t c = 0; c < ncols; c++) {
        fprintf(out,
                "<th scope=\"col\" data-path=\"%s\" data-scale=\"%.17g\" data-decimals=\"%d\">",
                cols[c].path, cols[c].scale, cols[c].decimals);
        if (cols[c].group)
            fprintf(out, "<span class=\"g\">%s</span> ", cols[c].group);
        cp_html_put_text(out, cols[c].label);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    int i = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        fprintf(out, "<tr data-row=\"%d\">", i++);
        for (size_t c = 0; c < ncols; c++)
            if (cp_html_unknown(row, cols[c].path))
                fputs("<td class=\"t\">unknown</td>", out);
            else
                cp_html_cell(out, cp_html_lookup(row, row, cols[c].path), &cols[c]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n", out);
}

/* ---- a sweep ------------------------------------------------------------------------------ */

#define CP_HTML_PRED(label, path, scale, decimals, suffix)                                         \
    {                                                                                              \
        "predicted", label, "predicted." path, scale, decimals, suffix                             \
    }
#define CP_HTML_MEAS(label, path, scale, decimals, suffix)                                         \
    {                                                                                              \
        "measured", label, "measured." path, scale, decimals, suffix                               \
    }
#define CP_HTML_SPR(GROUP, label, path) GROUP(label, path, 1, 2, "")
#define CP_HTML_EFF(label, path) CP_HTML_PRED(label, path, 100, 1, "%")
/* A ratio per request, predicted at path or measured at counters.path. */
#define CP_HTML_PRED_SPR(label, path) CP_HTML_SPR(CP_HTML_PRED, label, path)
#define CP_HTML_MEAS_SPR(label, path) CP_HTML_SPR(CP_HTML_MEAS, label, "counters." path)
/* Quantities shown both predicted and measured, under the same label, as GROUP
 * (CP_HTML_PRED_SPR or CP_HTML_MEAS_SPR) columns, as the text table's: sectors per request of
 * global loads and stores; shared wavefronts and bank conflicts per request (smem); shared
 * wavefronts per request of the tile's store and load (transpose); the tile's load by the LSU or
 * by the TMA unit and the compute's shared loads (async). */
#define CP_HTML_SIDES(GROUP)                                                                       \
    GROUP("ld sec/req", "load.sectors_per_request"),                                               \
        GROUP("st sec/req", "store.sectors_per_request")
#define CP_HTML_SHARED(GROUP)                                                                      \
    GROUP("wavefr/req", "shared_{op}.wavefronts_per_request"),                                     \
        GROUP("confl/req", "shared_{op}.bank_conflicts_per_request")
#define CP_HTML_SHARED_SIDES(GROUP)                                                                \
    GROUP("sh.st wf/req", "shared_store.wavefronts_per_request"),                                  \
        GROUP("sh.ld wf/req", "shared_load.wavefronts_per_request")
#define CP_HTML_COPIES(GROUP)                                                                      \
    GROUP("ld sec/req", "load.sectors_per_request"),                                               \
        GROUP("tma sec/req", "tma_load.sectors_per_request"),                                      \
        GROUP("sh.ld wf/req", "shared_load.wavefronts_per_request")
#define CP_HTML_MEAS_SIDES CP_HTML_SIDES(CP_HTML_MEAS_SPR)
/* the timed launches a row took and their noise (docs/measurement.md, "Timing") */
#define CP_HTML_MEAS_LAUNCHES                                                                      \
    CP_HTML_MEAS("launches", "reps", 1, 0, ""), CP_HTML_MEAS("noise %", "noise", 100, 2, "")
#define CP_HTML_MEAS_TIME_US                                                                       \
    CP_HTML_MEAS("time us", "time_s.median", 1e6, 1, ""), CP_HTML_MEAS_LAUNCHES,                   \
        CP_HTML_MEAS("GB/s", "useful_bytes_per_s", 1e-9, 1, "")
#define CP_HTML_MEAS_DRAM CP_HTML_MEAS("DRAM GB/s", "dram_bytes_per_s", 1e-9, 1, "")
#define CP_HTML_MEAS_MATCH CP_HTML_MEAS("match", "match", 1, CP_HTML_MATCH, "")
#define CP_HTML_MEAS_SM CP_HTML_MEAS("SM act", "counters.sm_active", 100, 0, "%")

/* The columns after the parameters, by the family's cp_family_counts: the text table's. */
/* clang-format off */
static const cp_html_column cp_html_sides[] = {
    CP_HTML_PRED_SPR("ld sec/req", "load.sectors_per_request"),
    CP_HTML_EFF("ld eff", "load.efficiency"),
    CP_HTML_PRED_SPR("st sec/req", "store.sectors_per_request"),
    CP_HTML_EFF("st eff", "store.efficiency"),
    CP_HTML_MEAS_SIDES, CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
#define CP_HTML_ACCESSES(a, b, c)                                                                  \
    CP_HTML_PRED_SPR(a " sec/req", "accesses.0.sectors_per_request"),                              \
    CP_HTML_PRED_SPR(b " sec/req", "accesses.1.sectors_per_request"),                              \
    CP_HTML_PRED_SPR(c " sec/req", "accesses.2.sectors_per_request"),                              \
    CP_HTML_EFF("ld eff", "load.efficiency")
static const cp_html_column cp_html_accesses[] = {
    CP_HTML_ACCESSES("idx", "in", "out"),
    CP_HTML_MEAS_SIDES, CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
static const cp_html_column cp_html_operands[] = {
    CP_HTML_ACCESSES("A", "B", "C"),
    CP_HTML_MEAS_SIDES,
    CP_HTML_MEAS("time ms", "time_s.median", 1e3, 2, ""),
    CP_HTML_MEAS_LAUNCHES,
    CP_HTML_MEAS("GFLOP/s", "flop_per_s", 1e-9, 0, ""),
    CP_HTML_MEAS("% of cuBLAS", "pct_of_cublas", 1, 1, "%"),
    CP_HTML_MEAS("regs", "resources.registers_per_thread", 1, 0, ""),
    CP_HTML_MEAS("occ th %", "resources.theoretical_occupancy", 100, 0, ""),
    CP_HTML_MEAS("occ ach %", "counters.achieved_occupancy", 100, 0, ""),
    CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
static const cp_html_column cp_html_shared[] = {
    CP_HTML_SHARED(CP_HTML_PRED_SPR),
    CP_HTML_SHARED(CP_HTML_MEAS_SPR),
    CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_MATCH,
};
static const cp_html_column cp_html_sides_shared[] = {
    CP_HTML_SIDES(CP_HTML_PRED_SPR),
    CP_HTML_SHARED_SIDES(CP_HTML_PRED_SPR),
    CP_HTML_MEAS_SIDES,
    CP_HTML_SHARED_SIDES(CP_HTML_MEAS_SPR),
    CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
static const cp_html_column cp_html_path[] = {
    CP_HTML_PRED_SPR("ld sec/req", "load.sectors_per_request"),
    CP_HTML_EFF("ld eff", "load.efficiency"),
    CP_HTML_PRED_SPR("st sec/req", "store.sectors_per_request"),
    CP_HTML_PRED("fits (est)", "regime_estimate.level", 1, CP_HTML_TEXT, ""),
    CP_HTML_MEAS_SPR("ld sec/req", "load.sectors_per_request"),
    CP_HTML_MEAS("L1 hit", "counters.l1_load_hit_rate", 100, 0, "%"),
    CP_HTML_MEAS("L2 hit", "counters.l2_read_hit_rate", 100, 0, "%"),
    CP_HTML_MEAS_SM,
    CP_HTML_MEAS("SASS", "load_opcode", 1, CP_HTML_TEXT, ""),
    CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
static const cp_html_column cp_html_copies[] = {
    CP_HTML_COPIES(CP_HTML_PRED_SPR),
    CP_HTML_COPIES(CP_HTML_MEAS_SPR),
    CP_HTML_MEAS_SM, CP_HTML_MEAS_TIME_US, CP_HTML_MEAS_DRAM, CP_HTML_MEAS_MATCH,
};
/* after a family's own counters (CP_COUNTS_FAMILY, cp_html_family_columns) */
static const cp_html_column cp_html_family_tail[] = {
    CP_HTML_MEAS("time us", "time_s.median", 1e6, 1, ""), CP_HTML_MEAS_LAUNCHES,
    CP_HTML_MEAS_MATCH,
};
/* clang-format on */

static const struct {
    const cp_html_column *cols;
    size_t n;
} cp_html_counts_columns[] = {
    [CP_COUNTS_SIDES] = {cp_html_sides, CP_COUNT_OF(cp_html_sides)},
    [CP_COUNTS_ACCESSES] = {cp_html_accesses, CP_COUNT_OF(cp_html_accesses)},
    [CP_COUNTS_OPERANDS] = {cp_html_operands, CP_COUNT_OF(cp_html_operands)},
    [CP_COUNTS_SHARED] = {cp_html_shared, CP_COUNT_OF(cp_html_shared)},
    [CP_COUNTS_SIDES_SHARED] = {cp_html_sides_shared, CP_COUNT_OF(cp_html_sides_shared)},
    [CP_COUNTS_PATH] = {cp_html_path, CP_COUNT_OF(cp_html_path)},
    [CP_COUNTS_COPIES] = {cp_html_copies, CP_COUNT_OF(cp_html_copies)},
    [CP_COUNTS_FAMILY] = {cp_html_family_tail, CP_COUNT_OF(cp_html_family_tail)},
};

/* The columns of family d's own counters (CP_COUNTS_FAMILY), as the text table's: each
 * predicted, then each a metric measures (with `measured`), labelled "LABEL UNIT"; their paths
 * and labels in the caller's paths[] and labels[]. */
static size_t cp_html_family_columns(const cp_family_desc *d, int measured, cp_html_column *cols,
                                     char paths[][96], char labels[][64])
{
    size_t n = 0;
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
            const cp_family_counter *k = &d->counters[i];
            if (side == 1 && (!measured || !k->metric))
                continue;
            snprintf(paths[n], 96, "%s.family_counters.%s",
                     side ? "measured.counters" : "predicted", k->key);
            snprintf(labels[n], 64, "%s %s", k->label, k->unit);
            cols[n] =
                (cp_html_column){side ? "measured" : "predicted", labels[n], paths[n], 1, 0, ""};
            n++;
        }
    return n;
}

/* The family of the report's first row, NULL when it has none known. */
static const cp_family_desc *cp_html_family(const cJSON *doc)
{
    const cJSON *pattern = cp_html_lookup(doc, NULL, "rows.0.pattern");
    cp_family f;
    if (!cJSON_IsString(pattern) || !cp_family_find(pattern->valuestring, &f))
        return NULL;
    return cp_family_get(f);
}

void cp_html_add_family_keys(cJSON *meta, const cJSON *doc)
{
    const cp_family_desc *d = cp_html_family(doc);
    cJSON *table = cJSON_AddArrayToObject(meta, "table_keys");
    cJSON *chart = cJSON_AddArrayToObject(meta, "chart_keys");
    for (size_t i = 0; d && i < CP_SHOWN_MAX; i++) {
        if (d->table[i])
            cJSON_AddItemToArray(table, cJSON_CreateString(d->table[i]));
        if (d->chart[i])
            cJSON_AddItemToArray(chart, cJSON_CreateString(d->chart[i]));
    }
}

void cp_html_write_sweep_tables(FILE *out, const cJSON *doc, const cJSON *columns)
{
    (void)columns; /* a trace page's */
    const cp_family_desc *d = cp_html_family(doc);
    cp_html_column cols[CP_SHOWN_MAX + 24];
    char paths[CP_SHOWN_MAX][80];
    size_t n = 0;
    for (size_t i = 0; d && i < CP_SHOWN_MAX && d->table[i]; i++) {
        const cp_family_field *f = cp_family_field_of(d, d->table[i]);
        snprintf(paths[i], sizeof paths[i], "config.%s", d->table[i]);
        cols[n++] = (cp_html_column){NULL,
                                     f ? cp_family_field_label(f) : d->table[i],
                                     paths[i],
                                     1,
                                     !cp_family_field_number(f)  ? CP_HTML_TEXT
                                     : f->kind == CP_FIELD_BYTES ? CP_HTML_BYTES
                                                                 : 0,
                                     ""};
    }
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows"), *row;
    int measured = 0; /* a model-only report shows the predicted columns only */
    cJSON_ArrayForEach(row, rows) measured |= cJSON_IsObject(cp_html_lookup(row, NULL, "measured"));
    cp_family_counts counts = d ? d->table_counts : CP_COUNTS_SIDES;
    char family_paths[2 * CP_FAMILY_COUNTERS_MAX][96],
        family_labels[2 * CP_FAMILY_COUNTERS_MAX][64];
    if (counts == CP_COUNTS_FAMILY)
        n += cp_html_family_columns(d, measured, cols + n, family_paths, family_labels);
    for (size_t i = 0; i < cp_html_counts_columns[counts].n; i++)
        if (measured || strcmp(cp_html_counts_columns[counts].cols[i].group, "measured") != 0)
            cols[n++] = cp_html_counts_columns[counts].cols[i];
    char caption[96];
    snprintf(caption, sizeof caption, "%d configuration%s (click a header to sort)",
             cJSON_GetArraySize(rows), cJSON_GetArraySize(rows) == 1 ? "" : "s");
    cp_html_write_table(out, "cp-rows", caption, rows, cols, n);
}

/* ---- a trace ------------------------------------------------------------------------------ */

/* The columns the page's table `view` ("kernels", "instructions") shows, from the trace report's
 * columns described (cp_trace_columns_describe): in their places there, each labelled and
 * written as the description says, its value at kernel_path in a kernel and at path in an
 * instruction. Returns how many went to cols[max]. */
static size_t cp_html_trace_columns(const cJSON *columns, const char *view, cp_html_column *cols,
                                    size_t max)
{
    size_t n = 0;
    const cJSON *c;
    for (size_t place = 1; place <= max; place++) {
        size_t found = n;
        cJSON_ArrayForEach(c, columns)
        {
            const cJSON *at = cp_html_lookup(c, NULL, "at"), *p = cp_html_lookup(at, NULL, view);
            if (!cJSON_IsNumber(p) || p->valuedouble != (double)place)
                continue;
            const cJSON *type = cp_html_lookup(c, NULL, "type");
            int text = cJSON_IsString(type) && !strcmp(type->valuestring, "text");
            const cJSON *path =
                cp_html_lookup(c, NULL, strcmp(view, "kernels") ? "path" : "kernel_path");
            cols[n++] =
                (cp_html_column){NULL,
                                 cp_html_string_at(c, "label"),
                                 cJSON_IsString(path) ? path->valuestring : "",
                                 cp_html_number_at(c, "scale", 1),
                                 text ? CP_HTML_TEXT : (int)cp_html_number_at(c, "decimals", 0),
                                 cp_html_string_at(c, "suffix")};
            break;
        }
        if (n == found) /* no column in this place: the view ends */
            break;
    }
    return n;
}

void cp_html_write_trace_tables(FILE *out, const cJSON *doc, const cJSON *columns)
{
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(doc, "kernels");
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(doc, "instructions");
    cp_html_column cols[64];
    size_t n = cp_html_trace_columns(columns, "kernels", cols, CP_COUNT_OF(cols));
    cp_html_write_table(out, "cp-kernels", "kernels", kernels, cols, n);
    n = cp_html_trace_columns(columns, "instructions", cols, CP_COUNT_OF(cols));
    cp_html_write_table(out, "cp-instructions", "instructions, ranked by the bytes they waste", ins,
                        cols, n);
}

/* ---- a comparison ------------------------------------------------------------------------- */

/* What identifies a compared row: its pattern and configuration (reports), or its process,
 * kernel and place (trace reports). */
static void cp_html_compare_label(FILE *out, const cJSON *row)
{
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(row, "pattern");
    if (cJSON_IsString(pattern)) {
        cp_html_put_text(out, pattern->valuestring);
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(row, "config"))
        {
            fprintf(out, " ");
            cp_html_put_text(out, v->string);
            fputc('=', out);
            if (cJSON_IsString(v))
                cp_html_put_text(out, v->valuestring);
            else if (cJSON_IsNumber(v))
                fprintf(out, "%.17g", v->valuedouble);
        }
        return;
    }
    static const char *const keys[] = {"kernel", "where"};
    for (size_t k = 0; k < CP_COUNT_OF(keys); k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, keys[k]);
        if (cJSON_IsString(v)) {
            fputs(k ? " | " : "", out);
            cp_html_put_text(out, v->valuestring);
        }
    }
}

/* One compared value as a table row: the compared row's label, status, then the value's. */
static void cp_html_compare_metric(FILE *out, const cJSON *row, int r, const cJSON *m)
{
    static const cp_html_column cols[] = {
        {NULL, "base", "base", 1, 6, ""},
        {NULL, "new", "new", 1, 6, ""},
        {NULL, "change", "change", 100, 1, "%"},
        {NULL, "verdict", "verdict", 1, CP_HTML_TEXT, ""},
    };
    fprintf(out, "<tr data-row=\"%d\"><td class=\"t\">", r);
    cp_html_compare_label(out, row);
    fputs("</td>", out);
    cp_html_cell(out, cJSON_GetObjectItemCaseSensitive(row, "status"),
                 &(cp_html_column){NULL, "", "", 1, CP_HTML_TEXT, ""});
    cp_html_cell(out, cJSON_GetObjectItemCaseSensitive(m, "name"), &cols[3]);
    for (size_t c = 0; c < CP_COUNT_OF(cols); c++)
        cp_html_cell(out, cJSON_GetObjectItemCaseSensitive(m, cols[c].path), &cols[c]);
    fputs("</tr>\n", out);
}

void cp_html_write_compare_tables(FILE *out, const cJSON *doc, const cJSON *columns)
{
    (void)columns; /* a trace page's */
    fputs("<table class=\"cp-table\" id=\"cp-compare\">\n<caption>every compared value, base "
          "against new</caption>\n<thead><tr><th scope=\"col\">row</th><th scope=\"col\">status"
          "</th><th scope=\"col\">value</th><th scope=\"col\">base</th><th scope=\"col\">new</th>"
          "<th scope=\"col\">change</th><th scope=\"col\">verdict</th></tr></thead>\n<tbody>\n",
          out);
    int r = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(doc, "rows"))
    {
        const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(row, "metrics"), *m;
        if (cJSON_GetArraySize(metrics) == 0) { /* a row with nothing compared: its status */
            fprintf(out, "<tr data-row=\"%d\"><td class=\"t\">", r);
            cp_html_compare_label(out, row);
            fputs("</td>", out);
            cp_html_cell(out, cJSON_GetObjectItemCaseSensitive(row, "status"),
                         &(cp_html_column){NULL, "", "", 1, CP_HTML_TEXT, ""});
            fputs("<td></td><td></td><td></td><td></td><td></td></tr>\n", out);
        }
        cJSON_ArrayForEach(m, metrics) cp_html_compare_metric(out, row, r, m);
        r++;
    }
    fputs("</tbody>\n</table>\n", out);
}
