/* cp_measure_cuda.c: the CUDA measurement backend: reads the device's facts, measures the
 * copy peak, and for each configuration allocates and fills its buffers, has its family
 * (cp_measure_family.h) launch and check the kernel, times it with events after an L2 flush,
 * and reads its counters through CUPTI. One file of about 1,200 lines: the backend's state and
 * its table of functions (cp_backend_cuda) stay private to it; each family's launch and check
 * live in cp_measure_<family>.c, CUPTI's session in cp_cupti.cpp. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cp_measure_family.h"
#include "model/cp_model.h"

_Static_assert(CP_FAMILY_COUNTERS_MAX <= CP_CUPTI_EXTRA_MAX,
               "a session reads every family counter metric of a sweep");

#define CP_CUDA_PEAK_REPS 7

static int cp_cuda_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void cp_cuda_driver_release(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f))
        cp_measure_parse_driver_release(line, buf, len);
    fclose(f);
}

/* How the current device (d) runs this binary's kernels; a refusal when it cannot. The build's
 * list decides (cp_arch_decide); the driver's answer for a real kernel guards against a list
 * that does not match the binary. */
static int cp_cuda_check_kernels(cp_device_info *d, cp_status *st)
{
    int arch = cp_arch_from_cc(d->cc_major, d->cc_minor);
    const cp_arch_built *built = cp_arch_this_build();
    cp_arch_run run = cp_arch_decide(built, arch);
    d->kernel_kind = built ? run.kind : CP_ARCH_RUN_SASS;
    d->kernel_arch = built ? run.arch : arch;
    CP_TRY(cp_arch_check_device(built, d->name, arch, st));
    int binary = 0, ptx = 0;
    cudaError_t e = cp_kernels_image(&binary, &ptx);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
        e == cudaErrorUnsupportedPtxVersion) {
        (void)cudaGetLastError(); /* the check consumed the error; the context is intact */
        char list[256];
        cp_arch_describe_built(built, list, sizeof list);
        d->kernel_kind = CP_ARCH_RUN_NONE;
        d->kernel_arch = 0;
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "%s (sm_%d) cannot run this coalprobe: the CUDA driver finds no kernel "
                      "image for it (%s; the build says it carries %s)",
                      d->name, arch, cudaGetErrorName(e), list[0] ? list : "an unknown list");
        if (e == cudaErrorUnsupportedPtxVersion)
            cp_status_hint(st,
                           "the driver is older than the PTX: install a driver for CUDA %d, or "
                           "rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d",
                           CUDART_VERSION / 1000, arch);
        else
            cp_status_hint(st,
                           "rebuild for this GPU: cmake -DCMAKE_CUDA_ARCHITECTURES=%d (or "
                           "=native) -B build && cmake --build build",
                           arch);
        return CP_EXIT_RUNTIME;
    }
    CP_CUDA_CHECK(st, e);
    return CP_EXIT_OK;
}

/* What one SM of device offers (device attributes), with its architecture's allocation units
 * (cp_occupancy_arch_units). */
static int cp_cuda_sm_limits(int device, int arch, cp_sm_limits *sm, cp_status *st)
{
    static const enum cudaDeviceAttr attrs[] = {
        cudaDevAttrWarpSize,
        cudaDevAttrMaxThreadsPerMultiProcessor,
        cudaDevAttrMaxBlocksPerMultiprocessor,
        cudaDevAttrMaxRegistersPerMultiprocessor,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor,
        cudaDevAttrReservedSharedMemoryPerBlock,
    };
    int v[sizeof attrs / sizeof attrs[0]];
    memset(sm, 0, sizeof *sm);
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        CP_CUDA_CHECK(st, cudaDeviceGetAttribute(&v[i], attrs[i], device));
    sm->warp_size = (uint32_t)v[0];
    sm->max_threads_per_sm = (uint32_t)v[1];
    sm->max_blocks_per_sm = (uint32_t)v[2];
    sm->registers_per_sm = (uint32_t)v[3];
    sm->shared_bytes_per_sm = (uint64_t)v[4];
    sm->shared_reserved_per_block = (uint32_t)v[5];
    cp_occupancy_arch_units(arch, sm); /* left 0 for an architecture it does not know */
    return CP_EXIT_OK;
}

int cp_measure_device_facts(int device, cp_device_info *d, cp_status *st)
{
    struct cudaDeviceProp prop;
    int v;
    memset(d, 0, sizeof *d);
    d->peak_theoretical_bytes_per_s = d->peak_measured_bytes_per_s = NAN;
    d->kernel_kind = CP_ARCH_RUN_NONE;
    CP_CUDA_CHECK(st, cudaSetDevice(device));
    CP_CUDA_CHECK(st, cudaGetDeviceProperties(&prop, device));
    d->index = device;
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    cp_measure_format_uuid((const unsigned char *)prop.uuid.bytes, d->uuid, sizeof d->uuid);
    d->cc_major = prop.major;
    d->cc_minor = prop.minor;
    d->sm_count = prop.multiProcessorCount;
    d->l2_bytes = (uint64_t)prop.l2CacheSize;
    d->memory_bytes = (uint64_t)prop.totalGlobalMem;
    d->memory_bus_bits = prop.memoryBusWidth;
    CP_CUDA_CHECK(st, cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, device));
    d->sm_clock_hz = v * 1e3;
    CP_CUDA_CHECK(st, cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, device));
    d->memory_clock_hz = v * 1e3;
    /* double data rate: two transfers per memory clock */
    d->peak_theoretical_bytes_per_s = 2.0 * d->memory_clock_hz * d->memory_bus_bits / 8.0;
    CP_CUDA_CHECK(st, cudaDriverGetVersion(&d->driver_version));
    CP_CUDA_CHECK(st, cudaRuntimeGetVersion(&d->runtime_version));
    cp_cuda_driver_release(d->driver_release, sizeof d->driver_release);
    CP_TRY(cp_cuda_sm_limits(device, cp_arch_from_cc(d->cc_major, d->cc_minor), &d->sm, st));
    cp_phase_begin(CP_PHASE_KERNEL_IMAGE);
    int rc = cp_cuda_check_kernels(d, st);
    cp_phase_end();
    return rc;
}

/* Device-to-device cudaMemcpy bandwidth, counting bytes read plus bytes written. */
static int cp_cuda_measure_peak(cp_cuda_state *s, cp_status *st)
{
    size_t free_bytes, total;
    CP_CUDA_CHECK(st, cudaMemGetInfo(&free_bytes, &total));
    uint64_t bytes = 512ull << 20;
    while (bytes > (64ull << 20) && 2 * bytes > free_bytes / 2)
        bytes /= 2;
    void *a = NULL, *b = NULL;
    cudaError_t e = cudaMalloc(&a, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&b, bytes);
    if (e == cudaSuccess)
        e = cp_kernels_fill_launch(a, bytes, 99, s->stream);
    double t[CP_CUDA_PEAK_REPS];
    for (int r = -2; r < CP_CUDA_PEAK_REPS && e == cudaSuccess; r++) {
        float ms = 0;
        e = cudaEventRecord(s->starts[0], s->stream);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s->stream);
        if (e == cudaSuccess)
            e = cudaEventRecord(s->stops[0], s->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(s->stops[0]);
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, s->starts[0], s->stops[0]);
        if (r >= 0)
            t[r] = ms * 1e-3;
    }
    cudaFree(a);
    cudaFree(b);
    CP_CUDA_CHECK(st, e);
    qsort(t, CP_CUDA_PEAK_REPS, sizeof *t, cp_cuda_cmp_double);
    s->dev.peak_measured_bytes_per_s = 2.0 * (double)bytes / t[CP_CUDA_PEAK_REPS / 2];
    return CP_EXIT_OK;
}

