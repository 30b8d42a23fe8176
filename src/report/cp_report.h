/* cp_report.h: a run's results (one row per configuration: predicted beside measured) and
 * the writers that print them as a table, JSON or CSV. The report layer's face: it also brings
 * --explain (cp_explain.h) and coalprobe compare (cp_compare.h). */
#ifndef CP_REPORT_H
#define CP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "measure/cp_measure.h"
#include "base/cp_base.h"
#include "cp_compare.h"
#include "cp_explain.h"
#include "cp_json.h"

#define CP_REPORT_SCHEMA_VERSION 1

typedef enum {
    CP_FORMAT_TABLE,
    CP_FORMAT_JSON,
    CP_FORMAT_CSV,
    CP_FORMAT_VEGALITE,
    CP_FORMAT_COUNT
} cp_format;

/* One configuration's row. measured is NULL until the configuration was measured. */
typedef struct cp_row {
    cp_config config;
    cp_prediction predicted;
    const cp_measurement *measured;
} cp_row;

/* A whole report. The report does not own what it points to. */
typedef struct cp_report {
    const char *tool_version;     /* e.g. "0.1.0" */
    const char *command;          /* the command line, words joined by spaces */
    const cp_device_info *device; /* NULL when no GPU was used */
    const cp_row *rows;
    size_t nrows;
    int incomplete; /* 1 when the sweep was interrupted */
} cp_report;

/* Name of a format ("table", "json", "csv") and the reverse look-up (-1 if unknown). */
const char *cp_report_format_name(cp_format f);
int cp_report_format_parse(const char *name);

/* Writes the report in the given format to out. */
int cp_report_write(FILE *out, cp_format fmt, const cp_report *r, cp_status *st);

/* The writers behind cp_report_write, one per file. */
int cp_report_write_table(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_json(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_csv(FILE *out, const cp_report *r, cp_status *st);
int cp_report_write_vegalite(FILE *out, const cp_report *r, cp_status *st);

/* The chart of a report in its JSON form (docs/json.md): a sweep report, or a trace report ("kind":
 * "trace"), as the writers above draw it, from a saved report as from a run (cp_report_vegalite.c;
 * docs/plots.md). CP_EXIT_USAGE when doc is neither. */
int cp_report_write_vegalite_doc(FILE *out, const cJSON *doc, cp_status *st);

/* The chart of a trace report's JSON document (cp_report_vegalite_trace.c). */
int cp_report_write_vegalite_trace(FILE *out, const cJSON *doc, cp_status *st);

/* The CSV report's configuration columns, after "pattern" (cp_report_csv.c). */
#define CP_REPORT_CSV_CONFIG_COLUMNS 18
#define CP_REPORT_CSV_LATE_CONFIG_COLUMNS 3 /* appended after the measured columns */

/* A report written row by row (JSON and CSV), so that memory stays flat however many rows:
 * begin writes the header (JSON: everything before the first row, the header's `incomplete`
 * flag included, taken from header->incomplete; CSV: the line of column names), each row call
 * writes one row and frees what it built, end closes the document. The bytes are those
 * cp_report_write prints for the same rows (it is built on this). header->rows is not read. */
typedef struct cp_report_stream {
    FILE *out;
    cp_format format;
    size_t nrows;            /* rows written so far */
    long long incomplete_at; /* JSON: byte offset, from the stream's first byte, of the
                              * header's `incomplete` value ("false" or "true"); -1 otherwise */
    int incomplete;          /* the value begin wrote */
    /* CSV: the field of each family shown in each configuration column (after "pattern"),
     * NULL for an empty cell; resolved once by begin */
    const cp_family_field *csv_fields[CP_FAMILY_COUNT][CP_REPORT_CSV_CONFIG_COLUMNS];
    const cp_family_field *csv_late_fields[CP_FAMILY_COUNT][CP_REPORT_CSV_LATE_CONFIG_COLUMNS];
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

/* Writes a JSON document {"schema_version":..,"tool":..,"command":..,"error":{..}} for a
 * failure in JSON mode: code, message and hint of st. */
int cp_report_write_json_error(FILE *out, const char *tool_version, const char *command,
                               const cp_status *failure);

#endif
