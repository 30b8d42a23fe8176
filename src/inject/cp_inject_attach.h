/* cp_inject_attach.h: what cp_inject.c lends cp_inject_attach.c, which attaches the injection
 * library to a process already running (coalprobe_attach and coalprobe_detach, the Python
 * package's coalprobe.trace()): the library's state, read and reset under its lock. Internal to
 * src/inject/. */
#ifndef CP_INJECT_ATTACH_H
#define CP_INJECT_ATTACH_H

#include <cuda.h>
#include <stddef.h>

/* InitializeInjection (cp_inject.c): the set-up the CUDA driver runs at cuInit, which an attach
 * runs too. */
__attribute__((visibility("default"))) int InitializeInjection(void);

/* What the library does in this process: not tracing, tracing, or tracing with collection
 * stopped (CUPTI refused or failed; a refused record says why). */
enum { CP_INJECT_OFF = 0, CP_INJECT_ON = 1, CP_INJECT_STOPPED = 2 };
int cp_inject_attach_state(void);

/* Sets up ctx, a context that existed before the library was attached, as the resource callback
 * does a context created while attached: made current on this thread for its set-up. 1 when it
 * is traced now, 0 when it was known already or is not traced (a refusal, or not tracing). */
int cp_inject_attach_adopt(CUcontext ctx);

/* The contexts the library traces now, at most max of them into out; their count. */
size_t cp_inject_attach_contexts(CUcontext *out, size_t max);

/* A note record, when the raw file is open. */
void cp_inject_attach_note(const char *text);

/* Ends the trace as the exit handler does (what live contexts hold written, the end record, the
 * raw file closed), with an `interrupted` record first when interrupted is not NULL; then the
 * SASS metrics and per-kernel counters of contexts left over turned off, the SASS configuration
 * of each device unset, CUPTI unsubscribed, and the state reset, so that the library may be
 * attached again and the exit handler writes nothing more. Harmless when not tracing. */
void cp_inject_attach_end(const char *interrupted);

#endif