static void cp_cuda_cupti_wait(cp_cuda_state *s);

static void cp_cuda_close(void *state)
{
    cp_cuda_state *s = state;
    if (!s)
        return;
    (void)cudaSetDevice(s->opt.device); /* any thread may close it (cp_backend.device_count) */
    cp_cuda_cupti_wait(s);
    cp_cupti_close(s->cupti);
    for (int f = 0; f < CP_FAMILY_COUNT; f++) {
        const cp_measure_family *fam = cp_measure_family_of((cp_family)f);
        if (fam->release)
            fam->release(s);
    }
    for (size_t a = 0; a < CP_CUDA_MAX_BUFFERS; a++)
        cudaFree(s->pool[a].ptr);
    for (uint32_t r = 0; r < s->nevents; r++) {
        cudaEventDestroy(s->starts[r]);
        cudaEventDestroy(s->stops[r]);
    }
    if (s->begin)
        cudaEventDestroy(s->begin);
    cudaFree(s->flush_buf);
    cudaFree(s->sink);
    cudaFreeHost(s->check_host);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    free(s->pre_res);
    free(s->pre_known);
    free(s);
}

/* Bytes kept free beside the buffers (the flush buffer, cuBLAS's workspace, the driver). */
#define CP_CUDA_MEMORY_MARGIN (256ull << 20)

/* Refuses a sweep whose largest configuration cannot fit before anything is allocated. */
static int cp_cuda_check_memory(const cp_cuda_state *s, cp_status *st)
{
    size_t free_bytes, total;
    CP_CUDA_CHECK(st, cudaMemGetInfo(&free_bytes, &total));
    uint64_t flush = 2 * s->dev.l2_bytes;
    uint64_t need = s->opt.max_config_bytes + flush + CP_CUDA_MEMORY_MARGIN;
    if (need <= free_bytes)
        return CP_EXIT_OK;
    cp_status_set(st, CP_EXIT_USAGE,
                  "%s needs %" PRIu64 " bytes of buffers (%" PRIu64
                  " with the L2 flush buffer and a margin) and %s has %zu bytes free",
                  s->opt.max_config, s->opt.max_config_bytes, need, s->dev.name, free_bytes);
    cp_status_hint(st, "use a smaller --size, stride, field count or matrix, or --model to "
                       "predict without measuring");
    return CP_EXIT_USAGE;
}

static int cp_cuda_setup_context(cp_cuda_state *s, cp_status *st);
static int cp_cuda_setup_facts(cp_cuda_state *s, cp_status *st);
static int cp_cuda_setup_flush(cp_cuda_state *s, cp_status *st);

/* Makes s hold at least n (at most CP_CUDA_BATCH) pairs of events for timed samples. */
static int cp_cuda_events(cp_cuda_state *s, uint32_t n, cp_status *st)
{
    while (s->nevents < n && s->nevents < CP_CUDA_BATCH) {
        cudaEvent_t start = NULL, stop = NULL;
        cudaError_t e = cudaEventCreate(&start);
        if (e == cudaSuccess)
            e = cudaEventCreate(&stop);
        if (e != cudaSuccess && start)
            cudaEventDestroy(start);
        CP_CUDA_CHECK(st, e);
        s->starts[s->nevents] = start;
        s->stops[s->nevents++] = stop;
    }
    return CP_EXIT_OK;
}

/* The device's start-up, step by step, each a phase of its own (-v shows them apart). */
static int cp_cuda_setup(cp_cuda_state *s, cp_status *st)
{
    static const struct {
        cp_phase phase;
        int (*step)(cp_cuda_state *s, cp_status *st);
    } steps[] = {
        {CP_PHASE_CONTEXT, cp_cuda_setup_context},
        {CP_PHASE_DEVICE, cp_cuda_setup_facts}, /* the kernel image's check inside */
        {CP_PHASE_FLUSH_SETUP, cp_cuda_setup_flush},
        {CP_PHASE_PEAK, cp_cuda_measure_peak},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        cp_phase_begin(steps[i].phase);
        int rc = steps[i].step(s, st);
        cp_phase_end();
        if (rc != CP_EXIT_OK)
            return rc;
    }
    return CP_EXIT_OK;
}

/* The device's primary context, made current. */
static int cp_cuda_setup_context(cp_cuda_state *s, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaSetDevice(s->opt.device));
    CP_CUDA_CHECK(st, cudaFree(NULL));
    return CP_EXIT_OK;
}

/* The device's facts, whether it runs this binary's kernels, whether the sweep fits. */
static int cp_cuda_setup_facts(cp_cuda_state *s, cp_status *st)
{
    CP_TRY(cp_measure_device_facts(s->opt.device, &s->dev, st));
    return cp_cuda_check_memory(s, st);
}

/* The stream, the events of the timed samples, and the L2 flush buffer, filled. */
static int cp_cuda_setup_flush(cp_cuda_state *s, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    CP_CUDA_CHECK(st, cudaEventCreate(&s->begin));
    CP_TRY(cp_cuda_events(s, CP_SAMPLING_NOISE_MIN_SAMPLES, st));
    /* a read-only sweep over twice the L2 evicts what earlier work left there */
    s->flush_bytes = 2 * s->dev.l2_bytes;
    if (s->flush_bytes < (64ull << 20))
        s->flush_bytes = 64ull << 20;
    CP_CUDA_CHECK(st, cudaMalloc(&s->flush_buf, s->flush_bytes));
    CP_CUDA_CHECK(st, cudaMalloc((void **)&s->sink, sizeof(float)));
    CP_CUDA_CHECK(st, cp_kernels_fill_launch(s->flush_buf, s->flush_bytes, 7, s->stream));
    CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));
    return CP_EXIT_OK;
}

/* The JSON name (under measured.counters) of each CP_CUPTI_M_* metric. */
static const char *const cp_cuda_counter_names[CP_CUPTI_M_COUNT] = {
    [CP_CUPTI_M_LOAD_REQUESTS] = "load.requests",
    [CP_CUPTI_M_LOAD_SECTORS] = "load.sectors",
    [CP_CUPTI_M_STORE_REQUESTS] = "store.requests",
    [CP_CUPTI_M_STORE_SECTORS] = "store.sectors",
    [CP_CUPTI_M_L2_READ_SECTORS] = "l2_read_sectors",
    [CP_CUPTI_M_L2_WRITE_SECTORS] = "l2_write_sectors",
    [CP_CUPTI_M_DRAM_READ_BYTES] = "dram_read_bytes",
    [CP_CUPTI_M_DRAM_WRITE_BYTES] = "dram_write_bytes",
    [CP_CUPTI_M_LOAD_BYTES] = "load.bytes_requested",
    [CP_CUPTI_M_STORE_BYTES] = "store.bytes_requested",
    [CP_CUPTI_M_SHARED_LOAD_REQUESTS] = "shared_load.requests",
    [CP_CUPTI_M_SHARED_STORE_REQUESTS] = "shared_store.requests",
    [CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS] = "shared_load.wavefronts",
    [CP_CUPTI_M_SHARED_STORE_WAVEFRONTS] = "shared_store.wavefronts",
    [CP_CUPTI_M_SHARED_LOAD_CONFLICTS] = "shared_load.bank_conflicts",
    [CP_CUPTI_M_SHARED_STORE_CONFLICTS] = "shared_store.bank_conflicts",
    [CP_CUPTI_M_ACHIEVED_OCCUPANCY] = "achieved_occupancy",
    [CP_CUPTI_M_L1_LOAD_HIT_RATE] = "l1_load_hit_rate",
    [CP_CUPTI_M_L2_READ_HIT_RATE] = "l2_read_hit_rate",
    [CP_CUPTI_M_SM_ACTIVE] = "sm_active",
    [CP_CUPTI_M_CONSTANT_REQUESTS] = "constant_load.requests",
    [CP_CUPTI_M_LDGSTS_REQUESTS] = "ldgsts_requests",
    [CP_CUPTI_M_TMA_LOAD_REQUESTS] = "tma_load.requests",
    [CP_CUPTI_M_TMA_LOAD_SECTORS] = "tma_load.sectors",
};

