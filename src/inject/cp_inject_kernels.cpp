// cp_inject_kernels.cpp: per-kernel counters of every launch in a traced program, through CUPTI's
// Range Profiler with auto ranges and kernel replay (each launch is one range, replayed by CUPTI
// for every pass); runs inside the traced program, linked with libcupti.
#include "cp_inject_kernels.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <new>
#include <string>
#include <vector>

namespace
{

// Ranges decoded at a time, at first: the counter data image holds this many launches. Starting
// the profiler costs time in proportion (on the H100, 0.2 s at 64, 0.7 s at 512), so the image
// grows only for a CUDA graph of more kernel nodes (grow_image).
constexpr size_t k_first_ranges = 64;

// A failed CUPTI call: its name in why, its result returned from the caller.
#define CP_KERNELS_CHECK(call)                                                                     \
    CP_CUPTI_ON_ERROR(call,                                                                        \
                      std::snprintf(why, why_size, "%s at %s:%d", #call, __FILE__, __LINE__);      \
                      return (int)cp_cupti_result_)

} // namespace

struct cp_inject_kernels {
    CUcontext ctx = nullptr;
    CUpti_Profiler_Host_Object *host = nullptr;
    CUpti_RangeProfiler_Object *rp = nullptr;
    std::vector<const char *> names; // the metrics this chip knows
    std::vector<int> index;          // their CP_CUPTI_KM_* positions
    std::vector<uint8_t> availability, config, counter_data;
    size_t ranges = 0;                  // launches since the last Start
    size_t max_ranges = k_first_ranges; // what the counter data image holds
    std::vector<std::string>
        functions; // their functions, in launch order (range i is functions[i])
    std::vector<std::string> unmatched; // beside functions: why range i has no function, or ""
    std::vector<uint32_t> crcs;         // beside functions: range i's cubin, or 0
    std::vector<uint32_t> sites;        // beside functions: range i's call site, or 0
    std::vector<uint64_t> times;        // beside functions: range i's launch host time, or 0
    bool started = false;               // the profiler counts launches (not paused around a graph)
    size_t dropped = 0;
    size_t passes = 0;             // replay passes per launch the metrics need
    bool user_replay = false;      // one pass: counted as the program runs, no kernel replay
    int set = CP_INJECT_KSET_FULL; // the set opened (the lean set's fallback included)
    std::string open_times;        // seconds of each step of open_impl, for COALPROBE_TRACE_DEBUG
    // the context's counter availability is read (0.12-0.14 s on the H100) only when opening
    // without it failed, or COALPROBE_TRACE_AVAILABILITY=1 asks for it: CUPTI's host API knows the
    // counters of every chip released with it from the chip's name alone
    bool with_availability = false;
};

namespace
{

// Appends "step seconds" to k->open_times and restarts the clock.
void lap(cp_inject_kernels *k, const char *step, std::chrono::steady_clock::time_point &since)
{
    auto now = std::chrono::steady_clock::now();
    char text[96];
    std::snprintf(text, sizeof text, "%s%s %.3f", k->open_times.empty() ? "" : ", ", step,
                  std::chrono::duration<double>(now - since).count());
    k->open_times += text;
    since = now;
}

// (Re)initialises the counter data image: it then holds no range.
int init_image(cp_inject_kernels *k, char *why, size_t why_size)
{
    auto ip = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, k->rp);
    ip.counterDataSize = k->counter_data.size();
    ip.pCounterData = k->counter_data.data();
    CP_KERNELS_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&ip));
    return 0;
}

// Starts counting a batch of ranges; the counter data image is emptied first unless it is fresh
// (just initialised for the configuration).
int start(cp_inject_kernels *k, char *why, size_t why_size, bool fresh = false)
{
    int rc = fresh ? 0 : init_image(k, why, why_size);
    if (rc != 0)
        return rc;
    auto sp = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Start_Params, k->rp);
    CP_KERNELS_CHECK(cuptiRangeProfilerStart(&sp));
    k->started = true;
    k->ranges = 0;
    k->functions.clear();
    k->unmatched.clear();
    k->crcs.clear();
    k->sites.clear();
    k->times.clear();
    return 0;
}

