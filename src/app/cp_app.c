/* cp_app.c: one run of coalprobe: builds the plan, predicts every configuration, measures
 * them on the GPU when there is one, and writes the report. One file over 800 lines: each step
 * of a run reads the same parsed options, configurations and rows; the run over several GPUs
 * lives in cp_devices.c, the commands other than a sweep in cp_commands.c. */
#define _POSIX_C_SOURCE 200809L /* sigaction, clock_gettime */
#include "cp_app.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/cp_report.h"
#include "base/cp_base.h"
#include "cp_devices.h"
#include "cp_plan.h"
#include "cp_progress.h"

/* How many signals stop a run cleanly (cp_app_signals). */
#define CP_APP_SIGNALS 3

/* Why there is no GPU and the fix into why, as `coalprobe doctor` says it (cp_diagnose_gpu):
 * 1; 0 when the diagnosis finds a GPU after all (then the backend's own words say why). */
static int cp_app_no_gpu_cause(cp_status *why)
{
    cp_gpu_facts f;
    cp_diagnose_read(&f);
    cp_status_clear(why);
    return cp_diagnose_gpu(&f, why) != CP_GPU_OK;
}

/* The pictures of --explain; unless --model, each followed by its kernel's resources when the
 * backend can read them (no GPU: said once, then the pictures alone). Every configuration
 * passed cp_explain_check in the plan, and the resources are all read before the first
 * picture, so that a failure leaves nothing written. */
static int cp_app_explain(const cp_options *o, const cp_backend *backend, const cp_config *configs,
                          size_t n, FILE *out, cp_status *st)
{
    int ask = !o->model_only && backend && backend->resources;
    cp_resources *res = ask && n ? calloc(n, sizeof *res) : NULL;
    if (ask && n && !res)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu configurations", n);
    size_t asked = 0;          /* configurations whose resources are in res */
    char no_device[1024] = ""; /* why there are no resources, said after picture `asked` */
    for (; ask && asked < n; asked++) {
        int none = 0;
        int rc = backend->resources(o->device, &configs[asked], &res[asked], &none, st);
        if (rc != CP_EXIT_OK && none) { /* the one diagnosis of doctor and a sweep */
            cp_status why;
            if (cp_app_no_gpu_cause(&why))
                snprintf(no_device, sizeof no_device, "%s\n  fix: %s", why.message, why.hint);
            else
                snprintf(no_device, sizeof no_device, "%s", st->message);
            cp_status_clear(st);
            break;
        }
        if (rc != CP_EXIT_OK) {
            free(res);
            return rc;
        }
    }
    int rc = CP_EXIT_OK;
    for (size_t i = 0; i < n && rc == CP_EXIT_OK; i++) {
        if (i)
            fputc('\n', out);
        rc = cp_explain_write_checked(out, &configs[i], o->warp, st);
        if (rc == CP_EXIT_OK && i < asked)
            rc = cp_explain_write_resources(out, &res[i], st);
        else if (rc == CP_EXIT_OK && ask && i == asked)
            fprintf(out, "\nKernel resources: no GPU to read them from:\n  %s\n", no_device);
    }
    free(res);
    return rc;
}

/* Says on stderr (a note: none under --quiet) why there is no GPU and the fix, as `coalprobe
 * doctor` does (cp_app_no_gpu_cause); the backend's own words (`said`) when the diagnosis finds a
 * GPU after all; then what the run does without one: the model's predictions, or, when it needs
 * counters (--check, --require-counters), nothing (the error that follows says so and exits 1). */
static void cp_app_note_no_gpu(const cp_options *o, const char *said)
{
    cp_status why;
    const char *then = o->check ? "nothing is measured, so --check has no counters to compare "
                                  "with the model and no report is written"
                       : o->require_counters
                           ? "nothing is measured, so --require-counters stops the run and "
                             "no report is written"
                           : "showing the model's predictions only";
    if (!cp_app_no_gpu_cause(&why))
        cp_progress_note(stderr, o->quiet, "coalprobe: no GPU found (%s): %s", said, then);
    else
        cp_progress_note(stderr, o->quiet,
                         "coalprobe: no GPU found: %s; %s\n"
                         "hint: %s (coalprobe doctor checks the rest)",
                         why.message, then, why.hint);
}

