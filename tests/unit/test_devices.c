/* test_devices.c: a sweep spread over several GPUs (--devices, src/app/cp_devices.c) with a fake
 * backend of several fake GPUs, one state each, measured from several threads: rows in the
 * sweep's order, each naming its GPU; GPUs of different kinds refused without --mixed; a GPU
 * that fails mid-sweep leaves its rows marked failed while the others finish (exit 1); --check
 * flags a row whose time differs from the other GPUs'; device lists that do not exist; every
 * GPU loads every configuration's kernels before its first, and one that cannot measures nothing
 * while the others measure every row; counters read in whole batches as the sweep goes, each GPU
 * as soon as it has one, each row's by the GPU that timed it; the end of
 * the queue left to the GPUs with the least counters to read; -v's line per GPU. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "app/cp_app.h"
#include "app/cp_devices.h"
#include "cp_test.h"
#include "cp_stride_config.h" /* after the layers */

#define FAKE_GPUS 4

/* What the fake machine is like in the current run. */
typedef struct fake_machine {
    int count;                /* GPUs */
    int cc[FAKE_GPUS];        /* compute capability of each, major * 10 + minor (0: 90) */
    double slow[FAKE_GPUS];   /* each GPU's time factor (0: 1) */
    int fail_gpu, fail_after; /* GPU fail_gpu fails its measurement number fail_after (-1: none) */
    int both;                 /* GPUs 0 and 1 each wait until the other has taken a row */
    int hold;                 /* then GPU 0 waits until GPU 1 has tried `hold` rows */
    int no_device;
    int preload_fail;  /* GPU preload_fail - 1 cannot load its kernels (0: every GPU can) */
    size_t batch;      /* counter_batch() (0: the counters at the end) */
    int no_describe;   /* describe() fails: every GPU opened before any measures */
    int late_open;     /* GPU 1 opens once GPU 0 has measured a row */
    int hold_counters; /* GPU 0's first counters() waits until GPU 1 has measured this many */
} fake_machine;

typedef struct fake_gpu {
    int index;
    int entered, measured, opened, closed;
    size_t preloaded;        /* the configurations preload() was given, before any measure() */
    cp_sampling sampling;    /* the stopping rule open() was given */
    size_t calls, sizes[64]; /* counters() calls and how many rows each */
    int overlapped;          /* a counters() call began while another GPU's was on */
    int held_out;            /* hold_counters, late_open: a wait of it lasted a minute */
    /* the counters it does not read, which its rows point to as the CUDA backend's do: valid
     * until close(), which spoils them as free() would */
    cp_counter_gap gaps[1];
} fake_gpu;

static int g_counting;       /* counters() calls under way */
static int g_counted_by[64]; /* the GPU whose counters() read stride s's row, + 1 */

static fake_machine g_m;
static fake_gpu g_gpu[FAKE_GPUS];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;

/* The device's name, UUID and compute capability. */
static void fake_facts(int d, cp_device_info *dev)
{
    int cc = g_m.cc[d] ? g_m.cc[d] : 90;
    memset(dev, 0, sizeof *dev);
    dev->index = d;
    snprintf(dev->name, sizeof dev->name, "Fake GPU sm_%d", cc);
    snprintf(dev->uuid, sizeof dev->uuid, "GPU-fake-%d", d);
    dev->cc_major = cc / 10;
    dev->cc_minor = cc % 10;
}

static int fake_describe(int d, cp_device_info *dev, cp_status *st)
{
    fake_facts(d, dev);
    return g_m.no_describe ? cp_status_set(st, CP_EXIT_RUNTIME, "fake: cannot describe")
                           : CP_EXIT_OK;
}

static int fake_wait_a_minute(void);

