/* test_app.c: the whole run (plan, model, measurement, report, exit code) with fake
 * measurement backends, so the paths a GPU rarely takes are tested anywhere: a count that
 * differs from the model (--check: exit 3), counters refused (warning; --require-counters:
 * exit 1), no device (model only; --require-counters: exit 1), a signal before anything
 * finished (nothing written). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cp_app.h"
#include "cp_gemm_config.h" /* after the layers: cuBLAS is not coalprobe's kernel */
#include "cp_test.h"

/* What the fake backend does. */
typedef struct fake_plan {
    int no_device;       /* open: report no GPU */
    int refuse_counters; /* open: counters refused */
    int off_by_one_at;   /* counters: configuration whose load sectors are off by one, or -1 */
    int signal_at;       /* measure: configuration during which a signal arrives, or -1 */
    int signal;          /* that signal */
    int fail_at;         /* measure, resources: configuration whose kernel fails, or -1 */
    int signal_at_open;  /* open: a signal that arrives then (before any measurement), or 0 */
} fake_plan;

static int g_measured;     /* configurations measured in the current run */
static int g_fake_cc = 90; /* the fake GPU's compute capability, major * 10 + minor */
static size_t g_counted;   /* configurations whose counters the last run read */

/* What the fake kernels need of a fake H100 SM: 1024 threads of 40 registers, so 1 block per SM
 * (registers: 1280 a warp, 12 warps a sub-partition), half the SM's warps; cuBLAS: not ours. */
static void fake_kernel_resources(const cp_config *c, cp_resources *r)
{
    memset(r, 0, sizeof *r);
    if (c->family == CP_FAMILY_GEMM && cp_gemm_config_of(c)->variant == CP_GEMM_CUBLAS) {
        snprintf(r->reason, sizeof r->reason, "fake: not coalprobe's kernel");
        r->theoretical_occupancy = NAN;
        return;
    }
    r->known = 1;
    r->registers_per_thread = 40;
    r->threads_per_block = 1024;
    r->blocks_per_sm = 1;
    r->theoretical_occupancy = 0.5;
    r->sm.warp_size = 32;
    r->sm.max_threads_per_sm = 2048;
    r->sm.max_blocks_per_sm = 32;
    r->sm.registers_per_sm = 65536;
    r->sm.shared_bytes_per_sm = 233472;
    r->sm.shared_reserved_per_block = 1024;
    cp_occupancy_arch_units(90, &r->sm);
}

static fake_plan g_plan;
static int g_state;            /* any non-NULL state */
static cp_sampling g_sampling; /* the stopping rule the last open() was given */
static int g_noisy_at = -1;    /* measure: the configuration whose times are noisy, or -1 */

/* Times configuration k as the CUDA backend does, by the rule open() was given: 1 ms samples, and
 * for configuration g_noisy_at 1 ms and 1.1 ms in turn (a 5% noise for ever), each with its L2
 * flush of 30 us spent. */
static void fake_time(int k, cp_measurement *m)
{
    cp_samples s;
    cp_samples_init(&s, &g_sampling);
    double spent = 0;
    for (size_t i = 0; s.stop == CP_SAMPLES_GOING && i < 1000000; i++) {
        double t = k == g_noisy_at && i % 2 ? 1.1e-3 : 1e-3;
        spent += t + 30e-6;
        if (cp_samples_add(&s, t, spent) < 0)
            break;
    }
    cp_samples_result(&s, m);
    cp_samples_free(&s);
}

static int fake_open(const cp_backend_options *opt, cp_device_info *dev, void **state,
                     int *no_device, cp_status *refusal, cp_status *st)
{
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "Fake GPU");
    dev->cc_major = g_fake_cc / 10;
    dev->cc_minor = g_fake_cc % 10;
    dev->peak_measured_bytes_per_s = dev->peak_theoretical_bytes_per_s = 1e12;
    cp_status_clear(refusal);
    g_sampling = opt->sampling;
    if (g_plan.signal_at_open)
        raise(g_plan.signal_at_open);
    *no_device = g_plan.no_device;
    if (g_plan.no_device)
        return cp_status_set(st, CP_EXIT_RUNTIME, "fake: no device");
    /* like the CUDA backend: the refusal is known at open only when asked for at once
     * (--require-counters, --check); otherwise counters_refusal() says it after the timings */
    if (g_plan.refuse_counters && opt->counters_now) {
        cp_status_set(refusal, CP_EXIT_RUNTIME, "CUPTI refused: fake refusal");
        cp_status_hint(refusal, "fake fix");
    }
    *state = &g_state;
    return CP_EXIT_OK;
}