/* The options of the backend for the sweep configs (preds: their predictions). */
static void cp_app_backend_options(const cp_options *o, const cp_config *configs,
                                   const cp_prediction *preds, size_t n, cp_backend_options *out)
{
    cp_backend_options bo;
    memset(&bo, 0, sizeof bo);
    bo.device = o->device;
    bo.sampling = o->sampling;
    bo.counters = !o->no_counters;
    bo.counters_now = o->require_counters || o->check; /* a refusal must stop the run at once */
    bo.max_configs = n;
    bo.requests_as_instructions = n > 0;
    for (size_t i = 0; i < n; i++) {
        bo.shared_counters |= cp_config_uses_shared(&configs[i]);
        bo.path_counters |= cp_config_path_counters(&configs[i]);
        cp_backend_options_add_family(&bo, &configs[i]);
        bo.requests_as_instructions &= cp_config_requests_are_instructions(&configs[i]);
        uint64_t total = 0;
        for (size_t a = 0; a < preds[i].naccesses; a++) {
            if (preds[i].accesses[a].space == CP_SPACE_SHARED)
                continue; /* on chip: nothing to allocate */
            total += preds[i].accesses[a].buffer_bytes;
            if (preds[i].accesses[a].buffer_bytes > bo.max_access_bytes[a])
                bo.max_access_bytes[a] = preds[i].accesses[a].buffer_bytes;
        }
        if (total > bo.max_config_bytes) {
            bo.max_config_bytes = total;
            cp_config_describe(&configs[i], bo.max_config, sizeof bo.max_config);
        }
    }
    *out = bo;
}

/* Opens the backend; on "no device" says so and leaves *state NULL (model only). */
static int cp_app_open_backend(const cp_options *o, const cp_backend *backend,
                               const cp_config *configs, const cp_prediction *preds, size_t n,
                               cp_device_info *dev, void **state, cp_status *refusal, cp_status *st)
{
    cp_backend_options bo;
    cp_app_backend_options(o, configs, preds, n, &bo);
    int no_device = 0;
    int rc = backend->open(&bo, dev, state, &no_device, refusal, st);
    if (rc != CP_EXIT_OK && no_device) {
        cp_app_note_no_gpu(o, st->message);
        cp_status_clear(st);
        *state = NULL;
        return CP_EXIT_OK;
    }
    return rc;
}

/* What the report cannot show on its own, once on stderr: the facts the model relies on that
 * are not verified on this GPU's architecture, kernels the driver JIT-compiles from PTX, and the
 * counters the chip lacks (the JSON report also names those coalprobe chose not to read). */
static void cp_app_note_device(int quiet, const cp_device_info *dev, const cp_measurement *meas,
                               size_t n)
{
    int arch = cp_arch_from_cc(dev->cc_major, dev->cc_minor);
    char facts[512];
    if (cp_arch_unverified(arch, facts, sizeof facts) > 0)
        cp_progress_note(
            stderr, quiet,
            "coalprobe: note: unverified on sm_%d: %s (the model assumes them; docs/model.md, "
            "'Hardware facts', says what each rests on)\n",
            arch, facts);
    if (dev->kernel_kind == CP_ARCH_RUN_PTX)
        cp_progress_note(
            stderr, quiet,
            "coalprobe: note: this binary has no SASS for sm_%d: the driver JIT-compiled the "
            "compute_%d PTX (rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d for SASS)\n",
            arch, dev->kernel_arch, arch);
    const cp_measurement *m = NULL;
    for (size_t i = 0; i < n && !m; i++)
        if (meas[i].counters_status == CP_COUNTERS_OK)
            m = &meas[i];
    for (size_t g = 0; m && g < m->ncounter_gaps; g++)
        if (strncmp(m->counter_gaps[g].reason, "not ", 4) != 0) /* the chip lacks it */
            cp_progress_note(stderr, quiet, "coalprobe: note: %s is null: %s\n",
                             m->counter_gaps[g].counter, m->counter_gaps[g].reason);
}

/* The signal (SIGINT, SIGTERM, SIGHUP) that asked the run to stop is the base layer's
 * cancellation (cp_parallel_cancelled(), 0 while none did), which the model's loops poll too.
 * When it came: */
static struct timespec cp_app_signal_time;

/* The first signal asks the run to stop: a configuration being measured is finished, one being
 * predicted is cut short (within milliseconds) and left out. The same interruption often
 * arrives twice at once (timeout(1) signals the process and its group); a second signal at
 * least half a second later stops at once, leaving no file behind. Only async-signal-safe calls
 * here. */
static void cp_app_on_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!cp_parallel_cancelled()) {
        cp_app_signal_time = now;
        cp_parallel_cancel(sig);
        return;
    }
    long ms = (long)(now.tv_sec - cp_app_signal_time.tv_sec) * 1000 +
              (now.tv_nsec - cp_app_signal_time.tv_nsec) / 1000000;
    if (ms < 500)
        return;
    static const char msg[] = "coalprobe: stopped at once by a second signal; no report\n";
    cp_output_remove_temps(); /* the temporary files that have a name */
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be done in a signal handler */
    }
    _exit(128 + sig);
}

/* The signals that stop a run cleanly (its rows so far reported): SIGINT, SIGTERM and SIGHUP
 * (the terminal closed). SIGHUP ignored when the run starts (nohup) stays ignored. Others that
 * end a process (SIGQUIT, SIGUSR1, ...) remove the temporary files and end it at once
 * (cp_output_catch_signals). */