static void cp_cuda_add_gap(cp_counter_gap *gaps, size_t *n, const char *counter,
                            const char *reason)
{
    if (*n == CP_MEASURE_MAX_GAPS)
        return;
    gaps[*n].counter = counter;
    snprintf(gaps[*n].reason, sizeof gaps[*n].reason, "%s", reason);
    (*n)++;
}

/* The family counters (cp_family_desc.counters) whose metric the chip lacks: under their key
 * (measured.counters.family_counters.KEY), why. */
static void cp_cuda_record_family_gaps(cp_cuda_state *s, const cp_cupti_plan *plan)
{
    char reason[200];
    for (size_t i = 0; plan && i < plan->nextra; i++) {
        if (plan->extra_state[i] == CP_CUPTI_READ)
            continue;
        snprintf(reason, sizeof reason, "CUPTI has no %s on chip %s", plan->extra[i], plan->chip);
        for (int f = 0; f < CP_FAMILY_COUNT; f++) {
            const cp_family_desc *d = cp_family_get((cp_family)f);
            for (size_t k = 0; d && k < d->ncounters; k++) {
                const cp_family_counter *fc = &d->counters[k];
                if ((fc->metric && !strcmp(fc->metric, plan->extra[i])) ||
                    (fc->alt_metric && !strcmp(fc->alt_metric, plan->extra[i])))
                    cp_cuda_add_gap(s->gaps, &s->ngaps, fc->key, reason);
            }
        }
    }
}

/* The counters the session does not read, and why; the shared-memory counters of a sweep that
 * does not ask for them as two entries, shared_load and shared_store. */
static void cp_cuda_record_gaps(cp_cuda_state *s)
{
    const cp_cupti_plan *plan = cp_cupti_session_plan(s->cupti);
    char reason[200];
    s->ngaps = 0;
    for (int m = 0; plan && m < CP_CUPTI_M_COUNT; m++) {
        if (plan->state[m] == CP_CUPTI_READ)
            continue;
        cp_cupti_plan_reason(plan, m, reason, sizeof reason);
        int shared = cp_cupti_metric_group(m) == CP_CUPTI_GROUP_SHARED;
        int path = cp_cupti_metric_group(m) == CP_CUPTI_GROUP_PATH;
        if (path && plan->state[m] == CP_CUPTI_NOT_ASKED)
            continue; /* other families' counters: null, as docs/json.md says */
        if (shared && plan->state[m] == CP_CUPTI_NOT_ASKED) {
            if (m == CP_CUPTI_M_SHARED_LOAD_REQUESTS || m == CP_CUPTI_M_SHARED_STORE_REQUESTS)
                cp_cuda_add_gap(
                    s->gaps, &s->ngaps,
                    m == CP_CUPTI_M_SHARED_LOAD_REQUESTS ? "shared_load" : "shared_store", reason);
            continue;
        }
        cp_cuda_add_gap(s->gaps, &s->ngaps, cp_cuda_counter_names[m], reason);
    }
    cp_cuda_record_family_gaps(s, plan);
    memcpy(s->gaps_alone, s->gaps, s->ngaps * sizeof s->gaps[0]);
    s->ngaps_alone = s->ngaps;
    if (plan && plan->state[CP_CUPTI_M_ACHIEVED_OCCUPANCY] == CP_CUPTI_READ)
        cp_cuda_add_gap(s->gaps_alone, &s->ngaps_alone, "achieved_occupancy",
                        "not reported: counters are read with one block per SM for kernels "
                        "that use shared memory (docs/model.md), so the profiled occupancy is "
                        "not the timed launches'");
    static const char async_reason[] =
        "not read: smsp__sass_data_bytes_mem_global_op_ld does not count the bytes of cp.async "
        "(LDGSTS) loads";
    memcpy(s->gaps_async, s->gaps, s->ngaps * sizeof s->gaps[0]);
    s->ngaps_async = s->ngaps;
    cp_cuda_add_gap(s->gaps_async, &s->ngaps_async, "load.bytes_requested", async_reason);
    memcpy(s->gaps_alone_async, s->gaps_alone, s->ngaps_alone * sizeof s->gaps[0]);
    s->ngaps_alone_async = s->ngaps_alone;
    cp_cuda_add_gap(s->gaps_alone_async, &s->ngaps_alone_async, "load.bytes_requested",
                    async_reason);
}

/* 1 when c's kernel is profiled with one block per SM (cp_kernels.h, `alone`). */
static int cp_cuda_profiled_alone(const cp_config *c)
{
    const cp_measure_family *fam = cp_measure_family_of(c->family);
    return fam && fam->profiled_alone && fam->profiled_alone(c);
}

/* Configurations profiled in one CUPTI replay sequence: on the H100 each sequence's first
 * Start costs about 0.2 s up to 256 ranges, and 1.2 s at 1,024 (its counter data image grows
 * with the batch, to 114 MB), so 256. */
static size_t cp_cuda_batch(size_t configs)
{
    return configs < 256 ? configs : 256;
}

/* Device `device` exists: CP_EXIT_OK; no usable driver or no device: CP_EXIT_RUNTIME with
 * *no_device = 1 (the run goes on model-only); a --device past the last: CP_EXIT_USAGE. */
static int cp_cuda_find_device(int device, int *no_device, cp_status *st)
{
    int count = 0;
    *no_device = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        *no_device = 1;
        if (e != cudaSuccess)
            return cp_status_set(st, CP_EXIT_RUNTIME, "%s: %s", cudaGetErrorName(e),
                                 cudaGetErrorString(e));
        return cp_status_set(st, CP_EXIT_RUNTIME, "the CUDA driver sees no device");
    }
    if (device >= count) {
        cp_status_set(st, CP_EXIT_USAGE, "--device %d does not exist: this machine has %d", device,
                      count);
        cp_status_hint(st, "devices are numbered from 0 (nvidia-smi lists them)");
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}

/* Opens the CUPTI session of s (on the thread that runs it): s->cupti, or the refusal. */
static void *cp_cuda_cupti_thread(void *arg)
{
    cp_cuda_state *s = arg;
    int refused = 0;
    double began = cp_phase_now();
    cp_status_clear(&s->cupti_refusal);
    s->cupti_rc = cp_cupti_open(s->opt.device, cp_cuda_batch(s->opt.max_configs), s->cupti_groups,
                                s->opt.family_metrics, s->opt.nfamily_metrics, &s->cupti, &refused,
                                &s->cupti_refusal);
    s->cupti_seconds = cp_phase_now() - began;
    return NULL;
}

