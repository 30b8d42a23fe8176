/* cp_app.h: one run of coalprobe: plan, predict, measure, report. */
#ifndef CP_APP_H
#define CP_APP_H

#include "measure/cp_measure.h"
#include "cp_cli.h"
#include "base/cp_base.h"

/* Runs the job that o describes, with `backend` for measurements (NULL: model only), and
 * writes the report. Returns an exit code (CP_EXIT_*); on failure st says why. `command`
 * is the command line as the report records it. */
int cp_app_run(cp_options *o, const char *command, const cp_backend *backend, cp_status *st);

/* Prints a failure as "coalprobe: message" and "hint: ..." on stderr and, when the user asked
 * for JSON, as an error document on the report destination (or standard output). */
void cp_app_report_failure(int json, FILE *out, const char *command, const cp_status *st);

#endif