static const int cp_app_signals[CP_APP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

/* Catches the signals of cp_app_signals, saving the old actions. */
static void cp_app_catch_signals(struct sigaction old[CP_APP_SIGNALS])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cp_app_on_signal;
    sigemptyset(&sa.sa_mask);
    cp_parallel_cancel_reset();
    for (int k = 0; k < CP_APP_SIGNALS; k++) {
        sigaction(cp_app_signals[k], NULL, &old[k]);
        /* SIGINT is caught even where ignored (a shell's `cmd &` ignores it), as before */
        if (cp_app_signals[k] != SIGHUP || old[k].sa_handler != SIG_IGN ||
            (old[k].sa_flags & SA_SIGINFO))
            sigaction(cp_app_signals[k], &sa, NULL);
    }
}

/* Restores the old actions; the run's cancellation ends with it (its exit code tells). */
static void cp_app_restore_signals(const struct sigaction old[CP_APP_SIGNALS])
{
    for (int k = 0; k < CP_APP_SIGNALS; k++)
        sigaction(cp_app_signals[k], &old[k], NULL);
    cp_parallel_cancel_reset();
}

/* Reads the counters of the rows measured (m of n: the others are beyond the device), through
 * compacted copies of the arrays when some were left out. */
static int cp_app_counters(const cp_backend *backend, void *state, const cp_config *configs,
                           const cp_prediction *preds, const cp_row *rows, cp_measurement *meas,
                           size_t n, size_t m, cp_status *st)
{
    if (m == n)
        return backend->counters(state, n, configs, preds, meas, st);
    if (m == 0)
        return CP_EXIT_OK;
    cp_config *c = malloc(m * sizeof *c);
    cp_prediction *p = malloc(m * sizeof *p);
    cp_measurement *x = malloc(m * sizeof *x);
    int rc = c && p && x ? CP_EXIT_OK
                         : cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu rows", m);
    for (size_t i = 0, k = 0; rc == CP_EXIT_OK && i < n; i++)
        if (rows[i].measured) {
            c[k] = configs[i], p[k] = preds[i], x[k] = meas[i];
            k++;
        }
    if (rc == CP_EXIT_OK)
        rc = backend->counters(state, m, c, p, x, st);
    for (size_t i = 0, k = 0; rc == CP_EXIT_OK && i < n; i++)
        if (rows[i].measured)
            meas[i] = x[k++];
    free(c);
    free(p);
    free(x);
    return rc;
}

/* Times every configuration, then reads the counters of all of them in batches. Stops early
 * when a signal arrives: *done tells how many configurations were finished. */
static int cp_app_measure_all(const cp_backend *backend, void *state, const cp_config *configs,
                              const cp_prediction *preds, cp_row *rows, cp_measurement *meas,
                              size_t n, size_t *done, const cp_device_info *dev, int quiet,
                              cp_status *st)
{
    cp_progress progress;
    cp_progress_start(&progress, "measuring", quiet);
    *done = 0;
    size_t measured = 0, beyond = 0;
    if (backend->preload && n > 0)
        CP_TRY(backend->preload(state, n, configs, st));
    for (size_t i = 0; i < n; i++) {
        if (cp_parallel_cancelled()) {
            cp_progress_clear(&progress);
            return CP_EXIT_OK; /* the rows timed so far are reported; no counters */
        }
        cp_progress_update(&progress, i, n, &rows[i].config);
        cp_measurement_clear(&meas[i]);
        if (cp_measure_beyond(&rows[i].config, dev)) {
            if (beyond++ == 0) {
                char desc[160];
                cp_config_describe(&rows[i].config, desc, sizeof desc);
                const cp_family_desc *fd = cp_family_get(rows[i].config.family);
                int needs = cp_family_needs_cc(&rows[i].config);
                cp_progress_clear(&progress);
                cp_progress_note(
                    stderr, quiet,
                    "coalprobe: note: %s %s needs sm_%d (compute capability %d.%d) and %s is "
                    "sm_%d%d: predicted, not measured\n",
                    fd->name, desc, needs, needs / 10, needs % 10, dev->name, dev->cc_major,
                    dev->cc_minor);
            }
            *done = i + 1;
            continue;
        }
        cp_phase_start_up_done(); /* -v: what came before the first configuration */
        /* configs[i]: the configuration preload() was given (rows[i].config is its copy) */
        int rc = backend->measure(state, &configs[i], &rows[i].predicted, &meas[i], st);
        if (rc != CP_EXIT_OK) {
            cp_progress_clear(&progress);
            char desc[160];
            cp_config_describe(&rows[i].config, desc, sizeof desc);
            size_t len = strlen(st->message);
            snprintf(st->message + len, sizeof st->message - len, " (measuring %s %s)",
                     cp_config_family_name(rows[i].config.family), desc);
            return rc;
        }
        rows[i].measured = &meas[i];
        measured++;
        *done = i + 1;
    }
    if (beyond > 1)
        cp_progress_note(stderr, quiet,
                         "coalprobe: note: %zu configurations beyond this GPU were not measured\n",
                         beyond);
    if (progress.enabled && n > 0) {
        progress.verb = "reading the hardware counters of";
        progress.start = 0; /* always say so: it takes a moment */
        cp_progress_update(&progress, n, n, &rows[n - 1].config);
    }
    int rc = cp_app_counters(backend, state, configs, preds, rows, meas, n, measured, st);
    cp_progress_clear(&progress);
    return rc;
}

