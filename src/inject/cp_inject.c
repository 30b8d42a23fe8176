/* cp_inject.c: coalprobe's CUPTI injection library (libcoalprobe_inject.so), loaded by the CUDA
 * driver into a traced program through CUDA_INJECTION64_PATH. It enables CUPTI's SASS metrics on
 * every context before its first launch, counts the launches of every function, takes the
 * per-instruction records when the context ends (or the process exits), maps each instruction to
 * its source line, and writes everything to DIR/raw-PID.tsv (cp_trace_raw.h).
 *
 * What CUPTI 13.0 does here (driver 580, H100; bench/sass_probe.cu reproduces it, and NVIDIA's
 * own sass_metrics sample behaves the same): the SASS metrics of one enable cover exactly one
 * function, the first launched after the enable, which must come before any launch in the
 * context; its launches add up until the first flush, after which nothing more is collected
 * (a disable and enable again collects nothing; a second SetConfig answers
 * CUPTI_ERROR_OUT_OF_MEMORY). So records are flushed once, when the context ends, and the
 * report names the functions that were launched but not counted.
 *
 * It runs inside somebody else's program: it never writes to the program's streams, never exits,
 * never fails a CUDA call of the program; what goes wrong is written to the raw file (refused,
 * note, dropped) for the report to show. It links libc, libdl, libpthread and libcupti only; the
 * few driver functions it calls are looked up in the libcuda the program already loaded.
 *
 * One file of about 1,450 lines: CUPTI calls back into one function, under one lock, on one
 * state (cp_inject_state); the parts that need neither live beside it (cp_inject_kernels.cpp,
 * _graphs, _nvtx, _python, _sites, _tensormaps, _format). */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cp_base.h"
#include "base/cp_cupti_util.h"
#include "cp_inject_attach.h"
#include "cp_inject_format.h"
#include "cp_inject_graphs.h"
#include "cp_inject_kernels.h"
#include "cp_inject_launch.h"
#include "cp_inject_nvtx.h"
#include "cp_inject_modules.h"
#include "cp_inject_python.h"
#include "cp_inject_select.h"
#include "cp_inject_sites.h"
#include "cp_inject_tensormaps.h"
#include "cp_trace_lock.h"
#include "cp_trace_raw.h"

#define CP_INJECT_EXPORT __attribute__((visibility("default")))
#define CP_INJECT_MAX_DEVICES 64
#define CP_INJECT_MAX_CONTEXTS 256
/* The metrics, in the order of the `metrics` record and of every pc record's values. */
#define CP_INJECT_METRIC_NAME(id, name) name,
static const char *const cp_inject_metric_names[] = {CP_TRACE_RAW_METRICS(CP_INJECT_METRIC_NAME)};
#undef CP_INJECT_METRIC_NAME
#define CP_INJECT_NMETRICS ((int)(sizeof cp_inject_metric_names / sizeof cp_inject_metric_names[0]))

/* Where the traced process's time went, written as `time` records at its end. */
enum {
    CP_INJECT_T_SETUP,         /* contexts: all of their set-up, the two below included */
    CP_INJECT_T_PROFILER_INIT, /*   loading libnvperf, cuptiProfilerInitialize (once) */
    CP_INJECT_T_COUNTERS_OPEN, /*   the range profiler's configuration and enable */
    CP_INJECT_T_LAUNCH,  /* inside the launch calls: the kernel replay of the range profiler */
    CP_INJECT_T_COLLECT, /* decoding the per-kernel counters */
    CP_INJECT_T_FLUSH,   /* the SASS records, their source lines and cubins */
    CP_INJECT_T_MODULE,  /* keeping each loaded module's cubin */
    CP_INJECT_T_COUNT
};
static const char *const cp_inject_phase_names[CP_INJECT_T_COUNT] = {
    "context_setup",   "profiler_init",       "counters_open", "launch_calls",
    "kernel_counters", "instruction_records", "module_copies"};

typedef struct cp_inject_device {
    int configured; /* 1: SetConfig done; -1: refused or failed (nothing collected there) */
    char chip[64];
    uint64_t metric_id[CP_INJECT_NMETRICS];
    int has_metric[CP_INJECT_NMETRICS];
} cp_inject_device;

typedef struct cp_inject_cubin {
    void *data;
    size_t size;
    int written; /* in the trace directory */
    int saved;   /* written and announced by a cubin record */
} cp_inject_cubin;

typedef struct cp_inject_sums {
    uint32_t device;
    uint32_t crc;
    uint32_t function_index;
    uint32_t pc;
    char *function; /* owned */
    uint64_t value[CP_INJECT_NMETRICS];
    int has[CP_INJECT_NMETRICS];
} cp_inject_sums;

typedef CUresult (*cp_cu_stream_is_capturing_fn)(CUstream, CUstreamCaptureStatus *);
typedef CUresult (*cp_cu_device_get_name_fn)(char *, int, CUdevice);
typedef CUresult (*cp_cu_device_get_attribute_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*cp_cu_ctx_synchronize_fn)(void);
typedef CUresult (*cp_cu_ctx_push_fn)(CUcontext);
typedef CUresult (*cp_cu_ctx_pop_fn)(CUcontext *);

/* Everything the injection library keeps in the traced process: its raw file, the devices and
 * contexts it set up, what it has written already, and where the time went. lock guards it
 * against CUPTI's callbacks on several threads. */
static struct {
    pthread_mutex_t lock;
    pid_t pid;
    FILE *raw;
    int raw_lock; /* holds the raw file's lock while this process writes it (cp_trace_lock.h) */
    char dir[4096];
    int stopped; /* CUPTI refused or failed: nothing more is collected */
    int profiler_initialized;
    CUpti_SubscriberHandle subscriber;
    cp_inject_device device[CP_INJECT_MAX_DEVICES];
    CUcontext context[CP_INJECT_MAX_CONTEXTS];
    uint32_t context_device[CP_INJECT_MAX_CONTEXTS];
    cp_inject_kernels *context_kernels[CP_INJECT_MAX_CONTEXTS]; /* per-kernel counters, or NULL */
    int context_sass_off[CP_INJECT_MAX_CONTEXTS]; /* in a window of left-out launches: what the
                                                     SASS metrics count is dropped
                                                     (cp_inject_sass_follow) */
    int want_kernels, want_instructions; /* COALPROBE_TRACE_MODE: kernels, instructions, both */
    int kernel_set;                      /* COALPROBE_TRACE_KERNEL_SET: lean (default) or full */
    double started;                      /* CLOCK_MONOTONIC seconds at InitializeInjection */
    double phase_seconds[CP_INJECT_T_COUNT];
    uint64_t phase_count[CP_INJECT_T_COUNT];
    size_t ncontexts;
    cp_table launches;  /* "ORDINAL\tCRC\tFUNCTION" -> uint64_t launches since the last flush */
    cp_table functions; /* "ORDINAL\t%p" of a CUfunction -> cp_inject_fn */
    cp_table cubins;    /* "CRC" -> cp_inject_cubin */
    cp_table sourced;   /* "CRC\tFUNCTION\tPC" -> marker: source record written */
    cp_table nosource;  /* "CRC\tFUNCTION" -> marker: nosource record written */
    uint64_t flushes, launch_count;
    uint64_t kernel_times, untimed; /* kernel_time records written; launches past the bound */
    uint64_t emitted;               /* kernel and unmatched records written */
    int capture_noted, graph_noted;
    cp_cu_stream_is_capturing_fn stream_is_capturing;
    cp_cu_device_get_name_fn device_get_name;
    cp_cu_device_get_attribute_fn device_get_attribute;
    cp_cu_ctx_synchronize_fn ctx_synchronize;
    cp_cu_ctx_push_fn ctx_push;
    cp_cu_ctx_pop_fn ctx_pop;
} cp_inject_state = {.lock = PTHREAD_MUTEX_INITIALIZER, .raw_lock = -1};

/* ---- time ------------------------------------------------------------------------------- */

static double cp_inject_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CLOCK_REALTIME in ns since the epoch: the launches of several processes (and hosts with
 * synchronised clocks) line up on one timeline. */
static uint64_t cp_inject_wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void cp_inject_spent(int phase, double since)
{
    cp_inject_state.phase_seconds[phase] += cp_inject_now() - since;
    cp_inject_state.phase_count[phase]++;
}

/* ---- writing records ------------------------------------------------------------------- */

/* Writes one number, in the C locale (cp_inject_format_double). */
static void cp_inject_put_double(double v, int decimals)
{
    char text[64];
    cp_inject_format_double(text, sizeof text, v, decimals);
    fputs(text, cp_inject_state.raw);
}

/* Writes one text field with \\, \t, \n and \r escaped (cp_inject_format_text). */
static void cp_inject_put_text(const char *s)
{
    cp_inject_format_text(cp_inject_state.raw, s);
}

/* CUPTI's profiler initialised on a thread of its own, started by InitializeInjection, beside
 * the program's own start (the CUDA context it makes next): the first context's set-up waits
 * for it (cp_inject_profiler_ready). Its notes are kept here until then, so that only one
 * thread writes the raw file. COALPROBE_TRACE_EARLY_INIT=0 initialises it in the first context's
 * set-up instead. */
static struct {
    pthread_t thread;
    int started, joined;
    char notes[4096]; /* lines */
} cp_inject_early;
static __thread int cp_inject_on_early_thread;

static void cp_inject_note(const char *text)
{
    if (cp_inject_on_early_thread) {
        size_t len = strlen(cp_inject_early.notes), add = strlen(text);
        if (len + add + 2 <= sizeof cp_inject_early.notes) { /* past that, lost: a few lines */
            memcpy(cp_inject_early.notes + len, text, add);
            memcpy(cp_inject_early.notes + len + add, "\n", 2);
        }
        return;
    }
    if (!cp_inject_state.raw)
        return;
    fputs("note\t", cp_inject_state.raw);
    cp_inject_put_text(text);
    fputc('\n', cp_inject_state.raw);
    fflush(cp_inject_state.raw);
}

/* CUPTI's own text for r (cuptiGetResultString). */
static const char *cp_inject_result_name(CUptiResult r)
{
    return cp_cupti_result_text(cuptiGetResultString, r);
}

/* A CUPTI call that refused or failed: a refused record (with the call, file:line), and no more
 * collection in this process. */
static void cp_inject_refuse(const char *call, CUptiResult r, const char *file, int line)
{
    cp_inject_state.stopped = 1;
    if (!cp_inject_state.raw)
        return;
    char where[512];
    snprintf(where, sizeof where, "%s at %s:%d", call, file, line);
    fputs("refused\t", cp_inject_state.raw);
    cp_inject_put_text(where);
    fprintf(cp_inject_state.raw, "\t%d\t%s\t", (int)r, cp_cupti_result_enum(r));
    cp_inject_put_text(cp_inject_result_name(r));
    fputc('\n', cp_inject_state.raw);
    fflush(cp_inject_state.raw);
}

/* A CUPTI call that failed without ending collection: a note with the call, the result's
 * enumerator name and text, and file:line. */
