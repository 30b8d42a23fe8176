// cp_cupti.cpp: the CUPTI Range Profiler session (user ranges, user replay) behind cp_cupti.h:
// which metrics a chip has and under which names, the session itself, and what doctor asks.
// CUPTI is loaded here and reached only through g_cupti; the rest of coalprobe sees cp_cupti.h.
// One file of about 1,050 lines for that reason: g_cupti and its lock stay private to it.
#include "cp_cupti.h"

#include "base/cp_base.h"
#include "base/cp_cupti_util.h"

#include <dlfcn.h>

#include <cstdlib>

#include <cuda.h>         // types only (CUcontext, CUdevice, CUresult): libcuda is never linked
#include <cudaTypedefs.h> // PFN_* driver function types, for cudaGetDriverEntryPointByVersion
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

// Written against CUPTI 13.0 (CUPTI_API_VERSION 130001): every parameter struct is sized with its
// *_STRUCT_SIZE macro from these headers, so newer libraries see only the 13.0 fields. Anything
// added after 13.0 must be guarded with #if CUPTI_API_VERSION > 130001.
#if !defined(CUPTI_API_VERSION) || CUPTI_API_VERSION < 130001
#error "cp_cupti.cpp needs the CUPTI Range Profiler API of CUDA 13.0 or newer"
#endif

struct cp_cupti_session {
    int device = 0;
    CUcontext ctx = nullptr;
    CUdevice cu_device = 0;
    std::string chip;
    bool profiler_initialized = false;
    CUpti_Profiler_Host_Object *host = nullptr;
    CUpti_RangeProfiler_Object *rp = nullptr;
    std::vector<uint8_t> availability, config, counter_data;
    cp_cupti_plan plan{};            // which metrics are read, under which names; passes
    std::vector<const char *> names; // the metrics read, in CP_CUPTI_M_* order
    std::vector<int> index;          // the CP_CUPTI_M_* index of each entry of names
    std::vector<const char *> extra; // the extra metrics asked for (a family's own counters)
    size_t passes = 0;
    size_t max_ranges = 1;
    bool needs_reconfigure = false; // a replay sequence was left unfinished by a failure
};

namespace
{

// CUPTI is loaded with dlopen when a session opens (through the executable's RPATH), not
// linked: a machine without it still runs coalprobe, and the rows then say why there are no
// counters. COALPROBE_CUPTI_LIBRARY names another libcupti to load.
#define CP_CUPTI_FUNCTIONS(X)                                                                      \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiGetResultString)                                                                        \
    X(cuptiGetVersion)                                                                             \
    X(cuptiProfilerDeInitialize)                                                                   \
    X(cuptiProfilerDeviceSupported)                                                                \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetMetricProperties)                                                        \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostGetSupportedChips)                                                          \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerGetCounterDataInfo)                                                        \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerPopRange)                                                                  \
    X(cuptiRangeProfilerPushRange)                                                                 \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)

struct cupti_api {
#define CP_CUPTI_DECLARE(name) decltype(&::name) name = nullptr;
    CP_CUPTI_FUNCTIONS(CP_CUPTI_DECLARE)
#undef CP_CUPTI_DECLARE
};

cupti_api g_cupti;
void *g_cupti_lib = nullptr;
const char *g_cupti_lib_name = nullptr; // the name dlopen was given

// The workers of a run over several GPUs (src/app/cp_devices.c) open sessions at once: loading
// the library and the profiler's process-wide initialisation are done under this lock, the
// profiler de-initialised when the last session that initialised it closes.
std::mutex g_cupti_lock;
int g_profiler_users = 0;

// Loads libcupti and every function coalprobe calls (once per process). A failure is a
// refusal: timings still run.
int load_cupti_locked(int *refused, cp_status *st);
int load_cupti(int *refused, cp_status *st)
{
    std::lock_guard<std::mutex> guard(g_cupti_lock);
    return load_cupti_locked(refused, st);
}

int load_cupti_locked(int *refused, cp_status *st)
{
    if (g_cupti_lib)
        return CP_EXIT_OK;
    const char *lib_name =
        cp_dl_name("COALPROBE_CUPTI_LIBRARY", "libcupti.so." CP_CUPTI_SONAME_MAJOR);
    cupti_api api;
    const cp_dl_symbol syms[] = {
#define CP_CUPTI_SYMBOL(name) {reinterpret_cast<void **>(&api.name), #name},
        CP_CUPTI_FUNCTIONS(CP_CUPTI_SYMBOL)
#undef CP_CUPTI_SYMBOL
    };
    const char *missing;
    void *lib = cp_dl_load(lib_name, syms, CP_COUNT_OF(syms), &missing);
    if (!lib && refused)
        *refused = 1;
    if (!lib && !missing) {
        cp_status_set(st, CP_EXIT_RUNTIME, "CUPTI refused: cannot load %s (%s)", lib_name,
                      dlerror());
        cp_status_hint(st, "install the CUDA Toolkit's CUPTI, add its directory to LD_LIBRARY_PATH "
                           "or name the library in COALPROBE_CUPTI_LIBRARY; or run with "
                           "--no-counters");
        return CP_EXIT_RUNTIME;
    }
    if (!lib)
        return cp_status_set(st, CP_EXIT_RUNTIME, "CUPTI refused: %s lacks %s (CUDA 13 needed)",
                             lib_name, missing);
    g_cupti = api;
    g_cupti_lib = lib;
    g_cupti_lib_name = lib_name;
    return CP_EXIT_OK;
}

