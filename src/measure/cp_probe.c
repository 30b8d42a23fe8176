/* cp_probe.c: what this machine offers coalprobe, asked without measuring anything: the CUDA
 * driver and runtime, CUPTI, NVRTC and cuBLAS, the counters of a chip, whether profiling is
 * allowed. `coalprobe doctor` and --version print it (src/app/cp_doctor.c). */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cp_measure.h"
#include "cp_cublas.h"
#include "cp_cupti.h"
#include "cp_rtc.h"

/* The cause of "no GPU" and its fix into st (cp_diagnose.c); the driver's own words when the
 * diagnosis finds a GPU after all. */
static int cp_probe_no_gpu(const char *said, cp_status *st)
{
    cp_gpu_facts f;
    cp_diagnose_read(&f);
    if (cp_diagnose_gpu(&f, st) == CP_GPU_OK) {
        cp_status_set(st, CP_EXIT_RUNTIME, "%s", said);
        cp_status_hint(st, "check nvidia-smi and CUDA_VISIBLE_DEVICES");
    }
    return CP_EXIT_RUNTIME;
}

int cp_probe_cuda(int *driver_version, int *runtime_version, int *devices, cp_status *st)
{
    *driver_version = *runtime_version = 0;
    if (devices)
        *devices = 0;
    CP_CUDA_CHECK(st, cudaRuntimeGetVersion(runtime_version));
    /* 0, and success, without a driver */
    CP_CUDA_CHECK(st, cudaDriverGetVersion(driver_version));
    if (*driver_version == 0)
        return cp_probe_no_gpu("the NVIDIA driver (libcuda.so.1) cannot be loaded", st);
    if (!devices)
        return CP_EXIT_OK;
    cudaError_t e = cudaGetDeviceCount(devices);
    if (e != cudaSuccess || *devices == 0) {
        *devices = 0;
        return cp_probe_no_gpu("the CUDA driver sees no GPU", st);
    }
    return CP_EXIT_OK;
}

int cp_probe_cupti(cp_probe_library *lib, int *sass_metrics, cp_status *st)
{
    memset(lib, 0, sizeof *lib);
    *sass_metrics = 0;
    CP_TRY(cp_cupti_load(lib->path, sizeof lib->path, st));
    unsigned v = cp_cupti_version();
    if (v)
        snprintf(lib->version, sizeof lib->version, "API %u", v);
    *sass_metrics = cp_cupti_has_sass_metrics();
    return CP_EXIT_OK;
}

int cp_probe_nvrtc(cp_probe_library *lib, cp_status *st)
{
    memset(lib, 0, sizeof *lib);
    CP_TRY(cp_rtc_probe(lib->path, sizeof lib->path, st));
    snprintf(lib->version, sizeof lib->version, "%s", cp_rtc_nvrtc_version());
    return CP_EXIT_OK;
}

int cp_probe_cublas(cp_probe_library *lib, cp_status *st)
{
    memset(lib, 0, sizeof *lib);
    return cp_cublas_probe(lib->path, sizeof lib->path, lib->version, sizeof lib->version, st);
}

int cp_probe_nvrtc_arch(int arch, cp_status *st)
{
    return cp_rtc_supports_arch(arch, st);
}

int cp_probe_counters_for_chip(const char *chip, cp_probe_counters *out, cp_status *st)
{
    memset(out, 0, sizeof *out);
    snprintf(out->chip, sizeof out->chip, "%s", chip);
    cp_cupti_plan all, global, shared;
    const unsigned base = CP_CUPTI_GROUP_GLOBAL | CP_CUPTI_GROUP_OCCUPANCY;
    CP_TRY(cp_cupti_plan_for_chip(chip, CP_CUPTI_GROUP_ALL, &all, st));
    CP_TRY(cp_cupti_plan_for_chip(chip, base, &global, st));
    CP_TRY(cp_cupti_plan_for_chip(chip, base | CP_CUPTI_GROUP_SHARED, &shared, st));
    out->metrics = CP_CUPTI_M_COUNT;
    out->read = all.nread;
    out->passes = global.passes;
    out->passes_shared = shared.passes;
    out->passes_path = all.passes;
    size_t used = 0;
    for (int m = 0; m < CP_CUPTI_M_COUNT; m++) {
        if (all.state[m] == CP_CUPTI_READ || used >= sizeof out->missing)
            continue;
        int w = snprintf(out->missing + used, sizeof out->missing - used, "%s%s", used ? ", " : "",
                         cp_cupti_metric_name(m));
        used += w > 0 ? (size_t)w : 0;
    }
    return CP_EXIT_OK;
}

int cp_probe_chips(const char *const **chips, size_t *count, cp_status *st)
{
    return cp_cupti_supported_chips(chips, count, st);
}

int cp_probe_device_chip(int device, char *chip, size_t len, cp_status *st)
{
    return cp_cupti_device_chip(device, chip, len, st);
}

int cp_probe_profiling(int device, cp_status *st)
{
    cp_cupti_session *s = NULL;
    int refused = 0;
    CP_TRY(cp_cupti_open(device, 1, CP_CUPTI_GROUP_ALL, NULL, 0, &s, &refused, st));
    cp_cupti_close(s);
    return CP_EXIT_OK;
}

void cp_probe_profiling_admin_only(char *buf, size_t len)
{
    cp_cupti_profiling_admin_only(buf, len);
}