// Stops, decodes and emits the ranges since the last start.
int collect(cp_inject_kernels *k, cp_inject_kernels_emit emit, void *user, char *why,
            size_t why_size)
{
    if (!k->started)
        return 0; // paused: nothing counted since the last collect
    auto sp = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Stop_Params, k->rp);
    CP_KERNELS_CHECK(cuptiRangeProfilerStop(&sp));
    k->started = false;
    auto dp = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_DecodeData_Params, k->rp);
    CP_KERNELS_CHECK(cuptiRangeProfilerDecodeData(&dp));
    k->dropped += dp.numOfRangeDropped;

    auto ip = CP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    ip.pCounterDataImage = k->counter_data.data();
    ip.counterDataImageSize = k->counter_data.size();
    CP_KERNELS_CHECK(cuptiRangeProfilerGetCounterDataInfo(&ip));
    std::vector<double> v(k->names.size());
    double values[CP_CUPTI_KM_COUNT];
    for (size_t r = 0; r < ip.numTotalRanges; r++) {
        auto rp = CP_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
        rp.pCounterDataImage = k->counter_data.data();
        rp.counterDataImageSize = k->counter_data.size();
        rp.rangeIndex = r;
        rp.rangeDelimiter = "/";
        CP_KERNELS_CHECK(cuptiRangeProfilerCounterDataGetRangeInfo(&rp));
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ep;
        cp_cupti_evaluate_params(&ep, k->host, k->counter_data.data(), k->counter_data.size(), r,
                                 k->names.data(), k->names.size(), v.data());
        CP_KERNELS_CHECK(cuptiProfilerHostEvaluateToGpuValues(&ep));
        for (int m = 0; m < CP_CUPTI_KM_COUNT; m++)
            values[m] = NAN;
        for (size_t i = 0; i < v.size(); i++)
            values[k->index[i]] = v[i];
        // auto ranges are named by their index among the launches since the start: range r is
        // the r-th launch, unless CUPTI dropped ranges of this batch (which ones is not known)
        if (dp.numOfRangeDropped > 0)
            emit(user, nullptr, 0, 0, 0,
                 "CUPTI dropped kernel ranges of the same batch, so which launch a range belongs "
                 "to is not known",
                 values);
        else if (r >= k->functions.size())
            emit(user, nullptr, 0, 0, 0, "a kernel range with no launch seen for it", values);
        else if (!k->unmatched[r].empty())
            emit(user, nullptr, 0, 0, 0, k->unmatched[r].c_str(), values);
        else
            emit(user, k->functions[r].c_str(), k->crcs[r], k->sites[r], k->times[r], nullptr,
                 values);
    }
    return 0;
}

// The counters this context offers and the host object of chip, with the metrics of `set` that
// the chip knows.
int open_host(cp_inject_kernels *k, const char *chip, int set, char *why, size_t why_size,
              std::chrono::steady_clock::time_point &since)
{
    if (k->with_availability && k->availability.empty()) { // kept when chosen again
        auto ap = CP_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
        ap.ctx = k->ctx;
        CP_KERNELS_CHECK(cuptiProfilerGetCounterAvailability(&ap));
        k->availability.assign(ap.counterAvailabilityImageSize, 0);
        ap.pCounterAvailabilityImage = k->availability.data();
        CP_KERNELS_CHECK(cuptiProfilerGetCounterAvailability(&ap));
        lap(k, "availability", since);
    }

    auto hp = CP_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hp.pChipName = chip;
    hp.pCounterAvailabilityImage = k->availability.empty() ? nullptr : k->availability.data();
    CP_KERNELS_CHECK(cuptiProfilerHostInitialize(&hp));
    k->host = hp.pHostObject;
    lap(k, "host_initialize", since);
    for (int m = 0; m < CP_CUPTI_KM_COUNT; m++) {
        if (!cp_inject_kernel_metric_wanted(m, set))
            continue;
        auto mp = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, k->host);
        mp.pMetricName = cp_cupti_kernel_metric_name(m);
        if (cuptiProfilerHostGetMetricProperties(&mp) == CUPTI_SUCCESS) {
            k->names.push_back(cp_cupti_kernel_metric_name(m));
            k->index.push_back(m);
        }
    }
    if (k->names.empty()) {
        std::snprintf(why, why_size, "chip %s offers none of the per-kernel metrics", chip);
        return (int)CUPTI_ERROR_NOT_SUPPORTED;
    }
    return 0;
}