/* The session has opened (or failed): the rows say why there are no counters, or which the
 * chip lacks; refusal, when not NULL, gets the reason. */
static void cp_cuda_cupti_opened(cp_cuda_state *s, cp_status *refusal)
{
    if (refusal)
        *refusal = s->cupti_refusal;
    if (s->cupti_rc != CP_EXIT_OK) {
        /* timings still run; the rows say why there are no counters */
        s->counters_refused = 1;
        snprintf(s->counters_reason, sizeof s->counters_reason, "%.500s%s%.400s",
                 s->cupti_refusal.message, s->cupti_refusal.hint[0] ? "; fix: " : "",
                 s->cupti_refusal.hint);
    } else {
        cp_cuda_record_gaps(s);
    }
}

/* Starts the deferred CUPTI session's set-up on a second thread (where no thread starts: here,
 * under its phase). It starts once the first configuration's kernel is loaded: loading a module
 * while CUPTI sets up took 0.11 s instead of a few ms on the H100 (2026-11-27). */
static void cp_cuda_cupti_start(cp_cuda_state *s)
{
    if (!s->cupti_deferred)
        return;
    s->cupti_deferred = 0;
    if (pthread_create(&s->cupti_thread, NULL, cp_cuda_cupti_thread, s) == 0) {
        s->cupti_pending = 1;
        return;
    }
    cp_phase_begin(CP_PHASE_CUPTI_OPEN);
    cp_cuda_cupti_thread(s);
    cp_phase_end();
    cp_cuda_cupti_opened(s, NULL);
}

/* Waits for a session opening on the second thread (the time shows as the CUPTI session's);
 * a deferred one that has not started yet opens now. */
static void cp_cuda_cupti_wait(cp_cuda_state *s)
{
    cp_cuda_cupti_start(s);
    if (!s->cupti_pending)
        return;
    cp_phase_begin(CP_PHASE_CUPTI_OPEN);
    pthread_join(s->cupti_thread, NULL);
    cp_phase_end();
    cp_phase_beside(CP_PHASE_CUPTI_OPEN, s->cupti_seconds); /* its own time on its thread */
    s->cupti_pending = 0;
    cp_cuda_cupti_opened(s, NULL);
}

static void cp_cuda_counters_refusal(void *state, cp_status *refusal)
{
    cp_cuda_state *s = state;
    cp_status_clear(refusal);
    if (!s)
        return;
    cp_cuda_cupti_wait(s);
    if (s->counters_refused)
        *refusal = s->cupti_refusal;
}

static int cp_cuda_open(const cp_backend_options *opt, cp_device_info *dev, void **state,
                        int *no_device, cp_status *refusal, cp_status *st)
{
    *state = NULL;
    cp_status_clear(refusal);
    cp_phase_begin(CP_PHASE_DRIVER);
    int found = cp_cuda_find_device(opt->device, no_device, st);
    cp_phase_end();
    CP_TRY(found);
    cp_cuda_state *s = calloc(1, sizeof *s);
    if (!s)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    s->opt = *opt;
    int rc = cp_cuda_setup(s, st);
    if (rc == CP_EXIT_OK && opt->counters) {
        s->cupti_groups = CP_CUPTI_GROUP_GLOBAL | CP_CUPTI_GROUP_OCCUPANCY |
                          (opt->shared_counters ? CP_CUPTI_GROUP_SHARED : 0u) |
                          (opt->path_counters ? CP_CUPTI_GROUP_PATH : 0u) |
                          (opt->requests_as_instructions ? CP_CUPTI_REQUESTS_AS_INSTRUCTIONS : 0u);
        /* the session's set-up (loading CUPTI, the profiler's host and device set-up) is CPU
         * work of a few hundred ms: it runs beside the timed launches, which the GPU runs from
         * the queue meanwhile (started by the first measure(), cp_cuda_cupti_start); counters()
         * waits for it. Timings are taken with the profiler enabled but idle, as when it opened
         * first. */
        if (!opt->counters_now) {
            s->cupti_deferred = 1;
        } else {
            cp_phase_begin(CP_PHASE_CUPTI_OPEN);
            cp_cuda_cupti_thread(s);
            cp_phase_end();
            cp_cuda_cupti_opened(s, refusal);
        }
    }
    if (rc != CP_EXIT_OK) {
        cp_cuda_close(s);
        return rc;
    }
    *dev = s->dev;
    *state = s;
    return CP_EXIT_OK;
}

/* Launches the configuration's kernel (for cuBLAS, its GEMM) on the state's stream. */
static int cp_cuda_launch(const cp_cuda_run *r, cp_status *st)
{
    const cp_measure_family *fam = cp_measure_family_of(r->c->family);
    if (!fam)
        return cp_status_set(st, CP_EXIT_RUNTIME, "no kernel for family %d", (int)r->c->family);
    return fam->launch(r, st);
}

/* The resources of the kernel cp_cuda_launch runs for c (timed launches: `alone` 0) into r, with
 * the SM's limits sm; expr is c's kernel compiled at run time (NULL for kernels built in).
 * Launches nothing. */
static int cp_cuda_kernel_resources(const cp_config *c, const cp_rtc_module *expr,
                                    const cp_sm_limits *sm, cp_resources *r, cp_status *st)
{
    cp_kernel_resources k;
    memset(r, 0, sizeof *r);
    r->theoretical_occupancy = NAN;
    const cp_measure_family *fam = cp_measure_family_of(c->family);
    if (!fam)
        return cp_status_set(st, CP_EXIT_RUNTIME, "no kernel for family %d", (int)c->family);
    CP_TRY(cp_measure_family_resources(fam, c, expr, &k, r, st));
    if (r->reason[0]) /* not coalprobe's kernel */
        return CP_EXIT_OK;
    r->known = 1;
    r->registers_per_thread = (uint32_t)k.registers;
    r->static_shared_bytes = k.static_shared_bytes;
    r->dynamic_shared_bytes = k.dynamic_shared_bytes;
    r->threads_per_block = (uint32_t)k.threads_per_block;
    r->blocks_per_sm = (uint32_t)k.blocks_per_sm;
    r->theoretical_occupancy = k.theoretical_occupancy;
    r->sm = *sm;
    return CP_EXIT_OK;
}

/* --explain's resources: the device's SM limits and c's kernel (one compiled at run time is
 * compiled and loaded for the occasion), without opening the backend. */
static int cp_cuda_resources(int device, const cp_config *c, cp_resources *r, int *no_device,
                             cp_status *st)
{
    CP_TRY(cp_cuda_find_device(device, no_device, st));
    cp_device_info d;
    CP_TRY(cp_measure_device_facts(device, &d, st));
    const cp_measure_family *fam = cp_measure_family_of(c->family);
    if (!fam || !fam->load_kernel)
        return cp_cuda_kernel_resources(c, NULL, &d.sm, r, st);
    cp_rtc_module *k = NULL;
    int rc = fam->load_kernel(&d, c, &k, st);
    if (rc == CP_EXIT_OK)
        rc = cp_cuda_kernel_resources(c, k, &d.sm, r, st);
    cp_rtc_unload(k);
    return rc;
}