// The names tried for each metric, in CP_CUPTI_M_* order (why these: the comment on the enum in
// cp_cupti.h), and each metric's group. GB20x chips (RTX 50) call the DRAM byte counters
// dram__bytes_op_{read,write}; integrated GPUs (GA10B, GB10B, GB20B) count no DRAM bytes at all.
struct metric_def {
    unsigned group;
    const char *names[3];
    const char *instruction_name; // CP_CUPTI_REQUESTS_AS_INSTRUCTIONS: the name read instead
};
const metric_def kMetrics[CP_CUPTI_M_COUNT] = {
    {CP_CUPTI_GROUP_GLOBAL,
     {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", nullptr},
     "smsp__inst_executed_op_global_ld.sum"},
    {CP_CUPTI_GROUP_GLOBAL, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL,
     {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", nullptr},
     "smsp__inst_executed_op_global_st.sum"},
    {CP_CUPTI_GROUP_GLOBAL, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL, {"lts__t_sectors_srcunit_tex_op_read.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL, {"lts__t_sectors_srcunit_tex_op_write.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL, {"dram__bytes_read.sum", "dram__bytes_op_read.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL,
     {"dram__bytes_write.sum", "dram__bytes_op_write.sum", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_GLOBAL, {"smsp__sass_data_bytes_mem_global_op_ld.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_GLOBAL, {"smsp__sass_data_bytes_mem_global_op_st.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_SHARED, {"smsp__inst_executed_op_shared_ld.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_SHARED, {"smsp__inst_executed_op_shared_st.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_SHARED,
     {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_SHARED,
     {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_SHARED,
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_SHARED,
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_OCCUPANCY,
     {"sm__warps_active.avg.pct_of_peak_sustained_active", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_PATH,
     {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_PATH, {"lts__t_sector_op_read_hit_rate.pct", nullptr}, nullptr},
    {CP_CUPTI_GROUP_PATH,
     {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", nullptr},
     nullptr},
    {CP_CUPTI_GROUP_PATH, {"smsp__inst_executed_op_ldc.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_PATH, {"smsp__inst_executed_op_ldgsts.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_PATH, {"smsp__inst_executed_op_tma_ld.sum", nullptr}, nullptr},
    {CP_CUPTI_GROUP_PATH,
     {"l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", nullptr},
     nullptr},
};

// The CUPTI result of the last failed check on this thread, so that cp_cupti_open can tell a
// refusal from another failure.
thread_local CUptiResult t_last_cupti_error = CUPTI_SUCCESS;

const char *cupti_result_name(CUptiResult r)
{
    return cp_cupti_result_text(g_cupti.cuptiGetResultString, r);
}

// Reads RmProfilingAdminOnly from /proc/driver/nvidia/params into buf ("" when unreadable).
void read_admin_only(char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = std::fopen("/proc/driver/nvidia/params", "r");
    if (!f)
        return;
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, "RmProfilingAdminOnly:", 21) == 0) {
            const char *v = line + 21;
            while (*v == ' ')
                v++;
            std::snprintf(buf, n, "%.*s", (int)std::strcspn(v, "\r\n"), v);
            break;
        }
    }
    std::fclose(f);
}

// For a result that means "the profiler refuses to run here", a cause and a fix; else false.
bool refusal_text(CUptiResult r, const char **cause, const char **fix)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        *cause = "insufficient privileges to read GPU performance counters";
        *fix = "run as root, give the binary CAP_SYS_ADMIN (sudo setcap cap_sys_admin+ep "
               "BINARY), or load the driver with NVreg_RestrictProfilingToAdminUsers=0 (in "
               "/etc/modprobe.d/, then reboot); or run with --no-counters";
        return true;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        *cause = "profiling is not available on this virtual GPU";
        *fix = "enable profiling for the vGPU on the host (see the NVIDIA vGPU documentation), "
               "use a bare-metal or passthrough GPU, or run with --no-counters";
        return true;
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        *cause = "profiling is not supported with confidential computing enabled";
        *fix = "use a GPU with confidential computing off, or run with --no-counters";
        return true;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        *cause = "profiling is not supported on this MIG instance";
        *fix =
            "use a GPU with MIG disabled (nvidia-smi -mig 0, as root), or run with --no-counters";
        return true;
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        *cause = "profiling is not supported on this GPU under WSL";
        *fix = "run on native Linux or update the Windows NVIDIA driver, or run with --no-counters";
        return true;
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        *cause = "profiling is not supported with SLI enabled";
        *fix = "disable SLI, or run with --no-counters";
        return true;
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        *cause = "profiling is not supported on NVIDIA CMP devices";
        *fix = "use another GPU, or run with --no-counters";
        return true;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        *cause = "another profiler (Nsight Compute, Nsight Systems or a CUPTI tool) is attached";
        *fix = "run without the other profiler, or run coalprobe with --no-counters under it";
        return true;
    case CUPTI_ERROR_NOT_INITIALIZED:
        *cause = "CUPTI could not load its profiler libraries (libnvperf_host.so, "
                 "libnvperf_target.so)";
        *fix = "link with -Wl,--disable-new-dtags and an rpath to the CUPTI library directory "
               "(libcupti loads libnvperf by bare name, which ignores RUNPATH), or add that "
               "directory to LD_LIBRARY_PATH";
        return true;
    case CUPTI_ERROR_HARDWARE_BUSY:
        *cause = "another process holds this GPU's counters (Nsight Compute, a traced program, "
                 "or DCGM's profiling metrics)";
        *fix = "wait for it to end (nvidia-smi --query-compute-apps=pid,name --format=csv lists "
               "the processes on the GPU), pause DCGM's profiling (dcgmi profile --pause), or run "
               "with --no-counters";
        return true;
    case CUPTI_ERROR_NOT_COMPATIBLE:
        *cause = "CUPTI is not compatible with the installed NVIDIA driver";
        *fix = "install a driver that supports CUDA 13.0 (r580 or newer), or run with "
               "--no-counters";
        return true;
    case CUPTI_ERROR_NOT_SUPPORTED:
        *cause = "profiling is not supported on this device or configuration";
        *fix = "run with --no-counters";
        return true;
    default:
        return false;
    }
}

bool is_refusal(CUptiResult r)
{
    const char *c, *f;
    return refusal_text(r, &c, &f);
}

// Records a failed CUPTI call in st (the call text, the result name and file:line; for a
// refusal, the cause first and the fix as hint) and returns CP_EXIT_RUNTIME.
int cupti_failed(cp_status *st, CUptiResult r, const char *call, const char *file, int line)
{
    t_last_cupti_error = r;
    const char *cause = nullptr, *fix = nullptr;
    if (refusal_text(r, &cause, &fix)) {
        char admin[32] = "";
        if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
            read_admin_only(admin, sizeof admin);
        cp_status_set(st, CP_EXIT_RUNTIME, "CUPTI refused: %s%s%s%s (%s failed: %s at %s:%d)",
                      cause, admin[0] ? " (RmProfilingAdminOnly: " : "", admin, admin[0] ? ")" : "",
                      call, cupti_result_name(r), file, line);
        cp_status_hint(st, "%s", fix);
        return CP_EXIT_RUNTIME;
    }
    return cp_status_set(st, CP_EXIT_RUNTIME, "%s failed: %s (%d) at %s:%d", call,
                         cupti_result_name(r), (int)r, file, line);
}

} // namespace

// CP_CUPTI_CHECK(st, call): evaluates a CUPTI call; on failure records the call, the result name
// (cuptiGetResultString) and file:line in st and returns CP_EXIT_RUNTIME from the caller.
#define CP_CUPTI_CHECK(st, call)                                                                   \
    CP_CUPTI_ON_ERROR(call, return cupti_failed((st), cp_cupti_result_, #call, __FILE__, __LINE__))

namespace
{

// Looks up a driver API function through the runtime (no link dependency on libcuda). The
// version picks the ABI: the driver returns the newest variant of symbol introduced at or
// before it (cuCtxGetDevice of CUDA 2.0 takes one argument, its CUDA 13.0 variant two).
int driver_entry(const char *symbol, unsigned int version, void **fn, cp_status *st)
{
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    *fn = nullptr;
    CP_CUDA_CHECK(st, cudaGetDriverEntryPointByVersion(symbol, fn, version, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !*fn)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "the CUDA driver does not provide %s (query result %d)", symbol,
                             (int)q);
    return CP_EXIT_OK;
}

// The current driver context and its device (the runtime's primary context after cudaFree(0)).
int current_context(CUcontext *ctx, CUdevice *dev, cp_status *st)
{
    void *p = nullptr;
    CP_TRY(driver_entry("cuCtxGetCurrent", 4000, &p, st));
    CUresult r = reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(p)(ctx);
    if (r != CUDA_SUCCESS || !*ctx)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cuCtxGetCurrent failed: CUresult %d at %s:%d",
                             (int)r, __FILE__, __LINE__);
    CP_TRY(driver_entry("cuCtxGetDevice", 2000, &p, st));
    r = reinterpret_cast<PFN_cuCtxGetDevice_v2000>(p)(dev);
    if (r != CUDA_SUCCESS)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cuCtxGetDevice failed: CUresult %d at %s:%d",
                             (int)r, __FILE__, __LINE__);
    return CP_EXIT_OK;
}

const char *support_name(CUpti_Profiler_Support_Level v)
{
    switch (v) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
        return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
        return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
        return "supported";
    default:
        return "unknown";
    }
}

// Fills st with the causes cuptiProfilerDeviceSupported gave for refusing device.
int device_unsupported(const CUpti_Profiler_DeviceSupported_Params &p, int device, cp_status *st)
{
    struct flag {
        CUpti_Profiler_Support_Level level;
        const char *what, *fix;
    };
    const flag flags[] = {
        {p.architecture, "GPU architecture (compute capability 7.5 or newer needed)",
         "use a Turing or newer GPU"},
        {p.sli, "SLI", "disable SLI"},
        {p.vGpu, "virtual GPU",
         "enable profiling for the vGPU on the host or use a bare-metal GPU"},
        {p.confidentialCompute, "confidential computing", "turn confidential computing off"},
        {p.cmp, "CMP device", "use a non-CMP GPU"},
        {p.wsl, "WSL", "run on native Linux or update the Windows driver"},
    };
    std::string causes, fixes;
    for (const flag &f : flags) {
        if (f.level == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
            continue;
        causes += causes.empty() ? "" : ", ";
        causes += std::string(f.what) + ": " + support_name(f.level);
        fixes += fixes.empty() ? "" : "; ";
        fixes += f.fix;
    }
    if (causes.empty())
        causes = std::string("overall: ") + support_name(p.isSupported);
    cp_status_set(st, CP_EXIT_RUNTIME, "CUPTI refused: device %d does not support profiling (%s)",
                  device, causes.c_str());
    cp_status_hint(st, "%s%sor run with --no-counters", fixes.c_str(), fixes.empty() ? "" : "; ");
    return CP_EXIT_RUNTIME;
}

// A profiler host object for a chip, deinitialised when it goes out of scope.
struct host_object {
    CUpti_Profiler_Host_Object *obj = nullptr;
    host_object() = default;
    host_object(const host_object &) = delete;
    host_object &operator=(const host_object &) = delete;
    ~host_object()
    {
        reset();
    }
    void reset()
    {
        if (!obj)
            return;
        auto p = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, obj);
        (void)g_cupti.cuptiProfilerHostDeinitialize(&p); // nothing to report at teardown
        obj = nullptr;
    }
};

int host_initialize(const char *chip, const uint8_t *availability, CUpti_Profiler_Host_Object **out,
                    cp_status *st)
{
    auto p = CP_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = availability;
    CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerHostInitialize(&p));
    *out = p.pHostObject;
    return CP_EXIT_OK;
}

// True when the host object knows metric (a supported name with a valid rollup/submetric).
bool metric_known(CUpti_Profiler_Host_Object *host, const char *metric)
{
    auto p = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, host);
    p.pMetricName = metric;
    return g_cupti.cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

// Adds names to host, builds the config image into config and counts its passes.
int build_config(CUpti_Profiler_Host_Object *host, std::vector<const char *> &names,
                 std::vector<uint8_t> &config, size_t *passes, cp_status *st)
{
    const char *failed = nullptr;
    CUptiResult r = cp_cupti_build_config(g_cupti, host, names, config, passes, &failed);
    if (r != CUPTI_SUCCESS)
        return cupti_failed(st, r, failed, __FILE__, __LINE__);
    return CP_EXIT_OK;
}

// Fills plan for the metrics of `groups` that host's chip knows (the first known name of each)
// and for the extra names it knows (index CP_CUPTI_M_COUNT + their own), builds their config
// image into config and counts its passes.
int plan_metrics(CUpti_Profiler_Host_Object *host, const char *chip, unsigned groups,
                 const std::vector<const char *> &extra, cp_cupti_plan *plan,
                 std::vector<const char *> &names, std::vector<int> &index,
                 std::vector<uint8_t> &config, cp_status *st)
{
    *plan = cp_cupti_plan{};
    std::snprintf(plan->chip, sizeof plan->chip, "%s", chip);
    plan->groups = groups;
    names.clear();
    index.clear();
    for (int m = 0; m < CP_CUPTI_M_COUNT; m++) {
        plan->state[m] = CP_CUPTI_NOT_ASKED;
        if (!(kMetrics[m].group & groups))
            continue;
        plan->state[m] = CP_CUPTI_NOT_ON_CHIP; // unless one of its names is known
        const char *const instruction[2] = {kMetrics[m].instruction_name, nullptr};
        bool as_instruction =
            (groups & CP_CUPTI_REQUESTS_AS_INSTRUCTIONS) && kMetrics[m].instruction_name;
        for (const char *const *n = as_instruction ? instruction : kMetrics[m].names; *n; n++) {
            if (metric_known(host, *n)) {
                plan->state[m] = CP_CUPTI_READ;
                plan->names[m] = *n;
                names.push_back(*n);
                index.push_back(m);
                break;
            }
        }
    }
    for (size_t i = 0; i < extra.size() && i < CP_CUPTI_EXTRA_MAX; i++) {
        plan->extra[i] = extra[i];
        plan->extra_state[i] = CP_CUPTI_NOT_ON_CHIP;
        plan->nextra = i + 1;
        if (extra[i] && metric_known(host, extra[i])) {
            plan->extra_state[i] = CP_CUPTI_READ;
            names.push_back(extra[i]);
            index.push_back(CP_CUPTI_M_COUNT + (int)i);
        }
    }
    plan->nread = names.size();
    if (names.empty())
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "CUPTI knows none of coalprobe's metrics on chip %s", chip);
    CP_TRY(build_config(host, names, config, &plan->passes, st));
    return CP_EXIT_OK;
}

// (Re)initialises the counter data image in place: it then holds no range.
int reset_image(cp_cupti_session *s, cp_status *st)
{
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, s->rp);
    p.counterDataSize = s->counter_data.size();
    p.pCounterData = s->counter_data.data();
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerCounterDataImageInitialize(&p));
    return CP_EXIT_OK;
}

int disable_profiler(cp_cupti_session *s, cp_status *st)
{
    if (!s->rp)
        return CP_EXIT_OK;
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Disable_Params, s->rp);
    s->rp = nullptr;
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerDisable(&p));
    return CP_EXIT_OK;
}

// Enables the range profiler on the session's context, creates the counter data image and sets
// the configuration (user ranges, user replay, max_ranges ranges per pass, one level).
int enable_profiler(cp_cupti_session *s, cp_status *st)
{
    auto ep = CP_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    ep.ctx = s->ctx;
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerEnable(&ep));
    s->rp = ep.pRangeProfilerObject;

    CUpti_RangeProfiler_GetCounterDataSize_Params sp;
    cp_cupti_counter_data_size_params(&sp, s->rp, s->names.data(), s->names.size(), s->max_ranges);
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerGetCounterDataSize(&sp));
    s->counter_data.assign(sp.counterDataSize, 0);
    CP_TRY(reset_image(s, st));

    CUpti_RangeProfiler_SetConfig_Params cp;
    cp_cupti_set_config_params(&cp, s->rp, s->config.data(), s->config.size(),
                               s->counter_data.data(), s->counter_data.size(), s->max_ranges);
    cp.range = CUPTI_UserRange; // a range around each run(): see cp_cupti.h
    cp.replayMode = CUPTI_UserReplay;
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerSetConfig(&cp));
    s->needs_reconfigure = false;
    return CP_EXIT_OK;
}

