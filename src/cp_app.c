/* cp_app.c: one run of coalprobe: builds the plan, predicts every configuration, measures
 * them on the GPU when there is one, and writes the report. */
#define _POSIX_C_SOURCE 200809L
#include "cp_app.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_explain.h"
#include "cp_output.h"
#include "cp_plan.h"
#include "cp_report.h"

static int cp_app_explain(const cp_options *o, const cp_config *configs, size_t n, FILE *out,
                          cp_status *st)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc('\n', out);
        CP_TRY(cp_explain_write(out, &configs[i], o->warp, st));
    }
    return CP_EXIT_OK;
}

static void cp_app_progress(size_t done, size_t total, const cp_config *c)
{
    char desc[160];
    cp_config_describe(c, desc, sizeof desc);
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", done + 1, total, desc);
    fflush(stderr);
}

/* Opens the backend; on "no device" says so and leaves *state NULL (model only). */
static int cp_app_open_backend(const cp_options *o, const cp_backend *backend,
                               const cp_prediction *preds, size_t n, cp_device_info *dev,
                               void **state, cp_status *refusal, cp_status *st)
{
    cp_backend_options bo;
    memset(&bo, 0, sizeof bo);
    bo.device = o->device;
    bo.reps = o->reps;
    bo.counters = !o->no_counters;
    bo.max_configs = n;
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < preds[i].naccesses; a++)
            if (preds[i].accesses[a].buffer_bytes > bo.max_access_bytes[a])
                bo.max_access_bytes[a] = preds[i].accesses[a].buffer_bytes;
    int no_device = 0;
    int rc = backend->open(&bo, dev, state, &no_device, refusal, st);
    if (rc != CP_EXIT_OK && no_device) {
        fprintf(stderr, "coalprobe: no GPU found (%s): showing the model's predictions only\n",
                st->message);
        cp_status_clear(st);
        *state = NULL;
        return CP_EXIT_OK;
    }
    return rc;
}

/* Times every configuration, then reads the counters of all of them in batches. */
static int cp_app_measure_all(const cp_backend *backend, void *state, const cp_config *configs,
                              const cp_prediction *preds, cp_row *rows, cp_measurement *meas,
                              size_t n, cp_status *st)
{
    int progress = isatty(STDERR_FILENO);
    for (size_t i = 0; i < n; i++) {
        if (progress)
            cp_app_progress(i, n, &rows[i].config);
        cp_measurement_clear(&meas[i]);
        int rc = backend->measure(state, &rows[i].config, &rows[i].predicted, &meas[i], st);
        if (rc != CP_EXIT_OK) {
            if (progress)
                fprintf(stderr, "\r\033[K");
            char desc[160];
            cp_config_describe(&rows[i].config, desc, sizeof desc);
            size_t len = strlen(st->message);
            snprintf(st->message + len, sizeof st->message - len, " (measuring %s %s)",
                     cp_config_family_name(rows[i].config.family), desc);
            return rc;
        }
        rows[i].measured = &meas[i];
    }
    if (progress)
        fprintf(stderr, "\r\033[K[%zu/%zu] reading hardware counters", n, n);
    int rc = backend->counters(state, n, configs, preds, meas, st);
    if (progress)
        fprintf(stderr, "\r\033[K");
    return rc;
}

int cp_app_run(const cp_options *o, const char *command, const cp_backend *backend, cp_status *st)
{
    cp_config *configs = NULL;
    size_t n = 0;
    CP_TRY(cp_plan_build(o, &configs, &n, st));
    cp_output out;
    int rc = cp_output_open(&out, o->output, st);
    if (rc != CP_EXIT_OK) {
        free(configs);
        return rc;
    }
    if (o->explain) {
        rc = cp_app_explain(o, configs, n, out.file, st);
        rc = rc == CP_EXIT_OK ? cp_output_commit(&out, st) : rc;
        cp_output_abort(&out);
        free(configs);
        return rc;
    }

    cp_row *rows = calloc(n, sizeof *rows);
    cp_measurement *meas = calloc(n, sizeof *meas);
    cp_prediction *preds = calloc(n, sizeof *preds);
    cp_device_info dev;
    void *state = NULL;
    cp_status refusal;
    cp_status_clear(&refusal);
    if (!rows || !meas || !preds) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu configurations", n);
        goto done;
    }
    for (size_t i = 0; i < n && rc == CP_EXIT_OK; i++) {
        rows[i].config = configs[i];
        rc = cp_model_predict(&configs[i], &rows[i].predicted, st);
        preds[i] = rows[i].predicted;
    }
    if (rc != CP_EXIT_OK)
        goto done;

    if (!o->model_only && backend) {
        rc = cp_app_open_backend(o, backend, preds, n, &dev, &state, &refusal, st);
        if (rc != CP_EXIT_OK)
            goto done;
    }
    int counters_refused = refusal.code != CP_EXIT_OK;
    if (o->check && (!state || counters_refused)) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME,
                           "--check needs measured hardware counters, and this run has none");
        cp_status_hint(st, "run on a GPU where CUPTI may profile (see the warning above)");
        goto done;
    }
    if (state) {
        if (counters_refused && o->require_counters) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "hardware counters refused (%s)",
                               refusal.message);
            cp_status_hint(st, "%s", refusal.hint);
            goto done;
        }
        rc = cp_app_measure_all(backend, state, configs, preds, rows, meas, n, st);
        if (rc != CP_EXIT_OK)
            goto done;
        if (counters_refused)
            fprintf(stderr,
                    "coalprobe: warning: hardware counters unavailable: %s\nhint: %s\n"
                    "coalprobe: the rows carry timings only\n",
                    refusal.message, refusal.hint);
    }

    cp_report report;
    memset(&report, 0, sizeof report);
    report.tool_version = CP_VERSION;
    report.command = command;
    report.device = state ? &dev : NULL;
    report.rows = rows;
    report.nrows = n;
    rc = cp_report_write(out.file, o->format, &report, st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_commit(&out, st);
    if (rc != CP_EXIT_OK || !o->check)
        goto done;
    for (size_t i = 0; i < n; i++) {
        if (meas[i].counts_match == 0) {
            char desc[160];
            cp_config_describe(&configs[i], desc, sizeof desc);
            rc = cp_status_set(st, CP_EXIT_MISMATCH,
                               "measured requests or sectors differ from the model (first: %s)",
                               desc);
            cp_status_hint(st, "the report's match column shows every row that differs");
            break;
        }
    }

done:
    cp_output_abort(&out);
    if (backend && state)
        backend->close(state);
    free(preds);
    free(meas);
    free(rows);
    free(configs);
    return rc;
}

void cp_app_report_failure(int json, FILE *out, const char *command, const cp_status *st)
{
    fprintf(stderr, "coalprobe: %s\n", st->message);
    if (st->hint[0])
        fprintf(stderr, "hint: %s\n", st->hint);
    if (json)
        cp_report_write_json_error(out, CP_VERSION, command, st);
}