static int fake_measure(void *state, const cp_config *c, const cp_prediction *p, cp_measurement *m,
                        cp_status *st)
{
    (void)state;
    if (g_measured == g_plan.fail_at)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cudaStreamSynchronize failed: cudaErrorIllegalAddress (fake)");
    if (g_measured == g_plan.signal_at)
        raise(g_plan.signal);
    fake_time(g_measured++, m);
    m->useful_bytes = (double)(p->load.bytes_requested + p->store.bytes_requested);
    m->useful_bytes_per_s = m->useful_bytes / m->time_median_s;
    m->verified = 1;
    fake_kernel_resources(c, &m->resources);
    return CP_EXIT_OK;
}

static int fake_counters(void *state, size_t n, const cp_config *c, const cp_prediction *p,
                         cp_measurement *m, cp_status *st)
{
    (void)state;
    (void)c;
    (void)st;
    g_counted = n;
    for (size_t i = 0; i < n; i++) {
        if (g_plan.refuse_counters) {
            m[i].counters_status = CP_COUNTERS_REFUSED;
            continue;
        }
        m[i].counters_status = CP_COUNTERS_OK;
        m[i].counters.load_requests = (double)p[i].load.requests;
        m[i].counters.load_sectors =
            (double)p[i].load.sectors + ((int)i == g_plan.off_by_one_at ? 1 : 0);
        m[i].counters.store_requests = (double)p[i].store.requests;
        m[i].counters.store_sectors = (double)p[i].store.sectors;
        m[i].counters.achieved_occupancy = 0.453;
        m[i].counts_match = (int)i != g_plan.off_by_one_at;
    }
    return CP_EXIT_OK;
}

static int g_refusal_asked; /* times the app asked for a refusal after the timings */

/* The configurations preload() was given before the first measure() (-1: not called). */
static long g_preloaded = -1;

static int fake_preload(void *state, size_t n, const cp_config *c, cp_status *st)
{
    (void)state, (void)c, (void)st;
    if (g_measured == 0)
        g_preloaded = (long)n;
    return CP_EXIT_OK;
}

static void fake_counters_refusal(void *state, cp_status *refusal)
{
    (void)state;
    g_refusal_asked++;
    cp_status_clear(refusal);
    if (g_plan.refuse_counters) {
        cp_status_set(refusal, CP_EXIT_RUNTIME, "CUPTI refused: fake refusal");
        cp_status_hint(refusal, "fake fix");
    }
}

static void fake_close(void *state)
{
    (void)state;
}

static int g_resources_asked; /* configurations whose resources were asked for in this run */

static int fake_resources(int device, const cp_config *c, cp_resources *r, int *no_device,
                          cp_status *st)
{
    (void)device;
    *no_device = g_plan.no_device;
    if (g_plan.no_device)
        return cp_status_set(st, CP_EXIT_RUNTIME, "fake: no device");
    if (g_resources_asked++ == g_plan.fail_at)
        return cp_status_set(st, CP_EXIT_RUNTIME, "fake: cannot read the kernel's attributes");
    fake_kernel_resources(c, r);
    return CP_EXIT_OK;
}

static uint64_t g_fake_l2 = 50u << 20; /* the fake GPU's L2: an H100's */

static int fake_l2_bytes(int device, uint64_t *bytes, int *no_device, cp_status *st)
{
    (void)device;
    if (g_plan.no_device) {
        *no_device = 1;
        return cp_status_set(st, CP_EXIT_RUNTIME, "fake: no device");
    }
    *bytes = g_fake_l2;
    return CP_EXIT_OK;
}

static const cp_backend fake_backend = {"fake",
                                        fake_open,
                                        fake_measure,
                                        fake_counters,
                                        fake_close,
                                        fake_resources,
                                        fake_counters_refusal,
                                        fake_l2_bytes,
                                        NULL,
                                        fake_preload,
                                        NULL,
                                        NULL};