static int fake_open(const cp_backend_options *opt, cp_device_info *dev, void **state,
                     int *no_device, cp_status *refusal, cp_status *st)
{
    int d = opt->device;
    fake_facts(d, dev);
    if (g_m.late_open && d == 1) { /* a minute at most: then held_out */
        pthread_mutex_lock(&g_lock);
        while (g_gpu[0].measured == 0 && !g_gpu[1].held_out)
            g_gpu[1].held_out = fake_wait_a_minute();
        pthread_mutex_unlock(&g_lock);
    }
    dev->l2_bytes = 50u << 20;
    dev->peak_measured_bytes_per_s = dev->peak_theoretical_bytes_per_s = 1e12;
    cp_status_clear(refusal);
    *no_device = g_m.no_device;
    if (g_m.no_device)
        return cp_status_set(st, CP_EXIT_RUNTIME, "fake: no device");
    pthread_mutex_lock(&g_lock);
    g_gpu[d].index = d;
    g_gpu[d].opened++;
    g_gpu[d].sampling = opt->sampling;
    g_gpu[d].gaps[0].counter = "dram_read_bytes";
    snprintf(g_gpu[d].gaps[0].reason, sizeof g_gpu[d].gaps[0].reason, "the fake chip lacks it");
    pthread_mutex_unlock(&g_lock);
    *state = &g_gpu[d];
    return CP_EXIT_OK;
}

/* Waits on g_cond (g_lock held) for a minute at most: 1 when the minute passed. */
static int fake_wait_a_minute(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    return pthread_cond_timedwait(&g_cond, &g_lock, &until) == ETIMEDOUT;
}

/* When asked, GPUs 0 and 1 each wait until the other has taken a row (counted before anyone
 * waits), and GPU 0 then until GPU 1 has tried `hold` rows: both take part whatever the
 * threads' timing, and no wait waits for another. */
static void fake_wait_for_other(fake_gpu *g)
{
    g->entered++;
    pthread_cond_broadcast(&g_cond);
    while (g_m.both && g->index < 2 && g_gpu[1 - g->index].entered == 0)
        pthread_cond_wait(&g_cond, &g_lock);
    while (g_m.hold && g->index == 0 && g_gpu[1].measured < g_m.hold)
        pthread_cond_wait(&g_cond, &g_lock);
    /* hold_counters: GPU 1 starts its batch's last row once GPU 0 reads its counters */
    while (g_m.hold_counters && g->index == 1 && g->measured == (int)g_m.batch - 1 &&
           g_gpu[0].calls == 0 && !g->held_out)
        g->held_out = fake_wait_a_minute();
}

static int fake_measure(void *state, const cp_config *c, const cp_prediction *p, cp_measurement *m,
                        cp_status *st)
{
    (void)c;
    fake_gpu *g = state;
    pthread_mutex_lock(&g_lock);
    fake_wait_for_other(g);
    int k = g->measured++;
    pthread_cond_broadcast(&g_cond);
    pthread_mutex_unlock(&g_lock);
    if (g->index == g_m.fail_gpu && k == g_m.fail_after)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cudaErrorECCUncorrectable (fake)");
    double t = 1e-6 * (double)(1 + p->load.sectors) * (g_m.slow[g->index] ? g_m.slow[g->index] : 1);
    cp_measurement_clear(m);
    /* timed by the worker's rule as the CUDA backend times: t, 0.1% up and down in turn */
    cp_samples s;
    cp_samples_init(&s, &g->sampling);
    static const double around[] = {0.999, 1, 1.001};
    double spent = 0;
    for (size_t i = 0; s.stop == CP_SAMPLES_GOING && i < 100000; i++) {
        spent += t * around[i % 3];
        if (cp_samples_add(&s, t * around[i % 3], spent) < 0)
            break;
    }
    cp_samples_result(&s, m);
    cp_samples_free(&s);
    m->useful_bytes = (double)(p->load.bytes_requested + p->store.bytes_requested);
    m->useful_bytes_per_s = m->useful_bytes / t;
    m->verified = 1;
    return CP_EXIT_OK;
}

static int fake_preload(void *state, size_t n, const cp_config *c, cp_status *st)
{
    (void)c;
    fake_gpu *g = state;
    pthread_mutex_lock(&g_lock);
    if (g->measured == 0)
        g->preloaded = n;
    pthread_mutex_unlock(&g_lock);
    if (g->index == g_m.preload_fail - 1)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cudaErrorNoKernelImageForDevice (fake)");
    return CP_EXIT_OK;
}

/* hold_counters: GPU 0's first counters() call waits until GPU 1 has measured that many rows
 * (a minute at most: then held_out): GPU 1 gets there only if it goes on timing meanwhile. */
static void fake_hold_counters(fake_gpu *g)
{
    if (!g_m.hold_counters || g->index != 0 || g->calls != 1)
        return;
    while (g_gpu[1].measured < g_m.hold_counters && !g->held_out)
        g->held_out = fake_wait_a_minute();
}

