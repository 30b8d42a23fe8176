/* cp_report.h: a run's results (one row per configuration: predicted beside measured) and
 * the writers that print them as a table, JSON or CSV. The report layer's face: it also brings
 * --explain (cp_explain.h), coalprobe compare (cp_compare.h) and coalprobe show (cp_show.h). */
#ifndef CP_REPORT_H
#define CP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "measure/cp_measure.h"
#include "base/cp_base.h"
#include "cp_compare.h"
#include "cp_explain.h"
#include "cp_html.h"
#include "cp_json.h"
#include "cp_json_read.h"
#include "cp_show.h"

#define CP_REPORT_SCHEMA_VERSION 1

typedef enum {
    CP_FORMAT_TABLE,
    CP_FORMAT_JSON,
    CP_FORMAT_CSV,
    CP_FORMAT_VEGALITE,
    CP_FORMAT_HTML,
    CP_FORMAT_COUNT
} cp_format;

/* One configuration's row. measured is NULL until the configuration was measured. */
typedef struct cp_row {
    cp_config config;
    cp_prediction predicted;
    const cp_measurement *measured;
    /* a run over several GPUs (--devices): the GPU that measured the row or was to (NULL in a
     * run over one), and why that GPU failed before the row was measured (NULL when it did
     * not); with --check, the same configuration timed on the other GPUs: their median time
     * (the median of their medians) and whether it differs from this row's beyond the noise of
     * both (other_checked 0: not timed elsewhere) */
    const cp_device_info *device;
    const char *failed;
    int other_checked;
    double other_median_s;
    int other_differs;
} cp_row;

/* How the table is laid out for its reader (the other formats ignore it). */
typedef struct cp_report_view {
    /* the most characters a line of the table takes (a terminal's width, 100 elsewhere): the
     * least telling columns are left out to fit, and a line under the table names them; 0: no
     * limit. A family's parameter columns are never left out. */
    size_t width;
    int wide;  /* --wide: every column, none left out (not even those empty in every row) */
    int color; /* colour the verdicts (match yes, NO) and the notes (ANSI escapes) */
} cp_report_view;

/* A whole report. The report does not own what it points to. */
typedef struct cp_report {
    const char *tool_version;     /* e.g. "0.1.0" */
    const char *command;          /* the command line, words joined by spaces */
    const cp_device_info *device; /* NULL when no GPU was used */
    /* a run over several GPUs: each one (device is the first); mixed_devices: of different
     * kinds (--mixed), so that each row's numbers belong to its own GPU */
    const cp_device_info *devices;
    size_t ndevices;
    int mixed_devices;
    /* the stopping rule of the timed launches (or --reps) the rows were measured under; NULL
     * when nothing was measured */
    const cp_sampling *sampling;
    const cp_row *rows;
    size_t nrows;
    int incomplete; /* 1 when the sweep was interrupted */
    /* the table's layout; NULL: every column, as wide as it takes (as --wide). Without --wide a
     * column that shows nothing in any row ("-": a model-only run's measured columns) is left
     * out. */
    const cp_report_view *view;
} cp_report;

/* The reports a run writes beside its main one, an option each (--json FILE, ...; the command
 * line offers one per entry, cp_exports.h writes them): the entries of the sweep's exporter list
 * (cp_report.c, the one list of its formats) that have an option. A new format is one more entry
 * there. */
/* Exporter i, NULL past the last. */
const cp_exporter *cp_report_exporter_get(size_t i);

/* cp_report_write of the cp_report `report` in format fmt (a cp_format): a cp_exports_writer. */
int cp_report_export(FILE *out, int fmt, const void *report, cp_status *st);

/* Name of a format ("table", "json", "csv", "vega-lite", "html") and the reverse look-up (-1 if
 * unknown). */
const char *cp_report_format_name(cp_format f);
int cp_report_format_parse(const char *name);

/* Writes the report in the given format to out. */
int cp_report_write(FILE *out, cp_format fmt, const cp_report *r, cp_status *st);