/* The device's L2 in bytes, without opening the backend. */
static int cp_cuda_l2_bytes(int device, uint64_t *bytes, int *no_device, cp_status *st)
{
    CP_TRY(cp_cuda_find_device(device, no_device, st));
    int l2 = 0;
    CP_CUDA_CHECK(st, cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    *bytes = (uint64_t)(l2 > 0 ? l2 : 0);
    return CP_EXIT_OK;
}

static int cp_cuda_run_once(void *ctx, cp_status *st)
{
    cp_cuda_run *r = ctx;
    CP_TRY(cp_cuda_launch(r, st));
    CP_CUDA_CHECK(st, cudaStreamSynchronize(r->s->stream));
    return CP_EXIT_OK;
}

static uint64_t cp_cuda_round16(uint64_t bytes)
{
    return bytes ? (bytes + 15) & ~15ull : 16;
}

/* Device memory access a of p needs: none for shared memory. */
static uint64_t cp_cuda_access_bytes(const cp_prediction *p, size_t a)
{
    if (a >= p->naccesses || p->accesses[a].space == CP_SPACE_SHARED)
        return 0;
    return cp_cuda_round16(p->accesses[a].buffer_bytes);
}

/* Makes every buffer of the configuration large enough and fills the inputs. The first
 * allocation of a buffer takes the largest size the run will need when that fits, so a
 * sweep allocates and fills each buffer once. */
static int cp_cuda_buffers(cp_cuda_run *r, cp_status *st)
{
    cp_cuda_state *s = r->s;
    uint64_t grow = 0, need = 0, want = 0;
    for (size_t a = 0; a < r->p->naccesses; a++) {
        uint64_t bytes = cp_cuda_access_bytes(r->p, a);
        need += bytes;
        if (s->pool[a].capacity < bytes) {
            grow += bytes;
            want += cp_cuda_round16(s->opt.max_access_bytes[a]) > bytes
                        ? cp_cuda_round16(s->opt.max_access_bytes[a])
                        : bytes;
        }
    }
    if (!grow)
        return CP_EXIT_OK;
    /* free what is too small (or unused) first, so the new buffers may use that memory */
    for (size_t a = 0; a < CP_CUDA_MAX_BUFFERS; a++) {
        uint64_t bytes = cp_cuda_access_bytes(r->p, a);
        if (!bytes || s->pool[a].capacity < bytes) {
            cudaFree(s->pool[a].ptr);
            memset(&s->pool[a], 0, sizeof s->pool[a]);
        }
    }
    size_t free_bytes, total;
    CP_CUDA_CHECK(st, cudaMemGetInfo(&free_bytes, &total));
    const uint64_t margin = 256ull << 20;
    if (grow + margin > free_bytes) {
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "the buffers need %" PRIu64 " bytes and the GPU has %zu bytes free", need,
                      free_bytes);
        cp_status_hint(st, "use a smaller --size (or smaller matrices) or a smaller stride");
        return CP_EXIT_RUNTIME;
    }
    int take_max = want + margin <= free_bytes;
    for (size_t a = 0; a < r->p->naccesses; a++) {
        cp_cuda_buffer *b = &s->pool[a];
        uint64_t bytes = cp_cuda_access_bytes(r->p, a);
        if (b->capacity >= bytes)
            continue;
        uint64_t size = bytes;
        if (take_max && cp_cuda_round16(s->opt.max_access_bytes[a]) > size)
            size = cp_cuda_round16(s->opt.max_access_bytes[a]);
        CP_CUDA_CHECK(st, cudaMalloc(&b->ptr, size));
        b->capacity = size;
        b->seed = 0;
    }
    return CP_EXIT_OK;
}

static int cp_cuda_fill_inputs(cp_cuda_run *r, cp_status *st)
{
    const cp_measure_family *fam = cp_measure_family_of(r->c->family);
    for (size_t a = 0; a < r->p->naccesses; a++) {
        cp_cuda_buffer *b = &r->s->pool[a];
        r->bufs[a] = b->ptr;
        if (r->p->accesses[a].space == CP_SPACE_SHARED) {
            r->bufs[a] = NULL; /* on chip */
            continue;
        }
        if (r->p->accesses[a].op == CP_OP_STORE) {
            b->seed = 0; /* the kernel writes it */
            continue;
        }
        int written = 0;
        if (fam && fam->fill_input)
            CP_TRY(fam->fill_input(r, a, b->ptr, &written, st));
        if (written) {
            b->seed = 0; /* not a fill: never reused as one */
        } else if (b->seed != cp_cuda_seed(a)) {
            CP_CUDA_CHECK(
                st, cp_kernels_fill_launch(b->ptr, b->capacity, cp_cuda_seed(a), r->s->stream));
            b->seed = cp_cuda_seed(a);
        }
    }
    return CP_EXIT_OK;
}

/* The run's buffers with their inputs written (a timed phase of its own). */
static int cp_cuda_prepare_inputs(cp_cuda_run *r, cp_status *st)
{
    cp_phase_begin(CP_PHASE_BUFFERS);
    int rc = cp_cuda_buffers(r, st);
    if (rc == CP_EXIT_OK)
        rc = cp_cuda_fill_inputs(r, st);
    cp_phase_end();
    return rc;
}

/* Queues timed sample i (i < the events s holds): an L2 flush, then the kernel between a start
 * and a stop event; *call_s (when not NULL): the seconds the launch call took the host. */
static int cp_cuda_queue_sample(const cp_cuda_run *r, uint32_t i, double *call_s, cp_status *st)
{
    cp_cuda_state *s = r->s;
    CP_CUDA_CHECK(st, cp_kernels_flush_launch(s->flush_buf, s->flush_bytes, s->sink, s->stream));
    CP_CUDA_CHECK(st, cudaEventRecord(s->starts[i], s->stream));
    double called = call_s ? cp_phase_now() : 0;
    CP_TRY(cp_cuda_launch(r, st));
    if (call_s)
        *call_s = cp_phase_now() - called;
    CP_CUDA_CHECK(st, cudaEventRecord(s->stops[i], s->stream));
    return CP_EXIT_OK;
}

/* Queues k timed samples (k <= the events s holds). */
static int cp_cuda_queue_samples(const cp_cuda_run *r, uint32_t k, cp_status *st)
{
    for (uint32_t i = 0; i < k; i++)
        CP_TRY(cp_cuda_queue_sample(r, i, NULL, st));
    return CP_EXIT_OK;
}

/* Waits for the k samples queued and adds them to smp in order until the rule stops it (the
 * samples after that ran, and are not used): each its kernel's time, and the time spent from the
 * configuration's first flush (s->begin) to its end. */
static int cp_cuda_read_samples(cp_cuda_state *s, uint32_t k, cp_samples *smp, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));
    for (uint32_t i = 0; i < k && smp->stop == CP_SAMPLES_GOING; i++) {
        float ms = 0, spent_ms = 0;
        CP_CUDA_CHECK(st, cudaEventElapsedTime(&ms, s->starts[i], s->stops[i]));
        CP_CUDA_CHECK(st, cudaEventElapsedTime(&spent_ms, s->begin, s->stops[i]));
        if (cp_samples_add(smp, ms * 1e-3, spent_ms * 1e-3) < 0)
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for the timed samples");
    }
    return CP_EXIT_OK;
}

/* Takes samples into smp as the rule asks until it stops: batches of the rest of the minimum
 * count at once, then as the rule asks. */
static int cp_cuda_sample(cp_cuda_run *r, cp_samples *smp, cp_status *st)
{
    cp_cuda_state *s = r->s;
    int rc = CP_EXIT_OK;
    for (uint32_t k; rc == CP_EXIT_OK && (k = cp_samples_next(smp)) > 0;) {
        k = k < CP_CUDA_BATCH ? k : CP_CUDA_BATCH;
        rc = cp_cuda_events(s, k, st);
        k = k < s->nevents ? k : s->nevents;
        if (rc == CP_EXIT_OK)
            rc = cp_cuda_queue_samples(r, k, st);
        if (rc == CP_EXIT_OK)
            rc = cp_cuda_read_samples(s, k, smp, st);
    }
    return rc;
}

