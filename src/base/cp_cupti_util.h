/* cp_cupti_util.h: what coalprobe's two CUPTI users share: the Range Profiler of the measure
 * layer (src/measure/cp_cupti.cpp, CUPTI loaded with dlopen) and the injection library inside a
 * traced program (src/inject/, linked with libcupti). The check macro, zeroed parameter
 * structs, the config image of a set of metrics and the size of its counter data image, the
 * evaluation of a decoded range, the names of a CUptiResult, and the per-kernel
 * metrics that the injection library counts and the trace reader reads. Header-only, with nothing
 * but libc and CUPTI's own headers, so that the injection library builds it too. Not part of
 * cp_base.h: only code that talks to CUPTI includes it. */
#ifndef CP_CUPTI_UTIL_H
#define CP_CUPTI_UTIL_H

#include <cupti_result.h>
#include <stddef.h>

/* CP_CUPTI_ON_ERROR(call, on_error...): evaluates a CUPTI call; when it does not return
 * CUPTI_SUCCESS, runs the statements on_error (commas allowed), in which cp_cupti_result_ is the
 * result. Callers
 * wrap it in a macro of their own that names the call (#call) and where it failed (__FILE__,
 * __LINE__), and says what a failure does there (return a status, record a refusal, a note). */
#define CP_CUPTI_ON_ERROR(call, ...)                                                               \
    do {                                                                                           \
        CUptiResult cp_cupti_result_ = (call);                                                     \
        if (cp_cupti_result_ != CUPTI_SUCCESS) {                                                   \
            __VA_ARGS__;                                                                           \
        }                                                                                          \
    } while (0)

/* CP_CUPTI_PARAMS(type): a CUPTI parameter struct, zeroed, with structSize set from
 * type##_STRUCT_SIZE (the size of the struct of the CUPTI headers compiled against, so that a
 * newer library sees only the fields this code knows). */
#ifdef __cplusplus
template <class T> static inline T cp_cupti_params(size_t struct_size)
{
    T p{};
    p.structSize = struct_size;
    return p;
}
#define CP_CUPTI_PARAMS(type) cp_cupti_params<type>(type##_STRUCT_SIZE)
#else
#define CP_CUPTI_PARAMS(type) ((type){.structSize = type##_STRUCT_SIZE})
#endif

#ifdef __cplusplus
/* C++ only, as CUPTI's profiler host header is. */
#include <cstdint>
#include <cupti_profiler_host.h>

#include <cupti_range_profiler.h>
#include <vector>

/* CP_CUPTI_RANGE_PARAMS(type, rp), CP_CUPTI_HOST_PARAMS(type, host): the parameters of a call on
 * a Range Profiler object (pRangeProfilerObject) or a profiler host object (pHostObject), with
 * that object set and the rest as CP_CUPTI_PARAMS leaves them. */
template <class T, class O, class V>
static inline T cp_cupti_params_on(size_t struct_size, O T::*object, V value)
{
    T p = cp_cupti_params<T>(struct_size);
    p.*object = value;
    return p;
}
#define CP_CUPTI_RANGE_PARAMS(type, rp)                                                            \
    cp_cupti_params_on<type>(type##_STRUCT_SIZE, &type::pRangeProfilerObject, rp)
#define CP_CUPTI_HOST_PARAMS(type, host)                                                           \
    cp_cupti_params_on<type>(type##_STRUCT_SIZE, &type::pHostObject, host)

/* *p: the parameters of cuptiProfilerHostEvaluateToGpuValues (linked or loaded with dlopen)
 * that evaluate range `range` of a decoded counter data image (image, size bytes) into values,
 * one per metric of names[nnames], in that order. */
static inline void cp_cupti_evaluate_params(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p,
                                            CUpti_Profiler_Host_Object *host, const uint8_t *image,
                                            size_t size, size_t range, const char **names,
                                            size_t nnames, double *values)
{
    *p = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, host);
    p->pCounterDataImage = image;
    p->counterDataImageSize = size;
    p->rangeIndex = range;
    p->ppMetricNames = names;
    p->numMetrics = nnames;
    p->pMetricValues = values;
}

/* *p: the parameters of cuptiRangeProfilerSetConfig that give rp its config image and counter
 * data image, one level of ranges, max_ranges of them a pass, from the first pass; the caller
 * sets the range and replay modes. */
static inline void cp_cupti_set_config_params(CUpti_RangeProfiler_SetConfig_Params *p,
                                              CUpti_RangeProfiler_Object *rp, const uint8_t *config,
                                              size_t config_size, uint8_t *image, size_t image_size,
                                              size_t max_ranges)
{
    *p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_SetConfig_Params, rp);
    p->configSize = config_size;
    p->pConfig = config;
    p->counterDataImageSize = image_size;
    p->pCounterDataImage = image;
    p->maxRangesPerPass = max_ranges;
    p->numNestingLevels = 1;
    p->minNestingLevel = 1;
    p->passIndex = 0;
    p->targetNestingLevel = 1;
}