// The config image of the metrics and the replay passes it needs.
int open_config(cp_inject_kernels *k, char *why, size_t why_size,
                std::chrono::steady_clock::time_point &since)
{
    static const cp_cupti_config_api api = {
        cuptiProfilerHostConfigAddMetrics, cuptiProfilerHostGetConfigImageSize,
        cuptiProfilerHostGetConfigImage, cuptiProfilerHostGetNumOfPasses};
    const char *failed = nullptr;
    CUptiResult r = cp_cupti_build_config(api, k->host, k->names, k->config, &k->passes, &failed);
    if (r != CUPTI_SUCCESS) {
        std::snprintf(why, why_size, "%s at %s:%d", failed, __FILE__, __LINE__);
        return (int)r;
    }
    lap(k, "config_image", since);
    return 0;
}

// A counter data image of k->max_ranges ranges, initialised, and the configuration that uses it:
// auto ranges, replayed by CUPTI unless one pass is enough. The profiler must not be started.
int configure(cp_inject_kernels *k, char *why, size_t why_size)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params sp;
    cp_cupti_counter_data_size_params(&sp, k->rp, k->names.data(), k->names.size(), k->max_ranges);
    CP_KERNELS_CHECK(cuptiRangeProfilerGetCounterDataSize(&sp));
    k->counter_data.assign(sp.counterDataSize, 0);
    int rc = init_image(k, why, why_size);
    if (rc != 0)
        return rc;
    CUpti_RangeProfiler_SetConfig_Params cfg;
    cp_cupti_set_config_params(&cfg, k->rp, k->config.data(), k->config.size(),
                               k->counter_data.data(), k->counter_data.size(), k->max_ranges);
    cfg.range = CUPTI_AutoRange;
    // one pass needs no replay: the program's own launches are counted as they run
    k->user_replay = k->passes == 1;
    cfg.replayMode = k->user_replay ? CUPTI_UserReplay : CUPTI_KernelReplay;
    CP_KERNELS_CHECK(cuptiRangeProfilerSetConfig(&cfg));
    return 0;
}

// The Range Profiler on the context and its configuration.
int open_range_profiler(cp_inject_kernels *k, char *why, size_t why_size,
                        std::chrono::steady_clock::time_point &since)
{
    auto ep = CP_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    ep.ctx = k->ctx;
    CP_KERNELS_CHECK(cuptiRangeProfilerEnable(&ep));
    k->rp = ep.pRangeProfilerObject;
    lap(k, "enable", since);
    int rc = configure(k, why, why_size);
    lap(k, "counter_data_and_set_config", since);
    return rc;
}

// Room for n ranges in one batch: when the image holds fewer, the ranges it holds are emitted,
// and it is made again for the next power of two at or above n, then started.
int grow_image(cp_inject_kernels *k, size_t n, cp_inject_kernels_emit emit, void *user, char *why,
               size_t why_size)
{
    if (n <= k->max_ranges)
        return 0;
    int rc = collect(k, emit, user, why, why_size);
    if (rc != 0)
        return rc;
    while (k->max_ranges < n)
        k->max_ranges *= 2;
    rc = configure(k, why, why_size);
    return rc != 0 ? rc : start(k, why, why_size, true);
}

// Drops the host object and the metrics chosen for it, to choose again.
void release_host(cp_inject_kernels *k)
{
    auto p = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, k->host);
    (void)cuptiProfilerHostDeinitialize(&p); // chosen again right after: nothing to report
    k->host = nullptr;
    k->names.clear();
    k->index.clear();
    k->config.clear();
}