int cp_cuda_time(cp_cuda_run *r, int warmups, cp_measurement *m, cp_status *st)
{
    cp_cuda_state *s = r->s;
    for (int w = 0; w < warmups; w++)
        CP_TRY(cp_cuda_launch(r, st));
    CP_CUDA_CHECK(st, cudaEventRecord(s->begin, s->stream)); /* after the warm-ups */
    cp_samples smp;
    cp_samples_init(&smp, &s->opt.sampling);
    int rc = cp_cuda_sample(r, &smp, st);
    if (rc == CP_EXIT_OK)
        cp_samples_result(&smp, m);
    cp_samples_free(&smp);
    return rc;
}

/* The checked launch, which is also the first timed sample: poisons what will be checked, then
 * an L2 flush and the kernel between its events, as every sample; checks the output. The sample
 * is not kept when the launch call took the host longer than CP_CUDA_SLOW_LAUNCH_S (a first
 * call that loads code, cuBLAS's set-up): the GPU may have waited for it between the events. */
static int cp_cuda_verify_first(cp_cuda_run *r, cp_measurement *m, cp_samples *smp, cp_status *st)
{
    const cp_measure_family *fam = cp_measure_family_of(r->c->family);
    cp_cuda_state *s = r->s;
    CP_TRY(fam->copy ? cp_cuda_copy_poison(r, fam->copy, st) : fam->poison(r, st));
    CP_TRY(cp_cuda_events(s, 1, st));
    CP_CUDA_CHECK(st, cudaEventRecord(s->begin, s->stream));
    double call_s = 0;
    CP_TRY(cp_cuda_queue_sample(r, 0, &call_s, st));
    if (call_s <= CP_CUDA_SLOW_LAUNCH_S)
        CP_TRY(cp_cuda_read_samples(s, 1, smp, st)); /* waits for it */
    else
        CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));
    return fam->copy ? cp_cuda_copy_verify(r, fam->copy, st) : fam->verify(r, m, st);
}

/* With COALPROBE_SAMPLES_LOG=FILE, appends to FILE one line per configuration: its family and
 * settings, a tab, then every kept sample's seconds in the order they were taken (for
 * bench/noise_rule.py, which replays the stopping rule on them). One write() per line, so that
 * the workers of --devices do not interleave theirs. */
static void cp_cuda_log_samples(const cp_config *c, const cp_samples *smp)
{
    const char *path = getenv("COALPROBE_SAMPLES_LOG");
    if (!path || !path[0] || smp->n == 0)
        return;
    char desc[160];
    cp_config_describe(c, desc, sizeof desc);
    size_t cap = 256 + 24 * smp->n, len = 0;
    char *line = malloc(cap);
    if (!line)
        return;
    len += (size_t)snprintf(line, cap, "%s %s\t", cp_config_family_name(c->family), desc);
    for (size_t i = 0; i < smp->n && len < cap; i++)
        len += (size_t)snprintf(line + len, cap - len, "%s%.9g", i ? " " : "", smp->arrived[i]);
    if (len < cap - 1) {
        line[len++] = '\n';
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ssize_t w = write(fd, line, len); /* a log for benchmarks: a short write is lost */
            (void)w;
            close(fd);
        }
    }
    free(line);
}

/* How the first configuration of a state is preceded (COALPROBE_WARMUP, for
 * bench/first_samples.sh): "flush" (the default) L2 flushes, read-only sweeps of the flush buffer,
 * for CP_CUDA_WARMUP_S of GPU time; "kernel" the configuration's own launches, each after a flush,
 * as its samples run, for as long; "none" nothing. On the H100 (2026-11-27) without a warm-up the
 * first samples of a process ran up to 9% slower for about a millisecond (243 us, then 223 us, in
 * every run of
 * --width 4,8,16,32 --stride 1,2, with or without counters) and the rule stopped on 5 of them; with
 * the configuration's own launches as warm-up, the naive GEMM's checked launch after its one
 * warm-up launch (0.28 s) ran 1.4% slow instead. */
typedef enum { CP_WARMUP_FLUSH, CP_WARMUP_KERNEL, CP_WARMUP_NONE } cp_warmup;

static cp_warmup cp_cuda_warmup_kind(void)
{
    const char *v = getenv("COALPROBE_WARMUP");
    if (v && strcmp(v, "kernel") == 0)
        return CP_WARMUP_KERNEL;
    if (v && strcmp(v, "none") == 0)
        return CP_WARMUP_NONE;
    return CP_WARMUP_FLUSH;
}

/* Queues k warm-up steps of the given kind between events 0 and k - 1. */
static int cp_cuda_queue_warm_up(cp_cuda_run *r, cp_warmup kind, uint32_t k, cp_status *st)
{
    cp_cuda_state *s = r->s;
    if (kind == CP_WARMUP_KERNEL)
        return cp_cuda_queue_samples(r, k, st);
    CP_CUDA_CHECK(st, cudaEventRecord(s->starts[0], s->stream));
    for (uint32_t i = 0; i < k; i++)
        CP_CUDA_CHECK(st,
                      cp_kernels_flush_launch(s->flush_buf, s->flush_bytes, s->sink, s->stream));
    CP_CUDA_CHECK(st, cudaEventRecord(s->stops[k - 1], s->stream));
    return CP_EXIT_OK;
}

/* The warm-up before the first configuration of a state (cp_cuda_warmup_kind). */
static int cp_cuda_warm_up(cp_cuda_run *r, cp_status *st)
{
    cp_cuda_state *s = r->s;
    if (s->warmed)
        return CP_EXIT_OK;
    s->warmed = 1;
    cp_warmup kind = cp_cuda_warmup_kind(); /* once a state */
    if (kind == CP_WARMUP_NONE)
        return CP_EXIT_OK;
    double done = 0;
    for (uint32_t k = 1; done < CP_CUDA_WARMUP_S;) {
        CP_TRY(cp_cuda_events(s, k, st));
        k = k < s->nevents ? k : s->nevents;
        CP_TRY(cp_cuda_queue_warm_up(r, kind, k, st));
        CP_CUDA_CHECK(st, cudaStreamSynchronize(s->stream));
        float ms = 0;
        CP_CUDA_CHECK(st, cudaEventElapsedTime(&ms, s->starts[0], s->stops[k - 1]));
        done += ms * 1e-3;
        double each = ms * 1e-3 / k, more = each > 0 ? ceil((CP_CUDA_WARMUP_S - done) / each) : 1;
        k = more < 1 ? 1 : more > CP_CUDA_BATCH ? CP_CUDA_BATCH : (uint32_t)more;
    }
    return CP_EXIT_OK;
}

/* Checks the configuration's output and times it: the checked launch is the first sample, the
 * rule takes the rest. */