static void cp_inject_note_failure(const char *call, CUptiResult r, const char *file, int line)
{
    char note[512];
    snprintf(note, sizeof note, "%s failed: %s (%s) at %s:%d", call, cp_cupti_result_enum(r),
             cp_inject_result_name(r), file, line);
    cp_inject_note(note);
}

/* A CUPTI call whose failure ends collection in this process: recorded, then `fail` runs. */
#define CP_INJECT_CUPTI(call, fail)                                                                \
    CP_CUPTI_ON_ERROR(call, cp_inject_refuse(#call, cp_cupti_result_, __FILE__, __LINE__); fail)

/* A CUPTI call whose failure only loses one piece of data: a note with call, error, file:line. */
#define CP_INJECT_CUPTI_NOTE(call, fail)                                                           \
    CP_CUPTI_ON_ERROR(call, cp_inject_note_failure(#call, cp_cupti_result_, __FILE__, __LINE__);   \
                      fail)

static void cp_inject_write_process(void)
{
    char cmd[8192] = "";
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, cmd, sizeof cmd - 1);
        close(fd);
        if (n > 0) {
            cmd[n] = '\0';
            for (ssize_t i = 0; i < n - 1; i++)
                if (cmd[i] == '\0')
                    cmd[i] = ' ';
        }
    }
    fprintf(cp_inject_state.raw, "%s\t%d\nprocess\t%ld\t%ld\t", CP_TRACE_RAW_MAGIC,
            CP_TRACE_RAW_VERSION, (long)getpid(), (long)getppid());
    cp_inject_put_text(cmd);
    fputc('\n', cp_inject_state.raw);
    cp_inject_sites_write_host(cp_inject_state.raw);
    fputs("metrics", cp_inject_state.raw);
    for (int i = 0; i < CP_INJECT_NMETRICS; i++)
        fprintf(cp_inject_state.raw, "\t%s", cp_inject_metric_names[i]);
    fputs("\nkernel_metrics", cp_inject_state.raw);
    for (int i = 0; i < CP_CUPTI_KM_COUNT; i++)
        fprintf(cp_inject_state.raw, "\t%s", cp_cupti_kernel_metric_name(i));
    fputc('\n', cp_inject_state.raw);
    fflush(cp_inject_state.raw);
}

/* ---- devices and contexts ------------------------------------------------------------- */

/* libcupti loads libnvperf_host.so and libnvperf_target.so by bare name, which the traced
 * program's own search path rarely finds (coalprobe's RPATH does; python's does not): load them
 * first from libcupti's own directory, so that CUPTI finds them already loaded. */
static void cp_inject_preload_nvperf(void)
{
    Dl_info info;
    if (!dladdr((void *)cuptiSubscribe, &info) || !info.dli_fname) {
        cp_inject_note("cannot tell where libcupti was loaded from");
        return;
    }
    if (getenv("COALPROBE_TRACE_DEBUG")) {
        char note[4200];
        snprintf(note, sizeof note, "libcupti: %s", info.dli_fname);
        cp_inject_note(note);
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    static const char *const libs[] = {"libnvperf_host.so", "libnvperf_target.so"};
    for (size_t i = 0; i < CP_COUNT_OF(libs); i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, libs[i]);
        if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL) && !dlopen(libs[i], RTLD_NOW | RTLD_GLOBAL)) {
            char note[4400];
            snprintf(note, sizeof note, "could not load %s beside libcupti (%s)", libs[i], dir);
            cp_inject_note(note);
        }
    }
}

/* Asks CUPTI whether its API api (SASS metrics, range profiling) works on the device; a refused
 * record with the causes if not. */