/* What the report file holds before a run (NULL: nothing), as a report of an earlier run. */
static const char *g_old_report;

/* Runs coalprobe with args (argv[0] included) against the fake backend; the report goes to
 * a temporary file whose text is returned in *report (caller frees). */
static int run(const fake_plan *plan, char **report, cp_status *st, int argc, char **argv)
{
    g_plan = *plan;
    g_measured = 0;
    g_preloaded = -1;
    g_resources_asked = 0;
    char path[] = "/tmp/coalprobe-test-app-XXXXXX";
    int fd = mkstemp(path);
    if (g_old_report && write(fd, g_old_report, strlen(g_old_report)) < 0)
        CHECK(0);
    close(fd);
    char *args[32];
    int n = 0;
    for (int i = 0; i < argc; i++)
        args[n++] = argv[i];
    args[n++] = "-o";
    args[n++] = path;
    cp_options o;
    cp_status_clear(st);
    int rc = cp_cli_parse(n, args, &o, st);
    if (rc == CP_EXIT_OK)
        rc = cp_app_run(&o, "coalprobe (test)", &fake_backend, st);
    cp_cli_free(&o);
    *report = NULL;
    FILE *f = fopen(path, "r");
    if (f) {
        *report = calloc(1, 1 << 16);
        size_t len = fread(*report, 1, (1 << 16) - 1, f);
        (*report)[len] = '\0';
        fclose(f);
    }
    unlink(path);
    return rc;
}

/* --explain with the kernel's resources: the lines, the limit that binds, cuBLAS's reason;
 * none with --model; "no GPU" once when there is none. The GEMM table's regs and occupancy. */
static void resources(const fake_plan *ok, const fake_plan *none)
{
    char *report;
    cp_status st;
    char *argv_explain[] = {"coalprobe", "gemm", "--m",       "64",           "--n",      "64",
                            "--k",       "64",   "--variant", "naive,cublas", "--explain"};
    CHECK(run(ok, &report, &st, 11, argv_explain) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, "\nKernel: 1024 threads/block, 40 registers/thread, shared memory "
                               "per block\n  0 B static + 0 B dynamic\n");
    CHECK_STR_CONTAINS(report,
                       "Blocks/SM allowed: threads 2, registers 1, shared memory any, slots 32\n");
    CHECK_STR_CONTAINS(report, "Occupancy: 1 block/SM, 32 of 64 warps: 50% theoretical\n"
                               "  limited by registers\n");
    CHECK(report && !strstr(report, "coalprobe's calculation gives"));
    CHECK_STR_CONTAINS(report, "not modelled (cuBLAS)\n\nKernel resources: fake: not "
                               "coalprobe's kernel\n");
    free(report);

    char *argv_model[] = {"coalprobe", "gemm", "--m",       "64",    "--n",       "64",
                          "--k",       "64",   "--variant", "naive", "--explain", "--model"};
    CHECK(run(ok, &report, &st, 12, argv_model) == CP_EXIT_OK);
    CHECK(report && strstr(report, "warp 0 of") && !strstr(report, "Kernel"));
    free(report);

    CHECK(run(none, &report, &st, 11, argv_explain) == CP_EXIT_OK);
    /* the machine's diagnosis and its fix (as doctor says it), or where the diagnosis finds a
     * GPU after all, the backend's own words */
    const char *said =
        report ? strstr(report, "Kernel resources: no GPU to read them from:\n  ") : NULL;
    CHECK(said != NULL);
    CHECK(said && (strstr(said, "\n  fake: no device\n") || strstr(said, "\n  fix: ")));
    CHECK(said && !strstr(said + 1, "Kernel")); /* once, then the pictures alone */
    free(report);

    /* the GEMM table: registers, and theoretical / achieved occupancy in percent */
    char *argv_table[] = {"coalprobe", "gemm", "--m", "64",        "--n",
                          "64",        "--k",  "64",  "--variant", "naive,cublas"};
    CHECK(run(ok, &report, &st, 10, argv_table) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, " regs ");
    CHECK_STR_CONTAINS(report, "   40  50/45 ");
    free(report);
}