static int cp_cuda_verify_and_time(cp_cuda_run *r, cp_measurement *m, cp_status *st)
{
    cp_samples smp;
    cp_samples_init(&smp, &r->s->opt.sampling);
    cp_phase_begin(CP_PHASE_TIMING);
    int rc = cp_cuda_warm_up(r, st);
    cp_phase_end();
    cp_phase_begin(CP_PHASE_VERIFY);
    if (rc == CP_EXIT_OK)
        rc = cp_cuda_verify_first(r, m, &smp, st);
    cp_phase_end();
    if (rc == CP_EXIT_OK) {
        m->verified = 1;
        cp_phase_begin(CP_PHASE_TIMING);
        rc = cp_cuda_sample(r, &smp, st);
        cp_phase_end();
    }
    if (rc == CP_EXIT_OK) {
        cp_samples_result(&smp, m);
        cp_cuda_log_samples(r->c, &smp);
    }
    cp_samples_free(&smp);
    return rc;
}

/* A batch of configurations being profiled: the CUPTI callbacks' context. */
typedef struct cp_cuda_batch_ctx {
    cp_cuda_state *s;
    const cp_config *c;
    const cp_prediction *p;
    cp_cuda_run run;
} cp_cuda_batch_ctx;

/* Outside the range: buffers (normally already there and filled), then the L2 flush. */
static int cp_cuda_batch_prepare(void *ctx, size_t i, cp_status *st)
{
    cp_cuda_batch_ctx *b = ctx;
    memset(&b->run, 0, sizeof b->run);
    b->run.s = b->s;
    b->run.c = &b->c[i];
    b->run.p = &b->p[i];
    b->run.alone = 1;
    CP_TRY(cp_cuda_prepare_inputs(&b->run, st));
    CP_CUDA_CHECK(
        st, cp_kernels_flush_launch(b->s->flush_buf, b->s->flush_bytes, b->s->sink, b->s->stream));
    return CP_EXIT_OK;
}

/* Inside the range: the configuration's kernel, once. */
static int cp_cuda_batch_run(void *ctx, size_t i, cp_status *st)
{
    (void)i;
    return cp_cuda_run_once(&((cp_cuda_batch_ctx *)ctx)->run, st);
}

/* The values of c's family's own counters: each one's metric among the session's extra ones. */
static void cp_cuda_store_family_counters(const cp_cuda_state *s, const double *v,
                                          const cp_config *c, cp_counter_values *cv)
{
    const cp_family_desc *d = cp_family_get(c->family);
    for (size_t k = 0; d && k < d->ncounters && k < CP_FAMILY_COUNTERS_MAX; k++) {
        const char *metric = cp_family_counter_metric(&d->counters[k], c);
        size_t i = metric ? cp_backend_options_family_index(&s->opt, metric) : SIZE_MAX;
        if (i < s->opt.nfamily_metrics)
            cv->family[k] = v[CP_CUPTI_M_COUNT + i];
    }
}

static void cp_cuda_store_counters(const cp_cuda_state *s, const double *v, const cp_config *c,
                                   const cp_prediction *p, cp_measurement *m)
{
    cp_counter_values *cv = &m->counters;
    double peak = s->dev.peak_theoretical_bytes_per_s;
    cv->load_requests = v[CP_CUPTI_M_LOAD_REQUESTS];
    cv->load_sectors = v[CP_CUPTI_M_LOAD_SECTORS];
    cv->store_requests = v[CP_CUPTI_M_STORE_REQUESTS];
    cv->store_sectors = v[CP_CUPTI_M_STORE_SECTORS];
    cv->l2_read_sectors = v[CP_CUPTI_M_L2_READ_SECTORS];
    cv->l2_write_sectors = v[CP_CUPTI_M_L2_WRITE_SECTORS];
    cv->dram_read_bytes = v[CP_CUPTI_M_DRAM_READ_BYTES];
    cv->dram_write_bytes = v[CP_CUPTI_M_DRAM_WRITE_BYTES];
    cv->load_bytes_requested = v[CP_CUPTI_M_LOAD_BYTES];
    cv->store_bytes_requested = v[CP_CUPTI_M_STORE_BYTES];
    cv->shared_load_requests = v[CP_CUPTI_M_SHARED_LOAD_REQUESTS];
    cv->shared_store_requests = v[CP_CUPTI_M_SHARED_STORE_REQUESTS];
    cv->shared_load_wavefronts = v[CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS];
    cv->shared_store_wavefronts = v[CP_CUPTI_M_SHARED_STORE_WAVEFRONTS];
    cv->shared_load_conflicts = v[CP_CUPTI_M_SHARED_LOAD_CONFLICTS];
    cv->shared_store_conflicts = v[CP_CUPTI_M_SHARED_STORE_CONFLICTS];
    /* CUPTI gives a percentage of the SM's peak warps while it is active */
    int alone = cp_cuda_profiled_alone(c);
    cv->achieved_occupancy = alone ? NAN : v[CP_CUPTI_M_ACHIEVED_OCCUPANCY] / 100.0;
    /* CUPTI's ratio reads 0 for 0 / 0: a kernel without global loads has no L1 hit rate */
    cv->l1_load_hit_rate = cv->load_sectors > 0 ? v[CP_CUPTI_M_L1_LOAD_HIT_RATE] / 100.0 : NAN;
    cv->l2_read_hit_rate = cv->l2_read_sectors > 0 ? v[CP_CUPTI_M_L2_READ_HIT_RATE] / 100.0 : NAN;
    cv->sm_active = alone ? NAN : v[CP_CUPTI_M_SM_ACTIVE] / 100.0;
    cv->constant_requests = v[CP_CUPTI_M_CONSTANT_REQUESTS];
    cv->ldgsts_requests = v[CP_CUPTI_M_LDGSTS_REQUESTS];
    cv->tma_load_requests = v[CP_CUPTI_M_TMA_LOAD_REQUESTS];
    cv->tma_load_sectors = v[CP_CUPTI_M_TMA_LOAD_SECTORS];
    cp_cuda_store_family_counters(s, v, c, cv);
    int async_copies = 0; /* cp.async loads: their bytes are not in the data-bytes counter */
    for (size_t a = 0; a < p->naccesses; a++)
        async_copies |= p->accesses[a].async_copy;
    if (async_copies) {
        cv->load_bytes_requested = NAN;
        m->counter_gaps = alone ? s->gaps_alone_async : s->gaps_async;
        m->ncounter_gaps = alone ? s->ngaps_alone_async : s->ngaps_async;
    } else {
        m->counter_gaps = alone ? s->gaps_alone : s->gaps;
        m->ncounter_gaps = alone ? s->ngaps_alone : s->ngaps;
    }
    m->counters_status = CP_COUNTERS_OK;
    m->dram_bytes_per_s = (cv->dram_read_bytes + cv->dram_write_bytes) / m->time_median_s;
    /* from the counted bytes and the event-timed median, against the theoretical peak */
    cv->dram_throughput_pct = 100.0 * m->dram_bytes_per_s / peak;
    m->counts_match = cp_measure_counts_match(p, cv);
}

/* What preload() read of c's kernel when c is one of the configurations it was given, or NULL. */
static const cp_resources *cp_cuda_preloaded(const cp_cuda_state *s, const cp_config *c)
{
    uintptr_t at = (uintptr_t)c, base = (uintptr_t)s->pre_c;
    if (!s->pre_c || at < base || at >= base + s->pre_n * sizeof *c || (at - base) % sizeof *c)
        return NULL;
    size_t i = (at - base) / sizeof *c;
    return s->pre_known[i] ? &s->pre_res[i] : NULL;
}