static int cp_inject_device_supported(uint32_t ordinal, CUpti_Profiler_API api)
{
    CUpti_Profiler_DeviceSupported_Params p =
        CP_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    p.cuDevice = (CUdevice)ordinal;
    p.api = api;
    CP_INJECT_CUPTI(cuptiProfilerDeviceSupported(&p), return -1);
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    CUptiResult why = CUPTI_ERROR_NOT_SUPPORTED;
    if (p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        why = CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED;
    else if (p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        why = CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED;
    else if (p.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        why = CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED;
    else if (p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        why = CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED;
    cp_inject_refuse(api == CUPTI_PROFILER_SASS_METRICS
                         ? "cuptiProfilerDeviceSupported (SASS metrics)"
                         : "cuptiProfilerDeviceSupported (range profiler)",
                     why, __FILE__, __LINE__);
    return -1;
}

/* CUPTI's profiler, initialised once for the process: libnvperf loaded, then
 * cuptiProfilerInitialize. */
static void cp_inject_profiler_init(void)
{
    cp_inject_preload_nvperf();
    CUpti_Profiler_Initialize_Params init = CP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    /* SASS metrics were seen to work without it when it answers CUPTI_ERROR_UNKNOWN in an
     * injected process: a note, and the calls below decide */
    CP_INJECT_CUPTI_NOTE(cuptiProfilerInitialize(&init), (void)0);
    cp_inject_state.profiler_initialized = 1;
}

static void *cp_inject_early_main(void *arg)
{
    (void)arg;
    cp_inject_on_early_thread = 1;
    cp_inject_profiler_init();
    return NULL;
}

/* Starts the early initialisation (from InitializeInjection) unless COALPROBE_TRACE_EARLY_INIT
 * is 0. */
static void cp_inject_early_start(void)
{
    const char *early = getenv("COALPROBE_TRACE_EARLY_INIT");
    if ((early && strcmp(early, "0") == 0) || cp_inject_state.profiler_initialized)
        return; /* asked not to, or initialised by an earlier attach (cp_inject_attach.c) */
    cp_inject_early.started =
        pthread_create(&cp_inject_early.thread, NULL, cp_inject_early_main, NULL) == 0;
}

/* Waits for the early initialisation, once, and writes its notes. */
static void cp_inject_early_join(void)
{
    if (!cp_inject_early.started || cp_inject_early.joined)
        return;
    pthread_join(cp_inject_early.thread, NULL);
    cp_inject_early.joined = 1;
    for (char *line = cp_inject_early.notes, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end)
            break;
        *end = '\0';
        cp_inject_note(line);
    }
}

/* The profiler is initialised: by the early thread (its wait is profiler_init's time) or here. */
static void cp_inject_profiler_ready(void)
{
    if (cp_inject_early.started ? cp_inject_early.joined : cp_inject_state.profiler_initialized)
        return; /* once */
    double t = cp_inject_now();
    cp_inject_early_join();
    if (!cp_inject_state.profiler_initialized)
        cp_inject_profiler_init();
    cp_inject_spent(CP_INJECT_T_PROFILER_INIT, t);
}

/* The device record: its ordinal, chip, name and compute capability. */
static void cp_inject_write_device(uint32_t ordinal, const char *chip_name)
{
    char name[256] = "";
    int major = 0, minor = 0;
    if (cp_inject_state.device_get_name)
        cp_inject_state.device_get_name(name, (int)sizeof name, (CUdevice)ordinal);
    if (cp_inject_state.device_get_attribute) {
        cp_inject_state.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                             (CUdevice)ordinal);
        cp_inject_state.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                             (CUdevice)ordinal);
    }
    fprintf(cp_inject_state.raw, "device\t%u\t", ordinal);
    cp_inject_put_text(chip_name);
    fputc('\t', cp_inject_state.raw);
    cp_inject_put_text(name);
    fprintf(cp_inject_state.raw, "\t%d.%d\n", major, minor);
}

/* The devices whose SASS configuration is set, for the process's life: a `with coalprobe.trace()`
 * region leaves it set when it ends (cp_inject_attach_reset), and the next region uses it as it
 * is, the same metrics, instead of setting it again: on the H100 (2026-12-07) setting it again
 * after unsetting it answered CUPTI_ERROR_OUT_OF_MEMORY. Outside cp_inject_state, which a region's
 * end resets. */
static int cp_inject_sass_set[CP_INJECT_MAX_DEVICES];

/* cuptiSassMetricsSetConfig, once more after unsetting the device's configuration when CUPTI
 * answers out of memory: the H100 (2026-12-07) answered so to the second `with coalprobe.trace()`
 * region of a process, whose first region had unset it at its end (cp_inject_attach_reset). */
static CUptiResult cp_inject_sass_set_config(CUpti_SassMetricsSetConfig_Params *set)
{
    CUptiResult r = cuptiSassMetricsSetConfig(set);
    if (r != CUPTI_ERROR_OUT_OF_MEMORY)
        return r;
    CUpti_SassMetricsUnsetConfig_Params un = CP_CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
    un.deviceIndex = set->deviceIndex;
    if (cuptiSassMetricsUnsetConfig(&un) != CUPTI_SUCCESS)
        return r; /* the first answer is the one to report */
    return cuptiSassMetricsSetConfig(set);
}

/* Asks CUPTI for the SASS metrics coalprobe reads on the device's chip: a missing record for
 * each one the chip lacks; -1 when it offers none or refuses the configuration. */
static int cp_inject_configure_sass(uint32_t ordinal, cp_inject_device *d, const char *chip_name)
{
    CUpti_SassMetrics_Config config[CP_INJECT_NMETRICS];
    size_t nconfig = 0;
    for (int i = 0; i < CP_INJECT_NMETRICS; i++) {
        CUpti_SassMetrics_GetProperties_Params p =
            CP_CUPTI_PARAMS(CUpti_SassMetrics_GetProperties_Params);
        p.pChipName = chip_name;
        p.pMetricName = cp_inject_metric_names[i];
        CUptiResult r = cuptiSassMetricsGetProperties(&p);
        if (r != CUPTI_SUCCESS) {
            fprintf(cp_inject_state.raw, "missing\t%s\t", cp_inject_metric_names[i]);
            cp_inject_put_text(cp_inject_result_name(r));
            fputc('\n', cp_inject_state.raw);
            continue;
        }
        d->metric_id[i] = p.metric.metricId;
        d->has_metric[i] = 1;
        config[nconfig].metricId = p.metric.metricId;
        config[nconfig].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        nconfig++;
    }
    fflush(cp_inject_state.raw);
    if (nconfig == 0) {
        cp_inject_note(
            "the chip offers none of the SASS metrics coalprobe reads: nothing to trace");
        return -1;
    }
    CUpti_SassMetricsSetConfig_Params set = CP_CUPTI_PARAMS(CUpti_SassMetricsSetConfig_Params);
    set.pConfigs = config;
    set.numOfMetricConfig = nconfig;
    set.deviceIndex = ordinal;
    if (cp_inject_sass_set[ordinal]) /* an earlier region of the process set it: kept */
        return 0;
    CP_INJECT_CUPTI(cp_inject_sass_set_config(&set), return -1);
    cp_inject_sass_set[ordinal] = 1;
    return 0;
}

/* Chip, metric ids and CUPTI's SASS configuration for one device, once. */
static int cp_inject_configure_device(uint32_t ordinal)
{
    cp_inject_device *d = &cp_inject_state.device[ordinal];
    if (d->configured)
        return d->configured > 0 ? 0 : -1;
    d->configured = -1;
    cp_inject_profiler_ready();
    if (cp_inject_state.want_instructions &&
        cp_inject_device_supported(ordinal, CUPTI_PROFILER_SASS_METRICS) != 0)
        return -1;
    if (cp_inject_state.want_kernels &&
        cp_inject_device_supported(ordinal, CUPTI_PROFILER_RANGE_PROFILING) != 0)
        return -1;

    CUpti_Device_GetChipName_Params chip = CP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = ordinal;
    CP_INJECT_CUPTI(cuptiDeviceGetChipName(&chip), return -1);

    snprintf(d->chip, sizeof d->chip, "%s", chip.pChipName ? chip.pChipName : "");
    cp_inject_write_device(ordinal, chip.pChipName);

    if (!cp_inject_state.want_instructions) {
        fflush(cp_inject_state.raw);
        d->configured = 1;
        return 0;
    }
    if (cp_inject_configure_sass(ordinal, d, chip.pChipName) != 0)
        return -1;
    d->configured = 1;
    return 0;
}

static int cp_inject_context_slot(CUcontext ctx)
{
    for (size_t i = 0; i < cp_inject_state.ncontexts; i++)
        if (cp_inject_state.context[i] == ctx)
            return (int)i;
    return -1;
}

static void cp_inject_context_setup(CUcontext ctx);

static void cp_inject_context_created(CUcontext ctx)
{
    double t = cp_inject_now();
    cp_inject_context_setup(ctx);
    cp_inject_spent(CP_INJECT_T_SETUP, t);
}

static void cp_inject_context_setup(CUcontext ctx)
{
    uint32_t ordinal = 0;
    CP_INJECT_CUPTI(cuptiGetDeviceId(ctx, &ordinal), return );
    if (ordinal >= CP_INJECT_MAX_DEVICES) {
        cp_inject_note("a context on a device ordinal past 63 is not traced");
        return;
    }
    if (cp_inject_configure_device(ordinal) != 0)
        return;
    if (cp_inject_state.ncontexts == CP_INJECT_MAX_CONTEXTS) {
        cp_inject_note("more than 256 live CUDA contexts: later ones are not traced");
        return;
    }
    if (cp_inject_state.want_instructions) {
        CUpti_SassMetricsEnable_Params en = CP_CUPTI_PARAMS(CUpti_SassMetricsEnable_Params);
        en.ctx = ctx;
        /* Lazily: each function patched at its first launch. Eager patching (at module load,
         * COALPROBE_TRACE_LAZY_PATCHING=0) with the Range Profiler enabled counted only the
         * launches of PyTorch's kernels that got a range (the H100, 2026-12-07: a twentieth of
         * the sectors of 100 launches of which 5 were sampled). */
        const char *lazy = getenv("COALPROBE_TRACE_LAZY_PATCHING");
        en.enableLazyPatching = lazy && strcmp(lazy, "0") == 0 ? 0 : 1;
        /* --instructions sampled turns that into the mode: patched eagerly, a kernel runs at
         * about its own speed beside the Range Profiler, and what is counted per instruction is
         * exactly the launches with a range (the `selection instructions sampled` record says
         * so; the report's instruction_launches). docs/trace.md, "--instructions sampled" */
        if (cp_inject_select_options_used()->instructions_sampled)
            en.enableLazyPatching = 0;
        CP_INJECT_CUPTI(cuptiSassMetricsEnable(&en), return );
    }
    cp_inject_kernels *k = NULL;
    if (cp_inject_state.want_kernels) {
        int code = 0;
        char why[512] = "";
        double t = cp_inject_now();
        k = cp_inject_kernels_open(ctx, cp_inject_state.device[ordinal].chip,
                                   cp_inject_state.kernel_set, &code, why, sizeof why);
        cp_inject_spent(CP_INJECT_T_COUNTERS_OPEN, t);
        if (!k) {
            cp_inject_refuse(why, (CUptiResult)code, __FILE__, __LINE__);
        } else {
            char note[300];
            snprintf(note, sizeof note,
                     "per-kernel counters: %zu pass%s a launch on device %u (%s set, %s)%s",
                     cp_inject_kernels_passes(k), cp_inject_kernels_passes(k) == 1 ? "" : "es",
                     ordinal, cp_inject_state.kernel_set == CP_INJECT_KSET_LEAN ? "lean" : "full",
                     cp_inject_kernels_replayed(k) ? "kernel replay" : "no replay",
                     cp_inject_kernels_set(k) == CP_INJECT_KSET_LEAN_BASE
                         ? "; the TMA and local sectors left out (with them the set needs more "
                           "passes on this chip): --kernel-counters full counts them"
                         : "");
            cp_inject_note(note);
            fprintf(cp_inject_state.raw, "counting\t%u\t%s\n", ordinal,
                    cp_inject_kernels_replayed(k) ? "replayed" : "every_launch");
            if (getenv("COALPROBE_TRACE_DEBUG")) {
                char steps[600];
                snprintf(steps, sizeof steps, "per-kernel counters opened in: %s",
                         cp_inject_kernels_open_times(k));
                cp_inject_note(steps);
            }
        }
    }
    cp_inject_state.context[cp_inject_state.ncontexts] = ctx;
    cp_inject_state.context_device[cp_inject_state.ncontexts] = ordinal;
    cp_inject_state.context_kernels[cp_inject_state.ncontexts] = k;
    cp_inject_state.context_sass_off[cp_inject_state.ncontexts] = 0;
    cp_inject_state.ncontexts++;
}

/* kernel_time records a process writes at most: past them, the end's note counts the rest. */
#define CP_INJECT_MAX_KERNEL_TIMES 1000000u

/* One kernel range from the Range Profiler: a kernel record, the kernel_at record of its call
 * site when known and the kernel_time record of its launch's host time when known. */
static void cp_inject_emit_kernel(void *user, const char *kernel, uint32_t crc, uint32_t site,
                                  uint64_t host_ns, const char *unmatched, const double *values)
{
    cp_inject_state.emitted++;
    if (!kernel) { /* counted, but for no known launch: said so, filed under none */
        fprintf(cp_inject_state.raw, "unmatched\t%u\t", *(const uint32_t *)user);
        cp_inject_put_text(unmatched ? unmatched : "unknown");
        fputc('\n', cp_inject_state.raw);
        return;
    }
    if (crc) /* the cubin of the kernel record that follows */
        fprintf(cp_inject_state.raw, "kernel_cubin\t%08" PRIx32 "\n", crc);
    fprintf(cp_inject_state.raw, "kernel\t%u\t", *(const uint32_t *)user);
    cp_inject_put_text(kernel);
    for (int m = 0; m < CP_CUPTI_KM_COUNT; m++) {
        if (isnan(values[m]))
            fputs("\t-", cp_inject_state.raw);
        else {
            fputc('\t', cp_inject_state.raw);
            cp_inject_put_double(values[m], -1);
        }
    }
    fputc('\n', cp_inject_state.raw);
    if (site)
        fprintf(cp_inject_state.raw, "kernel_at\t%" PRIu32 "\n", site);
    if (host_ns && cp_inject_state.kernel_times < CP_INJECT_MAX_KERNEL_TIMES) {
        fprintf(cp_inject_state.raw, "kernel_time\t%" PRIu64 "\n", host_ns);
        cp_inject_state.kernel_times++;
    } else if (host_ns)
        cp_inject_state.untimed++;
}

/* A note that a call of the per-kernel counters failed: what (the counters' state), the call
 * (why) and CUPTI's result rc. */
static void cp_inject_kernels_failed(const char *what, const char *why, int rc)
{
    char note[800];
    snprintf(note, sizeof note, "%s: %s failed: %s", what, why,
             cp_inject_result_name((CUptiResult)rc));
    cp_inject_note(note);
}

/* Takes the per-kernel counters of the context in slot, if any, and stops them. */
static void cp_inject_close_kernels(int slot)
{
    cp_inject_kernels *k = cp_inject_state.context_kernels[slot];
    if (!k)
        return;
    cp_inject_state.context_kernels[slot] = NULL;
    uint32_t ordinal = cp_inject_state.context_device[slot];
    size_t dropped = 0;
    char why[512] = "";
    double t = cp_inject_now();
    int rc = cp_inject_kernels_close(k, cp_inject_emit_kernel, &ordinal, &dropped, why, sizeof why);
    cp_inject_spent(CP_INJECT_T_COLLECT, t);
    if (rc != 0)
        cp_inject_kernels_failed("per-kernel counters", why, rc);
    if (dropped)
        fprintf(cp_inject_state.raw, "dropped\t%u\t%zu\tkernel ranges CUPTI dropped\n", ordinal,
                dropped);
    fflush(cp_inject_state.raw);
}

/* ---- flushing --------------------------------------------------------------------------- */

static void cp_inject_free_cubin(void *v)
{
    cp_inject_cubin *c = v;
    if (c)
        free(c->data);
    free(c);
}

/* Writes cubin c (key: its CRC in hex) to the trace directory as cubin-KEY.cubin, once: under a
 * name of this process's, renamed into place when whole (another process of the program may
 * write the same cubin; coalprobe watches for the renamed file). 0, or -1 when it could not. */
static int cp_inject_write_cubin(cp_inject_cubin *c, const char *key)
{
    if (c->written)
        return 0;
    char path[4200], part[4300];
    snprintf(path, sizeof path, "%s/cubin-%s.cubin", cp_inject_state.dir, key);
    snprintf(part, sizeof part, "%s.part-%ld", path, (long)getpid());
    int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < c->size) {
        ssize_t w = write(fd, (const char *)c->data + done, c->size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = close(fd) == 0 && done == c->size && rename(part, path) == 0;
    if (!ok)
        unlink(part);
    c->written = ok;
    return ok ? 0 : -1;
}

/* The cubin record, the first time an instruction of that cubin is written. */
static void cp_inject_save_cubin(uint32_t crc)
{
    char key[16];
    snprintf(key, sizeof key, "%08" PRIx32, crc);
    cp_table_entry *e = cp_table_find(&cp_inject_state.cubins, key);
    if (!e || !e->value)
        return;
    cp_inject_cubin *c = e->value;
    if (c->saved)
        return;
    c->saved = 1;
    if (cp_inject_write_cubin(c, key) != 0) {
        cp_inject_note("could not save a cubin in the trace directory: no opcodes for it");
        return;
    }
    fprintf(cp_inject_state.raw, "cubin\t%s\tcubin-%s.cubin\n", key, key);
}

/* The source record of one instruction, or the nosource record of its function, once. */
static void cp_inject_source(uint32_t crc, const char *function, uint32_t pc)
{
    char *key = NULL;
    if (asprintf(&key, "%08" PRIx32 "\t%s\t%" PRIx32, crc, function, pc) < 0)
        return;
    int created = 0;
    cp_table_entry *seen = cp_table_get(&cp_inject_state.sourced, key, &created);
    free(key);
    if (!seen || !created)
        return;
    if (asprintf(&key, "%08" PRIx32 "\t%s", crc, function) < 0)
        return;
    int known = cp_table_find(&cp_inject_state.nosource, key) != NULL;
    free(key);
    if (known)
        return;
    char ckey[16];
    snprintf(ckey, sizeof ckey, "%08" PRIx32, crc);
    cp_table_entry *ce = cp_table_find(&cp_inject_state.cubins, ckey);
    CUptiResult r = CUPTI_ERROR_INVALID_PARAMETER;
    CUpti_GetSassToSourceCorrelationParams p = {.size = CUpti_GetSassToSourceCorrelationParamsSize};
    if (ce && ce->value) {
        cp_inject_cubin *c = ce->value;
        p.cubin = c->data;
        p.cubinSize = c->size;
        p.functionName = function;
        p.pcOffset = pc;
        r = cuptiGetSassToSourceCorrelation(&p);
    }
    if (r != CUPTI_SUCCESS || !p.fileName || !p.fileName[0] || p.lineNumber == 0) {
        if (asprintf(&key, "%08" PRIx32 "\t%s", crc, function) >= 0) {
            cp_table_get(&cp_inject_state.nosource, key, NULL);
            free(key);
        }
        fprintf(cp_inject_state.raw, "nosource\t%08" PRIx32 "\t", crc);
        cp_inject_put_text(function);
        fputc('\n', cp_inject_state.raw);
    } else {
        fprintf(cp_inject_state.raw, "source\t%08" PRIx32 "\t", crc);
        cp_inject_put_text(function);
        fprintf(cp_inject_state.raw, "\t0x%" PRIx32 "\t", pc);
        if (p.dirName && p.dirName[0] && p.fileName[0] != '/') {
            cp_inject_put_text(p.dirName);
            fputc('/', cp_inject_state.raw);
        }
        cp_inject_put_text(p.fileName);
        fprintf(cp_inject_state.raw, "\t%" PRIu32 "\n", p.lineNumber);
    }
    free(p.fileName);
    free(p.dirName);
}

static void cp_inject_write_launches(void)
{
    for (size_t i = 0; i < cp_inject_state.launches.capacity; i++) {
        cp_table_entry *e = &cp_inject_state.launches.slots[i];
        if (!e->key || !e->value || *(uint64_t *)e->value == 0)
            continue;
        const char *tab = strchr(e->key, '\t'), *crc = tab + 1, *fn = strchr(crc, '\t') + 1;
        fprintf(cp_inject_state.raw, "launch\t%.*s\t", (int)(tab - e->key), e->key);
        cp_inject_put_text(fn);
        fprintf(cp_inject_state.raw, "\t%" PRIu64, *(uint64_t *)e->value);
        if (strncmp(crc, "00000000\t", 9) != 0) /* the cubin, where known */
            fprintf(cp_inject_state.raw, "\t%.8s", crc);
        fputc('\n', cp_inject_state.raw);
        *(uint64_t *)e->value = 0;
    }
    cp_inject_sites_write_counts(cp_inject_state.raw);
}

static void cp_inject_free_sums(void *v)
{
    cp_inject_sums *s = v;
    if (s)
        free(s->function);
    free(s);
}

/* Adds record i of data (k instances each) to its instruction's sums in the table. */
static void cp_inject_sum(cp_table *sums, const CUpti_SassMetrics_Data *data, size_t i, size_t k,
                          uint32_t ordinal, const cp_inject_device *d)
{
    char *key = NULL;
    const char *fn = data[i].functionName ? data[i].functionName : "?";
    if (asprintf(&key, "%08" PRIx32 "\t%" PRIu32 "\t%s\t%" PRIx32, data[i].cubinCrc,
                 data[i].functionIndex, fn, data[i].pcOffset) < 0)
        key = NULL;
    int created = 0;
    cp_table_entry *e = key ? cp_table_get(sums, key, &created) : NULL;
    free(key);
    if (e && created) {
        cp_inject_sums *s = calloc(1, sizeof *s);
        e->value = s;
        if (s && !(s->function = strdup(fn))) {
            free(s);
            e->value = s = NULL;
        }
        if (s) {
            s->device = ordinal;
            s->crc = data[i].cubinCrc;
            s->function_index = data[i].functionIndex;
            s->pc = data[i].pcOffset;
        }
    }
    cp_inject_sums *s = e ? e->value : NULL;
    for (size_t j = 0; s && j < k; j++)
        for (int m = 0; m < CP_INJECT_NMETRICS; m++)
            if (d->has_metric[m] && d->metric_id[m] == data[i].pInstanceValues[j].metricId) {
                s->value[m] += data[i].pInstanceValues[j].value;
                s->has[m] = 1;
            }
}

/* 1 when every count of s is zero and its function was never launched on its device: an
 * instruction of a module's other functions, which CUPTI patched with the module (NCCL's module
 * of several hundred kernels made raw files of 150 MB a rank for a job of five iterations). A
 * launched kernel's zero records stay: they say that CUPTI counted nothing for it. */
static int cp_inject_idle_sum(const cp_inject_sums *s)
{
    for (int m = 0; m < CP_INJECT_NMETRICS; m++)
        if (s->has[m] && s->value[m] != 0)
            return 0;
    /* the launches table's keys (of its cubin, or of an unknown one), on the stack for all but
     * the longest names (a flush may see a million idle records) */
    int launched = 0;
    for (int known = 0; known < 2 && !launched; known++) {
        char buf[1024];
        char *key = cp_table_key(buf, sizeof buf, "%u\t%08" PRIx32 "\t%s", s->device,
                                 known ? s->crc : 0, s->function);
        if (!key)
            return 0;
        launched = cp_table_find(&cp_inject_state.launches, key) != NULL;
        if (key != buf)
            free(key);
    }
    return !launched;
}

/* Writes one pc record per instruction of the table, less the idle ones (cp_inject_idle_sum). */
static void cp_inject_write_sums(const cp_table *sums, const cp_inject_device *d)
{
    for (size_t i = 0; i < sums->capacity; i++) {
        cp_table_entry *e = &sums->slots[i];
        cp_inject_sums *s = e->key ? e->value : NULL;
        if (!s || cp_inject_idle_sum(s) || !cp_inject_select_matches(s->device, s->function))
            continue; /* idle, or a kernel --kernel leaves out (patched with its module) */
        const char *function = s->function;
        cp_inject_save_cubin(s->crc);
        cp_inject_source(s->crc, function, s->pc);
        fprintf(cp_inject_state.raw, "pc\t%u\t%08" PRIx32 "\t%" PRIu32 "\t", s->device, s->crc,
                s->function_index);
        cp_inject_put_text(function);
        fprintf(cp_inject_state.raw, "\t0x%" PRIx32, s->pc);
        for (int m = 0; m < CP_INJECT_NMETRICS; m++) {
            if (s->has[m])
                fprintf(cp_inject_state.raw, "\t%" PRIu64, s->value[m]);
            else
                fputs(d->has_metric[m] ? "\t0" : "\t-", cp_inject_state.raw);
        }
        fputc('\n', cp_inject_state.raw);
    }
}

/* Takes the n records (of k instances each) CUPTI's SASS metrics hold for ctx into *data, their
 * values in *values (both the caller's to free, with each record's functionName): 0; -1 out of
 * memory and 1 CUPTI refused (*fr), with nothing taken and nothing to free. */
static int cp_inject_sass_take(CUcontext ctx, size_t n, size_t k, CUpti_SassMetrics_Data **data,
                               CUpti_SassMetrics_InstanceValue **values, CUptiResult *fr)
{
    *data = calloc(n, sizeof **data);
    *values = calloc(n * k, sizeof **values);
    int rc = -1;
    if (*data && *values) {
        for (size_t i = 0; i < n; i++) {
            (*data)[i].structSize = sizeof(*data)[i];
            (*data)[i].pInstanceValues = *values + i * k;
        }
        CUpti_SassMetricsFlushData_Params fp = CP_CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params);
        fp.ctx = ctx;
        fp.numOfPatchedInstructionRecords = n;
        fp.numOfInstances = k;
        fp.pMetricsData = *data;
        *fr = cuptiSassMetricsFlushData(&fp);
        rc = *fr == CUPTI_SUCCESS ? 0 : 1;
    }
    if (rc != 0) {
        free(*data);
        free(*values);
        *data = NULL;
        *values = NULL;
    }
    return rc;
}

/* Takes every record CUPTI holds for ctx, sums them per instruction and writes them. */
static void cp_inject_flush(CUcontext ctx, uint32_t ordinal)
{
    CUpti_SassMetricsGetDataProperties_Params dp =
        CP_CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
    dp.ctx = ctx;
    CP_INJECT_CUPTI_NOTE(cuptiSassMetricsGetDataProperties(&dp), return );
    cp_inject_state.flushes++;
    cp_inject_write_launches();
    if (dp.numOfPatchedInstructionRecords == 0 || dp.numOfInstances == 0) {
        fflush(cp_inject_state.raw);
        return;
    }
    size_t n = dp.numOfPatchedInstructionRecords, k = dp.numOfInstances;
    CUpti_SassMetrics_Data *data;
    CUpti_SassMetrics_InstanceValue *values;
    CUptiResult fr = CUPTI_SUCCESS;
    int taken = cp_inject_sass_take(ctx, n, k, &data, &values, &fr);
    if (taken != 0) {
        fprintf(cp_inject_state.raw, "dropped\t%u\t%zu\t", ordinal, n);
        if (taken < 0)
            fputs("out of memory while flushing", cp_inject_state.raw);
        else
            cp_inject_put_text(cp_inject_result_name(fr));
        fputc('\n', cp_inject_state.raw);
        fflush(cp_inject_state.raw);
        return;
    }

    /* one record is one instruction and one metric (its instances add up); sum per instruction */
    cp_table sums = {0};
    const cp_inject_device *d = &cp_inject_state.device[ordinal];
    for (size_t i = 0; i < n; i++) {
        cp_inject_sum(&sums, data, i, k, ordinal, d);
        free((void *)data[i].functionName);
    }
    free(data);
    free(values);

    cp_inject_write_sums(&sums, d);
    cp_table_free(&sums, cp_inject_free_sums);
    fflush(cp_inject_state.raw);
}

/* ---- callbacks ------------------------------------------------------------------------- */

static void cp_inject_module_loaded(const CUpti_ResourceData *rd)
{
    const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
    if (!m || !m->pCubin || m->cubinSize == 0)
        return;
    CUpti_GetCubinCrcParams cp = {.size = CUpti_GetCubinCrcParamsSize};
    cp.cubin = m->pCubin;
    cp.cubinSize = m->cubinSize;
    CP_INJECT_CUPTI_NOTE(cuptiGetCubinCrc(&cp), return );
    cp_inject_modules_loaded((uint32_t)cp.cubinCrc); /* the module the load call makes */
    char key[16];
    snprintf(key, sizeof key, "%08" PRIx32, (uint32_t)cp.cubinCrc);
    int created = 0;
    cp_table_entry *e = cp_table_get(&cp_inject_state.cubins, key, &created);
    if (!e || !created)
        return;
    cp_inject_cubin *c = calloc(1, sizeof *c);
    void *copy = malloc(m->cubinSize);
    if (!c || !copy) {
        free(c);
        free(copy);
        return;
    }
    memcpy(copy, m->pCubin, m->cubinSize);
    c->data = copy;
    c->size = m->cubinSize;
    e->value = c;
    if (c->size <= CP_TRACE_EARLY_CUBIN_BYTES) /* failing, it is tried again when recorded */
        (void)cp_inject_write_cubin(c, key);
}

static void cp_inject_flush_discard(CUcontext ctx, uint32_t ordinal);

static void cp_inject_context_destroying(CUcontext ctx)
{
    int slot = cp_inject_context_slot(ctx);
    if (slot < 0)
        return;
    cp_inject_close_kernels(slot);
    if (!cp_inject_state.want_instructions)
        goto forget;
    double t = cp_inject_now();
    if (cp_inject_state.context_sass_off[slot]) /* in a left-out window: its counts dropped */
        cp_inject_flush_discard(ctx, cp_inject_state.context_device[slot]);
    else
        cp_inject_flush(ctx, cp_inject_state.context_device[slot]);
    cp_inject_spent(CP_INJECT_T_FLUSH, t);
    CUpti_SassMetricsDisable_Params dis = CP_CUPTI_PARAMS(CUpti_SassMetricsDisable_Params);
    dis.ctx = ctx;
    CP_INJECT_CUPTI_NOTE(cuptiSassMetricsDisable(&dis), (void)0);
    if (dis.numOfDroppedRecords)
        fprintf(cp_inject_state.raw,
                "dropped\t%u\t%zu\tCUPTI dropped them when the context ended\n",
                cp_inject_state.context_device[slot], dis.numOfDroppedRecords);
    fflush(cp_inject_state.raw);
forget:
    cp_inject_state.context[slot] = cp_inject_state.context[cp_inject_state.ncontexts - 1];
    cp_inject_state.context_device[slot] =
        cp_inject_state.context_device[cp_inject_state.ncontexts - 1];
    cp_inject_state.context_kernels[slot] =
        cp_inject_state.context_kernels[cp_inject_state.ncontexts - 1];
    cp_inject_state.context_sass_off[slot] =
        cp_inject_state.context_sass_off[cp_inject_state.ncontexts - 1];
    cp_inject_state.ncontexts--;
}

/* When this thread's launch call left its enter callback (the driver's work, the kernel replay
 * included, runs between that and the exit callback). */
static _Thread_local double cp_inject_launch_entered;
/* Whether this thread's launch call goes to a stream being captured: read at its enter, kept
 * for its exit. */
static _Thread_local int cp_inject_launch_in_capture;
/* Where this thread's launch call came from, read at its enter: the Python frame and NVTX range
 * (cp_inject_python.c, cp_inject_nvtx.c), and a kernel launch's call site (a graph's kernel
 * nodes have one each, of the same frame and range). */
static _Thread_local int64_t cp_inject_launch_frame, cp_inject_launch_range;
static _Thread_local uint32_t cp_inject_launch_site;
/* The cubin of this thread's kernel launch (cp_inject_modules.h), 0 unknown. */
static _Thread_local uint32_t cp_inject_launch_crc;
/* What this thread's launch call's parameters say, read once at its enter. */
static _Thread_local cp_inject_launch_args cp_inject_launch_now;
/* A function's parameters of a tensor map's size, at most (a kernel with more: the first). */
#define CP_INJECT_MAP_PARAMS 16

/* What the launch path looked up for one function (a CUfunction on a device), kept for its
 * next launch: a launch-heavy program pays the lookups of long mangled names once a function,
 * not once a launch (the selection, the call site and the count: 2.1 us a launch of a 250-byte
 * name on this project's CPU machine, where PyTorch's own launch takes about 7 us). Its name is
 * compared at each launch, so a handle the driver reuses after a module unload starts afresh. */
typedef struct cp_inject_fn {
    char *name;
    uint32_t crc;                  /* its cubin (cp_inject_modules.h), 0 unknown */
    cp_inject_select_memo *select; /* owned by cp_inject_select.c */
    uint64_t *launches;            /* its count in cp_inject_state.launches */
    int64_t frame, range;          /* the call site it was last launched from */
    uint32_t site;                 /* that site's ID, 0: none yet */
    /* its parameters of a tensor map's size (cp_inject_launch_tmaps): read once; -1 unknown */
    int nmap_params;
    uint16_t map_params[CP_INJECT_MAP_PARAMS];
    uint32_t map_uses[CP_INJECT_MAP_PARAMS + 1]; /* where each was counted last, then "checked" */
} cp_inject_fn;
/* The function of this thread's kernel launch, NULL for a graph's or when memory ran out. */
static _Thread_local cp_inject_fn *cp_inject_launch_fn;
/* The slot of the context of this thread's launch call, found once at its enter (-1: not
 * traced); its exit looks again: another thread may end a context in between. */
static _Thread_local int cp_inject_launch_slot;

static void cp_inject_free_fn(void *v)
{
    cp_inject_fn *m = v;
    if (m)
        free(m->name);
    free(m);
}

/* The entry of function f named name on device ordinal, afresh when new or named otherwise;
 * NULL for no function or when memory runs out. */
static cp_inject_fn *cp_inject_fn_of(uint32_t ordinal, CUfunction f, const char *name)
{
    if (!f || !name)
        return NULL;
    char key[48];
    snprintf(key, sizeof key, "%u\t%p", ordinal, (void *)f);
    cp_table_entry *e = cp_table_get(&cp_inject_state.functions, key, NULL);
    if (!e)
        return NULL;
    cp_inject_fn *m = e->value;
    if (m && m->name && strcmp(m->name, name) == 0)
        return m;
    if (!m && !(m = e->value = calloc(1, sizeof *m)))
        return NULL;
    free(m->name);
    *m = (cp_inject_fn){.name = strdup(name), .crc = cp_inject_modules_crc(f), .nmap_params = -1};
    return m->name ? m : NULL;
}

/* What the selection decided for this thread's launch call at its enter (cp_inject_select.h):
 * counted (its instructions and launch), sampled (a range of the per-kernel counters). */
static _Thread_local int cp_inject_launch_counted, cp_inject_launch_sampled;

static int cp_inject_launch_captured(void);
static void cp_inject_launch_tmaps(uint32_t ordinal, const char *function);
static void cp_inject_launch_where(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
static void cp_inject_launch_select(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
static void cp_inject_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
static void cp_inject_launch_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);

static void cp_inject_launched(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cb->callbackSite == CUPTI_API_ENTER) {
        cp_inject_launch_args_of(cbid, cb->functionParams, &cp_inject_launch_now);
        CUfunction f = cp_inject_launch_now.function;
        cp_inject_launch_in_capture = cp_inject_launch_captured();
        int slot = cp_inject_launch_slot = cp_inject_context_slot(cb->context);
        cp_inject_launch_fn =
            slot >= 0 ? cp_inject_fn_of(cp_inject_state.context_device[slot], f, cb->symbolName)
                      : NULL;
        cp_inject_launch_crc =
            cp_inject_launch_fn ? cp_inject_launch_fn->crc : cp_inject_modules_crc(f);
        cp_inject_launch_select(cbid, cb);
        if (cp_inject_launch_counted && !cp_inject_launch_in_capture && cp_inject_launch_fn &&
            cp_inject_tmaps_any())
            cp_inject_launch_tmaps(cp_inject_state.context_device[slot], cb->symbolName);
        cp_inject_launch_where(cbid, cb);
        cp_inject_launch_enter(cbid, cb);
        cp_inject_launch_entered = cp_inject_now();
        return;
    }
    if (cb->callbackSite == CUPTI_API_EXIT && cp_inject_launch_entered > 0) {
        cp_inject_spent(CP_INJECT_T_LAUNCH, cp_inject_launch_entered);
        cp_inject_launch_entered = 0;
    }
    cp_inject_launch_exit(cbid, cb);
}

/* The tensor maps a counted kernel launch passes (issue 45): each parameter of a CUtensorMap's
 * size (128 bytes, from cuFuncGetParamInfo, read once a function) compared with the descriptors
 * the program encoded on the host (cp_inject_tensormaps.h): a match names its map, another
 * 128-byte parameter is unseen. Only once the program has encoded a descriptor. */
static void cp_inject_launch_tmaps(uint32_t ordinal, const char *function)
{
    cp_inject_fn *m = cp_inject_launch_fn;
    CUfunction f = cp_inject_launch_now.function;
    if (m->nmap_params < 0) { /* once a function; none when the driver cannot say */
        int n = cp_inject_tmaps_params(f, m->map_params, CP_INJECT_MAP_PARAMS);
        m->nmap_params = n < 0 ? 0 : n;
    }
    if (m->nmap_params == 0)
        return;
    void **params = cp_inject_launch_now.params;
    for (int i = 0; i < m->nmap_params; i++)
        cp_inject_tmaps_used(ordinal, m->crc, function,
                             params ? cp_inject_tmaps_find(params[m->map_params[i]]) : -1,
                             &m->map_uses[i]);
    cp_inject_tmaps_checked(ordinal, m->crc, function, &m->map_uses[CP_INJECT_MAP_PARAMS]);
}

/* 1 when the launch goes to a stream being captured into a graph: it runs nothing now. */
static int cp_inject_launch_captured(void)
{
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    return cp_inject_state.stream_is_capturing &&
           cp_inject_state.stream_is_capturing(cp_inject_launch_now.stream, &capture) ==
               CUDA_SUCCESS &&
           capture != CU_STREAM_CAPTURE_STATUS_NONE;
}

static int cp_inject_is_graph_launch(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

/* The call site of graph g's kernel node i launched from this thread (cp_inject_launch_where). */
static uint32_t cp_inject_node_site(uint32_t ordinal, const cp_inject_graph *g, size_t i)
{
    return cp_inject_sites_get(cp_inject_state.raw, ordinal, g->functions[i],
                               cp_inject_launch_frame, cp_inject_launch_range);
}

/* Where a launch that runs now comes from: its Python frame and NVTX range, and a kernel's call
 * site, kept for its enter and exit. */
static void cp_inject_launch_where(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    cp_inject_launch_site = 0;
    int slot = cp_inject_launch_slot;
    if (slot < 0 || cp_inject_launch_in_capture || !cp_inject_launch_counted)
        return;
    cp_inject_launch_frame = cp_inject_python_frame(cp_inject_state.raw);
    cp_inject_launch_range = cp_inject_nvtx_current();
    if (cp_inject_is_graph_launch(cbid))
        return;
    cp_inject_fn *m = cp_inject_launch_fn;
    if (m && m->site && m->frame == cp_inject_launch_frame && m->range == cp_inject_launch_range) {
        cp_inject_launch_site = m->site; /* as its last launch: sites are never forgotten */
        return;
    }
    cp_inject_launch_site =
        cp_inject_sites_get(cp_inject_state.raw, cp_inject_state.context_device[slot],
                            cb->symbolName, cp_inject_launch_frame, cp_inject_launch_range);
    if (m) {
        m->site = cp_inject_launch_site;
        m->frame = cp_inject_launch_frame;
        m->range = cp_inject_launch_range;
    }
}

/* Drops what the SASS metrics of ctx counted since the last flush (the left-out launches of a
 * window, cp_inject_sass_follow): read and freed, nothing written. */
static void cp_inject_flush_discard(CUcontext ctx, uint32_t ordinal)
{
    CUpti_SassMetricsGetDataProperties_Params dp =
        CP_CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
    dp.ctx = ctx;
    CP_INJECT_CUPTI_NOTE(cuptiSassMetricsGetDataProperties(&dp), return );
    size_t n = dp.numOfPatchedInstructionRecords, k = dp.numOfInstances;
    if (n == 0 || k == 0)
        return;
    CUpti_SassMetrics_Data *data;
    CUpti_SassMetrics_InstanceValue *values;
    CUptiResult fr = CUPTI_SUCCESS;
    int taken = cp_inject_sass_take(ctx, n, k, &data, &values, &fr);
    if (taken < 0)
        fprintf(cp_inject_state.raw, "dropped\t%u\t%zu\tout of memory while leaving launches out\n",
                ordinal, n);
    else if (taken > 0)
        cp_inject_note_failure("cuptiSassMetricsFlushData (leaving launches out)", fr, __FILE__,
                               __LINE__);
    for (size_t i = 0; taken == 0 && i < n; i++)
        free((void *)data[i].functionName);
    free(data);
    free(values);
}

/* The SASS metrics of the context in slot follow the selection (--launch-skip, --launch-count,
 * --nvtx-include, --capture-range) without being switched off (on the H100, 2026-12-07, switching
 * them off and on at each change crashed a program under --launch-skip 2 --launch-count 3): at a
 * launch of a kernel --kernel matches that is not counted, after the counted launches before it
 * (the context synchronised), their counts are flushed and kept; at the next counted launch,
 * after the left-out ones, what they counted is flushed and dropped. So the instruction counts
 * cover the counted launches only. The SASS metrics are per context, so kernels whose counted
 * windows interleave make a synchronisation and a flush at each change: a cost of the selection,
 * not of the default. Kernels --kernel leaves out change nothing (their records are dropped when
 * written). */
static void cp_inject_sass_follow(int slot, const char *function, int counted)
{
    uint32_t ordinal = cp_inject_state.context_device[slot];
    if (!cp_inject_state.want_instructions || !cp_inject_select_filters() ||
        !cp_inject_select_matches(ordinal, function) ||
        cp_inject_state.context_sass_off[slot] == !counted)
        return;
    CUcontext ctx = cp_inject_state.context[slot];
    double t = cp_inject_now();
    /* the launches before this one finish first (the launching thread's context is ctx: the
     * callback is on its launch call), so each flush holds whole launches */
    if (cp_inject_state.ctx_synchronize)
        (void)cp_inject_state.ctx_synchronize();
    if (!counted) {
        cp_inject_flush(ctx, ordinal); /* the counted window's counts, kept */
        fflush(cp_inject_state.raw);
    } else {
        cp_inject_flush_discard(ctx, ordinal); /* the left-out window's, dropped */
    }
    cp_inject_spent(CP_INJECT_T_FLUSH, t);
    cp_inject_state.context_sass_off[slot] = !counted;
}

/* What the selection decides for a launch that runs now (cp_inject_select.h): counted and
 * sampled, kept for its enter and exit; a graph's launch is sampled as a whole. */
static void cp_inject_launch_select(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    cp_inject_launch_counted = cp_inject_launch_sampled = 1;
    int slot = cp_inject_launch_slot;
    if (slot < 0 || cp_inject_launch_in_capture)
        return;
    if (cp_inject_is_graph_launch(cbid)) {
        cp_inject_launch_sampled =
            cp_inject_select_graph(((const cuGraphLaunch_params *)cb->functionParams)->hGraph);
        return;
    }
    const cp_inject_launch_args *a = &cp_inject_launch_now;
    int in_nvtx = cp_inject_select_options_used()->nvtx_include ? cp_inject_nvtx_inside() : 0;
    cp_inject_select_launch(cp_inject_state.context_device[slot], cb->symbolName,
                            cp_inject_launch_crc, a->has_shape ? &a->shape : NULL, in_nvtx,
                            cp_inject_launch_fn ? &cp_inject_launch_fn->select : NULL,
                            &cp_inject_launch_counted, &cp_inject_launch_sampled);
    cp_inject_sass_follow(slot, cb->symbolName, cp_inject_launch_counted);
}

/* Before a launch: the range(s) it will make, named (a kernel: its function; a graph: its
 * kernel nodes' functions in the order they run, or unmatched with the reason). A launch into a
 * stream being captured makes none. */
static void cp_inject_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    int slot = cp_inject_launch_slot;
    cp_inject_kernels *k = slot >= 0 ? cp_inject_state.context_kernels[slot] : NULL;
    if (!k || cp_inject_launch_in_capture)
        return;
    uint32_t ordinal = cp_inject_state.context_device[slot];
    uint64_t host_ns = cp_inject_wall_ns(); /* the launch call's host time */
    uint64_t emitted = cp_inject_state.emitted;
    char why[512] = "";
    double t = cp_inject_now();
    int rc;
    if (!cp_inject_launch_sampled) { /* no range: it runs as it would untraced */
        rc = cp_inject_kernels_pause(k, cp_inject_emit_kernel, &ordinal, why, sizeof why);
    } else if ((rc = cp_inject_kernels_resume(k, why, sizeof why)) != 0) {
        /* said below */
    } else if (cp_inject_is_graph_launch(cbid) && cp_inject_kernels_replayed(k)) {
        rc = cp_inject_kernels_before_replayed_graph(k, cp_inject_emit_kernel, &ordinal, why,
                                                     sizeof why);
    } else if (cp_inject_is_graph_launch(cbid)) {
        const cp_inject_graph *g =
            cp_inject_graphs_find(((const cuGraphLaunch_params *)cb->functionParams)->hGraph);
        static uint32_t *sites; /* the nodes' call sites: used under the lock only */
        static size_t nsites;
        if (g && g->functions && g->n > nsites) {
            uint32_t *grown = realloc(sites, g->n * sizeof *grown);
            if (grown)
                sites = grown, nsites = g->n;
        }
        int with_sites = g && g->functions && g->n <= nsites;
        for (size_t i = 0; with_sites && i < g->n; i++)
            sites[i] = cp_inject_node_site(ordinal, g, i);
        if (g)
            rc = cp_inject_kernels_before_graph(k, (const char *const *)g->functions, g->crcs,
                                                with_sites ? sites : NULL, g->n, host_ns, g->why,
                                                cp_inject_emit_kernel, &ordinal, why, sizeof why);
        else /* instantiated before the injection: its ranges come, their number unknown */
            rc = 0;
    } else {
        rc = cp_inject_kernels_before_launch(k, cb->symbolName, cp_inject_launch_crc,
                                             cp_inject_launch_site, host_ns, cp_inject_emit_kernel,
                                             &ordinal, why, sizeof why);
    }
    cp_inject_spent(CP_INJECT_T_COLLECT, t);
    if (rc != 0) {
        cp_inject_kernels_failed("per-kernel counters stopped", why, rc);
        cp_inject_close_kernels(slot); /* what was collected, and what CUPTI dropped */
    }
    if (cp_inject_state.emitted != emitted) /* no flush on the launch path otherwise */
        fflush(cp_inject_state.raw);
}

/* One more launch of function of cubin crc (0: unknown) on device ordinal, from call site `site`
 * (0: unknown); its count is *memo's when that is set, and kept there (memo NULL: none). */
static void cp_inject_count_launch(uint32_t ordinal, const char *function, uint32_t crc,
                                   uint32_t site, uint64_t **memo)
{
    cp_inject_sites_count(site, 1);
    cp_inject_state.launch_count++;
    if (memo && *memo) {
        ++**memo;
        return;
    }
    char buf[1024];
    char *key = cp_table_key(buf, sizeof buf, "%u\t%08" PRIx32 "\t%s", ordinal, crc,
                             function ? function : "?");
    cp_table_entry *e = key ? cp_table_get(&cp_inject_state.launches, key, NULL) : NULL;
    if (key != buf)
        free(key);
    if (e && !e->value)
        e->value = calloc(1, sizeof(uint64_t));
    if (e && e->value)
        ++*(uint64_t *)e->value;
    if (memo && e)
        *memo = e->value; /* the table's values stay where they are */
}

/* After a launch: its count (a graph's: one for each kernel node), or the note on stream
 * capture. */
static void cp_inject_launch_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (!cb->functionReturnValue || *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
        return;
    int slot = cp_inject_context_slot(cb->context);
    if (slot < 0)
        return;
    if (cp_inject_launch_in_capture) {
        if (!cp_inject_state.capture_noted)
            cp_inject_note("kernels captured into CUDA graphs are counted each time the graph "
                           "runs, as launches of their functions");
        cp_inject_state.capture_noted = 1;
        return;
    }
    if (!cp_inject_is_graph_launch(cbid)) {
        if (cp_inject_launch_counted)
            cp_inject_count_launch(cp_inject_state.context_device[slot], cb->symbolName,
                                   cp_inject_launch_crc, cp_inject_launch_site,
                                   cp_inject_launch_fn ? &cp_inject_launch_fn->launches : NULL);
        return;
    }
    cp_inject_kernels *k = cp_inject_state.context_kernels[slot];
    if (k && cp_inject_kernels_replayed(k)) { /* not counted per kernel: the counting paused */
        uint32_t ordinal = cp_inject_state.context_device[slot];
        char why[512] = "";
        int rc = cp_inject_kernels_after_replayed_graph(k, cp_inject_emit_kernel, &ordinal, why,
                                                        sizeof why);
        if (rc != 0) {
            cp_inject_kernels_failed("per-kernel counters stopped", why, rc);
            cp_inject_close_kernels(slot);
        }
        if (!cp_inject_state.graph_noted)
            cp_inject_note("CUDA graphs under kernel replay (--kernel-counters full): the "
                           "per-kernel counters pause while a graph runs (CUPTI's replay of a "
                           "graph re-runs its kernels without restoring their memory), so its "
                           "launches are not counted, while the instruction records include the "
                           "graph's runs: the instruction counts of kernels that ran in a graph "
                           "are not exact under --kernel-counters full (the default lean set is)");
        cp_inject_state.graph_noted = 1;
        return;
    }
    const cp_inject_graph *g =
        cp_inject_graphs_find(((const cuGraphLaunch_params *)cb->functionParams)->hGraph);
    if (g && g->functions) { /* each kernel node ran once */
        for (size_t i = 0; i < g->n; i++) {
            uint32_t ordinal = cp_inject_state.context_device[slot];
            cp_inject_select_node(ordinal, g->functions[i], g->crcs[i],
                                  k && cp_inject_launch_sampled);
            cp_inject_count_launch(ordinal, g->functions[i], g->crcs[i],
                                   cp_inject_node_site(ordinal, g, i), NULL);
        }
        cp_inject_graphs_count_maps(g, cp_inject_state.context_device[slot]);
    } else if (!cp_inject_state.graph_noted) {
        cp_inject_note(g ? "a CUDA graph whose kernels run in no order coalprobe can tell: its "
                           "kernels' counters are reported as unmatched, their launches are not "
                           "counted"
                         : "a CUDA graph instantiated before coalprobe could see it: its kernels' "
                           "counters are reported as unmatched, their launches are not counted");
        cp_inject_state.graph_noted = 1;
    }
}

/* The parameters every cuGraphInstantiate* call begins with. */
typedef struct cp_inject_instantiate_params {
    CUgraphExec *phGraphExec;
    CUgraph hGraph;
} cp_inject_instantiate_params;
#define CP_INJECT_SAME_PREFIX(type)                                                                \
    _Static_assert(offsetof(type, phGraphExec) ==                                                  \
                           offsetof(cp_inject_instantiate_params, phGraphExec) &&                  \
                       offsetof(type, hGraph) == offsetof(cp_inject_instantiate_params, hGraph),   \
                   #type " begins with phGraphExec and hGraph")
CP_INJECT_SAME_PREFIX(cuGraphInstantiate_params);
CP_INJECT_SAME_PREFIX(cuGraphInstantiate_v2_params);
CP_INJECT_SAME_PREFIX(cuGraphInstantiateWithFlags_params);
CP_INJECT_SAME_PREFIX(cuGraphInstantiateWithParams_params);
CP_INJECT_SAME_PREFIX(cuGraphInstantiateWithParams_ptsz_params);

/* A graph instantiated, updated or destroyed: kept track of (cp_inject_graphs.c), on the exit of
 * a call that succeeded. 1 when cbid is one of those calls. */
static int cp_inject_graph_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    int exited = cb->callbackSite == CUPTI_API_EXIT && cb->functionReturnValue &&
                 *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS;
    CUgraphExec exec = NULL;
    CUgraph graph = NULL;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz: {
        const cp_inject_instantiate_params *p = cb->functionParams;
        if (exited && p->phGraphExec)
            exec = *p->phGraphExec, graph = p->hGraph;
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: {
        const cuGraphExecUpdate_v2_params *p = cb->functionParams;
        if (exited)
            exec = p->hGraphExec, graph = p->hGraph;
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
        if (cb->callbackSite == CUPTI_API_ENTER)
            cp_inject_graphs_destroyed(
                ((const cuGraphExecDestroy_params *)cb->functionParams)->hGraphExec);
        return 1;
    default:
        return 0;
    }
    if (exec && cp_inject_graphs_instantiated(exec, graph) != 0)
        cp_inject_note("out of memory while reading a CUDA graph");
    return 1;
}

/* cuProfilerStart and cuProfilerStop (cudaProfilerStart/Stop call them): the selection's
 * --capture-range profiler-api follows them, on the exit of a call that succeeded. 1 when cbid
 * is one of them. */
static int cp_inject_profiler_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cbid != CUPTI_DRIVER_TRACE_CBID_cuProfilerStart &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)
        return 0;
    if (cb->callbackSite == CUPTI_API_EXIT && cb->functionReturnValue &&
        *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS)
        cp_inject_select_profiler(cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    return 1;
}

/* Set while this thread is in the callback, or in a set-up of cp_inject_attach.c under the lock:
 * CUPTI calls made then may raise callbacks of their own on this thread, which are ignored rather
 * than deadlocking on the lock this thread holds. */
static _Thread_local int cp_inject_inside;

static void CUPTIAPI cp_inject_callback(void *userdata, CUpti_CallbackDomain domain,
                                        CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (cp_inject_inside)
        return;
    cp_inject_inside = 1;
    pthread_mutex_lock(&cp_inject_state.lock);
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && getpid() == cp_inject_state.pid &&
        cp_inject_tmaps_call(cbid, data)) {
        /* a tensor map: recorded even where CUPTI refused the counters */
    } else if (!cp_inject_state.stopped && getpid() == cp_inject_state.pid) {
        if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
            const CUpti_ResourceData *rd = data;
            if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
                cp_inject_context_created(rd->context);
            else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
                cp_inject_context_destroying(rd->context);
            else if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
                double t = cp_inject_now();
                cp_inject_module_loaded(rd);
                cp_inject_spent(CP_INJECT_T_MODULE, t);
            }
        } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
            if (!cp_inject_profiler_call(cbid, data) && !cp_inject_graph_call(cbid, data) &&
                !cp_inject_modules_call(cbid, data))
                cp_inject_launched(cbid, data);
        } else if (domain == CUPTI_CB_DOMAIN_NVTX) {
            cp_inject_nvtx_call(cbid, data, cp_inject_state.raw);
        }
    }
    pthread_mutex_unlock(&cp_inject_state.lock);
    cp_inject_inside = 0;
}

