/* cp_compare.h: coalprobe compare: two JSON reports row by row, what changed and what regressed. */
#ifndef CP_COMPARE_H
#define CP_COMPARE_H

#include <stdio.h>

#include "base/cp_base.h"
#include "cp_schema.h"       /* the check of compare's inputs, for the trace layer too */
#include "cp_compare_core.h" /* the comparison itself, for the trace layer too */

/* Compares two coalprobe JSON reports and writes what changed to out. Returns CP_EXIT_OK when
 * nothing regressed, CP_EXIT_MISMATCH (3) when something did, CP_EXIT_USAGE for a file that is
 * not a coalprobe report (or another schema_version) and CP_EXIT_RUNTIME for an unreadable
 * file, with st filled in. tolerance is a fraction (0.05 = 5%). json != 0 writes a JSON
 * document instead of text (docs/compare.md). Nothing is written to out on a failure. */
int cp_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                     FILE *out, cp_status *st);

/* Parses "5%", "5 %", "0.05" into a fraction (5% -> 0.05); CP_EXIT_USAGE with a message naming
 * the token for anything else, negatives, or above 100%. */
int cp_compare_parse_tolerance(const char *spec, double *fraction, cp_status *st);

#endif