/* *p: the parameters of cuptiRangeProfilerGetCounterDataSize for rp's counter data image of the
 * metrics names[nnames], max_ranges ranges (and as many nodes of the range tree). */
static inline void
cp_cupti_counter_data_size_params(CUpti_RangeProfiler_GetCounterDataSize_Params *p,
                                  CUpti_RangeProfiler_Object *rp, const char **names, size_t nnames,
                                  size_t max_ranges)
{
    *p = CP_CUPTI_RANGE_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, rp);
    p->pMetricNames = names;
    p->numMetrics = nnames;
    p->maxNumOfRanges = max_ranges;
    p->maxNumRangeTreeNodes = (uint32_t)max_ranges;
}

/* The functions of CUPTI's profiler host that build a config image, for a caller that links
 * them (the injection library: {&cuptiProfilerHostConfigAddMetrics, ...}); measure passes its
 * table of the functions loaded with dlopen, whose members have the same names. */
struct cp_cupti_config_api {
    decltype(&::cuptiProfilerHostConfigAddMetrics) cuptiProfilerHostConfigAddMetrics;
    decltype(&::cuptiProfilerHostGetConfigImageSize) cuptiProfilerHostGetConfigImageSize;
    decltype(&::cuptiProfilerHostGetConfigImage) cuptiProfilerHostGetConfigImage;
    decltype(&::cuptiProfilerHostGetNumOfPasses) cuptiProfilerHostGetNumOfPasses;
};

/* Adds the metrics names to host, builds their config image into config and counts its replay
 * passes into *passes, through api's functions. CUPTI_SUCCESS, or the result of the call that
 * failed, with *failed the call ("api.cuptiProfilerHostGetConfigImage(&gp)"). */
template <class Api>
static inline CUptiResult cp_cupti_build_config(const Api &api, CUpti_Profiler_Host_Object *host,
                                                std::vector<const char *> &names,
                                                std::vector<uint8_t> &config, size_t *passes,
                                                const char **failed)
{
#define CP_CUPTI_CONFIG_CALL(call) CP_CUPTI_ON_ERROR(call, *failed = #call; return cp_cupti_result_)
    auto ap = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, host);
    ap.ppMetricNames = names.data();
    ap.numMetrics = names.size();
    CP_CUPTI_CONFIG_CALL(api.cuptiProfilerHostConfigAddMetrics(&ap));

    auto sp = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, host);
    CP_CUPTI_CONFIG_CALL(api.cuptiProfilerHostGetConfigImageSize(&sp));
    config.assign(sp.configImageSize, 0);

    auto gp = CP_CUPTI_HOST_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, host);
    gp.configImageSize = config.size();
    gp.pConfigImage = config.data();
    CP_CUPTI_CONFIG_CALL(api.cuptiProfilerHostGetConfigImage(&gp));

    auto np = CP_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    np.configImageSize = config.size();
    np.pConfigImage = config.data();
    CP_CUPTI_CONFIG_CALL(api.cuptiProfilerHostGetNumOfPasses(&np));
    *passes = np.numOfPasses;
    return CUPTI_SUCCESS;