/* ---- start and end ------------------------------------------------------------------- */

/* The end of the raw file: what live contexts hold, the launches, the times and the end record;
 * then the file closed and the tables freed. The lock held; at the exit and at a detach. */
static void cp_inject_finish(void)
{
    if (cp_inject_state.raw && getpid() == cp_inject_state.pid) {
        cp_inject_early_join(); /* a program that made no context: its notes */
        /* contexts still alive (the driver tears them down after us): take what they hold */
        while (cp_inject_state.ncontexts > 0 && !cp_inject_state.stopped)
            cp_inject_context_destroying(cp_inject_state.context[cp_inject_state.ncontexts - 1]);
        cp_inject_write_launches();
        cp_inject_select_write_counts(cp_inject_state.raw);
        cp_inject_sites_write_lost(cp_inject_state.raw);
        cp_inject_tmaps_write(cp_inject_state.raw);
        if (cp_inject_state.untimed) {
            char note[200];
            snprintf(note, sizeof note,
                     "%" PRIu64 " launches have no kernel_time record (past %u in a process)",
                     cp_inject_state.untimed, CP_INJECT_MAX_KERNEL_TIMES);
            cp_inject_note(note);
        }
        for (int i = 0; i < CP_INJECT_T_COUNT; i++) {
            fprintf(cp_inject_state.raw, "time\t%s\t", cp_inject_phase_names[i]);
            cp_inject_put_double(cp_inject_state.phase_seconds[i], 6);
            fprintf(cp_inject_state.raw, "\t%" PRIu64 "\n", cp_inject_state.phase_count[i]);
        }
        fputs("time\tinjected\t", cp_inject_state.raw);
        cp_inject_put_double(cp_inject_now() - cp_inject_state.started, 6);
        fputs("\t1\n", cp_inject_state.raw);
        fprintf(cp_inject_state.raw, "end\t%" PRIu64 "\t%" PRIu64 "\n", cp_inject_state.flushes,
                cp_inject_state.launch_count);
        fclose(cp_inject_state.raw);
        cp_inject_state.raw = NULL;
        if (cp_inject_state.raw_lock >= 0) /* written: the launcher may read it now */
            close(cp_inject_state.raw_lock);
        cp_inject_state.raw_lock = -1;
        cp_table_free(&cp_inject_state.launches, free);
        cp_table_free(&cp_inject_state.functions, cp_inject_free_fn);
        cp_inject_graphs_free();
        cp_table_free(&cp_inject_state.cubins, cp_inject_free_cubin);
        cp_table_free(&cp_inject_state.sourced, NULL);
        cp_table_free(&cp_inject_state.nosource, NULL);
        cp_inject_sites_free();
        cp_inject_nvtx_free();
        cp_inject_python_free();
        cp_inject_modules_free();
        cp_inject_select_free();
    }
}