// Back to nothing opened (the profiler disabled, the host object dropped): to open again,
// or before the object goes (release).
void reset(cp_inject_kernels *k)
{
    if (k->rp) {
        auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Disable_Params, k->rp);
        (void)cuptiRangeProfilerDisable(&p); // reopened or gone: nothing to report
        k->rp = nullptr;
    }
    if (k->host)
        release_host(k);
    k->counter_data.clear();
    k->started = false;
    k->open_times.clear();
}

int open_once(cp_inject_kernels *k, const char *chip, int set, char *why, size_t why_size)
{
    auto since = std::chrono::steady_clock::now();
    int rc = open_host(k, chip, set, why, why_size, since);
    if (rc == 0)
        rc = open_config(k, why, why_size, since);
    k->set = set;
    // one pass is what makes the lean set cheap: without the TMA and local sectors, then
    if (rc == 0 && set == CP_INJECT_KSET_LEAN && k->passes > 1) {
        release_host(k);
        k->set = CP_INJECT_KSET_LEAN_BASE;
        rc = open_host(k, chip, CP_INJECT_KSET_LEAN_BASE, why, why_size, since);
        if (rc == 0)
            rc = open_config(k, why, why_size, since);
    }
    if (rc == 0)
        rc = open_range_profiler(k, why, why_size, since);
    if (rc != 0)
        return rc;
    int started = start(k, why, why_size, true); // open_range_profiler initialised the image
    lap(k, "start", since);
    return started;
}

int open_impl(cp_inject_kernels *k, const char *chip, int set, char *why, size_t why_size)
{
    const char *ask = std::getenv("COALPROBE_TRACE_AVAILABILITY");
    k->with_availability = ask && std::strcmp(ask, "1") == 0;
    int rc = open_once(k, chip, set, why, why_size);
    if (rc == 0 || k->with_availability)
        return rc;
    reset(k); // a chip newer than this CUPTI, or counters this context lacks: ask the context
    k->with_availability = true;
    return open_once(k, chip, set, why, why_size);
}

void release(cp_inject_kernels *k)
{
    reset(k); // teardown: nothing left to report
    delete k;
}

} // namespace

extern "C" int cp_inject_kernel_metric_wanted(int m, int set)
{
    if (set == CP_INJECT_KSET_FULL)
        return m >= 0 && m < CP_CUPTI_KM_COUNT;
    switch (m) {
    case CP_CUPTI_KM_TMA_LD_SECTORS:
    case CP_CUPTI_KM_TMA_ST_SECTORS:
    case CP_CUPTI_KM_LOCAL_SECTORS:
        return set == CP_INJECT_KSET_LEAN;
    case CP_CUPTI_KM_GLOBAL_LD_SECTORS:
    case CP_CUPTI_KM_GLOBAL_ST_SECTORS:
    case CP_CUPTI_KM_SHARED_LD_REQUESTS:
    case CP_CUPTI_KM_SHARED_ST_REQUESTS:
    case CP_CUPTI_KM_GLOBAL_LD_INSTRUCTIONS:
    case CP_CUPTI_KM_GLOBAL_ST_INSTRUCTIONS:
    case CP_CUPTI_KM_DURATION:
        return 1;
    default:
        return 0;
    }
}

extern "C" const char *cp_inject_kernels_open_times(const cp_inject_kernels *k)
{
    return k->open_times.c_str();
}

extern "C" int cp_inject_kernels_replayed(const cp_inject_kernels *k)
{
    return !k->user_replay;
}

extern "C" int cp_inject_kernels_set(const cp_inject_kernels *k)
{
    return k->set;
}

extern "C" size_t cp_inject_kernels_passes(const cp_inject_kernels *k)
{
    return k->passes;
}