// Starts over after a replay sequence was left unfinished: disables and enables the profiler,
// which gives a fresh pass sequence and an empty counter data image.
int reconfigure(cp_cupti_session *s, cp_status *st)
{
    cp_status ignored;
    (void)disable_profiler(s, &ignored); // the object is gone either way
    return enable_profiler(s, st);
}

// cuptiProfilerInitialize for one more user (the first initialises the profiler).
int profiler_acquire(cp_status *st)
{
    std::lock_guard<std::mutex> guard(g_cupti_lock);
    if (g_profiler_users == 0) {
        auto ip = CP_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
        CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerInitialize(&ip));
    }
    g_profiler_users++;
    return CP_EXIT_OK;
}

// One user fewer: the last one de-initialises the profiler.
void profiler_release()
{
    std::lock_guard<std::mutex> guard(g_cupti_lock);
    if (g_profiler_users > 0 && --g_profiler_users == 0) {
        auto dp = CP_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
        (void)g_cupti.cuptiProfilerDeInitialize(&dp);
    }
}

int open_impl(cp_cupti_session *s, int device, unsigned groups, int *refused, cp_status *st)
{
    s->device = device;
    CP_CUDA_CHECK(st, cudaSetDevice(device));
    CP_CUDA_CHECK(st, cudaFree(0));
    CP_TRY(current_context(&s->ctx, &s->cu_device, st));

    CP_TRY(profiler_acquire(st));
    s->profiler_initialized = true;

    auto dp = CP_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    dp.cuDevice = s->cu_device;
    dp.api = CUPTI_PROFILER_RANGE_PROFILING;
    CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerDeviceSupported(&dp));
    if (dp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        *refused = 1;
        return device_unsupported(dp, device, st);
    }

    auto cn = CP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    cn.deviceIndex = (size_t)s->cu_device;
    CP_CUPTI_CHECK(st, g_cupti.cuptiDeviceGetChipName(&cn));
    s->chip = cn.pChipName ? cn.pChipName : "";

    auto ap = CP_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    ap.ctx = s->ctx;
    CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerGetCounterAvailability(&ap));
    s->availability.assign(ap.counterAvailabilityImageSize, 0);
    ap.pCounterAvailabilityImage = s->availability.data();
    CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerGetCounterAvailability(&ap));

    CP_TRY(host_initialize(s->chip.c_str(), s->availability.data(), &s->host, st));
    // metrics the chip lacks read as NAN; cp_cupti_plan_reason says why
    CP_TRY(plan_metrics(s->host, s->chip.c_str(), groups, s->extra, &s->plan, s->names, s->index,
                        s->config, st));
    s->passes = s->plan.passes;
    return enable_profiler(s, st);
}

