/* cp_trace.h: the trace layer's face: coalprobe trace -- PROGRAM. The launcher
 * (cp_trace_launch.h) runs the program with coalprobe's CUPTI injection library
 * (cp_inject.c, built as libcoalprobe_inject.so), which writes raw files (cp_trace_raw.h); the
 * report side reads them, ranks every memory instruction by the bytes it wastes and writes the
 * report and the gate. */
#ifndef CP_TRACE_H
#define CP_TRACE_H

#include "cp_trace_launch.h"
#include "cp_trace_raw.h"
#include "cp_trace_report.h"

/* coalprobe trace [OPTIONS] [--] PROGRAM [ARGS...]: argv[0] is "trace". Runs the program under
 * the injection library (or, with --from-raw DIR, reads recorded raw files), writes the report
 * and applies the gate. Returns the exit code: the program's when it is not 0 (128 + the signal
 * when it was killed), else 3 when the gate failed, else 0; 1 for coalprobe's own runtime
 * errors, 2 for usage errors (docs/trace.md). */
int cp_trace_main(int argc, char **argv);

#endif