extern "C" cp_inject_kernels *cp_inject_kernels_open(CUcontext ctx, const char *chip, int set,
                                                     int *code, char *why, size_t why_size)
{
    cp_inject_kernels *k = new (std::nothrow) cp_inject_kernels;
    if (!k) {
        *code = (int)CUPTI_ERROR_OUT_OF_MEMORY;
        std::snprintf(why, why_size, "out of memory");
        return nullptr;
    }
    k->ctx = ctx;
    int rc;
    try {
        rc = open_impl(k, chip, set, why, why_size);
    } catch (...) {
        rc = (int)CUPTI_ERROR_OUT_OF_MEMORY;
        std::snprintf(why, why_size, "out of memory");
    }
    *code = rc;
    if (rc != 0) {
        release(k);
        return nullptr;
    }
    return k;
}

extern "C" int cp_inject_kernels_before_launch(cp_inject_kernels *k, const char *function,
                                               uint32_t crc, uint32_t site, uint64_t host_ns,
                                               cp_inject_kernels_emit emit, void *user, char *why,
                                               size_t why_size)
{
    return cp_inject_kernels_before_graph(k, &function, &crc, &site, 1, host_ns, nullptr, emit,
                                          user, why, why_size);
}

extern "C" int cp_inject_kernels_before_graph(cp_inject_kernels *k, const char *const *functions,
                                              const uint32_t *crcs, const uint32_t *sites, size_t n,
                                              uint64_t host_ns, const char *unmatched,
                                              cp_inject_kernels_emit emit, void *user, char *why,
                                              size_t why_size)
{
    try {
        int grown = grow_image(k, n, emit, user, why, why_size);
        if (grown != 0)
            return grown;
        if (k->ranges > 0 && k->ranges + n > k->max_ranges) {
            int rc = collect(k, emit, user, why, why_size);
            if (rc == 0)
                rc = start(k, why, why_size);
            if (rc != 0)
                return rc;
        }
        for (size_t i = 0; i < n; i++) {
            const char *f = functions ? functions[i] : nullptr;
            k->ranges++;
            k->functions.emplace_back(f ? f : "?");
            k->unmatched.emplace_back(functions ? "" : (unmatched ? unmatched : "unknown"));
            k->crcs.push_back(functions && crcs ? crcs[i] : 0);
            k->sites.push_back(functions && sites ? sites[i] : 0);
            k->times.push_back(functions ? host_ns : 0);
        }
        return 0;
    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        return (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" int cp_inject_kernels_close(cp_inject_kernels *k, cp_inject_kernels_emit emit,
                                       void *user, size_t *dropped, char *why, size_t why_size)
{
    int rc;
    try {
        rc = collect(k, emit, user, why, why_size);
    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        rc = (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
    *dropped = k->dropped;
    release(k);
    return rc;
}

extern "C" int cp_inject_kernels_before_replayed_graph(cp_inject_kernels *k,
                                                       cp_inject_kernels_emit emit, void *user,
                                                       char *why, size_t why_size)
{
    try {
        if (k->user_replay)
            return 0;
        return collect(k, emit, user, why, why_size); // paused until the graph's launch returns

    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        return (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" int cp_inject_kernels_after_replayed_graph(cp_inject_kernels *k,
                                                      cp_inject_kernels_emit emit, void *user,
                                                      char *why, size_t why_size)
{
    (void)emit; // nothing was counted while paused
    (void)user;
    try {
        if (k->user_replay || k->started)
            return 0;
        return start(k, why, why_size);
    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        return (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" int cp_inject_kernels_pause(cp_inject_kernels *k, cp_inject_kernels_emit emit,
                                       void *user, char *why, size_t why_size)
{
    try {
        return collect(k, emit, user, why, why_size); // nothing when not started
    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        return (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" int cp_inject_kernels_resume(cp_inject_kernels *k, char *why, size_t why_size)
{
    try {
        return k->started ? 0 : start(k, why, why_size);
    } catch (...) {
        std::snprintf(why, why_size, "out of memory");
        return (int)CUPTI_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" int cp_inject_kernels_started(const cp_inject_kernels *k)
{
    return k->started;
}
