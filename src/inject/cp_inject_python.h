/* cp_inject_python.h: the injection library's view of the traced program's Python: the user's
 * frame (file, line, function) that made a kernel launch, found through CPython's C API looked up
 * at run time (never linked), interned as `frame` records (cp_trace_raw.h). */
#ifndef CP_INJECT_PYTHON_H
#define CP_INJECT_PYTHON_H

#include <stdint.h>
#include <stdio.h>

/* The most distinct sites, frames and NVTX range nodes a process records, each. */
#define CP_INJECT_WHERE_CAP 65536
/* The most frames of one stack recorded under COALPROBE_TRACE_PYTHON_STACK=1. */
#define CP_INJECT_PYTHON_STACK_MAX 64

/* What cp_inject_python_frame answers besides a frame ID (> 0): the FRAME field of a site. */
enum {
    CP_INJECT_FRAME_NOPYTHON = -1, /* "-": no Python in the process, or not running */
    CP_INJECT_FRAME_NOGIL = -2,    /* "nogil": the launching thread did not hold the GIL */
    CP_INJECT_FRAME_NONE = -3,     /* "none": Python, but every frame was skipped */
    CP_INJECT_FRAME_OVERFLOW = -4  /* "overflow": the frame could not be interned (caps) */
};

/* Finds a C API function by name; NULL when absent. The default is dlsym(RTLD_DEFAULT, name). */
typedef void *(*cp_inject_python_lookup)(const char *name);

/* Makes lookup the way C API functions are found (NULL: the default) and forgets what was
 * found and interned: for tests. */
void cp_inject_python_set_lookup(cp_inject_python_lookup lookup);

/* all_frames: record the innermost frame whatever it is (COALPROBE_TRACE_PYTHON_FRAMES=all);
 * whole_stack: record each frame's callers as its PARENT chain (COALPROBE_TRACE_PYTHON_STACK=1). */
void cp_inject_python_configure(int all_frames, int whole_stack);

/* Asks Python, once, to install the profile function that follows each thread's innermost user
 * frame (cp_inject_python.c), when the process runs Python: called when CUDA starts, so that the
 * first launches made without the GIL already find their frame. Callable without the GIL. */
void cp_inject_python_prepare(void);

/* Attaching to a running Python (coalprobe.trace(), cp_inject_attach.c): called before the
 * library's set-up. Where this thread holds the GIL (the package calls through ctypes.PyDLL), the
 * profile function is installed now, noting this thread's frames, so that the first launch of the
 * region finds its line; else, where an earlier region left it installed, it is asked to note
 * the frames again (Py_AddPendingCall). */
void cp_inject_python_attach(void);

/* Detaching (after the trace's end, cp_inject_python_free): where this thread holds the GIL, the
 * profile function is removed (Python's profile hook left empty) and this thread's noted frame
 * released; else it stays installed, doing nothing, until the next attach. */
void cp_inject_python_detach(void);

/* The calling thread's innermost recorded Python frame: its ID, the frame records of it and of
 * its recorded callers written to raw the first time they are named; or a CP_INJECT_FRAME_*
 * value. The caller serialises the calls (the injection library's lock). */
int64_t cp_inject_python_frame(FILE *raw);

/* 1 when file is the user's: not in the standard library, site-packages or dist-packages, and
 * not "<frozen ...>" or "<string>". */
int cp_inject_python_user_file(const char *file);

/* Releases what was interned (the code objects referenced stay referenced: Python may be gone). */
void cp_inject_python_free(void);

#endif
