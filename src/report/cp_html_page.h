/* cp_html_page.h: what the page's files share (private to src/report/cp_html*.c): the kinds of
 * page, and the tables that carry every number when scripts are off. */
#ifndef CP_HTML_PAGE_H
#define CP_HTML_PAGE_H

#include <cjson/cJSON.h>
#include <stdio.h>

typedef enum { CP_HTML_SWEEP, CP_HTML_TRACE, CP_HTML_COMPARE } cp_html_kind;

/* A column of a table: its header (group above label), the JSON path of its value from the
 * object of the row ("a.b.0.c": keys, and indices into arrays; "{op}" stands for the row's
 * config.op), and how the value shows: value * scale with `decimals` decimals and suffix, or
 * with decimals CP_HTML_TEXT the string as it is, CP_HTML_MATCH true/false/null as yes/NO/-. */
typedef struct cp_html_column {
    const char *group;
    const char *label;
    const char *path;
    double scale;
    int decimals;
    const char *suffix;
} cp_html_column;

#define CP_HTML_TEXT -1
#define CP_HTML_MATCH -2
#define CP_HTML_BYTES -3 /* a whole number of bytes, shown as the input spells it (4K, 64M) */

/* The value at path under o ("{op}" read from row's config.op), NULL when absent. */
const cJSON *cp_html_lookup(const cJSON *o, const cJSON *row, const char *path);

/* <table> of the rows of array `rows`, one <tr data-row="i"> each: the columns' cells, each with
 * data-v holding the JSON value (numbers as JSON writes them) and the text shown. */
void cp_html_write_table(FILE *out, const char *id, const char *caption, const cJSON *rows,
                         const cp_html_column *cols, size_t ncols);

/* The tables of each kind of page (cp_html_tables.c); columns: a trace report's columns
 * described (cp_html_options.columns), which the trace page's tables take theirs from. */
void cp_html_write_sweep_tables(FILE *out, const cJSON *doc, const cJSON *columns);
void cp_html_write_trace_tables(FILE *out, const cJSON *doc, const cJSON *columns);
void cp_html_write_compare_tables(FILE *out, const cJSON *doc, const cJSON *columns);

/* The keys of the sweep's family that its table shows and its chart's x axis is chosen from,
 * as JSON arrays added to meta (cp_html_tables.c). */
void cp_html_add_family_keys(cJSON *meta, const cJSON *doc);

#endif