/* Says that a signal cut the run short after `done` of `n` configurations and returns the
 * shell's exit status for it (130 for SIGINT, 143 for SIGTERM). With none done nothing was
 * written, so that the file -o names keeps what it held; otherwise the report holds the `done`
 * and is marked incomplete. */
static int cp_app_say_interrupted(const cp_output *out, size_t done, size_t n)
{
    int sig = cp_parallel_cancelled();
    const char *name = sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
    if (done > 0)
        fprintf(stderr,
                "coalprobe: interrupted by %s after %zu of %zu configurations; the report "
                "holds those and is marked incomplete\n",
                name, done, n);
    else if (out->path)
        fprintf(stderr,
                "coalprobe: interrupted by %s before any configuration finished (0 of %zu): "
                "nothing was written, and '%s' is left as it was\n",
                name, n, out->path);
    else
        fprintf(stderr,
                "coalprobe: interrupted by %s before any configuration finished (0 of %zu): "
                "nothing was written\n",
                name, n);
    return 128 + sig;
}

/* Configurations a model-only run predicts, then writes, at a time (a row is about 1 KB). */
#define CP_APP_CHUNK 4096

/* Whether the run writes its report while it predicts (cp_app_run_streamed): a model-only run
 * in CSV, or in JSON to a file written through a temporary file, where the header's incomplete
 * flag can be rewritten after a signal. JSON to standard output or a pipe cannot be rewritten,
 * so it is written once the sweep is done, as every measured run is; so is a run that asks for
 * counters (--require-counters, --check), which the sweep's end decides about. */
static int cp_app_streams(const cp_options *o, const cp_output *out)
{
    return o->model_only && !o->explain && !o->require_counters && !o->check && !o->exports.n &&
           (o->format == CP_FORMAT_CSV || (o->format == CP_FORMAT_JSON && !out->direct));
}

/* Writes one chunk's rows, creating the output's file and starting the report first when it
 * was not started yet (the file exists from then on; a second signal removes it). */
static int cp_app_write_chunk(cp_report_stream *s, int *started, cp_output *out, cp_format fmt,
                              const cp_report *header, const cp_row *rows, size_t k, cp_status *st)
{
    cp_phase_begin(CP_PHASE_REPORT);
    int rc = CP_EXIT_OK;
    if (!*started) {
        rc = cp_output_begin(out, st);
        if (rc == CP_EXIT_OK)
            rc = cp_report_stream_begin(s, out->file, fmt, header, st);
        *started = 1;
    }
    for (size_t r = 0; r < k && rc == CP_EXIT_OK; r++)
        rc = cp_report_stream_row(s, &rows[r], st);
    cp_phase_end();
    return rc;
}

/* Configurations whose counting -v describes, at most. */
#define CP_APP_COUNTING_LINES 20

/* Under -v, how the model counts each configuration of a family it may evaluate thread by
 * thread (a user's expression): over the period it proved, or every thread and why. */
static void cp_app_say_model_counting(const cp_config *configs, size_t n)
{
    size_t said = 0, i = 0;
    char note[CP_MODEL_WHY_BYTES], label[192];
    for (; i < n && said < CP_APP_COUNTING_LINES; i++) {
        if (!cp_model_counting(&configs[i], note, sizeof note))
            continue;
        cp_config_describe(&configs[i], label, sizeof label);
        fprintf(stderr, "coalprobe: model: %s: %s\n", label, note);
        said++;
    }
    if (said && i < n)
        fprintf(stderr, "coalprobe: model: (the first %d configurations described, of %zu)\n",
                CP_APP_COUNTING_LINES, n);
}

/* A long model run says so first, terminal or not: a huge expression or gather is evaluated
 * thread by thread (spread over the CPUs); -v says how each configuration is counted. */
static void cp_app_say_model_cost(const cp_options *o, const cp_config *configs, size_t n)
{
    cp_model_cost cost;
    char notice[256];
    if (o->verbose)
        cp_app_say_model_counting(configs, n);
    cp_model_estimate(configs, n, &cost);
    if (cp_progress_model_notice(notice, sizeof notice, &cost))
        cp_progress_note(stderr, o->quiet, "coalprobe: %s", notice);
}

/* Predicts configs[from..to) (of n) into rows[0..]; *k counts the rows predicted. A signal stops
 * it before the next configuration, and the configuration it cut short is left out. */
static int cp_app_predict_range(const cp_config *configs, size_t from, size_t to, size_t n,
                                cp_row *rows, cp_progress *progress, size_t *k, cp_status *st)
{
    int rc = CP_EXIT_OK;
    size_t j = 0;
    cp_phase_begin(CP_PHASE_MODEL);
    while (from + j < to && !cp_parallel_cancelled()) {
        size_t i = from + j;
        cp_progress_update(progress, i, n, &configs[i]);
        rows[j].config = configs[i];
        rc = cp_model_predict(&configs[i], &rows[j].predicted, st);
        if (rc != CP_EXIT_OK && cp_parallel_cancelled()) { /* cut short: left out */
            cp_status_clear(st);
            rc = CP_EXIT_OK;
            break;
        }
        if (rc != CP_EXIT_OK)
            break;
        j++;
    }
    cp_phase_end();
    *k = j;
    return rc;
}