/* --explain reads every configuration's resources before the first picture: a failure on the
 * second leaves nothing written, even where writes go straight through (/dev/fd/N) */
static void explain_fails_before_writing(void)
{
    char path[] = "/tmp/coalprobe-test-app-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    char out[32];
    snprintf(out, sizeof out, "/dev/fd/%d", fd);
    char *argv[] = {"coalprobe", "gemm",      "--m",   "64,128",    "--n", "64", "--k",
                    "64",        "--variant", "naive", "--explain", "-o",  out};
    fake_plan fails = {0, 0, -1, -1, 0, 1, 0};
    g_plan = fails;
    g_resources_asked = 0;
    cp_options o;
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_cli_parse((int)(sizeof argv / sizeof argv[0]), argv, &o, &st);
    if (rc == CP_EXIT_OK)
        rc = cp_app_run(&o, "coalprobe (test)", &fake_backend, &st);
    cp_cli_free(&o);
    CHECK_EQ_U64(rc, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "fake: cannot read the kernel's attributes");
    CHECK_EQ_U64(g_resources_asked, 2);
    struct stat sb;
    CHECK(stat(path, &sb) == 0);
    CHECK_EQ_U64(sb.st_size, 0);
    close(fd);
    unlink(path);
}

/* Occurrences of needle in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* A GPU below a rung's architecture (cp.async needs sm_80, TMA sm_90): those rows are predicted
 * and not measured, the others measured, and only theirs profiled. */
static void beyond_device(void)
{
    fake_plan ok = {0, 0, -1, -1, 0, -1, 0};
    char *argv[] = {"coalprobe", "async",  "--variant", "all",      "--stages",
                    "1",         "--size", "64K",       "--format", "json"};
    char *report;
    cp_status st;
    g_fake_cc = 80; /* an A100: cp.async, no TMA */
    CHECK(run(&ok, &report, &st, 10, argv) == CP_EXIT_OK);
    CHECK_EQ_U64(g_preloaded, 5); /* every configuration, before the first measure(): the
                                     backend skips those beyond its GPU */
    CHECK_EQ_U64(g_measured, 3);  /* plain, smem, cp-async */
    CHECK_EQ_U64(g_counted, 3);
    CHECK_EQ_U64(count_of(report, "\"source\":\t\"model\""), 2);
    CHECK_EQ_U64(count_of(report, "\"source\":\t\"measured\""), 3);
    free(report);
    g_fake_cc = 75; /* a Turing GPU: neither */
    CHECK(run(&ok, &report, &st, 10, argv) == CP_EXIT_OK);
    CHECK_EQ_U64(g_measured, 2);
    CHECK_EQ_U64(g_counted, 2);
    free(report);
    g_fake_cc = 90;
    CHECK(run(&ok, &report, &st, 10, argv) == CP_EXIT_OK);
    CHECK_EQ_U64(g_measured, 5);
    CHECK_EQ_U64(g_counted, 5);
    free(report);
}

/* The largest table_bytes of a readonly CSV report, 0 when none. */
static unsigned long long largest_table(const char *csv)
{
    if (!csv)
        return 0;
    int column = 0; /* table_bytes' position in the header */
    for (const char *h = csv; *h && *h != '\n' && strncmp(h, "table_bytes,", 12) != 0; h++)
        column += *h == ',';
    unsigned long long top = 0;
    for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        const char *q = p + 1;
        for (int comma = 0; *q && *q != '\n' && comma < column; q++)
            comma += *q == ',';
        unsigned long long v = strtoull(q, NULL, 10);
        top = v > top ? v : top;
    }
    return top;
}

/* readonly's default tables reach 4 times the device's L2 (at least 256 MB); a --table given,
 * --model and a run without a device keep theirs. */
