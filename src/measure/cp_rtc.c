/* cp_rtc.c: kernels compiled at run time: NVRTC (dlopened on first use) to a CUBIN, which the
 * CUDA runtime's library API loads and launches (cudaLibrary*, no libcuda link).
 * libnvrtc is not linked: only the commands that compile a kernel pay for loading it, and a
 * machine without it still runs everything else. */
#define _GNU_SOURCE /* dladdr */
#include "cp_rtc.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvrtc.h> /* types only */

/* The NVRTC functions coalprobe calls, named as NVRTC exports them (so that a failed call's
 * text in a message names the function). */
typedef struct cp_rtc_nvrtc_api {
    void *lib;
    const char *(*nvrtcGetErrorString)(nvrtcResult);
    nvrtcResult (*nvrtcVersion)(int *, int *);
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int *);
    nvrtcResult (*nvrtcGetSupportedArchs)(int *);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                      const char *const *, const char *const *);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);
} cp_rtc_nvrtc_api;

/* Loaded once per process (lib non-NULL once every function was found); not thread-safe. */
static cp_rtc_nvrtc_api g_nvrtc;

struct cp_rtc_module {
    cudaLibrary_t library;
    cudaKernel_t kernel;
};

/* CP_NVRTC_CHECK(st, call): evaluates an NVRTC call; on failure records the call, NVRTC's name
 * for the result and file:line in st and returns CP_EXIT_RUNTIME from the caller. */
#define CP_NVRTC_CHECK(st, call)                                                                   \
    CP_CHECK_RESULT(st, nvrtcResult, NVRTC_SUCCESS, #call, call, "%s",                             \
                    g_nvrtc.nvrtcGetErrorString(cp_result_))

/* Loads libnvrtc and looks up every function of g_nvrtc, unless that was done already (under
 * a lock: the workers of a run over several GPUs may ask at once). */
static int cp_rtc_load_nvrtc_locked(cp_status *st);
static pthread_mutex_t cp_rtc_lock = PTHREAD_MUTEX_INITIALIZER;
static int cp_rtc_load_nvrtc(cp_status *st)
{
    pthread_mutex_lock(&cp_rtc_lock);
    int rc = cp_rtc_load_nvrtc_locked(st);
    pthread_mutex_unlock(&cp_rtc_lock);
    return rc;
}

static int cp_rtc_load_nvrtc_locked(cp_status *st)
{
    if (g_nvrtc.lib)
        return CP_EXIT_OK;
    const char *lib_name =
        cp_dl_name("COALPROBE_NVRTC_LIBRARY", "libnvrtc.so." CP_NVRTC_SONAME_MAJOR);
    cp_rtc_nvrtc_api api = {0};
    const cp_dl_symbol syms[] = {
        {(void **)&api.nvrtcGetErrorString, "nvrtcGetErrorString"},
        {(void **)&api.nvrtcVersion, "nvrtcVersion"},
        {(void **)&api.nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs"},
        {(void **)&api.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs"},
        {(void **)&api.nvrtcCreateProgram, "nvrtcCreateProgram"},
        {(void **)&api.nvrtcDestroyProgram, "nvrtcDestroyProgram"},
        {(void **)&api.nvrtcCompileProgram, "nvrtcCompileProgram"},
        {(void **)&api.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"},
        {(void **)&api.nvrtcGetProgramLog, "nvrtcGetProgramLog"},
        {(void **)&api.nvrtcGetCUBINSize, "nvrtcGetCUBINSize"},
        {(void **)&api.nvrtcGetCUBIN, "nvrtcGetCUBIN"},
    };
    const char *missing;
    api.lib = cp_dl_load(lib_name, syms, CP_COUNT_OF(syms), &missing);
    if (!api.lib && !missing) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot load NVRTC: %s", dlerror());
        cp_status_hint(st, "install the CUDA Toolkit's NVRTC (libnvrtc.so." CP_NVRTC_SONAME_MAJOR
                           "), add its directory to LD_LIBRARY_PATH, or name the library in "
                           "COALPROBE_NVRTC_LIBRARY");
        return CP_EXIT_RUNTIME;
    }
    if (!api.lib) {
        cp_status_set(st, CP_EXIT_RUNTIME, "cannot load NVRTC: %s has no %s", lib_name, missing);
        cp_status_hint(st, "COALPROBE_NVRTC_LIBRARY or LD_LIBRARY_PATH must lead to the "
                           "CUDA Toolkit's libnvrtc.so." CP_NVRTC_SONAME_MAJOR);
        return CP_EXIT_RUNTIME;
    }
    g_nvrtc = api;
    return CP_EXIT_OK;
}

/* Refuses an architecture (sm_XY as the number XY) that NVRTC does not list, naming those it
 * does; an NVRTC that lists none, or implausibly many, is left to the compilation to judge. */
static int cp_rtc_check_arch(const char *name, int arch, cp_status *st)
{
    int n = 0;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetNumSupportedArchs(&n));
    int archs[64];
    if (n < 1 || n > (int)(CP_COUNT_OF(archs)))
        return CP_EXIT_OK;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetSupportedArchs(archs));
    for (int i = 0; i < n; i++)
        if (archs[i] == arch)
            return CP_EXIT_OK;
    int maj = 0, min = 0;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcVersion(&maj, &min));
    cp_status_set(st, CP_EXIT_RUNTIME, "cannot compile %s for sm_%d: NVRTC %d.%d compiles for",
                  name, arch, maj, min);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(st->message);
        snprintf(st->message + len, sizeof st->message - len, " sm_%d", archs[i]);
    }
    cp_status_hint(st, "use a CUDA Toolkit whose NVRTC supports this GPU");
    return CP_EXIT_RUNTIME;
}

