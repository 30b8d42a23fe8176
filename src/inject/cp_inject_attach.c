/* cp_inject_attach.c: the injection library attached to a process already running, for a region
 * of it (the Python package's coalprobe.trace(), docs/python.md): coalprobe_attach runs the
 * set-up the CUDA driver runs at cuInit (InitializeInjection, its options read from the
 * environment the launcher would set) and adopts the contexts that exist already;
 * coalprobe_detach ends the trace as the process's exit would, then lets go of CUPTI so that the
 * process runs on untraced and may be attached again. The driver is reached through dlsym on
 * libcuda.so.1, never linked.
 *
 * What an attach cannot see: a context the program created with cuCtxCreate before the region
 * and that is not current on the attaching thread (only primary contexts can be found), and the
 * cubins of modules loaded before the region (their kernels have no source lines or opcodes);
 * what CUPTI cannot count for a kernel launched before the region is said per kernel by the
 * report (not counted), never a silent zero. */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cp_base.h"
#include "cp_inject_attach.h"
#include "cp_inject_python.h"
#include "cp_trace_raw.h"

#define CP_INJECT_EXPORT __attribute__((visibility("default")))
/* The contexts a detach waits for, at most (the library traces 256 at most). */
#define CP_INJECT_ATTACH_MAX_CONTEXTS 256

/* What an attach changed in the environment, put back by the detach. */
static struct {
    int attached;
    char *dir_before; /* COALPROBE_TRACE_DIR before the attach (NULL: unset) */
    int nvtx_set;     /* NVTX_INJECTION64_PATH set by the set-up (cp_inject_nvtx_connect) */
} cp_inject_attach;

/* The driver functions an attach and a detach call. */
typedef struct cp_inject_attach_driver {
    CUresult (*device_count)(int *);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*primary_state)(CUdevice, unsigned int *, int *);
    CUresult (*primary_retain)(CUcontext *, CUdevice);
    CUresult (*primary_release)(CUdevice);
    CUresult (*ctx_current)(CUcontext *);
    CUresult (*ctx_push)(CUcontext);
    CUresult (*ctx_pop)(CUcontext *);
    CUresult (*ctx_synchronize)(void);
} cp_inject_attach_driver;