static int fake_counters(void *state, size_t n, const cp_config *c, const cp_prediction *p,
                         cp_measurement *m, cp_status *st)
{
    (void)st;
    fake_gpu *g = state;
    pthread_mutex_lock(&g_lock);
    g->overlapped |= g_counting > 0;
    g_counting++;
    if (g->calls < 64)
        g->sizes[g->calls] = n;
    g->calls++;
    pthread_cond_broadcast(&g_cond);
    for (size_t i = 0; i < n; i++)
        if (cp_stride_config_of(&c[i])->stride < 64) {
            uint64_t s = cp_stride_config_of(&c[i])->stride;
            g_counted_by[s] = g_counted_by[s] ? -1 : g->index + 1;
        }
    fake_hold_counters(g);
    g_counting--;
    pthread_mutex_unlock(&g_lock);
    for (size_t i = 0; i < n; i++) {
        m[i].counters_status = CP_COUNTERS_OK;
        m[i].counters.load_requests = (double)p[i].load.requests;
        m[i].counters.load_sectors = (double)p[i].load.sectors;
        m[i].counters.store_requests = (double)p[i].store.requests;
        m[i].counters.store_sectors = (double)p[i].store.sectors;
        m[i].counts_match = 1;
        m[i].counter_gaps = g->gaps;
        m[i].ncounter_gaps = 1;
    }
    return CP_EXIT_OK;
}

static void fake_close(void *state)
{
    fake_gpu *g = state;
    pthread_mutex_lock(&g_lock);
    g->closed++;
    g->gaps[0].counter = NULL;
    snprintf(g->gaps[0].reason, sizeof g->gaps[0].reason, "closed");
    pthread_mutex_unlock(&g_lock);
}

static int fake_count(int *count, int *no_device, cp_status *st)
{
    *count = g_m.no_device ? 0 : g_m.count;
    *no_device = g_m.no_device;
    return g_m.no_device ? cp_status_set(st, CP_EXIT_RUNTIME, "fake: no device") : CP_EXIT_OK;
}

static size_t fake_counter_batch(void *state)
{
    (void)state;
    return g_m.batch;
}

static const cp_backend fake_backend = {
    "fake", fake_open, fake_measure, fake_counters, fake_close,         NULL,
    NULL,   NULL,      fake_count,   fake_preload,  fake_counter_batch, fake_describe};

/* Runs coalprobe ARGS... -o FILE against the fake machine m; *report: the file's text. */
static int run(const fake_machine *m, char **report, cp_status *st, int argc, char **argv)
{
    g_m = *m;
    memset(g_gpu, 0, sizeof g_gpu);
    memset(g_counted_by, 0, sizeof g_counted_by);
    g_counting = 0;
    char path[] = "/tmp/coalprobe-test-devices-XXXXXX";
    close(mkstemp(path));
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
        *report = calloc(1, 1 << 20);
        size_t len = fread(*report, 1, (1 << 20) - 1, f);
        (*report)[len] = '\0';
        fclose(f);
    }
    unlink(path);
    return rc;
}

static fake_machine machine(int count)
{
    fake_machine m;
    memset(&m, 0, sizeof m);
    m.count = count;
    m.fail_gpu = -1;
    return m;
}

