/* cp_report_vegalite_trace.c: a trace report's chart as a Vega-Lite specification, built from the
 * report's JSON (coalprobe trace --format json): the excess bytes of each kernel and of each ranked
 * instruction as bars in rank order, and each instruction's sectors (or shared wavefronts) per
 * request, measured against the ideal. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A panel: its title (the x axis's, with the unit), the list it draws, and the fields of its
 * measured and ideal values in an element of it (ideal NULL: bars of the measured value). */
typedef struct cp_vlt_panel {
    const char *title, *list, *measured, *ideal;
} cp_vlt_panel;

static const cp_vlt_panel cp_vlt_panels[] = {
    {"excess bytes by kernel (B beyond the ideal sectors)", "kernels", "excess_bytes", NULL},
    {"excess bytes by instruction (B beyond the ideal sectors)", "instructions", "excess_bytes",
     NULL},
    {"global sectors per request", "instructions", "sectors_per_request",
     "ideal_sectors_per_request"},
    {"shared wavefronts per request", "instructions", "wavefronts_per_request",
     "ideal_wavefronts_per_request"},
};
#define CP_VLT_NPANELS (sizeof cp_vlt_panels / sizeof *cp_vlt_panels)

/* An element's label on the y axis: a kernel's name ("#INDEX" after it when the name came
 * before), an instruction's "#RANK file:line kind" (the kernel and the PC without a line). */
static void cp_vlt_label(const cJSON *list, const cJSON *o, int instruction, char *buf, size_t len)
{
    if (!instruction) { /* the name without its parameters */
        const char *name = cp_show_str(o, "name");
        name = name ? name : cp_show_str(o, "function");
        name = name ? name : "?";
        int n = (int)strcspn(name, "("), repeated = 0;
        for (const cJSON *e = list ? list->child : NULL; e && e != o; e = e->next) {
            const char *other = cp_show_str(e, "name");
            other = other ? other : cp_show_str(e, "function");
            repeated |= other && (int)strcspn(other, "(") == n && strncmp(other, name, n) == 0;
        }
        snprintf(buf, len, repeated ? "%.*s #%.0f" : "%.*s", n, name, cp_show_num(o, "index"));
        return;
    }
    const char *file = cp_show_str(o, "file"), *kind = cp_show_str(o, "kind");
    const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char where[256];
    if (base)
        snprintf(where, sizeof where, "%s:%.0f", base, cp_show_num(o, "line"));
    else {
        const char *kernel = cp_show_str(o, "kernel");
        int n = kernel ? (int)strcspn(kernel, "(") : 1;
        snprintf(where, sizeof where, "%.*s+0x%llx", n, kernel ? kernel : "?",
                 (unsigned long long)cp_show_num(o, "pc"));
    }
    double rank = cp_show_num(o, "rank");
    char rank_text[32] = "-";
    if (isfinite(rank))
        snprintf(rank_text, sizeof rank_text, "#%.0f", rank);
    snprintf(buf, len, "%s %s %s", rank_text, where, kind ? kind : "-");
}

/* Appends {panel, label, kind, source, value, row} when value is finite. 0 when out of memory. */
static int cp_vlt_datum(cp_json *j, cJSON *values, const char *panel, const char *label,
                        const char *kind, const char *source, double value, size_t row)
{
    if (!isfinite(value))
        return 1;
    cJSON *d = cp_json_append(j, values);
    cp_json_string(j, d, "panel", panel);
    cp_json_string(j, d, "label", label);
    cp_json_string(j, d, "kind", kind ? kind : "kernel");
    cp_json_string(j, d, "source", source);
    cp_json_number(j, d, "value", value);
    cp_json_number(j, d, "row", (double)row);
    return !j->failed;
}

/* The data of panel p; the labels it has, in the list's order, into labels. The panel's data
 * count in *n. */
static void cp_vlt_panel_data(cp_json *j, const cJSON *doc, size_t p, cJSON *values, cJSON *labels,
                              size_t *n)
{
    const cp_vlt_panel *pn = &cp_vlt_panels[p];
    const cJSON *list = cJSON_GetObjectItem(doc, pn->list), *o;
    int instruction = strcmp(pn->list, "instructions") == 0;
    size_t row = 0;
    *n = 0;
    cJSON_ArrayForEach(o, list)
    {
        char label[320];
        cp_vlt_label(list, o, instruction, label, sizeof label);
        const char *kind = instruction ? cp_show_str(o, "kind") : NULL;
        double measured = cp_show_num(o, pn->measured);
        double ideal = pn->ideal ? cp_show_num(o, pn->ideal) : NAN;
        if (isfinite(measured) || isfinite(ideal)) {
            cJSON_AddItemToArray(labels, cp_json_check(j, cJSON_CreateString(label)));
            cp_vlt_datum(j, values, pn->title, label, kind, "measured", measured, row);
            cp_vlt_datum(j, values, pn->title, label, kind, "ideal", ideal, row);
            ++*n;
        }
        row++;
    }
}

/* The source (ideal, measured) as channel of the points: ideal larger, hollow and round, the
 * measurement filled and diamond-shaped; the legend on shape and size. */
static cJSON *cp_vlt_source(cp_json *j, const char *channel)
{
    char text[512];
    int shape = strcmp(channel, "shape") == 0;
    snprintf(text, sizeof text,
             "{\"field\":\"source\",\"type\":\"%s\",\"scale\":{%s\"domain\":[\"ideal\","
             "\"measured\"],\"range\":%s},\"legend\":%s}",
             shape ? "nominal" : "ordinal", shape ? "" : "\"type\":\"ordinal\",",
             shape                          ? "[\"circle\",\"diamond\"]"
             : strcmp(channel, "size") == 0 ? "[90,40]"
                                            : "[0,1]",
             strcmp(channel, "fillOpacity") == 0
                 ? "null"
                 : "{\"title\":\"source\",\"labelLimit\":240,\"symbolStrokeColor\":\"#444\","
                   "\"symbolFillColor\":"
                   "\"#444\",\"labelExpr\":\"datum.label === 'ideal' ? 'ideal (the fewest "
                   "possible)' : 'measured (GPU)'\"}");
    return cp_json_check(j, cJSON_Parse(text));
}

