/* cp_trace_export.c: the trace report's exporter list: its formats, their writers, and the reports
 * coalprobe trace writes beside its main one (--json FILE, --csv FILE, ...): one entry each. */
#include "cp_trace.h"
#include "cp_trace_report.h"

#include "report/cp_report.h" /* the page (cp_html.h) */

/* cp_html_write_from's writer: the trace report at arg, as JSON. */
static int cp_trace_write_json_of(FILE *json, void *arg, cp_status *st)
{
    return cp_trace_write_json(json, arg, st);
}

/* cp_exporter's writer of the page: the JSON report drawn (cp_html.h), with the sources it may
 * embed. */
static int cp_trace_write_html(FILE *out, const void *report, cp_status *st)
{
    const cp_trace_report *r = report;
    cJSON *columns = cp_trace_columns_describe(); /* the page's tables and script read them */
    cp_html_options page = {.no_source = r->page_no_source, .columns = columns};
    cp_trace_line_files lines = {0};
    /* raw files recorded elsewhere: the page embeds only the sources the cubins name */
    if (r->raw_dir && !r->page_no_source) {
        if (cp_trace_line_files_read(r->trace, r->raw_dir, &lines) != 0) {
            cp_trace_line_files_free(&lines);
            cJSON_Delete(columns);
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
        }
        page.restrict_sources = 1;
        static const char *const none[1] = {NULL}; /* no cubin: nothing is named */
        page.source_files = lines.files ? (const char *const *)lines.files : none;
        page.nsource_files = lines.nfiles;
        page.source_dirs = (const char *const *)lines.dirs;
        page.nsource_dirs = lines.ndirs;
    }
    int rc = cp_html_write_from(out, cp_trace_write_json_of, (void *)r, &page, st);
    cp_trace_line_files_free(&lines);
    cJSON_Delete(columns);
    return rc;
}

/* cp_exporter's writers of the other formats: the cp_trace_report at report. */
static int cp_trace_table_of(FILE *out, const void *report, cp_status *st)
{
    return cp_trace_write_table(out, report, st);
}
static int cp_trace_json_of(FILE *out, const void *report, cp_status *st)
{
    return cp_trace_write_json(out, report, st);
}
static int cp_trace_csv_of(FILE *out, const void *report, cp_status *st)
{
    return cp_trace_write_csv(out, report, st);
}
static int cp_trace_chrome_of(FILE *out, const void *report, cp_status *st)
{
    return cp_trace_write_chrome(out, report, st);
}
static int cp_trace_vegalite_of(FILE *out, const void *report, cp_status *st)
{
    return cp_trace_write_vegalite(out, report, st);
}

/* A trace report's formats, in --help's order: --format's names, the options of those written
 * beside the main output (the table is not), and their writers. */
static const cp_exporter cp_trace_exporters[] = {
    {"table", CP_TRACE_FORMAT_TABLE, NULL, cp_trace_table_of},
    {"json", CP_TRACE_FORMAT_JSON, "the JSON report", cp_trace_json_of},
    {"csv", CP_TRACE_FORMAT_CSV, "the CSV report", cp_trace_csv_of},
    {"chrome-trace", CP_TRACE_FORMAT_CHROME, "the timeline", cp_trace_chrome_of},
    {"vega-lite", CP_TRACE_FORMAT_VEGALITE, "the Vega-Lite chart of the excess bytes",
     cp_trace_vegalite_of},
    {"html", CP_TRACE_FORMAT_HTML, "the HTML page (docs/page.md)", cp_trace_write_html},
};

const cp_exporter *cp_trace_exporter_get(size_t i)
{
    return cp_exporter_option(cp_trace_exporters, CP_COUNT_OF(cp_trace_exporters), i);
}

const cp_exporter *cp_trace_format_get(size_t i)
{
    return i < CP_COUNT_OF(cp_trace_exporters) ? &cp_trace_exporters[i] : NULL;
}

int cp_trace_write_format(FILE *out, cp_trace_format format, const cp_trace_report *r,
                          cp_status *st)
{
    const cp_exporter *e =
        cp_exporter_of(cp_trace_exporters, CP_COUNT_OF(cp_trace_exporters), (int)format);
    return (e ? e->write : cp_trace_table_of)(out, r, st); /* the table by default, as ever */
}

int cp_trace_export(FILE *out, int format, const void *report, cp_status *st)
{
    return cp_trace_write_format(out, (cp_trace_format)format, report, st);
}
