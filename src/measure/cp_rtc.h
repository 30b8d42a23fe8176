/* cp_rtc.h: kernels compiled at run time: CUDA C++ to a CUBIN with NVRTC, loaded and launched. */
#ifndef CP_RTC_H
#define CP_RTC_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "base/cp_base.h"

/* libnvrtc is loaded with dlopen on the first call that needs it ("libnvrtc.so.<toolkit major>"
 * through the executable's RPATH, or the file named in COALPROBE_NVRTC_LIBRARY) and stays loaded;
 * a failed load is tried again on the next call. The loader and cp_rtc_nvrtc_version keep static
 * state: call them from one thread only. */

/* A loaded CUBIN and one kernel looked up in it. */
typedef struct cp_rtc_module cp_rtc_module;

/* Compiles the CUDA C++ source (name is its file name in messages, e.g. "coalprobe_expr.cu") with
 * NVRTC to a CUBIN for sm_<cc_major><cc_minor>, with the options --gpu-architecture=sm_XY and
 * -std=c++17 only (device optimisation, --dopt=on, is NVRTC's default without -G; no include
 * path is given: the source may include NVRTC's built-in headers only). Needs no GPU.
 * On success *cubin is a malloc'ed ELF image of *cubin_size bytes that the caller frees with
 * free(); on failure *cubin is NULL, *cubin_size 0, and the return is CP_EXIT_RUNTIME: for a
 * source that does not compile, st's message holds the NVRTC result name and the first lines of
 * the compile log, its hint what to do. */
int cp_rtc_compile(const char *source, const char *name, int cc_major, int cc_minor, void **cubin,
                   size_t *cubin_size, cp_status *st);

/* Loads a CUBIN from cp_rtc_compile (cudaLibraryLoadData: the image is copied, the caller may
 * free it afterwards) and looks up the extern "C" kernel kernel_name in it. *out is the module
 * (release it with cp_rtc_unload), NULL on failure. Needs a GPU and its driver. */
int cp_rtc_load(const void *cubin, const char *kernel_name, cp_rtc_module **out, cp_status *st);

/* Launches the module's kernel on a 1-D grid of 1-D blocks with cudaLaunchKernel: args points to
 * one pointer per kernel parameter, each to the parameter's value. Only launch errors are
 * reported: the kernel's own run is asynchronous. */
int cp_rtc_launch(cp_rtc_module *m, unsigned grid, unsigned block, size_t shared_bytes,
                  cudaStream_t stream, void **args, cp_status *st);

/* The module's kernel as the runtime's function handle (a cudaKernel_t, which
 * cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor accept as their
 * `func`); NULL for NULL. */
const void *cp_rtc_function(const cp_rtc_module *m);

/* NVRTC's version as "13.0", or "" when NVRTC cannot be loaded (a static buffer). */
const char *cp_rtc_nvrtc_version(void);

/* Loads NVRTC (no GPU needed) and writes the file it came from into path. CP_EXIT_RUNTIME with
 * the reason and a fix when it cannot be loaded. */
int cp_rtc_probe(char *path, size_t len, cp_status *st);

/* CP_EXIT_OK when NVRTC compiles for sm_<arch> (75 for sm_75); CP_EXIT_RUNTIME naming the
 * architectures it does compile for otherwise, or why NVRTC cannot be loaded. */
int cp_rtc_supports_arch(int arch, cp_status *st);

/* Unloads the module's library and frees it. NULL-safe. */
void cp_rtc_unload(cp_rtc_module *m);

#endif