/* One streamed run: the sweep, the buffer of one chunk's rows, and the report in progress. */
typedef struct {
    const cp_options *o;
    const cp_config *configs;
    size_t n;
    cp_row *rows; /* cap rows */
    size_t cap;
    cp_output *out;
    cp_report header;
    cp_report_stream stream;
    int started; /* the report's beginning is written */
    size_t done; /* configurations written */
} cp_app_stream_run;

/* Predicts and writes the sweep chunk by chunk until it ends, fails, or a signal stops it. */
static int cp_app_stream_chunks(cp_app_stream_run *s, cp_status *st)
{
    int rc = CP_EXIT_OK;
    cp_progress progress;
    cp_progress_start(&progress, "predicting", s->o->quiet);
    while (rc == CP_EXIT_OK && s->done < s->n && !cp_parallel_cancelled()) {
        size_t to = s->n - s->done < s->cap ? s->n : s->done + s->cap;
        size_t k = 0;
        rc = cp_app_predict_range(s->configs, s->done, to, s->n, s->rows, &progress, &k, st);
        s->header.incomplete =
            cp_parallel_cancelled() != 0; /* known when the first chunk stopped */
        if (rc == CP_EXIT_OK && (k > 0 || s->started))
            rc = cp_app_write_chunk(&s->stream, &s->started, s->out, s->o->format, &s->header,
                                    s->rows, k, st);
        s->done += k;
    }
    cp_progress_clear(&progress);
    return rc;
}

/* Ends the streamed report (rc: how the chunks went) and closes the output: a report cut short
 * by a signal is marked incomplete, and the run exits with the signal's status. */
static int cp_app_stream_finish(cp_app_stream_run *s, int rc, cp_status *st)
{
    if (rc == CP_EXIT_OK)
        rc = cp_app_write_chunk(&s->stream, &s->started, s->out, s->o->format, &s->header, s->rows,
                                0, st);
    if (rc == CP_EXIT_OK) {
        cp_phase_begin(CP_PHASE_REPORT);
        rc = cp_report_stream_end(&s->stream, st);
        if (rc == CP_EXIT_OK && s->header.incomplete && s->o->format == CP_FORMAT_JSON)
            rc = cp_report_stream_mark_incomplete_fd(&s->stream, cp_output_temp_fd(s->out),
                                                     s->out->path, st);
        cp_phase_end();
    }
    rc = cp_output_close(s->out, rc, st);
    if (rc == CP_EXIT_OK && s->header.incomplete)
        rc = cp_app_say_interrupted(s->out, s->done, s->n);
    return rc;
}

/* A model-only run whose report streams (cp_app_streams): predicts CP_APP_CHUNK configurations,
 * writes their rows, and goes on with the next, so that memory holds one chunk's rows whatever
 * the sweep's size. The report starts after the first chunk (an error there writes nothing). A
 * signal stops it after the configuration in progress: the report holds the rows predicted and
 * is marked incomplete (JSON: the header's flag, rewritten in the temporary file). */
static int cp_app_run_streamed(const cp_options *o, const char *command, const cp_config *configs,
                               size_t n, cp_output *out, cp_status *st)
{
    cp_app_stream_run s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.configs = configs;
    s.n = n;
    s.cap = n < CP_APP_CHUNK ? n : CP_APP_CHUNK;
    s.out = out;
    s.rows = calloc(s.cap ? s.cap : 1, sizeof *s.rows);
    if (!s.rows) {
        cp_output_abort(out);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu configurations", s.cap);
    }
    struct sigaction old_actions[CP_APP_SIGNALS];
    cp_app_catch_signals(old_actions);
    cp_app_say_model_cost(o, configs, n);
    s.header.tool_version = CP_VERSION;
    s.header.command = command;
    int rc = cp_app_stream_chunks(&s, st);
    s.header.incomplete = cp_parallel_cancelled() != 0;
    if (rc == CP_EXIT_OK && s.header.incomplete && s.done == 0) /* the old file stays as it was */
        rc = cp_app_say_interrupted(out, 0, n);
    else
        rc = cp_app_stream_finish(&s, rc, st);
    cp_app_restore_signals(old_actions);
    cp_output_abort(out);
    free(s.rows);
    return rc;
}

/* Refuses a run that needs hardware counters it has not got: --check, and --require-counters
 * (state: the backend's, NULL without a GPU; refusal: why CUPTI refused the counters). */
