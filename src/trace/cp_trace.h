/* cp_trace.h: the trace layer's face: coalprobe trace -- PROGRAM. The launcher
 * (cp_trace_launch.h) runs the program with coalprobe's CUPTI injection library
 * (cp_inject.c, built as libcoalprobe_inject.so), which writes raw files (cp_trace_raw.h); the
 * report side reads them, ranks every memory instruction by the bytes it wastes and writes the
 * report and the gate. */
#ifndef CP_TRACE_H
#define CP_TRACE_H

#include "cp_trace_launch.h"
#include "cp_trace_raw.h"

#endif