int open_session(int device, size_t max_ranges, unsigned groups, const char *const *extra,
                 size_t nextra, cp_cupti_session **out, int *refused, cp_status *st)
{
    int dummy = 0;
    if (!refused)
        refused = &dummy;
    *refused = 0;
    if (!out)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_open: out is NULL");
    *out = nullptr;
    CP_TRY(load_cupti(refused, st));
    cp_cupti_session *s = new (std::nothrow) cp_cupti_session;
    if (!s)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_open: out of memory");
    s->max_ranges = max_ranges ? max_ranges : 1;
    if (s->max_ranges > UINT32_MAX)
        s->max_ranges = UINT32_MAX;
    t_last_cupti_error = CUPTI_SUCCESS;
    int rc;
    try {
        for (size_t i = 0; extra && i < nextra && i < CP_CUPTI_EXTRA_MAX; i++)
            s->extra.push_back(extra[i]);
        rc = open_impl(s, device, groups, refused, st);
    } catch (const std::bad_alloc &) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_open: out of memory");
    } catch (...) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_open: unexpected C++ exception");
    }
    if (rc != CP_EXIT_OK) {
        if (t_last_cupti_error != CUPTI_SUCCESS && is_refusal(t_last_cupti_error))
            *refused = 1;
        cp_cupti_close(s);
        return rc;
    }
    *out = s;
    return CP_EXIT_OK;
}

