/* cp_report.c: the sweep report's exporter list (its formats, their writers, --json FILE, ...), the
 * row-by-row stream (JSON, CSV), and helpers shared by the writers. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* cp_exporter's writer of each format: the cp_report at report. */
static int cp_report_table_of(FILE *out, const void *report, cp_status *st)
{
    return cp_report_write_table(out, report, st);
}
static int cp_report_json_of(FILE *out, const void *report, cp_status *st)
{
    return cp_report_write_json(out, report, st);
}
static int cp_report_csv_of(FILE *out, const void *report, cp_status *st)
{
    return cp_report_write_csv(out, report, st);
}
static int cp_report_vegalite_of(FILE *out, const void *report, cp_status *st)
{
    return cp_report_write_vegalite(out, report, st);
}
static int cp_report_html_of(FILE *out, const void *report, cp_status *st)
{
    return cp_report_write_html(out, report, st);
}

/* A sweep report's formats, in cp_format's order: --format's names, the options of those written
 * beside the main output (the table is not), and their writers. */
static const cp_exporter cp_report_exporters[CP_FORMAT_COUNT] = {
    {"table", CP_FORMAT_TABLE, NULL, cp_report_table_of},
    {"json", CP_FORMAT_JSON, "the JSON report", cp_report_json_of},
    {"csv", CP_FORMAT_CSV, "the CSV report", cp_report_csv_of},
    {"vega-lite", CP_FORMAT_VEGALITE, "the Vega-Lite chart", cp_report_vegalite_of},
    {"html", CP_FORMAT_HTML, "the HTML page (docs/page.md)", cp_report_html_of},
};

const char *cp_report_format_name(cp_format f)
{
    const cp_exporter *e = cp_exporter_of(cp_report_exporters, CP_FORMAT_COUNT, (int)f);
    return e ? e->option : "?";
}

int cp_report_format_parse(const char *name)
{
    for (int f = 0; name && f < CP_FORMAT_COUNT; f++)
        if (strcmp(name, cp_report_exporters[f].option) == 0)
            return cp_report_exporters[f].format;
    return -1;
}

const cp_exporter *cp_report_exporter_get(size_t i)
{
    return cp_exporter_option(cp_report_exporters, CP_FORMAT_COUNT, i);
}

int cp_report_export(FILE *out, int fmt, const void *report, cp_status *st)
{
    return cp_report_write(out, (cp_format)fmt, report, st);
}

int cp_report_write(FILE *out, cp_format fmt, const cp_report *r, cp_status *st)
{
    const cp_exporter *e = cp_exporter_of(cp_report_exporters, CP_FORMAT_COUNT, (int)fmt);
    if (!e)
        return cp_status_set(st, CP_EXIT_USAGE, "unknown report format %d", (int)fmt);
    return e->write(out, r, st);
}

int cp_report_check_row(const cp_row *row, size_t index, cp_status *st)
{
    if (!cp_family_get(row->config.family))
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: report row %zu has unknown pattern family %d", index,
                             (int)row->config.family);
    if (row->predicted.naccesses > CP_MODEL_MAX_ACCESSES)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: report row %zu has %zu accesses (at most %d)", index,
                             row->predicted.naccesses, CP_MODEL_MAX_ACCESSES);
    return CP_EXIT_OK;
}

int cp_report_check_report(const cp_report *r, cp_status *st)
{
    if (!r || (r->nrows && !r->rows))
        return cp_status_set(st, CP_EXIT_RUNTIME, "internal error: report without rows");
    for (size_t i = 0; i < r->nrows; i++)
        CP_TRY(cp_report_check_row(&r->rows[i], i, st));
    return CP_EXIT_OK;
}

int cp_report_stream_begin(cp_report_stream *s, FILE *out, cp_format fmt, const cp_report *header,
                           cp_status *st)
{
    memset(s, 0, sizeof *s);
    s->out = out;
    s->format = fmt;
    s->incomplete_at = -1;
    s->incomplete = header->incomplete != 0;
    s->devices = header->ndevices > 0;
    switch (fmt) {
    case CP_FORMAT_JSON:
        return cp_report_json_begin(s, header, st);
    case CP_FORMAT_CSV:
        return cp_report_csv_begin(s, st);
    default:
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: the %s report is not written row by row",
                             cp_report_format_name(fmt));
    }
}

int cp_report_stream_row(cp_report_stream *s, const cp_row *row, cp_status *st)
{
    CP_TRY(cp_report_check_row(row, s->nrows, st));
    if (ferror(s->out)) /* a full disk: stop now, cp_report_stream_end says why */
        return cp_report_check_stream(s->out, st);
    int rc = s->format == CP_FORMAT_JSON ? cp_report_json_row(s, row, st)
                                         : cp_report_csv_row(s, row, st);
    if (rc == CP_EXIT_OK)
        s->nrows++;
    return rc;
}

int cp_report_stream_end(cp_report_stream *s, cp_status *st)
{
    if (s->format == CP_FORMAT_JSON)
        return cp_report_json_end(s, st);
    CP_TRY(cp_report_csv_end(s, st));
    return cp_report_check_stream(s->out, st);
}

int cp_report_stream_all(FILE *out, cp_format fmt, const cp_report *r, cp_status *st)
{
    CP_TRY(cp_report_check_report(r, st));
    cp_report_stream s;
    CP_TRY(cp_report_stream_begin(&s, out, fmt, r, st));
    for (size_t i = 0; i < r->nrows; i++)
        CP_TRY(cp_report_stream_row(&s, &r->rows[i], st));
    return cp_report_stream_end(&s, st);
}

const char *cp_report_get_source(const cp_row *row)
{
    return row->measured && row->measured->timed ? "measured" : "model";
}

const cp_measurement *cp_report_get_measurement(const cp_row *row, cp_measurement *scratch)
{
    if (row->measured)
        return row->measured;
    cp_measurement_clear(scratch);
    return scratch;
}

double cp_report_compute_per_request(double requests, double count)
{
    if (isnan(requests) || isnan(count) || requests == 0)
        return NAN;
    return count / requests;
}

double cp_report_compute_efficiency(double bytes_requested, double sectors)
{
    if (isnan(bytes_requested) || isnan(sectors) || sectors == 0)
        return NAN;
    return bytes_requested / (sectors * CP_SECTOR_BYTES);
}

int cp_report_compute_occupancy(const cp_resources *r, cp_occupancy *o)
{
    if (!r->known)
        return 0;
    return cp_occupancy_compute(&r->sm, r->threads_per_block, r->registers_per_thread,
                                r->static_shared_bytes + r->dynamic_shared_bytes, o);
}

int cp_report_check_stream(FILE *out, cp_status *st)
{
    errno = 0;
    if (fflush(out) == 0 && !ferror(out))
        return CP_EXIT_OK;
    int code = cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the report: %s",
                             errno ? strerror(errno) : "I/O error");
    cp_status_hint(st, "check that the output is writable and its disk is not full");
    return code;
}
