/* cp_compare_core.h: the comparison every kind of report shares: keyed items of two reports
 * matched, their metrics judged (exact, lower or higher is better, within a tolerance), the
 * items of one report only listed, all of it written as text or JSON. A kind of report supplies
 * only its items, each a key and metrics, and the words of its comparison. */
#ifndef CP_COMPARE_CORE_H
#define CP_COMPARE_CORE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "base/cp_base.h"
#include "cp_json.h"

typedef enum {
    CP_COMPARE_EXACT,  /* must be equal: a difference is a change, a regression too */
    CP_COMPARE_LOWER,  /* lower is better, within the tolerance */
    CP_COMPARE_HIGHER, /* higher is better, within the tolerance */
} cp_compare_sense;

/* Verdicts of a metric and statuses of an item, mildest first: an item takes its worst
 * metric's. */
typedef enum {
    CP_COMPARE_SAME,
    CP_COMPARE_NOT_COMPARABLE, /* items only: of different modes in the two reports */
    CP_COMPARE_IMPROVED,
    CP_COMPARE_REGRESSED,
    CP_COMPARE_CHANGED,
    CP_COMPARE_NVERDICTS
} cp_compare_verdict;

/* A metric: its name in the comparison, how it is judged, its unit ("" for a count). */
typedef struct cp_compare_metric_def {
    const char *name;
    cp_compare_sense sense;
    const char *unit;
    int card; /* a count measured on the GPU, which another card may count differently: between
               * reports of different GPUs it is not comparable, never a regression */
} cp_compare_metric_def;

/* A metric's value in one report. */
typedef struct cp_compare_value {
    const cp_compare_metric_def *def;
    double v;
    const char *text; /* the number as the report wrote it, or NULL: an exact metric's values
                         with texts are compared on their digits, past a double's 2^53 */
} cp_compare_value;

/* A metric of a matched pair, judged. */
typedef struct cp_compare_metric {
    const cp_compare_metric_def *def;
    double base, now;
    cp_compare_verdict verdict;
    const char *base_text, *now_text; /* the values' texts (cp_compare_value), or NULL */
} cp_compare_metric;

/* One item of a report: what it is matched by, and its metrics. Equal keys pair up in the
 * order of the items. */
typedef struct cp_compare_item {
    char *key;      /* malloc'd; owned */
    const void *id; /* the report's own handle on the item, for kind->text_id and json_id */
    int mode;       /* a pair of different modes is not comparable (kind->mode_notes) */
    cp_compare_value *values; /* malloc'd; owned: the metrics the item has */
    size_t nvalues;
} cp_compare_item;

/* One report, as the comparison sees it. */
typedef struct cp_compare_side {
    const char *path;
    int incomplete;
    char device[256];       /* the GPU(s) the report names ("A, B"), "" when it names none */
    cp_compare_item *items; /* malloc'd; owned */
    size_t n;
    cp_compare_item total; /* the whole report's metrics, when the kind has them */
    void *report;          /* what the kind loaded and the items point into (kind->report_size) */
} cp_compare_side;

/* The words and the ways of one kind of report. */
typedef struct cp_compare_kind {
    /* the bytes of what load reads a report into (s->report), allocated zeroed and freed by
     * the comparison */
    size_t report_size;
    /* reads and checks the report at path into report (s->report) */
    int (*load)(void *report, const char *path, cp_status *st);
    /* makes the items of s those of the loaded report */
    int (*items)(void *report, cp_compare_side *s, cp_status *st);
    void (*unload)(void *report); /* frees what load allocated inside report */
    int schema_version;
    const char *json_kind;       /* "kind" of the JSON document; NULL for none */
    const char *incomplete_note; /* after the path of an incomplete report */
    const char *items_words;     /* "rows": in "N of M matched rows regressed" */
    const char *none_matched;    /* the line when no item matches */
    const char *count_words[2];  /* after the count of the items of one report only: 1, more */
    const char *hint;            /* the hint of a regression */
    /* why a pair of different modes is not compared, by the base's mode; NULL: one mode */
    const char *const *mode_notes;
    /* the whole report: its title in the text, its name in the summary line, its JSON key;
     * total_title NULL: the kind has no total */
    const char *total_title, *total_words, *total_json_key;
    int name_width; /* the width of a metric's name in the text; 0: the widest shown */
    /* the item in words, escaped for a terminal */
    void (*text_id)(cp_strbuf *b, const cp_compare_item *item);
    /* the item's identifying members, added to o */
    void (*json_id)(cp_json *j, cJSON *o, const cp_compare_item *item);
    /* "BASE -> NEW (CHANGE" of a metric's text line */
    void (*text_values)(cp_strbuf *b, const cp_compare_metric *m);
    /* the line on the matched items that are the same (same > 0) */
    void (*text_same)(FILE *out, size_t same, size_t matched, const char *tolerance);
    /* what else changed between the two loaded reports (base, now: what load read them into),
     * beside the metrics and never a regression by itself: as text to out (json 0) or as
     * members of the JSON document root (json 1); 0 when memory runs out. NULL: nothing else */
    int (*changes)(const void *base, const void *now, int json, FILE *out, cp_json *j, cJSON *root);
} cp_compare_kind;

/* The relative change (now - base) / base in *change; 0 when it cannot be computed. */
int cp_compare_change(const cp_compare_metric *m, double *change);

/* Loads the reports at base_path and new_path with kind->load and kind->items, matches their items,
 * judges them and writes the comparison to out (text, or JSON when json != 0). CP_EXIT_OK when
 * nothing regressed, CP_EXIT_MISMATCH when something did, CP_EXIT_USAGE for a tolerance outside
 * 0..1 or a report the kind refuses, CP_EXIT_RUNTIME when a file, memory or the output fails; st
 * filled in. Nothing is written to out when a report cannot be compared. */
int cp_compare_run(const cp_compare_kind *kind, const char *base_path, const char *new_path,
                   double tolerance, int json, FILE *out, cp_status *st);

/* The GPUs a report (parsed JSON, a sweep's or a trace's) names, in out: device.name,
 * devices[].name, processes[].devices[].name, each once, joined by ", "; "" when none. */
void cp_compare_devices_of(const cJSON *root, char *out, size_t n);

/* Says on out that two reports come from different GPUs, from "reports come from" to the end
 * of the sentence (the caller writes what comes before and after: a warning's prefix, a page's
 * paragraph), each GPU's name through put, escaped for where it goes. */
void cp_compare_say_other_gpu(FILE *out, const char *base, const char *now,
                              void (*put)(FILE *, const char *));

#endif