int cuda_sync(cp_status *st)
{
    CP_CUDA_CHECK(st, cudaDeviceSynchronize());
    return CP_EXIT_OK;
}

// A --verbose phase for the lifetime of a scope (ended on every return).
struct phase_scope {
    explicit phase_scope(cp_phase p)
    {
        cp_phase_begin(p);
    }
    ~phase_scope()
    {
        cp_phase_end();
    }
    phase_scope(const phase_scope &) = delete;
    phase_scope &operator=(const phase_scope &) = delete;
};

// Start, Stop, Push and Pop run on the thread profiling a batch; --verbose shows their time.
int range_start(cp_cupti_session *s, cp_status *st)
{
    phase_scope timed(CP_PHASE_PASS_EDGES);
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Start_Params, s->rp);
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerStart(&p));
    return CP_EXIT_OK;
}

int range_stop(cp_cupti_session *s, bool *all_submitted, cp_status *st)
{
    phase_scope timed(CP_PHASE_PASS_EDGES);
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_Stop_Params, s->rp);
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerStop(&p));
    *all_submitted = p.isAllPassSubmitted != 0;
    return CP_EXIT_OK;
}

int range_push(cp_cupti_session *s, const char *name, cp_status *st)
{
    phase_scope timed(CP_PHASE_RANGE_EDGES);
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_PushRange_Params, s->rp);
    p.pRangeName = name;
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerPushRange(&p));
    return CP_EXIT_OK;
}