static void device_defaults(void)
{
    fake_plan ok = {0, 0, -1, -1, 0, -1, 0};
    char *argv[] = {"coalprobe", "readonly", "--variant", "plain",
                    "--size",    "4K",       "--format",  "csv"};
    char *report;
    cp_status st;
    CHECK(run(&ok, &report, &st, 8, argv) == CP_EXIT_OK); /* 50 MB of L2: 256 MB */
    CHECK_EQ_U64(largest_table(report), 256ull << 20);
    free(report);
    g_fake_l2 = 126u << 20; /* 504 MB: 1 GB */
    CHECK(run(&ok, &report, &st, 8, argv) == CP_EXIT_OK);
    CHECK_EQ_U64(largest_table(report), 1ull << 30);
    free(report);
    char *given[] = {"coalprobe", "readonly", "--variant",  "plain",    "--size",
                     "4K",        "--table",  "4K..64K:x4", "--format", "csv"};
    CHECK(run(&ok, &report, &st, 10, given) == CP_EXIT_OK);
    CHECK_EQ_U64(largest_table(report), 64u << 10);
    free(report);
    char *model[] = {"coalprobe", "readonly", "--variant", "plain", "--size",
                     "4K",        "--model",  "--format",  "csv"};
    CHECK(run(&ok, &report, &st, 9, model) == CP_EXIT_OK);
    CHECK_EQ_U64(largest_table(report), 256ull << 20);
    free(report);
    fake_plan none = ok;
    none.no_device = 1;
    CHECK(run(&none, &report, &st, 8, argv) == CP_EXIT_OK);
    CHECK_EQ_U64(largest_table(report), 256ull << 20);
    free(report);
    g_fake_l2 = 50u << 20;
}

/* The rows of report (JSON) whose measured `key` reads `value` (a number or a literal). */
static int rows_with(const char *report, const char *key, const char *value)
{
    char needle[96];
    snprintf(needle, sizeof needle, "\"%s\":\t%s,", key, value);
    return count_of(report, needle);
}

/* The stopping rule: each row takes the fewest launches when quiet, a noisy one stops at
 * --max-time and is marked (JSON, CSV, the table's ~ and its note), the options reach the
 * backend, --reps fixes the count, and the combinations that cannot be are refused. */
static void sampling_rule(void)
{
    fake_plan ok = {0, 0, -1, -1, 0, -1, 0};
    char *report;
    cp_status st;
    char *json[] = {"coalprobe", "--stride", "1,2", "--size", "4K", "--format", "json"};
    CHECK(run(&ok, &report, &st, 7, json) == CP_EXIT_OK);
    CHECK_EQ_U64(rows_with(report, "reps", "5"), 2);
    CHECK_EQ_U64(rows_with(report, "noise", "0"), 2);
    CHECK_EQ_U64(rows_with(report, "noisy", "false"), 2);
    CHECK_STR_CONTAINS(report, "\"timing\":\t{\n\t\t\"reps\":\tnull,\n\t\t\"min_samples\":\t5,");
    free(report);

    g_noisy_at = 1;
    char *noisy[] = {"coalprobe", "--stride", "1,2",        "--size", "4K",
                     "--format",  "json",     "--max-time", "20ms"};
    CHECK(run(&ok, &report, &st, 9, noisy) == CP_EXIT_OK);
    CHECK_EQ_U64(rows_with(report, "noisy", "true"), 1);
    CHECK_EQ_U64(rows_with(report, "reps", "19"), 1); /* 1.08 ms a launch: 20 ms at the 19th */
    CHECK_STR_CONTAINS(report, "\"max_time_s\":\t0.02,");
    free(report);
    char *table[] = {"coalprobe", "--stride", "1,2", "--size", "4K", "--max-time", "20ms"};
    CHECK(run(&ok, &report, &st, 7, table) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, " ~1000.0 "); /* the median of 1 ms and 1.1 ms in turn */
    CHECK_EQ_U64(count_of(report, "~"), 2);  /* the row, and the note */
    CHECK_STR_CONTAINS(report, "(~: 1 noisy row: its timed launches stayed noisier than "
                               "--max-noise until --max-time stopped them;\n");
    free(report);
    char *csv[] = {"coalprobe", "--stride", "1,2", "--size", "4K", "--format", "csv"};
    /* the default 0.5 s: 231 pairs of 2.16 ms and two more launches; the median of 232 of each
     * is 1.05 ms, the interval [1 ms, 1.1 ms]: a noise of 0.05 / 1.05 */
    CHECK(run(&ok, &report, &st, 7, csv) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, ",meas_reps,meas_noise,meas_noisy\n");
    CHECK_STR_CONTAINS(report, ",5,0,false\n");
    CHECK_STR_CONTAINS(report, ",464,0.047619,true\n");
    free(report);
    /* a looser --max-noise takes the same times as quiet: 5% at five launches */
    char *loose[] = {"coalprobe", "--stride", "1,2",         "--size", "4K",
                     "--format",  "json",     "--max-noise", "6"};
    CHECK(run(&ok, &report, &st, 9, loose) == CP_EXIT_OK);
    CHECK_EQ_U64(rows_with(report, "noisy", "false"), 2);
    CHECK_EQ_U64(rows_with(report, "reps", "5"), 2);
    free(report);
    g_noisy_at = -1;

    char *more[] = {"coalprobe", "--stride", "1,2",           "--size", "4K",
                    "--format",  "json",     "--min-samples", "9"};
    CHECK(run(&ok, &report, &st, 9, more) == CP_EXIT_OK);
    CHECK_EQ_U64(rows_with(report, "reps", "9"), 2);
    free(report);
    char *fixed[] = {"coalprobe", "--stride", "1,2",    "--size", "4K",
                     "--format",  "json",     "--reps", "3"};
    CHECK(run(&ok, &report, &st, 9, fixed) == CP_EXIT_OK);
    CHECK_EQ_U64(rows_with(report, "reps", "3"), 3); /* two rows and the timing */
    CHECK_EQ_U64(rows_with(report, "noise", "null"), 2);
    free(report);
    char *model[] = {"coalprobe", "--stride", "1,2", "--size", "4K", "--format", "json", "--model"};
    CHECK(run(&ok, &report, &st, 8, model) == CP_EXIT_OK);
    CHECK(report && !strstr(report, "\"timing\""));
    free(report);

    char *both[] = {"coalprobe", "--stride", "1", "--reps", "3", "--max-noise", "1"};
    CHECK_USAGE_ERROR(run(&ok, &report, &st, 7, both), st,
                      "--reps fixes the count of timed launches: --max-noise belongs to the "
                      "stopping rule");
    free(report);
    char *times[] = {"coalprobe", "--stride", "1", "--min-time", "1", "--max-time", "500ms"};
    CHECK_USAGE_ERROR(run(&ok, &report, &st, 7, times), st,
                      "--min-time 1 s is longer than --max-time 0.5 s");
    free(report);
}

