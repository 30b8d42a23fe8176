/* cp_show.h: coalprobe show: a saved JSON report recognised (a sweep, a trace, a comparison of
 * either, or why it is none), its rows sorted and cut (--sort, --top), and written again as a
 * table, CSV, Vega-Lite or JSON. The report layer shows sweeps (read back into rows, so every
 * writer prints them as a run does) and comparisons; the trace layer shows trace reports with the
 * helpers here. */
#ifndef CP_SHOW_H
#define CP_SHOW_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "base/cp_base.h"

/* What a JSON document is. */
typedef enum {
    CP_REPORT_KIND_NONE,          /* not a report coalprobe reads: the reason says what it is */
    CP_REPORT_KIND_SWEEP,         /* coalprobe [FAMILY] --format json */
    CP_REPORT_KIND_TRACE,         /* coalprobe trace --format json */
    CP_REPORT_KIND_COMPARE,       /* coalprobe compare --format json of two sweep reports */
    CP_REPORT_KIND_TRACE_COMPARE, /* the same of two trace reports */
} cp_report_kind;

/* What root is (NULL: the file is not JSON; text, when not NULL, is its beginning, which names
 * a CSV report). For CP_REPORT_KIND_NONE, why (n bytes) says what it is instead or what it
 * lacks: "it is a Vega-Lite chart (coalprobe --format vega-lite), not a report". The
 * schema_version is not judged here. */
cp_report_kind cp_report_identify(const cJSON *root, const char *text, char *why, size_t n);

struct cp_report_view;

/* What show is asked to do. */
typedef struct cp_show_options {
    int format;       /* a cp_format: table, json, csv or vega-lite */
    size_t top;       /* with top_given: the rows kept (a trace: instructions per kernel) */
    int top_given;    /* --top was given */
    const char *sort; /* --sort KEY (ascending), -KEY (descending); NULL: the report's order */
    const struct cp_report_view *view; /* the table's width and colours */
} cp_show_options;

/* A short name of a key --sort takes and the path it stands for. */
typedef struct cp_show_alias {
    const char *name, *path;
} cp_show_alias;

/* Sorts the objects of array by spec ("KEY" from the smallest, "-KEY" from the largest; "+KEY"
 * too), the objects without a number or string there last, equals in their order. KEY is one of
 * the aliases, else a dotted path from each object, else the path under one of the prefixes
 * ("config."), the first some object has. CP_EXIT_USAGE naming the key when none has it (hint:
 * the aliases); CP_EXIT_RUNTIME when memory runs out. */
int cp_show_sort(cJSON *array, const char *spec, const cp_show_alias *aliases, size_t naliases,
                 const char *const *prefixes, size_t nprefixes, cp_status *st);

/* Deletes the objects of array past the first n. */
void cp_show_keep(cJSON *array, size_t n);

/* The member at a dotted path ("time_s.median") under o; NULL when a step is missing. */
const cJSON *cp_show_at(const cJSON *o, const char *path);

/* The number at path under o; NAN when missing, null or not a number. */
double cp_show_num(const cJSON *o, const char *path);

/* The string at path under o; NULL when missing, null or not a string. */
const char *cp_show_str(const cJSON *o, const char *path);

/* Prints doc as coalprobe's JSON documents are printed (cJSON, tabs; whole numbers from 1e15 up
 * as their digits) and a line break. */
int cp_show_print_json(FILE *out, cJSON *doc, cp_status *st);

/* The usage error of a document the schema of kind refuses, or whose schema_version this
 * coalprobe does not read (path: the file). CP_EXIT_OK when it follows the schema. */
int cp_show_check_schema(const cJSON *doc, const char *path, int trace, cp_status *st);

/* Shows a sweep report (doc, of the file at path) by o. CP_EXIT_USAGE for a report this
 * coalprobe cannot read or a key --sort cannot find. */
int cp_show_sweep(cJSON *doc, const char *path, const cp_show_options *o, FILE *out, cp_status *st);

/* Shows a comparison (of sweep or trace reports) by o: the rows that changed with their metrics
 * (table), one line per row and metric (CSV), or the document (JSON); no chart. */
int cp_show_compare(cJSON *doc, const char *path, const cp_show_options *o, FILE *out,
                    cp_status *st);

#endif