int range_pop(cp_cupti_session *s, cp_status *st)
{
    phase_scope timed(CP_PHASE_RANGE_EDGES);
    auto p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_PopRange_Params, s->rp);
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerPopRange(&p));
    return CP_EXIT_OK;
}

// The kernels of one pass, inside a Start/Stop block: for each i, prepare(i) outside any range
// (its work has ended before the range opens), then run(i) inside range i (its work has ended
// before the range closes).
int pass_body(cp_cupti_session *s, size_t count, int (*prepare)(void *, size_t, cp_status *),
              int (*run)(void *, size_t, cp_status *), void *ctx, cp_status *st)
{
    for (size_t i = 0; i < count; i++) {
        if (prepare)
            CP_TRY(prepare(ctx, i, st));
        CP_TRY(cuda_sync(st));
        char name[32];
        std::snprintf(name, sizeof name, "cp%zu", i);
        CP_TRY(range_push(s, name, st));
        int rc = run(ctx, i, st);
        if (rc == CP_EXIT_OK)
            rc = cuda_sync(st);
        cp_status later; // a failure of PopRange after an earlier failure
        int pop = range_pop(s, rc == CP_EXIT_OK ? st : &later);
        CP_TRY(rc != CP_EXIT_OK ? rc : pop);
    }
    return CP_EXIT_OK;
}

// One pass: Start, the pass body, Stop (also after a failure; the first failure is reported).
int one_pass(cp_cupti_session *s, size_t count, int (*prepare)(void *, size_t, cp_status *),
             int (*run)(void *, size_t, cp_status *), void *ctx, bool *all_submitted, cp_status *st)
{
    *all_submitted = false;
    CP_TRY(range_start(s, st));
    int rc = pass_body(s, count, prepare, run, ctx, st);
    cp_status later;
    int stop = range_stop(s, all_submitted, rc == CP_EXIT_OK ? st : &later);
    return rc == CP_EXIT_OK ? stop : rc;
}

// Decodes the passes just submitted and evaluates ranges 0..count-1 into values.
int decode_and_evaluate(cp_cupti_session *s, size_t count, double *values, cp_status *st)
{
    auto dp = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_DecodeData_Params, s->rp);
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerDecodeData(&dp));
    if (dp.numOfRangeDropped > 0)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "CUPTI dropped %zu of %zu ranges (counter data image of %zu ranges)",
                             dp.numOfRangeDropped, count, s->max_ranges);

    auto ip = CP_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    ip.pCounterDataImage = s->counter_data.data();
    ip.counterDataImageSize = s->counter_data.size();
    CP_CUPTI_CHECK(st, g_cupti.cuptiRangeProfilerGetCounterDataInfo(&ip));
    if (ip.numTotalRanges != count)
        return cp_status_set(st, CP_EXIT_RUNTIME, "CUPTI recorded %zu ranges for %zu kernels",
                             (size_t)ip.numTotalRanges, count);

    std::vector<double> v(s->names.size(), NAN);
    for (size_t r = 0; r < count; r++) {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ep;
        cp_cupti_evaluate_params(&ep, s->host, s->counter_data.data(), s->counter_data.size(), r,
                                 s->names.data(), s->names.size(), v.data());
        CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerHostEvaluateToGpuValues(&ep));
        for (size_t i = 0; i < v.size(); i++)
            values[r * CP_CUPTI_VALUES + s->index[i]] = v[i];
    }
    return CP_EXIT_OK;
}