static void cp_inject_at_exit(void)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    cp_inject_finish();
    pthread_mutex_unlock(&cp_inject_state.lock);
}

/* In a child forked by the program: the lock is its parent's, not the child's to hold. */
static void cp_inject_forked(void)
{
    if (cp_inject_state.raw_lock >= 0)
        close(cp_inject_state.raw_lock);
    cp_inject_state.raw_lock = -1;
}

/* ---- attaching to a running process (cp_inject_attach.h) ---------------------------- */

int cp_inject_attach_state(void)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    int on = cp_inject_state.raw && getpid() == cp_inject_state.pid;
    int state = !on ? CP_INJECT_OFF : cp_inject_state.stopped ? CP_INJECT_STOPPED : CP_INJECT_ON;
    pthread_mutex_unlock(&cp_inject_state.lock);
    return state;
}

int cp_inject_attach_adopt(CUcontext ctx)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    cp_inject_inside = 1;
    int adopted = 0;
    CUcontext was = NULL;
    if (ctx && cp_inject_state.raw && getpid() == cp_inject_state.pid && !cp_inject_state.stopped &&
        cp_inject_context_slot(ctx) < 0 && cp_inject_state.ctx_push && cp_inject_state.ctx_pop &&
        cp_inject_state.ctx_push(ctx) == CUDA_SUCCESS) {
        cp_inject_context_created(ctx);
        (void)cp_inject_state.ctx_pop(&was);
        adopted = cp_inject_context_slot(ctx) >= 0;
        fflush(cp_inject_state.raw);
    }
    cp_inject_inside = 0;
    pthread_mutex_unlock(&cp_inject_state.lock);
    return adopted;
}