static int cp_app_check_counters(const cp_options *o, const void *state, const cp_status *refusal,
                                 cp_status *st)
{
    int counters_refused = refusal->code != CP_EXIT_OK;
    if (o->check && (!state || counters_refused)) {
        int rc = cp_status_set(st, CP_EXIT_RUNTIME,
                               "--check needs measured hardware counters, and this run has none "
                               "(%s): nothing was checked",
                               state ? "CUPTI refused them" : "no GPU");
        cp_status_hint(st, "run on a GPU where CUPTI may profile (the line above says why not "
                           "here), or drop --check for the model's predictions alone");
        return rc;
    }
    if (o->require_counters && !state && !cp_parallel_cancelled()) {
        int rc = cp_status_set(st, CP_EXIT_RUNTIME,
                               "--require-counters: the hardware counters cannot be read: %s",
                               o->model_only ? "--model measures nothing" : "this run has no GPU");
        cp_status_hint(st, "%s",
                       o->model_only ? "drop --model, or --require-counters"
                                     : "run on a GPU where CUPTI may profile (see the "
                                       "note above), or drop --require-counters");
        return rc;
    }
    if (state && counters_refused && o->require_counters) {
        int rc =
            cp_status_set(st, CP_EXIT_RUNTIME, "hardware counters refused (%s)", refusal->message);
        cp_status_hint(st, "%s", refusal->hint);
        return rc;
    }
    return CP_EXIT_OK;
}

/* Measures every configuration (*done: how many before a signal), then warns when the rows
 * carry timings only and notes the device. */
static int cp_app_measure(const cp_backend *backend, void *state, const cp_config *configs,
                          const cp_prediction *preds, cp_row *rows, cp_measurement *meas, size_t n,
                          size_t *done, cp_status *refusal, const cp_device_info *dev, int quiet,
                          cp_status *st)
{
    CP_TRY(cp_app_measure_all(backend, state, configs, preds, rows, meas, n, done, dev, quiet, st));
    for (size_t i = 0; i < *done; i++) /* where each working set likely lives, on this device */
        cp_model_estimate_regime(&rows[i].predicted, cp_arch_from_cc(dev->cc_major, dev->cc_minor),
                                 dev->l2_bytes);
    int counters_refused = refusal->code != CP_EXIT_OK;
    if (!counters_refused && backend->counters_refusal) { /* a session opened meanwhile */
        backend->counters_refusal(state, refusal);
        counters_refused = refusal->code != CP_EXIT_OK;
    }
    if (counters_refused)
        fprintf(stderr,
                "coalprobe: warning: hardware counters unavailable: %s%s%s\n"
                "coalprobe: the rows carry timings only\n",
                refusal->message, refusal->hint[0] ? "\nhint: " : "", refusal->hint);
    cp_app_note_device(quiet, dev, meas, *done);
    return CP_EXIT_OK;
}

/* The table's layout for the main output: the width of the terminal it goes to (100 columns
 * for a file), every column with --wide, colours by --color. */
static cp_report_view cp_app_view(const cp_options *o, const cp_output *out)
{
    int fd = out->path ? -1 : STDOUT_FILENO;
    return (cp_report_view){.width = o->wide ? 0 : cp_term_width(fd),
                            .wide = o->wide,
                            .color = cp_term_color(o->color, fd)};
}

/* Writes the report of `done` rows (of n) through the output and the exports beside it (which
 * are renamed into place once the main report is); a report cut short by a signal exits with
 * the signal's status, and one with no rows at all writes nothing. */
static int cp_app_write_report(const cp_options *o, const char *command, const cp_device_info *dev,
                               const cp_report *several, const cp_row *rows, size_t done, size_t n,
                               cp_output *out, cp_exports *ex, cp_status *st)
{
    cp_report_view view = cp_app_view(o, out);
    cp_report report = {.tool_version = CP_VERSION,
                        .command = command,
                        .device = dev,
                        .devices = several ? several->devices : NULL,
                        .ndevices = several ? several->ndevices : 0,
                        .mixed_devices = several ? several->mixed_devices : 0,
                        .sampling = dev ? &o->sampling : NULL,
                        .rows = rows,
                        .nrows = done,
                        .incomplete = cp_parallel_cancelled() != 0,
                        .view = &view};
    if (report.incomplete && done == 0) /* nothing to report: the old file stays as it was */
        return cp_app_say_interrupted(out, 0, n);
    cp_phase_begin(CP_PHASE_REPORT);
    int rc = cp_exports_write(ex, cp_report_export, &report, st);
    if (rc == CP_EXIT_OK)
        rc = cp_output_begin(out, st);
    if (rc == CP_EXIT_OK)
        rc = cp_report_write(out->file, o->format, &report, st);
    cp_phase_end();
    rc = cp_output_close(out, rc, st);
    if (rc > 128 && rc != CP_EXIT_PIPE) /* a signal while a FIFO waited for its reader */
        fprintf(stderr, "coalprobe: %s\n", st->message);
    if (rc == CP_EXIT_OK)
        rc = cp_exports_commit(ex, st);
    if (rc == CP_EXIT_OK && report.incomplete)
        rc = cp_app_say_interrupted(out, done, n);
    return rc;
}