/* The program's compile log as a malloc'ed string in *log. */
static int cp_rtc_program_log(nvrtcProgram prog, char **log, cp_status *st)
{
    size_t size = 0;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetProgramLogSize(prog, &size));
    *log = malloc(size + 1);
    if (!*log)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    (*log)[0] = (*log)[size] = '\0';
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetProgramLog(prog, *log));
    return CP_EXIT_OK;
}

/* Appends the non-blank lines of log to msg (capacity cap), each on a line of its own indented
 * by two spaces, as many whole lines as fit (at least part of the first); "  [...]" ends a log
 * that did not fit. */
static void cp_rtc_append_log(char *msg, size_t cap, const char *log)
{
    static const char more[] = "\n  [...]";
    size_t len = strlen(msg), budget = cap - 1 - (sizeof more - 1); /* room kept for more */
    int first = 1;
    for (const char *p = log; *p;) {
        size_t n = strcspn(p, "\n"), end = n;
        const char *next = p + n + (p[n] == '\n');
        while (end > 0 && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r'))
            end--;
        if (end == 0) {
            p = next;
            continue;
        }
        if (len + 3 + end > budget) {
            if (first && len + 3 < budget) {
                snprintf(msg + len, cap - len, "\n  %.*s", (int)(budget - len - 3), p);
                len = strlen(msg);
            }
            snprintf(msg + len, cap - len, "%s", more);
            return;
        }
        snprintf(msg + len, cap - len, "\n  %.*s", (int)end, p);
        len += 3 + end;
        first = 0;
        p = next;
    }
}

/* Records a failed nvrtcCompileProgram (result r) with the first lines of its log. */
static int cp_rtc_compile_failure(nvrtcProgram prog, const char *name, int arch, nvrtcResult r,
                                  cp_status *st)
{
    cp_status log_st;
    cp_status_clear(&log_st);
    char *log = NULL;
    int log_rc = cp_rtc_program_log(prog, &log, &log_st);
    cp_status_set(st, CP_EXIT_RUNTIME, "cannot compile %s for sm_%d: nvrtcCompileProgram: %s", name,
                  arch, g_nvrtc.nvrtcGetErrorString(r));
    if (log_rc == CP_EXIT_OK) {
        cp_rtc_append_log(st->message, sizeof st->message, log);
    } else {
        size_t len = strlen(st->message);
        snprintf(st->message + len, sizeof st->message - len, " (no log: %s)", log_st.message);
    }
    free(log);
    if (r == NVRTC_ERROR_COMPILATION)
        cp_status_hint(st,
                       "correct %s at the line the log names (for a source that coalprobe "
                       "generated, this is a bug: please report it)",
                       name);
    else
        cp_status_hint(st,
                       "NVRTC %s refused to compile for sm_%d: check the CUDA Toolkit "
                       "installation and that it supports this GPU",
                       cp_rtc_nvrtc_version(), arch);
    return CP_EXIT_RUNTIME;
}

/* Compiles prog and copies its CUBIN to *cubin (malloc'ed, which the caller frees whatever the
 * result) and *cubin_size. */
static int cp_rtc_build(nvrtcProgram prog, const char *name, int arch, void **cubin,
                        size_t *cubin_size, cp_status *st)
{
    char arch_option[48];
    snprintf(arch_option, sizeof arch_option, "--gpu-architecture=sm_%d", arch);
    const char *options[] = {arch_option, "-std=c++17"};
    nvrtcResult r = g_nvrtc.nvrtcCompileProgram(prog, (int)(CP_COUNT_OF(options)), options);
    if (r != NVRTC_SUCCESS)
        return cp_rtc_compile_failure(prog, name, arch, r, st);
    size_t size = 0;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetCUBINSize(prog, &size));
    if (size == 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "NVRTC gave an empty CUBIN for %s", name);
    *cubin = malloc(size);
    if (!*cubin)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcGetCUBIN(prog, *cubin));
    *cubin_size = size;
    return CP_EXIT_OK;
}

static int cp_rtc_destroy_program(nvrtcProgram *prog, cp_status *st)
{
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcDestroyProgram(prog));
    return CP_EXIT_OK;
}