static int json_int(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

/* Two GPUs of one kind, both taking part: 32 rows in the sweep's order, each naming a GPU. */
static void rows_in_order(void)
{
    fake_machine m = machine(2);
    m.both = 1;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..32", "--devices", "all", "--format", "json"};
    cp_phase_start();
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_OK));
    /* -v: the main thread's worker marked the start-up's end at its first configuration */
    char *phases = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&phases, &len);
    if (f) {
        cp_phase_print(f);
        fclose(f);
    }
    CHECK_STR_CONTAINS(phases, "s of it before the first configuration (the start-up):\n");
    free(phases);
    cJSON *root = cJSON_Parse(report);
    CHECK(root != NULL);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    CHECK_EQ_U64((uint64_t)(cJSON_GetArraySize(rows)), (uint64_t)(32));
    int per_gpu[2] = {0, 0}, stride = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *config = cJSON_GetObjectItemCaseSensitive(row, "config");
        CHECK_EQ_U64((uint64_t)(json_int(config, "stride")), (uint64_t)(++stride));
        int gpu = json_int(cJSON_GetObjectItemCaseSensitive(row, "device"), "index");
        CHECK(gpu == 0 || gpu == 1);
        per_gpu[gpu == 1]++;
        CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "failed")));
        const cJSON *measured = cJSON_GetObjectItemCaseSensitive(row, "measured");
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(measured, "match")));
        /* each worker timed its rows by the same rule: quiet at the fewest launches */
        CHECK_EQ_U64((uint64_t)json_int(measured, "reps"), CP_SAMPLING_MIN_SAMPLES);
        CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(measured, "noisy")));
        /* the counters its GPU did not read, and why: kept after that GPU's state closed */
        const cJSON *counters = cJSON_GetObjectItemCaseSensitive(measured, "counters");
        const cJSON *gaps = cJSON_GetObjectItemCaseSensitive(counters, "unavailable");
        CHECK_EQ_U64((uint64_t)cJSON_GetArraySize(gaps), 1);
        const cJSON *gap = cJSON_GetObjectItemCaseSensitive(gaps, "dram_read_bytes");
        CHECK(cJSON_IsString(gap) && strcmp(gap->valuestring, "the fake chip lacks it") == 0);
    }
    CHECK(per_gpu[0] > 0 && per_gpu[1] > 0);
    CHECK_EQ_U64((uint64_t)(per_gpu[0]), (uint64_t)(g_gpu[0].measured));
    CHECK_EQ_U64((uint64_t)(per_gpu[1]), (uint64_t)(g_gpu[1].measured));
    CHECK_EQ_U64((uint64_t)(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "devices"))),
                 (uint64_t)(2));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "mixed_devices")));
    CHECK_EQ_U64((uint64_t)(g_gpu[0].opened + g_gpu[1].opened), (uint64_t)(2));
    CHECK_EQ_U64((uint64_t)(g_gpu[0].closed + g_gpu[1].closed), (uint64_t)(2));
    cJSON_Delete(root);
    free(report);
}

/* The stopping rule's options reach every worker: more launches than the default, and --reps. */
static void rule_on_every_gpu(void)
{
    fake_machine m = machine(2);
    m.both = 1;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..8",          "--devices", "all",
                    "--format",  "json",     "--min-samples", "7"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 9, argv)), (uint64_t)(CP_EXIT_OK));
    cJSON *root = cJSON_Parse(report);
    const cJSON *row;
    int rows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
    {
        const cJSON *measured = cJSON_GetObjectItemCaseSensitive(row, "measured");
        CHECK_EQ_U64((uint64_t)json_int(measured, "reps"), 7);
        rows++;
    }
    CHECK_EQ_U64(rows, 8);
    CHECK_EQ_U64(
        (uint64_t)json_int(cJSON_GetObjectItemCaseSensitive(root, "timing"), "min_samples"), 7);
    CHECK(g_gpu[0].measured > 0 && g_gpu[1].measured > 0);
    cJSON_Delete(root);
    free(report);
    char *fixed[] = {"coalprobe", "--stride", "1..8",   "--devices", "all",
                     "--format",  "csv",      "--reps", "3"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 9, fixed)), (uint64_t)(CP_EXIT_OK));
    CHECK(strstr(report, ",meas_reps,meas_noise,meas_noisy,device_index,") != NULL);
    CHECK(strstr(report, ",3,,false,0,GPU-fake-0,") != NULL); /* 3 launches: no noise yet */
    CHECK(strstr(report, ",3,,false,1,GPU-fake-1,") != NULL);
    free(report);
}

/* --devices 1 measures on GPU 1 alone; the CSV names it. */
static void one_listed(void)
{
    fake_machine m = machine(3);
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1,2", "--devices", "1", "--format", "csv"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_OK));
    CHECK(strstr(report, "device_index,device_uuid,device_failed") != NULL);
    CHECK(strstr(report, ",1,GPU-fake-1,,") != NULL);
    CHECK_EQ_U64((uint64_t)(g_gpu[1].measured), (uint64_t)(2));
    CHECK_EQ_U64((uint64_t)(g_gpu[0].opened + g_gpu[2].opened), (uint64_t)(0));
    free(report);
}

