/* cp_report_util.h: helpers shared by the report writers (private to src/report/cp_report*.c). */
#ifndef CP_REPORT_UTIL_H
#define CP_REPORT_UTIL_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "cp_report.h"

/* Checks that r can be written: rows present, known families, at most
 * CP_MODEL_MAX_ACCESSES accesses per row. CP_EXIT_RUNTIME with a message otherwise. */
int cp_report_check_report(const cp_report *r, cp_status *st);

/* Checks one row as cp_report_check_report does; index names it in the message. */
int cp_report_check_row(const cp_row *row, size_t index, cp_status *st);

/* Writes the whole report r, checked first, through the row-by-row stream of fmt (JSON, CSV). */
int cp_report_stream_all(FILE *out, cp_format fmt, const cp_report *r, cp_status *st);

/* The streaming writers behind cp_report_stream_begin/row/end, per format. */
int cp_report_json_begin(cp_report_stream *s, const cp_report *header, cp_status *st);
int cp_report_json_row(cp_report_stream *s, const cp_row *row, cp_status *st);
int cp_report_json_end(cp_report_stream *s, cp_status *st);
int cp_report_csv_begin(cp_report_stream *s, cp_status *st);
int cp_report_csv_end(cp_report_stream *s, cp_status *st);
int cp_report_csv_row(cp_report_stream *s, const cp_row *row, cp_status *st);

/* "lane_map" under the JSON object `access` of access a of p (configuration c): the model's
 * lanes of one warp for each instruction of the access (cp_report_lanes.c); null when the row
 * is not modelled. */
void cp_report_json_add_lane_map(cp_json *j, cJSON *access, const cp_config *c, size_t a,
                                 const cp_prediction *p);

/* A row as the JSON report writes it (full 0: its pattern and config only); NULL when out of
 * memory. The caller deletes it. */
cJSON *cp_report_json_row_object(const cp_row *row, int full);

/* The command without where its output went and in which format (" -o FILE", " --format F",
 * " --output=FILE" ...): what was run, as a chart's title (len bytes into buf). */
void cp_report_title_command(const char *command, char *buf, size_t len);

/* "measured" when the row's kernel was timed, "model" otherwise. */
const char *cp_report_get_source(const cp_row *row);

/* The row's measurement, or `scratch` cleared to "nothing measured" (every value NAN) when
 * the row has none, so that writers treat both cases alike. */
const cp_measurement *cp_report_get_measurement(const cp_row *row, cp_measurement *scratch);

/* A measured count per request (sectors, wavefronts, bank conflicts): count / requests; NAN
 * when either is NAN or requests is 0. */
double cp_report_compute_per_request(double requests, double count);

/* Measured efficiency: bytes requested / (sectors * 32); NAN when either is missing or there
 * were no sectors. */
double cp_report_compute_efficiency(double bytes_requested, double sectors);

/* The occupancy of the measured kernel by coalprobe's calculation (cp_occupancy_compute) from its
 * resources and the SM's limits: 1 and o filled when r is known and the limits are, else 0. */
int cp_report_compute_occupancy(const cp_resources *r, cp_occupancy *o);

/* Flushes out and reports a write error (CP_EXIT_RUNTIME) if any write to it failed. */
int cp_report_check_stream(FILE *out, cp_status *st);

#endif