size_t cp_inject_attach_contexts(CUcontext *out, size_t max)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    size_t n = 0;
    for (; n < cp_inject_state.ncontexts && n < max; n++)
        out[n] = cp_inject_state.context[n];
    pthread_mutex_unlock(&cp_inject_state.lock);
    return n;
}

void cp_inject_attach_note(const char *text)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    if (cp_inject_state.raw && getpid() == cp_inject_state.pid)
        cp_inject_note(text);
    pthread_mutex_unlock(&cp_inject_state.lock);
}

/* Drops one range of counters that a detach finds after collection stopped. */
static void cp_inject_attach_drop(void *user, const char *kernel, uint32_t crc, uint32_t site,
                                  uint64_t host_ns, const char *unmatched, const double *values)
{
    (void)user, (void)kernel, (void)crc, (void)site, (void)host_ns, (void)unmatched, (void)values;
}

/* Turns off what cp_inject_finish leaves on (the contexts of a collection that stopped) and
 * resets the state as a fresh process has it, the lock, CUPTI's profiler (initialised once a
 * process), each device's SASS configuration (cp_inject_sass_set) and the driver functions
 * aside. The subscriber
 * is handed back for the caller to unsubscribe once the lock is released. The lock held. */
static CUpti_SubscriberHandle cp_inject_attach_reset(void)
{
    for (size_t i = 0; i < cp_inject_state.ncontexts; i++) {
        size_t dropped = 0;
        char why[512] = "";
        if (cp_inject_state.context_kernels[i])
            (void)cp_inject_kernels_close(cp_inject_state.context_kernels[i], cp_inject_attach_drop,
                                          NULL, &dropped, why, sizeof why);
        if (cp_inject_state.want_instructions) {
            CUpti_SassMetricsDisable_Params dis = CP_CUPTI_PARAMS(CUpti_SassMetricsDisable_Params);
            dis.ctx = cp_inject_state.context[i];
            (void)cuptiSassMetricsDisable(&dis);
        }
    }
    /* each device's SASS configuration stays set for the next region (cp_inject_sass_set) */
    cp_inject_early_join(); /* joined by cp_inject_finish where it ran */
    memset(&cp_inject_early, 0, sizeof cp_inject_early);
    CUpti_SubscriberHandle subscriber = cp_inject_state.subscriber;
    int initialized = cp_inject_state.profiler_initialized;
    /* everything after the lock as a fresh process has it (raw_lock aside: -1), so that a field
     * added to the state is reset too */
    char *from = (char *)&cp_inject_state.lock + sizeof cp_inject_state.lock;
    memset(from, 0, (size_t)((char *)(&cp_inject_state + 1) - from));
    cp_inject_state.raw_lock = -1;
    cp_inject_state.profiler_initialized = initialized;
    return subscriber;
}

