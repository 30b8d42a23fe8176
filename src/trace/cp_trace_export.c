/* cp_trace_export.c: the trace report in any of its formats, and the reports coalprobe trace
 * writes beside its main one (--json FILE, --csv FILE, --chrome-trace FILE): one entry each. */
#include "cp_trace_report.h"

#include "report/cp_report.h" /* the page (cp_html.h) */

static const cp_trace_exporter cp_trace_exporters[] = {
    {"json", CP_TRACE_FORMAT_JSON, "the JSON report"},
    {"csv", CP_TRACE_FORMAT_CSV, "the CSV report"},
    {"chrome-trace", CP_TRACE_FORMAT_CHROME, "the timeline"},
    {"vega-lite", CP_TRACE_FORMAT_VEGALITE, "the Vega-Lite chart of the excess bytes"},
    {"html", CP_TRACE_FORMAT_HTML, "the HTML page (docs/page.md)"},
};

const cp_trace_exporter *cp_trace_exporter_get(size_t i)
{
    return i < CP_COUNT_OF(cp_trace_exporters) ? &cp_trace_exporters[i] : NULL;
}

/* cp_html_write_from's writer: the trace report at arg, as JSON. */
static int cp_trace_write_json_of(FILE *json, void *arg, cp_status *st)
{
    return cp_trace_write_json(json, arg, st);
}

int cp_trace_write_format(FILE *out, cp_trace_format format, const cp_trace_report *r,
                          cp_status *st)
{
    cp_html_options page = {.no_source = r->page_no_source};
    cp_trace_line_files lines = {0};
    int rc;
    switch (format) {
    case CP_TRACE_FORMAT_HTML: /* drawn from the JSON report */
        /* raw files recorded elsewhere: the page embeds only the sources the cubins name */
        if (r->raw_dir && !r->page_no_source) {
            if (cp_trace_line_files_read(r->trace, r->raw_dir, &lines) != 0) {
                cp_trace_line_files_free(&lines);
                return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading cubins");
            }
            page.restrict_sources = 1;
            static const char *const none[1] = {NULL}; /* no cubin: nothing is named */
            page.source_files = lines.files ? (const char *const *)lines.files : none;
            page.nsource_files = lines.nfiles;
            page.source_dirs = (const char *const *)lines.dirs;
            page.nsource_dirs = lines.ndirs;
        }
        rc = cp_html_write_from(out, cp_trace_write_json_of, (void *)r, &page, st);
        cp_trace_line_files_free(&lines);
        return rc;
    case CP_TRACE_FORMAT_JSON:
        return cp_trace_write_json(out, r, st);
    case CP_TRACE_FORMAT_CSV:
        return cp_trace_write_csv(out, r, st);
    case CP_TRACE_FORMAT_CHROME:
        return cp_trace_write_chrome(out, r, st);
    case CP_TRACE_FORMAT_VEGALITE:
        return cp_trace_write_vegalite(out, r, st);
    default:
        return cp_trace_write_table(out, r, st);
    }
}

int cp_trace_export(FILE *out, int format, const void *report, cp_status *st)
{
    return cp_trace_write_format(out, (cp_trace_format)format, report, st);
}