/* GPUs of different kinds: refused (exit 2) before anything is measured; --mixed runs them. */
static void mixed_kinds(void)
{
    fake_machine m = machine(2);
    m.cc[1] = 80;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..4", "--devices", "0,1", "--format", "json"};
    /* decided from describe(), before any GPU is opened; without it, once both are */
    for (int described = 1; described >= 0; described--) {
        m.no_describe = !described;
        CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_USAGE));
        CHECK(strstr(st.message, "GPUs of different kinds") != NULL);
        CHECK(strstr(st.message, "GPU 1 is Fake GPU sm_80 (sm_80)") != NULL);
        CHECK(strstr(st.hint, "--mixed") != NULL);
        CHECK_EQ_U64((uint64_t)(g_gpu[0].measured + g_gpu[1].measured), (uint64_t)(0));
        CHECK_EQ_U64((uint64_t)(g_gpu[0].opened + g_gpu[1].opened), (uint64_t)(described ? 0 : 2));
        CHECK_EQ_U64((uint64_t)(g_gpu[0].closed + g_gpu[1].closed), (uint64_t)(described ? 0 : 2));
        CHECK(report == NULL || report[0] == '\0');
        free(report);
    }
    m.no_describe = 0;
    char *mixed[] = {"coalprobe", "--stride", "1..4",     "--devices",
                     "0,1",       "--mixed",  "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 8, mixed)), (uint64_t)(CP_EXIT_OK));
    CHECK(strstr(report, "\"mixed_devices\":\ttrue") != NULL);
    free(report);
}

/* GPU 1 fails at its third configuration: its rows are marked failed, GPU 0 measures every
 * other row, the report is written, and the run exits 1 naming GPU 1. */
static void one_fails(void)
{
    fake_machine m = machine(2);
    m.both = 1;
    m.hold = 3;
    m.fail_gpu = 1;
    m.fail_after = 2;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..32", "--devices", "all", "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_RUNTIME));
    CHECK(strstr(st.message, "GPU 1") != NULL && strstr(st.message, "ECC") != NULL);
    cJSON *root = cJSON_Parse(report);
    CHECK(root != NULL);
    const cJSON *row;
    int failed = 0, measured = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
    {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(row, "failed");
        int gpu = json_int(cJSON_GetObjectItemCaseSensitive(row, "device"), "index");
        if (cJSON_IsString(why)) {
            failed++;
            CHECK_EQ_U64((uint64_t)(gpu), (uint64_t)(1));
            CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "measured")));
        } else {
            measured++;
            CHECK_EQ_U64((uint64_t)(gpu), (uint64_t)(0));
        }
    }
    CHECK_EQ_U64((uint64_t)failed,
                 3u); /* two measured before it failed, and the one it failed on */
    CHECK_EQ_U64((uint64_t)(measured), (uint64_t)(29));
    cJSON_Delete(root);
    free(report);
}

/* Each GPU is given all 32 configurations to load before its first; GPU 1 cannot load them:
 * it measures nothing, GPU 0 measures all 32 rows, and the run exits 1 naming GPU 1. */
static void one_cannot_load(void)
{
    fake_machine m = machine(2);
    m.preload_fail = 2;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..32", "--devices", "all", "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_RUNTIME));
    CHECK(strstr(st.message, "GPU 1") != NULL && strstr(st.message, "loading its kernels"));
    CHECK_EQ_U64((uint64_t)g_gpu[0].preloaded, 32u);
    CHECK_EQ_U64((uint64_t)g_gpu[1].preloaded, 32u);
    CHECK_EQ_U64((uint64_t)g_gpu[1].measured, 0u);
    CHECK_EQ_U64((uint64_t)g_gpu[0].measured, 32u);
    cJSON *root = cJSON_Parse(report);
    CHECK(root != NULL);
    const cJSON *row;
    int measured = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows")) measured +=
        cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(row, "measured"));
    CHECK_EQ_U64((uint64_t)measured, 32u);
    cJSON_Delete(root);
    free(report);
}