#undef CP_CUPTI_CONFIG_CALL
}
#endif

/* cuptiGetResultString's type, for a copy of CUPTI that is linked or loaded with dlopen. */
typedef CUptiResult (*cp_cupti_result_string_fn)(CUptiResult, const char **);

/* CUPTI's text for r, through get (NULL when CUPTI is not loaded); "unknown CUPTI error" when
 * there is none. */
static inline const char *cp_cupti_result_text(cp_cupti_result_string_fn get, CUptiResult r)
{
    const char *s = NULL;
    if (!get || get(r, &s) != CUPTI_SUCCESS || !s)
        return "unknown CUPTI error";
    return s;
}

/* The enumerator name of r for the results that refuse profiling or say how it failed
 * ("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), "CUPTI_ERROR" for any other. */
static inline const char *cp_cupti_result_enum(CUptiResult r)
{
    switch (r) {
#define CP_CUPTI_RESULT_CASE(name)                                                                 \
    case name:                                                                                     \
        return #name;
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_NOT_INITIALIZED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_INVALID_DEVICE)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_INVALID_CONTEXT)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_INVALID_OPERATION)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED)
        CP_CUPTI_RESULT_CASE(CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED)
#undef CP_CUPTI_RESULT_CASE
    default:
        return "CUPTI_ERROR";
    }
}

/* The per-kernel metrics of coalprobe trace, X(ID, NAME) each, in the order of the raw trace's
 * kernel_metrics record (cp_trace_raw.h): the injection library counts them in this order, the
 * trace reader finds each column by its name. */
#define CP_CUPTI_KERNEL_METRICS(X)                                                                 \
    X(GLOBAL_LD_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")                       \
    X(GLOBAL_ST_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")                       \
    X(GLOBAL_LD_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")                         \
    X(GLOBAL_ST_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")                         \
    X(GLOBAL_LD_BYTES, "smsp__sass_data_bytes_mem_global_op_ld.sum")                               \
    X(GLOBAL_ST_BYTES, "smsp__sass_data_bytes_mem_global_op_st.sum")                               \
    X(SHARED_LD_REQUESTS, "smsp__inst_executed_op_shared_ld.sum")                                  \
    X(SHARED_ST_REQUESTS, "smsp__inst_executed_op_shared_st.sum")                                  \
    X(SHARED_LD_WAVEFRONTS, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")                \
    X(SHARED_ST_WAVEFRONTS, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")                \
    X(SHARED_LD_CONFLICTS, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")             \
    X(SHARED_ST_CONFLICTS, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")             \
    X(GLOBAL_LD_INSTRUCTIONS, "smsp__inst_executed_op_global_ld.sum")                              \
    X(GLOBAL_ST_INSTRUCTIONS, "smsp__inst_executed_op_global_st.sum")                              \
    X(DURATION, "gpu__time_duration.sum")                                                          \
    X(LOCAL_SECTORS, "smsp__sass_sectors_mem_local.sum")                                           \
    X(TMA_LD_SECTORS, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum")                 \
    X(TMA_ST_SECTORS, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum")

enum {
#define CP_CUPTI_KERNEL_METRIC_ID(id, name) CP_CUPTI_KM_##id,
    CP_CUPTI_KERNEL_METRICS(CP_CUPTI_KERNEL_METRIC_ID)
#undef CP_CUPTI_KERNEL_METRIC_ID
        CP_CUPTI_KM_COUNT
};

/* The name of per-kernel metric m (CP_CUPTI_KM_*), or NULL. */
static inline const char *cp_cupti_kernel_metric_name(int m)
{
    static const char *const names[CP_CUPTI_KM_COUNT] = {
#define CP_CUPTI_KERNEL_METRIC_NAME(id, name) name,
        CP_CUPTI_KERNEL_METRICS(CP_CUPTI_KERNEL_METRIC_NAME)
#undef CP_CUPTI_KERNEL_METRIC_NAME
    };
    return m >= 0 && m < CP_CUPTI_KM_COUNT ? names[m] : NULL;
}

#endif