/* The writers behind cp_report_write, one per file. */
int cp_report_write_table(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_json(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_csv(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_vegalite(FILE *out, const cp_report *r, cp_status *st);
/* The page (cp_html.h) of the JSON report of r. */
int cp_report_write_html(FILE *out, const cp_report *r, cp_status *st);

/* The chart of a report in its JSON form (docs/json.md): a sweep report, or a trace report ("kind":
 * "trace"), as the writers above draw it, from a saved report as from a run (cp_report_vegalite.c;
 * docs/plots.md). CP_EXIT_USAGE when doc is neither. */
int cp_report_write_vegalite_doc(FILE *out, const cJSON *doc, cp_status *st);

/* The chart of a trace report's JSON document (cp_report_vegalite_trace.c). */
int cp_report_write_vegalite_trace(FILE *out, const cJSON *doc, cp_status *st);

/* A report written row by row (JSON and CSV), so that memory stays flat however many rows:
 * begin writes the header (JSON: everything before the first row, the header's `incomplete`
 * flag included, taken from header->incomplete; CSV: the line of column names, written with the
 * first row, whose family's fields are the configuration's columns), each row call
 * writes one row and frees what it built, end closes the document. The bytes are those
 * cp_report_write prints for the same rows (it is built on this). header->rows is not read. */
typedef struct cp_report_stream {
    FILE *out;
    cp_format format;
    size_t nrows;            /* rows written so far */
    long long incomplete_at; /* JSON: byte offset, from the stream's first byte, of the
                              * header's `incomplete` value ("false" or "true"); -1 otherwise */
    int incomplete;          /* the value begin wrote */
    int devices;             /* a run over several GPUs: CSV adds each row's GPU columns */
    /* CSV: the family whose fields are the configuration's columns (after "pattern"), the first
     * row's, and whether the line of column names is written (before the first row, or by end
     * when there is none) */
    const cp_family_desc *csv_family;
    int csv_header;
} cp_report_stream;

/* Starts a report in fmt (CP_FORMAT_JSON or CP_FORMAT_CSV; others are CP_EXIT_RUNTIME). */
int cp_report_stream_begin(cp_report_stream *s, FILE *out, cp_format fmt, const cp_report *header,
                           cp_status *st);
/* Writes one row (checked as cp_report_write checks every row). */
int cp_report_stream_row(cp_report_stream *s, const cp_row *row, cp_status *st);
/* Ends the document and flushes it; a write that failed at any point is CP_EXIT_RUNTIME. */
int cp_report_stream_end(cp_report_stream *s, cp_status *st);

/* Turns the `incomplete: false` of a finished JSON stream into `true` in the regular file at
 * path, which holds the stream from its first byte (the file is rewritten from that flag on,
 * one byte shorter), so that the file equals what cp_report_write prints for the same rows
 * with incomplete set. Nothing to do when the stream says true already; CP_EXIT_RUNTIME when
 * the stream is not JSON or the file cannot be rewritten. */
int cp_report_stream_mark_incomplete(const cp_report_stream *s, const char *path, cp_status *st);
/* The same in the file open (for reading and writing) at fd, which stays open; name is the
 * file's name in a message. */
int cp_report_stream_mark_incomplete_fd(const cp_report_stream *s, int fd, const char *name,
                                        cp_status *st);

/* A sweep report read back from its JSON document (coalprobe show), for the writers: `report`
 * points at the rows, measurements and device held here, and into the document, which must
 * outlive it. */
typedef struct cp_report_loaded {
    cp_report report;
    const char *path; /* the file, for messages */
    cp_row *rows;
    cp_measurement *meas;
    cp_device_info device;
    cp_sampling sampling;   /* the document's "timing" (report.sampling points here when present) */
    struct cp_expr **exprs; /* the expr rows' expressions, parsed once per run of rows */
    size_t nexprs;
    cp_counter_gap **gaps; /* each measured row's unavailable counters */
    size_t ngaps;
} cp_report_loaded;

/* Reads the sweep report doc (the document of the file at path, checked against its schema)
 * into r. CP_EXIT_USAGE naming the row for a value this coalprobe cannot take (an unknown
 * family, an expression it cannot parse, values that disagree), CP_EXIT_RUNTIME when memory
 * runs out. Free r with cp_report_loaded_free in either case. */
int cp_report_load(const cJSON *doc, const char *path, cp_report_loaded *r, cp_status *st);
void cp_report_loaded_free(cp_report_loaded *r);

/* Writes a JSON document {"schema_version":..,"tool":..,"command":..,"error":{..}} for a
 * failure in JSON mode: code, message and hint of st. */
int cp_report_write_json_error(FILE *out, const char *tool_version, const char *command,
                               const cp_status *failure);

#endif