static int cp_cuda_counters(void *state, size_t n, const cp_config *c, const cp_prediction *p,
                            cp_measurement *m, cp_status *st)
{
    cp_cuda_state *s = state;
    CP_CUDA_CHECK(st, cudaSetDevice(s->opt.device)); /* any thread (cp_backend.device_count) */
    cp_cuda_cupti_wait(s);
    if (s->counters_refused) {
        for (size_t i = 0; i < n; i++) {
            m[i].counters_status = CP_COUNTERS_REFUSED;
            snprintf(m[i].counters_reason, sizeof m[i].counters_reason, "%s", s->counters_reason);
        }
        return CP_EXIT_OK;
    }
    if (!s->cupti)
        return CP_EXIT_OK;
    size_t batch = cp_cupti_batch_capacity(s->cupti);
    double *v = malloc(batch * CP_CUPTI_VALUES * sizeof *v);
    if (!v)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for counter values");
    int rc = CP_EXIT_OK;
    for (size_t first = 0; first < n && rc == CP_EXIT_OK; first += batch) {
        size_t count = n - first < batch ? n - first : batch;
        cp_cuda_batch_ctx ctx = {s, c + first, p + first, {0}};
        cp_phase_begin(CP_PHASE_PASSES);
        rc = cp_cupti_profile_batch(s->cupti, count, cp_cuda_batch_prepare, cp_cuda_batch_run, &ctx,
                                    v, st);
        cp_phase_end();
        for (size_t i = 0; i < count && rc == CP_EXIT_OK; i++)
            cp_cuda_store_counters(s, v + i * CP_CUPTI_VALUES, &c[first + i], &p[first + i],
                                   &m[first + i]);
    }
    free(v);
    return rc;
}

static int cp_cuda_measure(void *state, const cp_config *c, const cp_prediction *p,
                           cp_measurement *m, cp_status *st)
{
    const cp_measure_family *fam = cp_measure_family_of(c->family);
    if (!fam)
        return cp_status_set(st, CP_EXIT_RUNTIME, "no kernel for family %d", (int)c->family);
    cp_cuda_run r;
    memset(&r, 0, sizeof r);
    r.s = state;
    r.c = c;
    r.p = p;
    cp_measurement_clear(m);
    CP_CUDA_CHECK(st, cudaSetDevice(r.s->opt.device)); /* any thread (cp_backend.device_count) */
    CP_TRY(cp_cuda_prepare_inputs(&r, st));
    /* the kernel's resources, read before its first launch: that loads it (compiled first, for
     * expr), so that no sample waits for the loading */
    cp_rtc_module *expr = NULL;
    const cp_resources *preloaded = cp_cuda_preloaded(r.s, c);
    if (preloaded) {
        m->resources = *preloaded;
    } else {
        cp_phase_begin(CP_PHASE_KERNEL_IMAGE);
        int rc = fam->loaded_kernel ? fam->loaded_kernel(r.s, c, &expr, st) : CP_EXIT_OK;
        if (rc == CP_EXIT_OK)
            rc = cp_cuda_kernel_resources(c, expr, &r.s->dev.sm, &m->resources, st);
        cp_phase_end();
        CP_TRY(rc);
    }
    cp_cuda_cupti_start(r.s);
    CP_TRY(cp_cuda_verify_and_time(&r, m, st));
    if (p->modelled) {
        m->useful_bytes = (double)(p->load.bytes_requested + p->store.bytes_requested +
                                   p->tma_load.bytes_requested);
        if (fam->useful_shared) /* the pattern's bytes are what this family moves */
            m->useful_bytes +=
                (double)(p->shared_load.bytes_requested + p->shared_store.bytes_requested);
        m->useful_bytes_per_s = m->useful_bytes / m->time_median_s;
        m->pct_of_peak = 100.0 * m->useful_bytes_per_s / r.s->dev.peak_measured_bytes_per_s;
    }
    if (fam->after_timing)
        CP_TRY(fam->after_timing(&r, m, st));
    return CP_EXIT_OK;
}

/* Loads the kernels of configurations c[0..n) (cudaFuncGetAttributes loads a kernel of the lazily
 * loaded fat binary): together they take a few ms; one at a time while CUPTI set up its session
 * beside them, 0.12 s for the 32 of --stride 1..32 on the H100 (2026-11-27). What it reads of
 * each kernel is kept for measure(): asked again there, the same calls waited for CUPTI's starts
 * of the other GPU's counter batches, 1.05 s in all in the 1,024 configurations on 2 x H100.
 * It also reserves the pinned memory of every output check (cp_cuda_check_reserve). Kernels
 * compiled at run time (expr) are compiled and loaded by measure(), as before. */
static int cp_cuda_preload(void *state, size_t n, const cp_config *c, cp_status *st)
{
    cp_cuda_state *s = state;
    CP_CUDA_CHECK(st, cudaSetDevice(s->opt.device));
    free(s->pre_res);
    free(s->pre_known);
    s->pre_c = NULL;
    s->pre_res = malloc(n * sizeof *s->pre_res);
    s->pre_known = calloc(n, sizeof *s->pre_known);
    if (!s->pre_res || !s->pre_known)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu kernels", n);
    s->pre_c = c;
    s->pre_n = n;
    cp_phase_begin(CP_PHASE_KERNEL_IMAGE);
    int rc = CP_EXIT_OK;
    uint64_t check_words = 0;
    for (size_t i = 0; i < n && rc == CP_EXIT_OK; i++) {
        const cp_measure_family *fam = cp_measure_family_of(c[i].family);
        if (!fam || cp_measure_beyond(&c[i], &s->dev))
            continue; /* measure() says why a configuration beyond this GPU is not measured */
        if (fam->copy) {
            uint64_t words = cp_cuda_copy_check_words(&c[i], fam->copy);
            check_words = words > check_words ? words : check_words;
        }
        if (fam->load_kernel)
            continue;
        rc = cp_cuda_kernel_resources(&c[i], NULL, &s->dev.sm, &s->pre_res[i], st);
        s->pre_known[i] = rc == CP_EXIT_OK;
    }
    cp_phase_end();
    if (rc == CP_EXIT_OK && check_words)
        rc = cp_cuda_check_reserve(s, check_words, st);
    return rc;
}

static int cp_cuda_describe(int device, cp_device_info *dev, cp_status *st)
{
    struct cudaDeviceProp prop;
    memset(dev, 0, sizeof *dev);
    dev->index = device;
    CP_CUDA_CHECK(st, cudaGetDeviceProperties(&prop, device)); /* no context is made */
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    cp_measure_format_uuid((const unsigned char *)prop.uuid.bytes, dev->uuid, sizeof dev->uuid);
    dev->cc_major = prop.major;
    dev->cc_minor = prop.minor;
    return CP_EXIT_OK;
}

static size_t cp_cuda_counter_batch(void *state)
{
    const cp_cuda_state *s = state;
    return s->opt.counters ? cp_cuda_batch(s->opt.max_configs) : 0;
}

static int cp_cuda_device_count(int *count, int *no_device, cp_status *st)
{
    *count = 0;
    CP_TRY(cp_cuda_find_device(0, no_device, st));
    CP_CUDA_CHECK(st, cudaGetDeviceCount(count));
    return CP_EXIT_OK;
}

const cp_backend cp_backend_cuda = {"cuda",
                                    cp_cuda_open,
                                    cp_cuda_measure,
                                    cp_cuda_counters,
                                    cp_cuda_close,
                                    cp_cuda_resources,
                                    cp_cuda_counters_refusal,
                                    cp_cuda_l2_bytes,
                                    cp_cuda_device_count,
                                    cp_cuda_preload,
                                    cp_cuda_counter_batch,
                                    cp_cuda_describe};
