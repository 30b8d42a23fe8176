/* cp_html.h: the page (--format html): one self-contained HTML file for any JSON document
 * coalprobe writes (a sweep's report, a trace report, a comparison): its numbers as tables that
 * read without scripts, the document itself embedded, and web/page/'s script and style, built
 * into the binary, that draw the widgets from it. docs/page.md describes the page. */
#ifndef CP_HTML_H
#define CP_HTML_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "base/cp_base.h"

typedef struct cp_html_options {
    int no_source; /* trace pages: leave the source files out */
    /* trace pages of files recorded elsewhere (a saved report, --from-raw): a source file is
     * embedded only when it is one of source_files (the line tables of the program's cubins;
     * NULL: not known, not required) and lies under one of source_dirs (the directories those
     * were built from) or the current directory; the page names those left out and why */
    int restrict_sources;
    const char *const *source_files;
    size_t nsource_files;
    const char *const *source_dirs;
    size_t nsource_dirs;
    /* trace pages: the trace report's columns described (the trace layer's
     * cp_trace_columns_describe): the page's kernels and instructions tables take theirs from
     * it, and it is embedded for the page's script (<script id="cp-columns">); a trace page
     * needs it */
    const cJSON *columns;
} cp_html_options;

/* Writes the page of doc (a report of --format json, of trace --format json, or of compare
 * --format json: told apart by their keys) to out. The document is embedded compact, escaped
 * so that no string of it can end the script that holds it. CP_EXIT_RUNTIME when doc is none of
 * those, or a write fails. o may be NULL (defaults). */
int cp_html_write(FILE *out, const cJSON *doc, const cp_html_options *o, cp_status *st);

/* cp_html_write of a document the caller gives up: it is turned into text faster
 * (cp_json_freeze) once the page has read it, and deleted. */
int cp_html_write_owned(FILE *out, cJSON *doc, const cp_html_options *o, cp_status *st);

/* cp_html_write of the JSON text json (len bytes), parsed first; the text is embedded as it is
 * (the bytes --format json wrote, escaped as above). */
int cp_html_write_text(FILE *out, const char *json, size_t len, const cp_html_options *o,
                       cp_status *st);

/* The page of whatever `write` prints as JSON to the stream it is given (a comparison, a trace
 * report): the text is collected in memory, then cp_html_write_text. Returns write's code when it
 * is not CP_EXIT_OK or CP_EXIT_MISMATCH (a comparison that found a regression still has a page:
 * its code is returned after the page is written). */
int cp_html_write_from(FILE *out, int (*write)(FILE *json, void *arg, cp_status *st), void *arg,
                       const cp_html_options *o, cp_status *st);

/* The bytes of text, escaped for HTML text and attribute values (& < > " '). */
void cp_html_put_text(FILE *out, const char *text);

/* The JSON text json (len bytes) as the content of a <script> element: '<', '>' and '&' as
 * \u003c, \u003e, \u0026, and U+2028 and U+2029 as \u2028, \u2029 (the JSON is unchanged as
 * JSON; no "</script>" or "<!--" can occur in it). */
void cp_html_put_json(FILE *out, const char *json, size_t len);

#endif