/* --check: fails when a measured configuration's requests or sectors differ from the model. */
static int cp_app_check_matches(const cp_config *configs, const cp_measurement *meas, size_t n,
                                cp_status *st)
{
    for (size_t i = 0; i < n; i++) {
        if (meas[i].counts_match == 0) {
            char desc[160];
            cp_config_describe(&configs[i], desc, sizeof desc);
            int rc = cp_status_set(st, CP_EXIT_MISMATCH,
                                   "measured requests or sectors differ from the model (first: %s)",
                                   desc);
            cp_status_hint(st, "the report's match column shows every row that differs");
            return rc;
        }
    }
    return CP_EXIT_OK;
}

/* After a run over several GPUs: where each working set likely lives on its row's GPU, and the
 * notes on each kind of GPU. */
static void cp_app_settle_devices(int quiet, cp_row *rows, const cp_measurement *meas, size_t done,
                                  const cp_report *several)
{
    for (size_t i = 0; i < done; i++)
        if (rows[i].device && rows[i].measured)
            cp_model_estimate_regime(
                &rows[i].predicted,
                cp_arch_from_cc(rows[i].device->cc_major, rows[i].device->cc_minor),
                rows[i].device->l2_bytes);
    for (size_t k = 0; k < several->ndevices; k++)
        if (several->devices[k].name[0] && (k == 0 || several->mixed_devices))
            cp_app_note_device(quiet, &several->devices[k], meas, done);
}

/* The measuring part of a run over several GPUs (--devices, cp_devices.h): the workers measure
 * the rows, the report names each row's GPU, and a GPU that failed makes the run exit 1 once the
 * report is written. */
static int cp_app_run_devices(const cp_options *o, const char *command, const cp_backend *backend,
                              const cp_config *configs, const cp_prediction *preds, cp_row *rows,
                              cp_measurement *meas, size_t n, cp_output *out, cp_exports *ex,
                              cp_status *st)
{
    cp_backend_options bo;
    cp_app_backend_options(o, configs, preds, n, &bo);
    cp_devices *devs = NULL;
    size_t done = 0;
    cp_status no_gpu;
    CP_TRY(cp_devices_measure(o, backend, &bo, configs, rows, meas, n, &done, &devs, &no_gpu, st));
    if (!devs) { /* no GPU: as a run over one without a GPU */
        cp_app_note_no_gpu(o, no_gpu.message);
        cp_status none;
        cp_status_clear(&none);
        CP_TRY(cp_app_check_counters(o, NULL, &none, st));
        return cp_app_write_report(o, command, NULL, NULL, rows, n, n, out, ex, st);
    }
    cp_report several = {0};
    several.devices = cp_devices_info(devs, &several.ndevices, &several.mixed_devices);
    const cp_device_info *first = NULL;
    for (size_t k = 0; k < several.ndevices && !first; k++)
        if (several.devices[k].name[0])
            first = &several.devices[k];
    cp_app_settle_devices(o->quiet, rows, meas, done, &several);
    if (o->verbose)
        cp_devices_print_workers(devs, stderr);
    int rc = cp_app_write_report(o, command, first, &several, rows, done, n, out, ex, st);
    if (rc == CP_EXIT_OK && o->check)
        rc = cp_app_check_matches(configs, meas, done, st);
    if (rc == CP_EXIT_OK)
        rc = cp_devices_failures(devs, st);
    cp_devices_close(devs);
    return rc;
}

/* A run that holds every row: predicts them all, measures them on the GPU unless --model (or
 * no GPU), writes the report, and with --check compares the counts. */
static int cp_app_run_held(const cp_options *o, const char *command, const cp_backend *backend,
                           const cp_config *configs, size_t n, cp_output *out, cp_exports *ex,
                           cp_status *st)
{
    int rc = CP_EXIT_OK;
    cp_row *rows = calloc(n, sizeof *rows);
    cp_measurement *meas = calloc(n, sizeof *meas);
    cp_prediction *preds = calloc(n, sizeof *preds);
    cp_device_info dev;
    void *state = NULL;
    cp_status refusal;
    cp_status_clear(&refusal);
    size_t done = n; /* configurations finished (fewer after a signal) */
    struct sigaction old_actions[CP_APP_SIGNALS];
    cp_app_catch_signals(old_actions);
    if (!rows || !meas || !preds) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu configurations", n);
        goto done;
    }
    cp_app_say_model_cost(o, configs, n);
    cp_progress progress;
    cp_progress_start(&progress, "predicting", o->quiet);
    rc = cp_app_predict_range(configs, 0, n, n, rows, &progress, &done, st);
    cp_progress_clear(&progress);
    if (rc != CP_EXIT_OK)
        goto done;
    for (size_t i = 0; i < done; i++)
        preds[i] = rows[i].predicted;

    if (!o->model_only && backend && !cp_parallel_cancelled() &&
        (o->devices_all || o->ndevices > 0)) {
        rc = cp_app_run_devices(o, command, backend, configs, preds, rows, meas, n, out, ex, st);
        goto done;
    }
    if (!o->model_only && backend && !cp_parallel_cancelled()) {
        rc = cp_app_open_backend(o, backend, configs, preds, n, &dev, &state, &refusal, st);
        if (rc != CP_EXIT_OK)
            goto done;
    }
    rc = cp_app_check_counters(o, state, &refusal, st);
    if (rc == CP_EXIT_OK && state)
        rc = cp_app_measure(backend, state, configs, preds, rows, meas, n, &done, &refusal, &dev,
                            o->quiet, st);
    if (rc == CP_EXIT_OK && o->explain) { /* --check, --require-counters: the pictures first */
        rc = cp_output_begin(out, st);
        if (rc == CP_EXIT_OK)
            rc = cp_app_explain(o, backend, configs, n, out->file, st);
        if (rc == CP_EXIT_OK)
            fputc('\n', out->file);
    }
    if (rc == CP_EXIT_OK)
        rc = cp_app_write_report(o, command, state ? &dev : NULL, NULL, rows, done, n, out, ex, st);
    if (rc == CP_EXIT_OK && o->check)
        rc = cp_app_check_matches(configs, meas, n, st);

