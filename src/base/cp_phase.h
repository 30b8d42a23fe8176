/* cp_phase.h: where a run's wall time goes (--verbose): named phases timed with a monotonic
 * clock, nested without counting time twice (a phase's own time excludes the phases begun
 * inside it), printed with "other" for what no phase covered. One table per process, used from
 * the main thread only. */
#ifndef CP_PHASE_H
#define CP_PHASE_H

#include <stdio.h>

typedef enum {
    CP_PHASE_PLAN,           /* the command line and the configurations */
    CP_PHASE_MODEL,          /* predicting every configuration */
    CP_PHASE_DRIVER,         /* the CUDA driver's start (cuInit) and the device count */
    CP_PHASE_CONTEXT,        /* the device's primary CUDA context (cudaSetDevice, cudaFree(0)) */
    CP_PHASE_DEVICE,         /* the device's facts: properties, attributes, driver release */
    CP_PHASE_KERNEL_IMAGE,   /* coalprobe's kernels: the fat binary's image for the device, and
                              * each configuration's kernel loaded (expr: compiled) */
    CP_PHASE_FLUSH_SETUP,    /* the stream, the events and the L2 flush buffer (filled) */
    CP_PHASE_PEAK,           /* the peak bandwidth copy */
    CP_PHASE_CUPTI_OPEN,     /* loading CUPTI, profiler and host set-up, config images, enable */
    CP_PHASE_BUFFERS,        /* buffers and their inputs (fills) */
    CP_PHASE_VERIFY,         /* one checked launch per configuration */
    CP_PHASE_TIMING,         /* warm-ups (cuBLAS), L2 flushes and the timed launches */
    CP_PHASE_CUBLAS,         /* cuBLAS's reference time */
    CP_PHASE_PASSES,         /* the counter passes: L2 flush and one launch a range, each pass */
    CP_PHASE_PASS_EDGES,     /* inside the passes: CUPTI's image reset, pass Start and Stop */
    CP_PHASE_RANGE_EDGES,    /* inside the passes: CUPTI's range Push and Pop */
    CP_PHASE_DECODE,         /* decoding and evaluating the counters */
    CP_PHASE_REPORT,         /* writing the report */
    CP_PHASE_TEARDOWN,       /* closing the backend: the CUPTI session, buffers, cuBLAS */
    CP_PHASE_TRACE_LOAD,     /* trace: reading the raw files */
    CP_PHASE_TRACE_DEMANGLE, /* trace: demangling the kernel names */
    CP_PHASE_TRACE_NVDISASM, /* trace: the opcodes of the counted functions (nvdisasm) */
    CP_PHASE_TRACE_ANALYZE,  /* trace: ranking the instructions */
    CP_PHASE_TRACE_WRITE,    /* trace: writing the report */
    CP_PHASE_COUNT
} cp_phase;

/* Seconds of a monotonic clock. */
double cp_phase_now(void);

/* Starts the clock of the whole run (once, at the start of main) and clears every phase. */
void cp_phase_start(void);

/* Begins phase p (nested inside the phase begun before, if any). */
void cp_phase_begin(cp_phase p);

/* Ends the phase begun last; its own time (less the phases begun inside it) is added to it. */
void cp_phase_end(void);

/* Makes the calling thread's cp_phase_begin and cp_phase_end do nothing: the table belongs to
 * the main thread, and a worker of a run over several GPUs (whose phases overlap the main
 * thread's) leaves it alone. */
void cp_phase_ignore_thread(void);

/* Phase p's name, as cp_phase_print shows it. */
const char *cp_phase_name(cp_phase p);

/* The own seconds of phase p so far, and how many times it ended. */
double cp_phase_seconds(cp_phase p);
unsigned long cp_phase_count(cp_phase p);

/* Marks the end of the start-up: the first configuration's measurement begins now (the first
 * call only; called outside any phase). cp_phase_print then shows the start-up apart: its time
 * and each phase's share of it, the parts before the first configuration. */
void cp_phase_start_up_done(void);

/* Seconds that phase p's work took on a thread of its own, beside the main thread's phases (the
 * CUPTI session's set-up while the kernels are timed): shown apart, in no total. */
void cp_phase_beside(cp_phase p, double seconds);

/* Prints the breakdown since cp_phase_start to out: one line a phase that ran, then "other";
 * then the start-up (cp_phase_start_up_done) part by part, and the work beside the phases. */
void cp_phase_print(FILE *out);

#endif