static void cp_inject_attach_why(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cp_inject_attach_why(char *why, size_t n, const char *fmt, ...)
{
    if (!why || n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

/* The driver's functions from cuda (dlopened), by the names cuda.h maps them to. */
static void cp_inject_attach_find(void *cuda, cp_inject_attach_driver *d)
{
    static const struct {
        const char *name;
        size_t offset;
    } fns[] = {
        {"cuDeviceGetCount", offsetof(cp_inject_attach_driver, device_count)},
        {"cuDeviceGet", offsetof(cp_inject_attach_driver, device_get)},
        {"cuDevicePrimaryCtxGetState", offsetof(cp_inject_attach_driver, primary_state)},
        {"cuDevicePrimaryCtxRetain", offsetof(cp_inject_attach_driver, primary_retain)},
        {"cuDevicePrimaryCtxRelease_v2", offsetof(cp_inject_attach_driver, primary_release)},
        {"cuCtxGetCurrent", offsetof(cp_inject_attach_driver, ctx_current)},
        {"cuCtxPushCurrent_v2", offsetof(cp_inject_attach_driver, ctx_push)},
        {"cuCtxPopCurrent_v2", offsetof(cp_inject_attach_driver, ctx_pop)},
        {"cuCtxSynchronize", offsetof(cp_inject_attach_driver, ctx_synchronize)},
    };
    memset(d, 0, sizeof *d);
    for (size_t i = 0; i < CP_COUNT_OF(fns); i++) {
        void *p = cuda ? dlsym(cuda, fns[i].name) : NULL;
        memcpy((char *)d + fns[i].offset, &p, sizeof p); /* an object pointer to a function's */
    }
}

/* The text after "KEY\t" of the last record of type key in this process's raw file in dir, its
 * escaped tabs left as they are, into out; 0, or -1 when there is none. */
static int cp_inject_attach_last(const char *dir, const char *key, char *out, size_t n)
{
    char path[4200], line[2048];
    snprintf(path, sizeof path, "%s/%s%ld%s", dir, CP_TRACE_RAW_PREFIX, (long)getpid(),
             CP_TRACE_RAW_SUFFIX);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t klen = strlen(key);
    int found = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == '\t') {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, n, "%s", line + klen + 1);
            found = 0;
        }
    fclose(f);
    return found;
}

/* Why the set-up refused, from the raw file it wrote in dir: CUPTI's refusal (with the way out
 * when another tool holds CUPTI), the note of a missing driver, or the raw file not made. */
static void cp_inject_attach_refusal(const char *dir, char *why, size_t n)
{
    char rec[2048];
    if (cp_inject_attach_last(dir, "refused", rec, sizeof rec) == 0) {
        for (char *t = strchr(rec, '\t'); t; t = strchr(t, '\t'))
            *t = ' '; /* CALL CODE NAME MESSAGE */
        if (strstr(rec, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"))
            cp_inject_attach_why(why, n,
                                 "CUPTI refused coalprobe: another tool holds CUPTI in this "
                                 "process (torch.profiler, kineto, Nsight, another coalprobe): "
                                 "end its profiling first (%s)",
                                 rec);
        else
            cp_inject_attach_why(why, n, "CUPTI refused coalprobe: %s", rec);
    } else if (cp_inject_attach_last(dir, "note", rec, sizeof rec) == 0) {
        cp_inject_attach_why(why, n, "coalprobe could not attach: %s", rec);
    } else {
        cp_inject_attach_why(why, n,
                             "coalprobe could not create its raw file in %s (a file of this "
                             "process is there already, or the directory is not writable)",
                             dir);
    }
}

/* Sets up the contexts that exist: each device's primary context, where active, and the
 * context current on this thread; a note says what was adopted. */
static void cp_inject_attach_adopt_all(const cp_inject_attach_driver *d)
{
    int ndev = 0, adopted = 0;
    CUresult r = d->device_count ? d->device_count(&ndev) : CUDA_ERROR_NOT_FOUND;
    for (int i = 0; r == CUDA_SUCCESS && i < ndev; i++) {
        CUdevice dev;
        unsigned int flags = 0;
        int active = 0;
        CUcontext ctx = NULL;
        if (!d->device_get || d->device_get(&dev, i) != CUDA_SUCCESS || !d->primary_state ||
            d->primary_state(dev, &flags, &active) != CUDA_SUCCESS || !active ||
            !d->primary_retain || d->primary_retain(&ctx, dev) != CUDA_SUCCESS)
            continue;
        adopted += cp_inject_attach_adopt(ctx);
        if (d->primary_release)
            (void)d->primary_release(dev);
    }
    CUcontext current = NULL;
    if (r == CUDA_SUCCESS && d->ctx_current && d->ctx_current(&current) == CUDA_SUCCESS && current)
        adopted += cp_inject_attach_adopt(current); /* one cuCtxCreate made, where current */
    char note[600];
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        snprintf(note, sizeof note,
                 "attached to a running process before CUDA was initialised: its contexts are "
                 "set up as they are created");
    else
        snprintf(note, sizeof note,
                 "attached to a running process: %d context%s already there set up (the active "
                 "primary contexts and the one current on the attaching thread; one made with "
                 "cuCtxCreate and current on no such thread cannot be found); modules loaded "
                 "before the region have no cubin here, so their kernels have no source lines or "
                 "opcodes",
                 adopted, adopted == 1 ? "" : "s");
    cp_inject_attach_note(note);
}

/* Puts back what the attach changed in the environment. */
static void cp_inject_attach_restore_env(void)
{
    if (cp_inject_attach.dir_before)
        setenv(CP_TRACE_ENV_DIR, cp_inject_attach.dir_before, 1);
    else
        unsetenv(CP_TRACE_ENV_DIR);
    free(cp_inject_attach.dir_before);
    cp_inject_attach.dir_before = NULL;
    if (cp_inject_attach.nvtx_set)
        unsetenv("NVTX_INJECTION64_PATH");
    cp_inject_attach.nvtx_set = 0;
}

/* Attaches the library to this process: its raw file in raw_dir (a directory that holds none of
 * this process), the options from the environment (COALPROBE_TRACE_*, as coalprobe trace sets
 * them). 0 when attached; -1 with why filled when not (nothing stays attached then). Called with
 * the GIL held from Python (ctypes.PyDLL), the Python line of each launch is found from the
 * first launch of the region on. */
CP_INJECT_EXPORT int coalprobe_attach(const char *raw_dir, char *why, size_t why_size);
CP_INJECT_EXPORT int coalprobe_attach(const char *raw_dir, char *why, size_t why_size)
{
    struct stat st;
    if (!raw_dir || !raw_dir[0] || stat(raw_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cp_inject_attach_why(why, why_size, "coalprobe_attach: '%s' is not a directory",
                             raw_dir ? raw_dir : "(null)");
        return -1;
    }
    if (cp_inject_attach.attached || cp_inject_attach_state() != CP_INJECT_OFF) {
        cp_inject_attach_why(why, why_size,
                             "coalprobe traces this process already (a region not ended, or the "
                             "program runs under coalprobe trace)");
        return -1;
    }
    /* loading the driver's library initialises nothing: CUDA may start later in the region */
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!cuda) {
        const char *e = dlerror();
        cp_inject_attach_why(why, why_size,
                             "no CUDA driver: libcuda.so.1 cannot be loaded (%s); "
                             "coalprobe.trace() needs the NVIDIA driver and a GPU",
                             e ? e : "not found");
        return -1;
    }
    const char *before = getenv(CP_TRACE_ENV_DIR);
    cp_inject_attach.dir_before = before ? strdup(before) : NULL;
    int nvtx_before = getenv("NVTX_INJECTION64_PATH") != NULL;
    if (setenv(CP_TRACE_ENV_DIR, raw_dir, 1) != 0) {
        cp_inject_attach_restore_env();
        cp_inject_attach_why(why, why_size, "coalprobe_attach: setenv failed");
        return -1;
    }
    cp_inject_python_attach();
    int ok = InitializeInjection();
    cp_inject_attach.nvtx_set = !nvtx_before && getenv("NVTX_INJECTION64_PATH") != NULL;
    cp_inject_attach_driver d;
    cp_inject_attach_find(cuda, &d);
    if (ok)
        cp_inject_attach_adopt_all(&d);
    if (!ok || cp_inject_attach_state() != CP_INJECT_ON) {
        cp_inject_attach_refusal(raw_dir, why, why_size);
        cp_inject_attach_end(NULL);
        cp_inject_python_detach();
        cp_inject_attach_restore_env();
        return -1;
    }
    cp_inject_attach.attached = 1;
    return 0;
}

/* Ends the region: waits for the work of every traced context, then writes the end of the raw
 * file (an `interrupted` record first when interrupted is not NULL: why the region ended early,
 * e.g. an exception) and lets go of CUPTI. 0; -1 with why filled when nothing is attached. */
CP_INJECT_EXPORT int coalprobe_detach_interrupted(const char *interrupted, char *why,
                                                  size_t why_size);
CP_INJECT_EXPORT int coalprobe_detach_interrupted(const char *interrupted, char *why,
                                                  size_t why_size)
{
    if (!cp_inject_attach.attached) {
        cp_inject_attach_why(why, why_size,
                             "coalprobe_detach: nothing is attached (coalprobe_attach first)");
        return -1;
    }
    /* the region's kernels finish first: the flush takes what finished kernels counted. Waited
     * for outside the library's lock, which a launch on another thread may be waiting on. */
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    cp_inject_attach_driver d;
    cp_inject_attach_find(cuda, &d);
    CUcontext ctx[CP_INJECT_ATTACH_MAX_CONTEXTS], was = NULL;
    size_t n = cp_inject_attach_contexts(ctx, CP_COUNT_OF(ctx));
    for (size_t i = 0; i < n && d.ctx_push && d.ctx_pop && d.ctx_synchronize; i++)
        if (d.ctx_push(ctx[i]) == CUDA_SUCCESS) {
            (void)d.ctx_synchronize(); /* a failed wait: the flush takes what it can */
            (void)d.ctx_pop(&was);
        }
    cp_inject_attach_end(interrupted);
    cp_inject_python_detach();
    cp_inject_attach_restore_env();
    cp_inject_attach.attached = 0;
    return 0;
}

CP_INJECT_EXPORT int coalprobe_detach(char *why, size_t why_size);
CP_INJECT_EXPORT int coalprobe_detach(char *why, size_t why_size)
{
    return coalprobe_detach_interrupted(NULL, why, why_size);
}
