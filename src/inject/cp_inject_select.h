/* cp_inject_select.h: which launches the injection library counts and which of those get the
 * per-kernel counters (a Range Profiler range), decided at each launch from coalprobe trace's
 * options (--kernel, --launch-skip, --launch-count, --nvtx-include, --capture-range,
 * --counter-launches, --all-launches), with each kernel's launches seen, counted and sampled,
 * written as `selection` and `launches_seen` records (cp_trace_raw.h). */
#ifndef CP_INJECT_SELECT_H
#define CP_INJECT_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "every launch": --all-launches for counter_launches, no --launch-count for launch_count. */
#define CP_INJECT_SELECT_ALL UINT64_MAX
/* --counter-launches' default: the first 5 launches of each kernel and launch shape. */
#define CP_INJECT_SELECT_DEFAULT_SAMPLES 5u

typedef struct cp_inject_select_options {
    const char *kernel_regex;  /* POSIX ERE on the demangled name; NULL: every kernel */
    uint64_t launch_skip;      /* per kernel: its first launch_skip launches are not counted */
    uint64_t launch_count;     /* per kernel: at most this many counted; CP_INJECT_SELECT_ALL */
    const char *nvtx_include;  /* a launch is counted only inside an NVTX range of this name */
    int capture_profiler_api;  /* counted only between cudaProfilerStart and cudaProfilerStop */
    uint64_t counter_launches; /* per kernel and shape, ranged; CP_INJECT_SELECT_ALL: every one */
    int instructions_sampled;  /* --instructions sampled: SASS metrics of the ranged launches only
                                  (eager patching; cp_inject.c) */
} cp_inject_select_options;

/* A launch's shape: its grid, its block and its dynamic shared memory. */
typedef struct cp_inject_shape {
    uint32_t grid[3], block[3];
    uint32_t shared_bytes;
} cp_inject_shape;

/* Reads the options from the environment the launcher sets (COALPROBE_TRACE_KERNEL,
 * COALPROBE_TRACE_LAUNCH_SKIP, COALPROBE_TRACE_LAUNCH_COUNT, COALPROBE_TRACE_NVTX_INCLUDE,
 * COALPROBE_TRACE_CAPTURE_RANGE, COALPROBE_TRACE_COUNTER_LAUNCHES,
 * COALPROBE_TRACE_INSTRUCTIONS); a value that cannot be read
 * is left at its default with a message in why (0 when all were read). */
int cp_inject_select_from_env(cp_inject_select_options *o, char *why, size_t why_size);

/* Starts with options o (copied): 0, or -1 with why filled (a regular expression that does not
 * compile: then every kernel matches). */
int cp_inject_select_configure(const cp_inject_select_options *o, char *why, size_t why_size);

/* The options in use. */
const cp_inject_select_options *cp_inject_select_options_used(void);

/* 1 when some option leaves launches out (not the sampling): the report says how many. */
int cp_inject_select_filters(void);

/* 1 when function (mangled, as CUPTI names it) on device ordinal matches --kernel (always 1
 * without it); remembered per function. */
int cp_inject_select_matches(uint32_t ordinal, const char *function);

/* What cp_inject_select_launch looked up for a function: a caller that keeps one per function
 * (NULL at first) passes it to each launch of that function, which then skips the lookups. Freed
 * by cp_inject_select_free (and so by cp_inject_select_configure). */
typedef struct cp_inject_select_memo cp_inject_select_memo;

/* The decision for one kernel launch of function of cubin crc (0: unknown) on device ordinal
 * with shape s (NULL: unknown), memo the function's (NULL: none kept; *memo NULL: filled),
 * in_nvtx 1 when the calling thread is inside the --nvtx-include range: *counted 1
 * when its instructions and launch are counted, *sampled 1 when it also gets a range of the
 * per-kernel counters. Adds it to the kernel's launches seen, counted and sampled. */
void cp_inject_select_launch(uint32_t ordinal, const char *function, uint32_t crc,
                             const cp_inject_shape *s, int in_nvtx, cp_inject_select_memo **memo,
                             int *counted, int *sampled);

/* A CUDA graph's launch (exec: its handle): 1 when its kernel nodes get ranges (the first
 * counter_launches launches of each graph). Its nodes' launches are added with
 * cp_inject_select_node. */
int cp_inject_select_graph(const void *exec);

/* One kernel node of a graph's launch: seen and counted, and sampled when the graph was. */
void cp_inject_select_node(uint32_t ordinal, const char *function, uint32_t crc, int sampled);

/* cudaProfilerStart (on 1) or cudaProfilerStop (on 0) was called: with --capture-range
 * profiler-api, launches are counted only between them. */
void cp_inject_select_profiler(int on);

/* 1 when launches are counted now as far as --capture-range is concerned. */
int cp_inject_select_capturing(void);

/* Writes the `selection` records (the options) to raw: once, at the start. */
void cp_inject_select_write_options(FILE *raw);

/* Writes one `launches_seen` record per kernel seen (at the end). */
void cp_inject_select_write_counts(FILE *raw);

/* Releases the tables. */
void cp_inject_select_free(void);

#endif
