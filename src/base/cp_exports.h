/* cp_exports.h: the reports one run writes beside its main output (--json FILE, --csv FILE,
 * --vega-lite FILE; trace's --chrome-trace FILE): each a cp_output under the rules of -o (a
 * regular file replaced atomically, a special file written in place, a directory refused before
 * any work). A command offers one option per format of its exporter table; the formats are the
 * caller's numbers and a writer callback prints them, so a new format is one more entry there.
 *
 * Use:
 *     cp_exports ex = {0};
 *     CP_TRY(cp_exports_add(&ex, "json", path, FORMAT_JSON, st));   // while parsing options
 *     CP_TRY(cp_exports_open(&ex, main_path, st));                    // before the work
 *     ... the work; the main report written ...
 *     rc = cp_exports_write(&ex, writer, report, st);                // temporary files
 *     rc = rc == CP_EXIT_OK ? cp_exports_commit(&ex, st) : rc;       // renamed into place
 *     cp_exports_abort(&ex);                                          // whatever is left
 */
#ifndef CP_EXPORTS_H
#define CP_EXPORTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "cp_output.h"
#include "cp_status.h"

#define CP_EXPORTS_MAX 8

typedef struct cp_export {
    const char *option; /* its option without the dashes: "json" */
    const char *path;   /* as given (not owned) */
    int format;         /* the caller's number of its format */
    cp_output out;
} cp_export;

/* An empty set is {0}. */
typedef struct cp_exports {
    cp_export items[CP_EXPORTS_MAX];
    size_t n;
} cp_exports;

/* Records --OPTION PATH. CP_EXIT_USAGE for an empty path, "-" (standard output takes the main
 * report), a path given to another option already, more than CP_EXPORTS_MAX. */
int cp_exports_add(cp_exports *e, const char *option, const char *path, int format, cp_status *st);

/* 1 when a and b name one destination: the same text, the same existing file, or the same name
 * in the same directory (neither created yet). */
int cp_exports_same_destination(const char *a, const char *b);

/* Checks every destination before any work (cp_output_open): one naming the file of the main
 * report (main_path; NULL or "-" for standard output) is a usage error. On failure nothing is
 * left open. */
int cp_exports_open(cp_exports *e, const char *main_path, cp_status *st);

/* A format a kind of report is written in: one entry of its exporter list (a sweep's in
 * cp_report.c, a trace's in cp_trace_export.c), the one interface every format of every report
 * is written through, as the main output (--format NAME) and beside it (--NAME FILE). */
typedef struct cp_exporter {
    const char *option; /* its name: --format json, and --json FILE when help is set */
    int format;         /* the kind's number of the format */
    const char *help;   /* what the file holds, for --help; NULL: the main output only (table) */
    int (*write)(FILE *out, const void *report, cp_status *st);
} cp_exporter;

/* The i-th entry of list (n entries) with an option of its own (help set); NULL past the last. */
const cp_exporter *cp_exporter_option(const cp_exporter *list, size_t n, size_t i);

/* The entry of format in list (n entries), NULL when none. */
const cp_exporter *cp_exporter_of(const cp_exporter *list, size_t n, int format);

/* Prints `what` in `format` to out. */
typedef int (*cp_exports_writer)(FILE *out, int format, const void *what, cp_status *st);

/* Writes every export to its temporary file (or special file): nothing is replaced yet. */
int cp_exports_write(cp_exports *e, cp_exports_writer write, const void *what, cp_status *st);

/* Renames every written export into place (cp_output_commit); stops at the first failure. */
int cp_exports_commit(cp_exports *e, cp_status *st);

/* Closes every export not committed, removing its temporary file; safe twice. */
void cp_exports_abort(cp_exports *e);

/* Fills dst (cap entries) with the options of base (up to its zero entry), then --NAME FILE for
 * each exporter with an option of its own, get(i) for i from 0 until NULL and at most
 * CP_EXPORTS_MAX of them (getopt value first_val + i), then a zero entry. 0, or -1 when cap is
 * too small. */
int cp_exports_getopt(struct option *dst, size_t cap, const struct option *base,
                      const cp_exporter *(*get)(size_t i), int first_val);

#endif
