/* cp_trace.h: the trace layer's face, what the rest of coalprobe calls: coalprobe trace --
 * PROGRAM, and compare of two trace reports. Inside the layer, the launcher (cp_trace_launch.h)
 * runs the program with coalprobe's CUPTI injection library (cp_inject.c, built as
 * libcoalprobe_inject.so), which writes raw files (cp_trace_raw.h); the report side
 * (cp_trace_report.h) reads them, ranks every memory instruction by the bytes it wastes and
 * writes the report and the gate. */
#ifndef CP_TRACE_H
#define CP_TRACE_H

#include <stdio.h>

#include "base/cp_base.h"
#include "report/cp_report.h"

/* coalprobe trace [OPTIONS] [--] PROGRAM [ARGS...]: argv[0] is "trace". Runs the program under
 * the injection library (or, with --from-raw DIR, reads recorded raw files), writes the report
 * and applies the gate. Returns the exit code: the program's when it is not 0 (128 + the signal
 * when it was killed), else 3 when the gate failed, else 0; 1 for coalprobe's own runtime
 * errors, 2 for usage errors (docs/trace.md). */
int cp_trace_main(int argc, char **argv);

/* The help of coalprobe trace (cp_trace_help.c), and the getopt_long table trace parses with
 * (ended by a NULL name), for the check that the two agree. */
const cp_help_command *cp_trace_help(void);
const struct option *cp_trace_option_table(void);

/* The injection library: $COALPROBE_INJECT_LIBRARY when set, else libcoalprobe_inject.so beside
 * the running coalprobe executable (the build tree), else in lib/coalprobe/ beside the directory
 * that holds it (an install: PREFIX/bin/coalprobe, PREFIX/lib/coalprobe/). Writes its path to
 * path (n bytes); CP_EXIT_RUNTIME with where it looked and a hint when it is not found. */
int cp_trace_find_injection(char *path, size_t n, cp_status *st);

/* 1 when path holds a JSON object whose "kind" is "trace" (a trace report), else 0. */
int cp_trace_compare_is_trace(const char *path);

/* coalprobe compare on two trace reports: instructions matched by process command, kernel name
 * and file:line (or PC when there is no line), summed per match; excess bytes, sectors per
 * request and wavefronts per request judged within tolerance (lower is better). Returns as
 * cp_compare_files does (3 when something regressed). */
int cp_trace_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                           FILE *out, cp_status *st);

/* coalprobe show of a trace report (doc: the document of the file at path, kind "trace"): its
 * instructions sorted (--sort; excess, sectors, conflicts, wavefronts or any key of an
 * instruction) and cut to --top per kernel, written as the table (the report's own --top when
 * none is given), CSV (coalprobe trace's columns) or JSON; no chart (CP_EXIT_USAGE). */
int cp_trace_show(cJSON *doc, const char *path, const cp_show_options *o, FILE *out, cp_status *st);

/* A trace report's columns (cp_trace_columns.c, the one table of them) described for its page
 * (cp_html_options.columns): [{"key", "of", "path", "type", "csv", and where it shows on the
 * page, "label", "decimals", "scale", "suffix", "kernel_path", "at": {"kernels", "instructions",
 * "sass"}: its place in each of the page's tables}] (docs/page.md). NULL when memory runs out. */
cJSON *cp_trace_columns_describe(void);

#endif
