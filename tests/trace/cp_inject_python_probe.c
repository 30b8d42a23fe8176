/* cp_inject_python_probe.c: the injection library's Python frame reader (cp_inject_python.c)
 * as a shared library a real CPython loads through ctypes, so that tests/trace/inject_python.py
 * can hold it to a real interpreter without a GPU: cp_probe_launch plays a kernel launch (with
 * the GIL released when called through ctypes.CDLL, held through ctypes.PyDLL) and answers the
 * frame ID the launch would be filed under; the frame records go to the file cp_probe_open names;
 * cp_probe_prepare plays CUDA's start (InitializeInjection), which asks for the profile hook.
 */
#include <stdint.h>
#include <stdio.h>

#include "inject/cp_inject_python.h"

#define CP_PROBE_API __attribute__((visibility("default")))
CP_PROBE_API int cp_probe_open(const char *path);
CP_PROBE_API int64_t cp_probe_launch(void);
CP_PROBE_API void cp_probe_prepare(void);

static FILE *cp_probe_raw;

/* Opens the file the frame records are written to. 0, or -1. */
int cp_probe_open(const char *path)
{
    cp_probe_raw = fopen(path, "w");
    return cp_probe_raw ? 0 : -1;
}

/* A launch: the frame ID, or a CP_INJECT_FRAME_* value (-2: no GIL and no line noted). */
int64_t cp_probe_launch(void)
{
    int64_t id = cp_inject_python_frame(cp_probe_raw);
    if (cp_probe_raw)
        fflush(cp_probe_raw);
    return id;
}

/* What InitializeInjection does for Python: the profile hook asked for before any launch. */
void cp_probe_prepare(void)
{
    cp_inject_python_prepare();
}