int profile_impl(cp_cupti_session *s, size_t count, int (*prepare)(void *, size_t, cp_status *),
                 int (*run)(void *, size_t, cp_status *), void *ctx, double *values, cp_status *st)
{
    {
        phase_scope timed(CP_PHASE_PASS_EDGES);
        if (s->needs_reconfigure)
            CP_TRY(reconfigure(s, st));
        CP_TRY(reset_image(s, st));
    }
    CP_CUDA_CHECK(st, cudaSetDevice(s->device));
    // A complete replay sequence; CUPTI ends it (isAllPassSubmitted) after s->passes passes.
    bool all_submitted = false;
    for (size_t pass = 0; !all_submitted; pass++) {
        int rc = pass > s->passes
                     ? cp_status_set(st, CP_EXIT_RUNTIME,
                                     "CUPTI did not finish after %zu passes (%zu expected)", pass,
                                     s->passes)
                     : one_pass(s, count, prepare, run, ctx, &all_submitted, st);
        if (rc != CP_EXIT_OK) {
            // After a Start, CUPTI's pass sequence and counter data image may be half filled:
            // re-arm before the next batch.
            s->needs_reconfigure = true;
            return rc;
        }
    }
    cp_phase_begin(CP_PHASE_DECODE);
    int rc = decode_and_evaluate(s, count, values, st);
    cp_phase_end();
    if (rc != CP_EXIT_OK)
        s->needs_reconfigure = true;
    return rc;
}

} // namespace

extern "C" {

unsigned cp_cupti_metric_group(int metric)
{
    return metric < 0 || metric >= CP_CUPTI_M_COUNT ? 0 : kMetrics[metric].group;
}

const char *cp_cupti_metric_name(int metric)
{
    return metric < 0 || metric >= CP_CUPTI_M_COUNT ? nullptr : kMetrics[metric].names[0];
}

const char *const *cp_cupti_metric_candidates(int metric)
{
    return metric < 0 || metric >= CP_CUPTI_M_COUNT ? nullptr : kMetrics[metric].names;
}

int cp_cupti_open(int device, size_t max_ranges, unsigned groups, const char *const *extra,
                  size_t nextra, cp_cupti_session **out, int *refused, cp_status *st)
{
    return open_session(device, max_ranges, groups, extra, nextra, out, refused, st);
}

const cp_cupti_plan *cp_cupti_session_plan(const cp_cupti_session *s)
{
    return s ? &s->plan : nullptr;
}

size_t cp_cupti_passes(const cp_cupti_session *s)
{
    return s ? s->passes : 0;
}

size_t cp_cupti_batch_capacity(const cp_cupti_session *s)
{
    return s ? s->max_ranges : 0;
}

int cp_cupti_profile_batch(cp_cupti_session *s, size_t count,
                           int (*prepare)(void *ctx, size_t i, cp_status *st),
                           int (*run)(void *ctx, size_t i, cp_status *st), void *ctx,
                           double *values, cp_status *st)
{
    if (values)
        for (size_t k = 0; k < count * CP_CUPTI_VALUES; k++)
            values[k] = NAN;
    if (!s || !run || !values || count == 0)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_cupti_profile_batch: session, run, values and a count are needed");
    if (count > s->max_ranges)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_cupti_profile_batch: %zu kernels, more than the session's %zu",
                             count, s->max_ranges);
    try {
        return profile_impl(s, count, prepare, run, ctx, values, st);
    } catch (const std::bad_alloc &) {
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_profile_batch: out of memory");
    } catch (...) {
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_cupti_profile_batch: unexpected C++ exception");
    }
}

void cp_cupti_close(cp_cupti_session *s)
{
    if (!s)
        return;
    cp_status ignored; // nothing to report at teardown
    (void)disable_profiler(s, &ignored);
    if (s->host) {
        auto hp = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, s->host);
        (void)g_cupti.cuptiProfilerHostDeinitialize(&hp);
        s->host = nullptr;
    }
    if (s->profiler_initialized) {
        profiler_release();
        s->profiler_initialized = false;
    }
    delete s;
}

int cp_cupti_plan_for_chip(const char *chip, unsigned groups, cp_cupti_plan *plan, cp_status *st)
{
    return cp_cupti_plan_for_chip_extra(chip, groups, nullptr, 0, plan, st);
}