/* The points of a panel of ideal against measured. */
static void cp_vlt_points(cp_json *j, cJSON *spec, cJSON *enc, int instruction)
{
    cJSON_AddItemToObject(
        spec, "mark",
        cp_json_check(j, cJSON_Parse("{\"type\":\"point\",\"filled\":true,\"strokeWidth\":1.5,"
                                     "\"opacity\":1}")));
    cJSON_AddItemToObject(enc, "stroke",
                          cp_json_check(j, cJSON_Parse(instruction ? "{\"field\":\"kind\",\"type\":"
                                                                     "\"nominal\",\"legend\":null}"
                                                                   : "{\"value\":\"#4c78a8\"}")));
    static const char *const channels[] = {"fillOpacity", "size", "shape"};
    for (size_t i = 0; i < sizeof channels / sizeof *channels; i++)
        cJSON_AddItemToObject(enc, channels[i], cp_vlt_source(j, channels[i]));
}

/* Panel p: bars of the measured value by element, or the ideal (hollow) and measured (filled)
 * points; the elements on y in the list's (the rank's) order. */
static cJSON *cp_vlt_panel_spec(cp_json *j, size_t p, cJSON *labels, int instruction)
{
    const cp_vlt_panel *pn = &cp_vlt_panels[p];
    cJSON *s = cp_json_check(j, cJSON_CreateObject());
    cp_json_number(j, s, "width", 420);
    cJSON *height = cp_json_object(j, s, "height");
    cp_json_number(j, height, "step", pn->ideal ? 16 : 18);
    cJSON *filter =
        cp_json_object(j, cp_json_append(j, cp_json_array(j, s, "transform")), "filter");
    cp_json_string(j, filter, "field", "panel");
    cp_json_string(j, filter, "equal", pn->title);
    cJSON *enc = cp_json_object(j, s, "encoding");
    cJSON *y = cp_json_object(j, enc, "y");
    cp_json_string(j, y, "field", "label");
    cp_json_string(j, y, "type", "nominal");
    cp_json_string(j, y, "title", instruction ? "instruction" : "kernel");
    cJSON_AddItemToObject(y, "sort", labels);
    cJSON_AddItemToObject(cp_json_object(j, y, "axis"), "labelLimit",
                          cp_json_check(j, cJSON_CreateNumber(320)));
    cJSON *x = cp_json_object(j, enc, "x");
    cp_json_string(j, x, "field", "value");
    cp_json_string(j, x, "type", "quantitative");
    cp_json_string(j, x, "title", pn->title);
    cp_json_string(j, cp_json_object(j, x, "axis"), "format", pn->ideal ? "~g" : "~s");
    cJSON_AddItemToObject(
        enc, "color",
        cp_json_check(j, cJSON_Parse(instruction ? "{\"field\":\"kind\",\"type\":\"nominal\","
                                                   "\"title\":\"kind\"}"
                                                 : "{\"value\":\"#4c78a8\"}")));
    cJSON_AddItemToObject(
        enc, "tooltip",
        cp_json_check(j, cJSON_Parse("[{\"field\":\"label\"},{\"field\":\"source\"},"
                                     "{\"field\":\"value\",\"format\":\",.4~g\"}]")));
    if (pn->ideal)
        cp_vlt_points(j, s, enc, instruction);
    else
        cp_json_string(j, s, "mark", "bar");
    return s;
}

int cp_report_write_vegalite_trace(FILE *out, const cJSON *doc, cp_status *st)
{
    cp_json j = {0};
    cJSON *spec = cp_json_check(&j, cJSON_CreateObject());
    cp_json_string(&j, spec, "$schema", "https://vega.github.io/schema/vega-lite/v5.json");
    cJSON *title = cp_json_object(&j, spec, "title");
    const char *command = cp_show_str(doc, "command");
    char shown[1024];
    cp_report_title_command(command ? command : "coalprobe trace", shown, sizeof shown);
    cp_json_string(&j, title, "text", shown);
    cp_json_string(&j, title, "subtitle",
                   cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete"))
                       ? "trace (incomplete: see the report's incomplete_reason)"
                       : "trace: bytes moved beyond the ideal, measured");
    cJSON *values = cp_json_array(&j, cp_json_object(&j, spec, "data"), "values");
    cJSON *panels = cp_json_array(&j, spec, "vconcat");
    for (size_t p = 0; p < CP_VLT_NPANELS; p++) {
        cJSON *labels = cp_json_check(&j, cJSON_CreateArray());
        size_t n;
        cp_vlt_panel_data(&j, doc, p, values, labels, &n);
        if (n)
            cJSON_AddItemToArray(panels,
                                 cp_vlt_panel_spec(&j, p, labels, cp_vlt_panels[p].list[0] == 'i'));
        else
            cJSON_Delete(labels);
    }
    if (!cJSON_GetArraySize(panels)) /* nothing counted: an empty chart */
        cJSON_AddItemToArray(panels, cp_json_check(&j, cJSON_Parse("{\"mark\":\"bar\"}")));
    cJSON_AddItemToObject(spec, "resolve",
                          cp_json_check(&j, cJSON_Parse("{\"scale\":{\"color\":\"shared\"}}")));
    char *text = cp_json_finish(&j, spec);
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the chart: %s", cp_json_why(&j));
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return cp_report_check_stream(out, st);
}