void cp_inject_attach_end(const char *interrupted)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    cp_inject_inside = 1;
    if (cp_inject_state.raw && getpid() == cp_inject_state.pid && interrupted) {
        fputs("interrupted\t", cp_inject_state.raw);
        cp_inject_put_text(interrupted);
        fputc('\n', cp_inject_state.raw);
    }
    cp_inject_finish();
    /* pid 0 from here: a callback still on its way does nothing */
    CUpti_SubscriberHandle subscriber = cp_inject_attach_reset();
    cp_inject_inside = 0;
    pthread_mutex_unlock(&cp_inject_state.lock);
    if (subscriber)
        (void)cuptiUnsubscribe(subscriber);
}

/* Creates DIR/raw-PID.tsv, locked (cp_trace_lock.h) before it appears under that name, so that
 * the launcher, which waits for every locked raw file, never reads one this process has yet to
 * finish. A file system without locks still gets the file, unlocked. */
static int cp_inject_open_raw(void)
{
    const char *dir = getenv(CP_TRACE_ENV_DIR);
    if (!dir || !dir[0] || strlen(dir) >= sizeof cp_inject_state.dir)
        return -1;
    snprintf(cp_inject_state.dir, sizeof cp_inject_state.dir, "%s", dir);
    char path[4200], part[4200];
    snprintf(path, sizeof path, "%s/%s%ld%s", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    snprintf(part, sizeof part, "%s/.%s%ld%s.part", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    if (access(path, F_OK) == 0)
        return -1; /* another process of this pid wrote here: never overwritten */
    int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int lock = cp_trace_lock_hold(part);
    /* link refuses an existing name, as O_EXCL did; rename where hard links are not offered */
    int named = link(part, path);
    if (named == 0)
        unlink(part);
    else if (errno != EEXIST)
        named = rename(part, path);
    if (named != 0 || !(cp_inject_state.raw = fdopen(fd, "w"))) {
        unlink(part);
        if (lock >= 0)
            close(lock);
        close(fd);
        return -1;
    }
    cp_inject_state.raw_lock = lock;
    static int atfork_registered;
    if (!atfork_registered && pthread_atfork(NULL, NULL, cp_inject_forked) == 0)
        atfork_registered = 1;
    return 0;
}

/* NVTX calls reach CUPTI's NVTX callbacks only where the program's NVTX loaded libcupti as its
 * injection, which NVTX does when NVTX_INJECTION64_PATH names it at the program's first NVTX call
 * (NVTX initialises lazily, once): so it is set here, to this process's libcupti, unless set
 * already (another tool's, or the launcher's) or COALPROBE_TRACE_NVTX=0. A program whose first
 * NVTX call came before CUDA's initialisation has no ranges recorded. */
static void cp_inject_nvtx_connect(void)
{
    const char *want = getenv("COALPROBE_TRACE_NVTX");
    if ((want && strcmp(want, "0") == 0) || getenv("NVTX_INJECTION64_PATH"))
        return;
    Dl_info info;
    if (dladdr((void *)cuptiSubscribe, &info) && info.dli_fname && info.dli_fname[0] == '/')
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

/* The launcher's selection and sampling options (cp_inject_select.h), said in `selection`
 * records. Under kernel replay (--kernel-counters full) every counted launch gets its range:
 * the instruction counts are scaled by the kernel records of every launch. */
static void cp_inject_select_start(void)
{
    cp_inject_select_options o;
    char why[600] = "";
    if (cp_inject_select_from_env(&o, why, sizeof why) != 0)
        cp_inject_note(why);
    if (cp_inject_state.kernel_set == CP_INJECT_KSET_FULL &&
        o.counter_launches != CP_INJECT_SELECT_ALL) {
        o.counter_launches = CP_INJECT_SELECT_ALL;
        cp_inject_note("--kernel-counters full counts every launch's per-kernel counters (its "
                       "instruction counts are scaled by them): --counter-launches does not "
                       "apply");
    }
    if (!cp_inject_state.want_kernels) { /* COALPROBE_TRACE_MODE=instructions: no ranges at all */
        o.counter_launches = 0;
        cp_inject_note("COALPROBE_TRACE_MODE=instructions: without the Range Profiler the SASS "
                       "metrics undercounted on the H100 (2026-12-07: a PyTorch program's first "
                       "kernel counted, the others not): for measuring the cost only");
    }
    /* --instructions sampled: its instruction counts are those of the ranged launches, so it
     * needs ranges, of launches run as they are (the launcher refuses these; the library, set
     * by hand, counts every launch instead) */
    if (o.instructions_sampled &&
        (o.counter_launches == 0 || cp_inject_state.kernel_set == CP_INJECT_KSET_FULL)) {
        o.instructions_sampled = 0;
        cp_inject_note("--instructions sampled needs per-kernel counters without replay (not "
                       "--counter-launches 0, not --kernel-counters full, not "
                       "COALPROBE_TRACE_MODE=instructions): every launch is counted per "
                       "instruction");
    }
    /* Even with nothing to sample (--counter-launches 0) the Range Profiler is enabled: on the
     * H100 (2026-12-07, driver 580.159.04) without it the SASS metrics counted a PyTorch
     * program's first kernel only, and missed instructions of the tests' CUDA program
     * (gpu.trace_torch, gpu.trace_collect); docs/trace.md, Cost. */
    why[0] = 0;
    if (cp_inject_select_configure(&o, why, sizeof why) != 0)
        cp_inject_note(why);
    cp_inject_nvtx_want(o.nvtx_include);
    cp_inject_select_write_options(cp_inject_state.raw);
}

/* The Python side: which frames and stacks the launcher asked for, and the profile hook asked for
 * before the first launch. */
static void cp_inject_python_start(void)
{
    const char *frames = getenv("COALPROBE_TRACE_PYTHON_FRAMES");
    const char *stack = getenv("COALPROBE_TRACE_PYTHON_STACK");
    cp_inject_python_configure(frames && strcmp(frames, "all") == 0,
                               stack && strcmp(stack, "1") == 0);
    cp_inject_python_prepare();
}

/* The driver API calls the library follows: launches, graphs, the profiler API and module
 * loads. 0, or -1 with the refusal noted. */
static int cp_inject_enable_driver_calls(void)
{
    static const CUpti_CallbackId launches[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
        CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
        CUPTI_DRIVER_TRACE_CBID_cuProfilerStop};
    for (size_t i = 0; i < CP_COUNT_OF(launches); i++)
        CP_INJECT_CUPTI(cuptiEnableCallback(1, cp_inject_state.subscriber,
                                            CUPTI_CB_DOMAIN_DRIVER_API, launches[i]),
                        return -1);
    for (size_t i = 0; i < cp_inject_modules_ncbids; i++)
        CP_INJECT_CUPTI(cuptiEnableCallback(1, cp_inject_state.subscriber,
                                            CUPTI_CB_DOMAIN_DRIVER_API, cp_inject_modules_cbids[i]),
                        return -1);
    return 0;
}

/* Called by the CUDA driver in cuInit when CUDA_INJECTION64_PATH names this library. Returns 1
 * when tracing is set up, 0 when it is not (the program runs on untraced either way). */
CP_INJECT_EXPORT int InitializeInjection(void);
CP_INJECT_EXPORT int InitializeInjection(void)
{
    pthread_mutex_lock(&cp_inject_state.lock);
    int ok = 0;
    if (cp_inject_state.raw || cp_inject_open_raw() != 0)
        goto out; /* initialised already, or not run by coalprobe trace: stay out of the way */
    cp_inject_state.pid = getpid();
    cp_inject_state.started = cp_inject_now();
    const char *set = getenv("COALPROBE_TRACE_KERNEL_SET");
    cp_inject_state.kernel_set =
        set && strcmp(set, "full") == 0 ? CP_INJECT_KSET_FULL : CP_INJECT_KSET_LEAN;
    const char *mode = getenv("COALPROBE_TRACE_MODE");
    cp_inject_state.want_kernels = !mode || !mode[0] || strcmp(mode, "instructions") != 0;
    cp_inject_state.want_instructions = !mode || !mode[0] || strcmp(mode, "kernels") != 0;
    cp_inject_write_process();
    cp_inject_select_start();
    static int at_exit_registered; /* once: a process may attach again (cp_inject_attach.c) */
    if (!at_exit_registered)
        at_exit_registered = atexit(cp_inject_at_exit) == 0;
    cp_inject_python_start();

    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!cuda) {
        cp_inject_state.stopped = 1;
        cp_inject_note("no CUDA driver in this process: nothing to trace");
        goto out;
    }
    cp_inject_state.stream_is_capturing =
        (cp_cu_stream_is_capturing_fn)dlsym(cuda, "cuStreamIsCapturing");
    if (!cp_inject_graphs_load(cuda))
        cp_inject_note("the CUDA driver lacks a function coalprobe reads graphs with: the "
                       "counters of kernels launched by CUDA graphs are reported as unmatched");
    cp_inject_state.device_get_name = (cp_cu_device_get_name_fn)dlsym(cuda, "cuDeviceGetName");
    cp_inject_state.device_get_attribute =
        (cp_cu_device_get_attribute_fn)dlsym(cuda, "cuDeviceGetAttribute");
    cp_inject_state.ctx_synchronize = (cp_cu_ctx_synchronize_fn)dlsym(cuda, "cuCtxSynchronize");
    cp_inject_state.ctx_push = (cp_cu_ctx_push_fn)dlsym(cuda, "cuCtxPushCurrent_v2");
    cp_inject_state.ctx_pop = (cp_cu_ctx_pop_fn)dlsym(cuda, "cuCtxPopCurrent_v2");
    cp_inject_tmaps_load(cuda);

    CP_INJECT_CUPTI(cuptiSubscribe(&cp_inject_state.subscriber, cp_inject_callback, NULL),
                    goto out);
    static const CUpti_CallbackId resources[] = {CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                                                 CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                                                 CUPTI_CBID_RESOURCE_MODULE_LOADED};
    for (size_t i = 0; i < CP_COUNT_OF(resources); i++)
        CP_INJECT_CUPTI(cuptiEnableCallback(1, cp_inject_state.subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                            resources[i]),
                        goto out);
    if (cp_inject_enable_driver_calls() != 0)
        goto out;
    CP_INJECT_CUPTI_NOTE(cp_inject_tmaps_enable(cp_inject_state.subscriber), (void)0);
    CP_INJECT_CUPTI_NOTE(cp_inject_nvtx_enable(cp_inject_state.subscriber), (void)0);
    cp_inject_nvtx_connect();
    cp_inject_early_start();
    ok = 1;
out:
    if (cp_inject_state.raw)
        fflush(cp_inject_state.raw);
    pthread_mutex_unlock(&cp_inject_state.lock);
    return ok;
}