int cp_rtc_compile(const char *source, const char *name, int cc_major, int cc_minor, void **cubin,
                   size_t *cubin_size, cp_status *st)
{
    if (cubin)
        *cubin = NULL;
    if (cubin_size)
        *cubin_size = 0;
    if (!source || !name || !cubin || !cubin_size)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_rtc_compile: missing argument");
    if (cc_major < 1 || cc_major > 99 || cc_minor < 0 || cc_minor > 9)
        return cp_status_set(st, CP_EXIT_RUNTIME, "compute capability %d.%d has no sm_ name",
                             cc_major, cc_minor);
    int arch = cc_major * 10 + cc_minor;
    CP_TRY(cp_rtc_load_nvrtc(st));
    CP_TRY(cp_rtc_check_arch(name, arch, st));
    nvrtcProgram prog = NULL;
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL));
    int rc = cp_rtc_build(prog, name, arch, cubin, cubin_size, st);
    if (rc == CP_EXIT_OK)
        rc = cp_rtc_destroy_program(&prog, st);
    else
        g_nvrtc.nvrtcDestroyProgram(&prog); /* the first error is the one to report */
    if (rc != CP_EXIT_OK) {
        free(*cubin);
        *cubin = NULL;
        *cubin_size = 0;
    }
    return rc;
}

static int cp_rtc_load_library(cp_rtc_module *m, const void *cubin, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaLibraryLoadData(&m->library, cubin, NULL, NULL, 0, NULL, NULL, 0));
    return CP_EXIT_OK;
}

static int cp_rtc_get_kernel(cp_rtc_module *m, const char *kernel_name, cp_status *st)
{
    CP_CUDA_CHECK(st, cudaLibraryGetKernel(&m->kernel, m->library, kernel_name));
    return CP_EXIT_OK;
}

int cp_rtc_load(const void *cubin, const char *kernel_name, cp_rtc_module **out, cp_status *st)
{
    if (out)
        *out = NULL;
    if (!cubin || !kernel_name || !out)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_rtc_load: missing argument");
    cp_rtc_module *m = calloc(1, sizeof *m);
    if (!m)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    int rc = cp_rtc_load_library(m, cubin, st);
    if (rc != CP_EXIT_OK) {
        cp_status_hint(st,
                       "a kernel compiled at run time needs a GPU, a driver for CUDA %d and "
                       "a CUBIN compiled for that GPU's compute capability",
                       CUDART_VERSION / 1000);
    } else {
        rc = cp_rtc_get_kernel(m, kernel_name, st);
        if (rc != CP_EXIT_OK)
            cp_status_hint(st, "the source must define extern \"C\" __global__ void %s(...)",
                           kernel_name);
    }
    if (rc != CP_EXIT_OK) {
        cp_rtc_unload(m);
        return rc;
    }
    *out = m;
    return CP_EXIT_OK;
}

int cp_rtc_launch(cp_rtc_module *m, unsigned grid, unsigned block, size_t shared_bytes,
                  cudaStream_t stream, void **args, cp_status *st)
{
    if (!m || !m->kernel)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cp_rtc_launch: no kernel loaded");
    dim3 grid_dim = {.x = grid, .y = 1, .z = 1}, block_dim = {.x = block, .y = 1, .z = 1};
    /* a cudaKernel_t stands for the kernel's function pointer here (cuda_runtime_api.h's
     * note_cudaKernel_t) */
    CP_CUDA_CHECK(st, cudaLaunchKernel((const void *)m->kernel, grid_dim, block_dim, args,
                                       shared_bytes, stream));
    return CP_EXIT_OK;
}

const void *cp_rtc_function(const cp_rtc_module *m)
{
    return m ? (const void *)m->kernel : NULL;
}

static int cp_rtc_query_version(int *maj, int *min, cp_status *st)
{
    CP_TRY(cp_rtc_load_nvrtc(st));
    CP_NVRTC_CHECK(st, g_nvrtc.nvrtcVersion(maj, min));
    return CP_EXIT_OK;
}

const char *cp_rtc_nvrtc_version(void)
{
    static char version[32];
    cp_status st;
    cp_status_clear(&st);
    int maj = 0, min = 0;
    if (cp_rtc_query_version(&maj, &min, &st) != CP_EXIT_OK)
        version[0] = '\0';
    else
        snprintf(version, sizeof version, "%d.%d", maj, min);
    return version;
}

int cp_rtc_probe(char *path, size_t len, cp_status *st)
{
    if (len)
        path[0] = '\0';
    CP_TRY(cp_rtc_load_nvrtc(st));
    Dl_info info;
    if (len && dladdr((void *)g_nvrtc.nvrtcVersion, &info) && info.dli_fname)
        snprintf(path, len, "%s", info.dli_fname);
    return CP_EXIT_OK;
}

int cp_rtc_supports_arch(int arch, cp_status *st)
{
    CP_TRY(cp_rtc_load_nvrtc(st));
    return cp_rtc_check_arch("kernels", arch, st);
}

void cp_rtc_unload(cp_rtc_module *m)
{
    if (!m)
        return;
    /* nothing to report a failure to: a library that cannot be unloaded (a context already
     * broken) is released with the process */
    if (m->library)
        (void)cudaLibraryUnload(m->library);
    free(m);
}