/* --check: with GPUs of one speed no row differs; with GPU 1 twice as slow, every row does. */
static void check_times(void)
{
    for (int slow = 0; slow < 2; slow++) {
        fake_machine m = machine(2);
        m.slow[1] = slow ? 2.0 : 1.0;
        char *report;
        cp_status st;
        char *argv[] = {"coalprobe", "--stride", "1..8",     "--devices",
                        "all",       "--check",  "--format", "json"};
        CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 8, argv)), (uint64_t)(CP_EXIT_OK));
        CHECK_EQ_U64((uint64_t)(g_gpu[0].measured + g_gpu[1].measured),
                     16u); /* each row on both GPUs */
        cJSON *root = cJSON_Parse(report);
        const cJSON *row;
        int differ = 0, checked = 0;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
        {
            const cJSON *other = cJSON_GetObjectItemCaseSensitive(row, "other_devices");
            checked += cJSON_IsObject(other);
            differ += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(other, "differs"));
        }
        CHECK_EQ_U64((uint64_t)(checked), (uint64_t)(8));
        CHECK_EQ_U64((uint64_t)(differ), (uint64_t)(slow ? 8 : 0));
        cJSON_Delete(root);
        free(report);
    }
}

/* Device lists: a GPU that does not exist (exit 2); --device with --devices; --mixed alone;
 * no GPU at all (model only, exit 0). */
static void device_lists(void)
{
    fake_machine m = machine(2);
    char *report;
    cp_status st;
    char *absent[] = {"coalprobe", "--stride", "1", "--devices", "0,5"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 5, absent)), (uint64_t)(CP_EXIT_USAGE));
    CHECK(strstr(st.message, "device 5 does not exist: this machine has 2") != NULL);
    free(report);
    char *both[] = {"coalprobe", "--stride", "1", "--devices", "0,1", "--device", "1"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, both)), (uint64_t)(CP_EXIT_USAGE));
    CHECK(strstr(st.message, "--device and --devices") != NULL);
    free(report);
    char *mixed[] = {"coalprobe", "--stride", "1", "--mixed"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 4, mixed)), (uint64_t)(CP_EXIT_USAGE));
    free(report);
    m.no_device = 1;
    char *none[] = {"coalprobe", "--stride", "1,2", "--devices", "all", "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, none)), (uint64_t)(CP_EXIT_OK));
    CHECK(strstr(report, "\"device\":\tnull") != NULL);
    CHECK(strstr(report, "\"source\":\t\"model\"") != NULL);
    free(report);
}

/* Two GPUs, batches of 4: GPU 0 reads its first 4 rows' counters while GPU 1 times 12 rows and
 * reads its own first batch meanwhile (no GPU waits for the other's counters); calls in the sweep
 * hold whole batches; every row's counters read once, by the GPU its row names; each state
 * closed once. */
static void counters_as_it_goes(void)
{
    fake_machine m = machine(2);
    m.both = 1;
    m.batch = 4;
    m.hold_counters = 12;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..32", "--devices", "all", "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_OK));
    CHECK(!g_gpu[0].held_out && !g_gpu[1].held_out);
    CHECK(g_gpu[0].calls >= 1 && g_gpu[0].sizes[0] == 4);
    for (int k = 0; k < 2; k++) {
        CHECK(g_gpu[k].calls >= 1 && g_gpu[k].calls < 64);
        size_t total = 0;
        for (size_t c = 0; c < g_gpu[k].calls; c++) {
            total += g_gpu[k].sizes[c];
            /* all but the last: whole batches */
            CHECK(c + 1 == g_gpu[k].calls || (g_gpu[k].sizes[c] > 0 && g_gpu[k].sizes[c] % 4 == 0));
        }
        CHECK_EQ_U64((uint64_t)total, (uint64_t)g_gpu[k].measured);
        CHECK_EQ_U64((uint64_t)g_gpu[k].closed, 1);
    }
    CHECK(!g_gpu[0].overlapped);                          /* GPU 0's batch came first */
    CHECK(g_gpu[1].overlapped && g_gpu[1].sizes[0] == 4); /* GPU 1's, during GPU 0's */
    cJSON *root = cJSON_Parse(report);
    CHECK(root != NULL);
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
    {
        int stride = json_int(cJSON_GetObjectItemCaseSensitive(row, "config"), "stride");
        int gpu = json_int(cJSON_GetObjectItemCaseSensitive(row, "device"), "index");
        CHECK(stride > 0 && stride < 64);
        CHECK_EQ_U64((uint64_t)(g_counted_by[stride > 0 && stride < 64 ? stride : 0]),
                     (uint64_t)(gpu + 1));
        const cJSON *measured = cJSON_GetObjectItemCaseSensitive(row, "measured");
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(measured, "match")));
    }
    cJSON_Delete(root);
    free(report);
}