int cp_cupti_plan_for_chip_extra(const char *chip, unsigned groups, const char *const *extra,
                                 size_t nextra, cp_cupti_plan *plan, cp_status *st)
{
    if (!chip || !plan)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_cupti_plan_for_chip: chip and plan are needed");
    *plan = cp_cupti_plan{};
    try {
        CP_TRY(load_cupti(nullptr, st));
        host_object host;
        CP_TRY(host_initialize(chip, nullptr, &host.obj, st));
        std::vector<const char *> names;
        std::vector<int> index;
        std::vector<uint8_t> config;
        std::vector<const char *> asked;
        for (size_t i = 0; extra && i < nextra && i < CP_CUPTI_EXTRA_MAX; i++)
            asked.push_back(extra[i]);
        return plan_metrics(host.obj, chip, groups, asked, plan, names, index, config, st);
    } catch (const std::bad_alloc &) {
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_plan_for_chip: out of memory");
    } catch (...) {
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_cupti_plan_for_chip: unexpected C++ exception");
    }
}

int cp_measure_cupti_refusal_text(int code, const char **cause, const char **fix)
{
    const char *c = nullptr, *f = nullptr;
    if (!refusal_text(static_cast<CUptiResult>(code), &c, &f))
        return 0;
    if (cause)
        *cause = c;
    if (fix)
        *fix = f;
    return 1;
}

void cp_cupti_plan_reason(const cp_cupti_plan *plan, int metric, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (!plan || metric < 0 || metric >= CP_CUPTI_M_COUNT || !len)
        return;
    if (plan->state[metric] == CP_CUPTI_NOT_ASKED) {
        const char *why = kMetrics[metric].group == CP_CUPTI_GROUP_SHARED
                              ? "the sweep's kernels use no shared memory"
                          : kMetrics[metric].group == CP_CUPTI_GROUP_PATH
                              ? "read for the readonly and async families only"
                              : "the sweep does not report it";
        std::snprintf(buf, len, "not read: %s (fewer profiler passes)", why);
    } else if (plan->state[metric] == CP_CUPTI_NOT_ON_CHIP) {
        std::string tried;
        for (const char *const *n = kMetrics[metric].names; *n; n++)
            tried += std::string(tried.empty() ? "" : " or ") + *n;
        std::snprintf(buf, len, "CUPTI has no %s on chip %s", tried.c_str(), plan->chip);
    }
}

int cp_cupti_supported_chips(const char *const **chips, size_t *count, cp_status *st)
{
    *chips = nullptr;
    *count = 0;
    CP_TRY(load_cupti(nullptr, st));
    auto p = CP_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
    CP_CUPTI_CHECK(st, g_cupti.cuptiProfilerHostGetSupportedChips(&p));
    *chips = p.ppChipNames;
    *count = p.numChips;
    return CP_EXIT_OK;
}

int cp_cupti_load(char *path, size_t len, cp_status *st)
{
    if (path && len)
        path[0] = '\0';
    int refused = 0;
    CP_TRY(load_cupti(&refused, st));
    if (!path || !len)
        return CP_EXIT_OK;
    Dl_info info{};
    void *sym = reinterpret_cast<void *>(g_cupti.cuptiGetVersion);
    if (dladdr(sym, &info) && info.dli_fname)
        std::snprintf(path, len, "%s", info.dli_fname);
    else
        std::snprintf(path, len, "%s", g_cupti_lib_name ? g_cupti_lib_name : "libcupti");
    return CP_EXIT_OK;
}

unsigned cp_cupti_version(void)
{
    cp_status ignored;
    uint32_t v = 0;
    if (load_cupti(nullptr, &ignored) != CP_EXIT_OK || g_cupti.cuptiGetVersion(&v) != CUPTI_SUCCESS)
        return 0;
    return v;
}

int cp_cupti_has_sass_metrics(void)
{
    cp_status ignored;
    if (load_cupti(nullptr, &ignored) != CP_EXIT_OK)
        return 0;
    // by name: the trace path (src/trace/) calls it; here only its presence matters
    return dlsym(g_cupti_lib, "cuptiSassMetricsSetConfig") != nullptr;
}

int cp_cupti_device_chip(int device, char *chip, size_t len, cp_status *st)
{
    if (chip && len)
        chip[0] = '\0';
    if (!chip || !len)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_cupti_device_chip: no buffer");
    CP_TRY(load_cupti(nullptr, st));
    CP_CUDA_CHECK(st, cudaSetDevice(device));
    CP_CUDA_CHECK(st, cudaFree(0));
    CUcontext ctx = nullptr;
    CUdevice dev = 0;
    CP_TRY(current_context(&ctx, &dev, st));
    CP_TRY(profiler_acquire(st));
    auto cn = CP_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    cn.deviceIndex = (size_t)dev;
    CUptiResult r = g_cupti.cuptiDeviceGetChipName(&cn);
    if (r == CUPTI_SUCCESS)
        std::snprintf(chip, len, "%s", cn.pChipName ? cn.pChipName : "");
    profiler_release(); // the chip name is what was asked
    CP_CUPTI_CHECK(st, r);
    return CP_EXIT_OK;
}

void cp_cupti_profiling_admin_only(char *buf, size_t len)
{
    read_admin_only(buf, len);
}

} // extern "C"
