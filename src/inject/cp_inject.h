/* cp_inject.h: the injection library's face: what the rest of coalprobe knows of the library
 * that runs inside a traced program (libcoalprobe_inject.so, built from this folder and base's
 * libc-only pieces): the raw files it writes (cp_trace_raw.h) and the lock it holds while it
 * writes one (cp_trace_lock.h), the one contract between the two halves of coalprobe trace.
 * Depends on nothing of coalprobe but base. */
#ifndef CP_INJECT_H
#define CP_INJECT_H

#include "cp_trace_lock.h"
#include "cp_trace_raw.h"

#endif