/* GPUs described before opening: GPU 0 measures before GPU 1 is open (GPU 1's open waits for
 * it: were GPU 0 waiting for every GPU to open, that wait would last its minute). */
static void early_start(void)
{
    fake_machine m = machine(2);
    m.late_open = 1;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..8", "--devices", "all", "--format", "json"};
    CHECK_EQ_U64((uint64_t)(run(&m, &report, &st, 7, argv)), (uint64_t)(CP_EXIT_OK));
    CHECK(!g_gpu[1].held_out);
    CHECK(g_gpu[0].measured >= 1);
    CHECK_EQ_U64((uint64_t)(g_gpu[0].measured + g_gpu[1].measured), 8);
    CHECK_EQ_U64((uint64_t)(g_gpu[0].opened + g_gpu[1].opened), 2);
    CHECK_EQ_U64((uint64_t)(g_gpu[0].closed + g_gpu[1].closed), 2);
    /* the report lists both GPUs with their facts from open() */
    CHECK(strstr(report, "\"uuid\":\t\"GPU-fake-1\"") != NULL);
    free(report);
}

/* The end of the queue: a worker stops taking configurations when the others can time, check
 * and count every one left before it has counted its own backlog. */
static void stop_taking(void)
{
    size_t backlog[3] = {100, 40, 60}; /* 0.6 s, 0.24 s and 0.36 s of counters at 6 ms a row */
    int taking[3] = {1, 1, 1};
    /* 0.36 s more than GPU 1's: the others absorb 20 rows (12 ms each) in 0.12 s, 100 in 0.6 s */
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 0, 20, 0.006, 0.006), 1);
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 0, 100, 0.006, 0.006), 0);
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 1, 0, 0.006, 0.006), 0);
    taking[1] = taking[2] = 0; /* the last one taking never stops */
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 0, 20, 0.006, 0.006), 0);
    taking[2] = 1; /* only GPU 2 left to absorb them, 0.24 s behind: 19 rows in 0.228 s, 21 not */
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 0, 19, 0.006, 0.006), 1);
    CHECK_EQ_U64((uint64_t)cp_devices_stop_taking(backlog, taking, 3, 0, 21, 0.006, 0.006), 0);
}

/* -v: one line per GPU, its configurations and counter batches as the fake GPUs saw them. */
static void workers_line(void)
{
    fake_machine m = machine(2);
    m.both = 1;
    m.batch = 4;
    char *report;
    cp_status st;
    char *argv[] = {"coalprobe", "--stride", "1..32", "--devices", "all", "-v", "--format", "json"};
    char path[] = "/tmp/coalprobe-test-devices-err-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    int rc = run(&m, &report, &st, 8, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK_EQ_U64((uint64_t)rc, (uint64_t)CP_EXIT_OK);
    free(report);
    char err[8192] = "";
    ssize_t len = pread(fd, err, sizeof err - 1, 0);
    err[len > 0 ? len : 0] = '\0';
    close(fd);
    unlink(path);
    for (int k = 0; k < 2; k++) {
        char head[64];
        snprintf(head, sizeof head, "coalprobe: GPU %d: ", k);
        const char *line = strstr(err, head);
        CHECK(line != NULL);
        unsigned long rows = 0, batches = 0;
        int used = 0;
        CHECK(line &&
              sscanf(line + strlen(head), "%lu configurations, measured in %n", &rows, &used) ==
                  1 &&
              used > 0);
        CHECK_EQ_U64((uint64_t)rows, (uint64_t)g_gpu[k].measured);
        const char *b = line ? strstr(line, " s, ") : NULL;
        used = 0;
        CHECK(b && sscanf(b + 4, "%lu batches%n", &batches, &used) == 1 && used > 0);
        CHECK_EQ_U64((uint64_t)batches, (uint64_t)g_gpu[k].calls);
        const char *end = line ? strchr(line, '\n') : NULL;
        CHECK(end && strstr(line, "done at ") && strstr(line, "done at ") < end);
    }
}

int main(void)
{
    rows_in_order();
    rule_on_every_gpu();
    one_listed();
    mixed_kinds();
    one_fails();
    one_cannot_load();
    check_times();
    device_lists();
    counters_as_it_goes();
    early_start();
    stop_taking();
    workers_line();
    return cp_test_finish();
}