done:
    cp_app_restore_signals(old_actions);
    cp_output_abort(out);
    cp_exports_abort(ex);
    if (backend && state) {
        cp_phase_begin(CP_PHASE_TEARDOWN);
        backend->close(state);
        cp_phase_end();
    }
    free(preds);
    free(meas);
    free(rows);
    return rc;
}

/* The defaults that depend on the device (cp_family_desc.device_default), for the parameters
 * not given: read from the device's L2 when a run measures on one; a run without a device keeps
 * the family's fixed default. */
static int cp_app_device_defaults(cp_options *o, const cp_backend *backend, cp_status *st)
{
    const cp_family_desc *fd = cp_family_get(o->family);
    if (o->model_only || !backend || !backend->l2_bytes || !fd || !fd->device_default)
        return CP_EXIT_OK;
    uint64_t l2 = 0;
    int known = 0;
    for (size_t i = 0; i < fd->nparams; i++) {
        const cp_family_param *p = &fd->params[i];
        if (o->param_given[cp_param_index(p)])
            continue;
        if (!known) {
            int no_device = 0;
            cp_status ignored;
            cp_status_clear(&ignored);
            if (backend->l2_bytes(o->device, &l2, &no_device, &ignored) != CP_EXIT_OK)
                return CP_EXIT_OK; /* no device: the fixed default, said by the run itself */
            known = 1;
        }
        char spec[64];
        if (fd->device_default(p, l2, spec, sizeof spec))
            CP_TRY(cp_cli_parse_param(o, cp_param_index(p), spec, st));
    }
    return CP_EXIT_OK;
}

int cp_app_run(cp_options *o, const char *command, const cp_backend *backend, cp_status *st)
{
    cp_config *configs = NULL;
    size_t n = 0;
    CP_TRY(cp_app_device_defaults(o, backend, st));
    cp_phase_begin(CP_PHASE_PLAN);
    cp_plan_absent absent;
    int planned = cp_plan_build(o, &configs, &n, &absent, st);
    cp_phase_end();
    CP_TRY(planned);
    if (absent.count)
        cp_progress_note(stderr, o->quiet, "coalprobe: note: %zu configuration%s left out: %s\n",
                         absent.count, absent.count == 1 ? "" : "s", absent.reason);
    cp_output out;
    int rc = cp_output_open(&out, o->output, st);
    if (rc == CP_EXIT_OK) {
        rc = cp_exports_open(&o->exports, o->output, st);
        if (rc != CP_EXIT_OK)
            cp_output_abort(&out);
    }
    /* --explain alone draws; with --check or --require-counters the run measures as without it
     * (a missing GPU or counters fail it the same way), the pictures before its report */
    if (rc == CP_EXIT_OK && o->explain && !o->check && !o->require_counters) {
        rc = cp_output_begin(&out, st);
        if (rc == CP_EXIT_OK)
            rc = cp_app_explain(o, backend, configs, n, out.file, st);
        rc = cp_output_close(&out, rc, st);
    } else if (rc == CP_EXIT_OK && cp_app_streams(o, &out)) {
        rc = cp_app_run_streamed(o, command, configs, n, &out, st); /* memory bounded by a chunk */
    } else if (rc == CP_EXIT_OK) {
        rc = cp_app_run_held(o, command, backend, configs, n, &out, &o->exports, st);
    }
    free(configs);
    return rc;
}

void cp_app_report_failure(int json, FILE *out, const char *command, const cp_status *st)
{
    fprintf(stderr, "coalprobe: %s\n", st->message);
    /* a hint of several lines (an expression with a caret under it) stays aligned */
    for (const char *h = st->hint, *first = st->hint; *h;) {
        size_t len = strcspn(h, "\n");
        fprintf(stderr, "%s%.*s\n", h == first ? "hint: " : "      ", (int)len, h);
        h += len + (h[len] == '\n');
    }
    if (json)
        cp_report_write_json_error(out, CP_VERSION, command, st);
}