/* -v: the run marks its start-up's end when the first configuration is measured (the plan, the
 * model and the backend's opening before it); a model-only run has none. */
static void start_up_marked(void)
{
    fake_plan ok = {0, 0, -1, -1, 0, -1, 0};
    char *report, *text = NULL;
    size_t len = 0;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..3", "--size", "4K"};
    for (int model = 0; model < 2; model++) {
        cp_phase_start();
        char *args[] = {argv[0], argv[1], argv[2], argv[3], argv[4], "--model"};
        CHECK(run(&ok, &report, &st, model ? 6 : 5, model ? args : argv) == CP_EXIT_OK);
        free(report);
        FILE *f = open_memstream(&text, &len);
        CHECK(f != NULL);
        if (!f)
            return;
        cp_phase_print(f);
        fclose(f);
        const char *start_up = strstr(text, "s of it before the first configuration");
        CHECK(model ? start_up == NULL : start_up != NULL);
        CHECK(model || (start_up && strstr(start_up, "\n  model ")));
        free(text);
        text = NULL;
    }
}

int main(void)
{
    start_up_marked();
    sampling_rule();
    beyond_device();
    device_defaults();
    char *argv_check[] = {"coalprobe", "--stride", "1..3", "--size", "4K", "--check"};
    char *argv_plain[] = {"coalprobe", "--stride", "1..3", "--size", "4K"};
    char *argv_require[] = {"coalprobe", "--stride", "1", "--size", "4K", "--require-counters"};
    char *report;
    cp_status st;

    /* every count matches: exit 0, every row "yes" */
    fake_plan ok = {0, 0, -1, -1, 0, -1, 0};
    CHECK(run(&ok, &report, &st, 6, argv_check) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, "yes");
    CHECK(report && !strstr(report, " NO"));
    free(report);

    /* one count differs: the report is written and marks the row, --check exits 3 */
    fake_plan off = {0, 0, 1, -1, 0, -1, 0};
    CHECK(run(&off, &report, &st, 6, argv_check) == CP_EXIT_MISMATCH);
    CHECK_STR_CONTAINS(st.message, "differ from the model (first: stride=2 ");
    CHECK_STR_CONTAINS(report, "NO");
    free(report);
    /* without --check the same run exits 0 */
    CHECK(run(&off, &report, &st, 5, argv_plain) == CP_EXIT_OK);
    free(report);

    /* counters refused: timings still reported, exit 0; --require-counters: exit 1, no file */
    fake_plan refused = {0, 1, -1, -1, 0, -1, 0};
    g_refusal_asked = 0;
    CHECK(run(&refused, &report, &st, 5, argv_plain) == CP_EXIT_OK);
    CHECK(report != NULL && report[0] != '\0');
    CHECK(g_refusal_asked == 1); /* the session opened beside the timings: asked afterwards */
    free(report);
    CHECK(run(&refused, &report, &st, 6, argv_require) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "hardware counters refused (CUPTI refused: fake refusal)");
    CHECK_STR_CONTAINS(st.hint, "fake fix");
    CHECK(report == NULL || report[0] == '\0'); /* the report file was never committed */
    free(report);
    /* --check needs counters */
    CHECK(run(&refused, &report, &st, 6, argv_check) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--check needs measured hardware counters");
    free(report);

    /* no device: the model's report, exit 0 */
    fake_plan none = {1, 0, -1, -1, 0, -1, 0};
    CHECK(run(&none, &report, &st, 5, argv_plain) == CP_EXIT_OK);
    CHECK_STR_CONTAINS(report, "4.00");
    free(report);
    /* no device with --require-counters: no counters, exit 1 with the reason and no report */
    CHECK(run(&none, &report, &st, 6, argv_require) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "--require-counters: the hardware counters cannot be read: "
                                   "this run has no GPU");
    CHECK(report == NULL || report[0] == '\0');
    free(report);

    /* SIGINT while the second of three configurations runs: the two finished rows are
     * written as a report marked incomplete, exit 130; SIGTERM: 143; JSON stays valid */
    char *argv_json[] = {"coalprobe", "--stride", "1..3", "--size", "4K", "--format", "json"};
    fake_plan sigint = {0, 0, -1, 1, SIGINT, -1, 0};
    CHECK(run(&sigint, &report, &st, 5, argv_plain) == 130);
    CHECK_STR_CONTAINS(report, "(incomplete: the sweep was interrupted)");
    CHECK(report && strstr(report, "\n     2 ") && !strstr(report, "\n     3 "));
    free(report);
    fake_plan sigterm = {0, 0, -1, 0, SIGTERM, -1, 0};
    CHECK(run(&sigterm, &report, &st, 7, argv_json) == 143);
    CHECK_STR_CONTAINS(report, "\"incomplete\":\ttrue");
    CHECK_STR_CONTAINS(report, "\"rows\":\t[{");
    CHECK(report && !strstr(report, "\"stride\":\t2"));
    free(report);
    /* a signal before any configuration finished: nothing written, the old report left as it
     * was, exit 128 + the signal */
    fake_plan early = {0, 0, -1, -1, 0, -1, SIGTERM};
    g_old_report = "the old report\n";
    CHECK(run(&early, &report, &st, 7, argv_json) == 143);
    CHECK(report && strcmp(report, "the old report\n") == 0);
    CHECK(g_measured == 0);
    free(report);
    g_old_report = NULL;
    /* the handlers are gone after the run: the default action is back */
    struct sigaction now;
    sigaction(SIGINT, NULL, &now);
    CHECK(now.sa_handler == SIG_DFL);

    /* a kernel that fails: exit 1, the message, and no report left behind */
    fake_plan fails = {0, 0, -1, -1, 0, 1, 0};
    CHECK(run(&fails, &report, &st, 5, argv_plain) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cudaErrorIllegalAddress (fake) (measuring stride stride=2");
    CHECK(report == NULL || report[0] == '\0');
    free(report);

    resources(&ok, &none);
    explain_fails_before_writing();
    return cp_test_finish();
}
