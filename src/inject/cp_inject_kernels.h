/* cp_inject_kernels.h: the injection library's per-kernel counters: every launch in a context is
 * one range of CUPTI's Range Profiler (auto ranges, kernel replay), so every kernel of the traced
 * program is counted, whichever it is (the SASS metrics of cp_inject.c count one function only).
 * C interface to cp_inject_kernels.cpp (CUPTI's host API headers are C++). */
#ifndef CP_INJECT_KERNELS_H
#define CP_INJECT_KERNELS_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cp_cupti_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The per-kernel metrics are CP_CUPTI_KERNEL_METRICS (base/cp_cupti_util.h), CP_CUPTI_KM_* in
 * the order of the kernel_metrics record and of the values passed to the emit function. */

typedef struct cp_inject_kernels cp_inject_kernels;

/* Receives one range: the kernel's name and cubin (its CRC, 0: unknown), the call site given with
 * its launch (0: unknown), the host time given with its launch (0: unknown) and CP_CUPTI_KM_COUNT
 * values (NAN for one the chip lacks); or, for a range that cannot be matched to a launch, kernel
 * NULL and the reason in unmatched. */
typedef void (*cp_inject_kernels_emit)(void *user, const char *kernel, uint32_t crc, uint32_t site,
                                       uint64_t host_ns, const char *unmatched,
                                       const double *values);

/* The metric sets: every metric above (6 replay passes a launch on GH100), or the lean set of one
 * pass (global sectors, global and shared instructions, duration): enough to scale instruction
 * counts and to total sectors, not the requests, ideal sectors or wavefronts of a kernel that has
 * no instruction records. The lean set also asks for the TMA and local sectors, which tell how
 * much of a kernel's traffic its instruction counts cover, where they fit its one pass; where
 * they do not (GH100), it is opened without them (CP_INJECT_KSET_LEAN_BASE) and
 * cp_inject_kernels_set says so. */
enum { CP_INJECT_KSET_FULL = 0, CP_INJECT_KSET_LEAN = 1, CP_INJECT_KSET_LEAN_BASE = 2 };

/* 1 when metric m belongs to set. */
int cp_inject_kernel_metric_wanted(int m, int set);

/* Starts counting the kernels of ctx (current on this thread) on a device of the given chip,
 * with the metrics of set. NULL when CUPTI refuses or fails: *code is the CUptiResult and why
 * names the call. */
cp_inject_kernels *cp_inject_kernels_open(CUcontext ctx, const char *chip, int set, int *code,
                                          char *why, size_t why_size);

/* The set k was opened with: the one asked for, or the lean set's one-pass fallback
 * (CP_INJECT_KSET_LEAN_BASE). */
int cp_inject_kernels_set(const cp_inject_kernels *k);

/* The seconds each step of opening k took, as text ("availability 0.002, host_initialize ..."). */
const char *cp_inject_kernels_open_times(const cp_inject_kernels *k);

/* 1 when CUPTI replays each launch (kernel replay), 0 when a one-pass set counts the launches
 * as the program runs them. */
int cp_inject_kernels_replayed(const cp_inject_kernels *k);

/* The replay passes each launch costs with k's metrics. */
size_t cp_inject_kernels_passes(const cp_inject_kernels *k);

/* Before a launch of function (of cubin crc, 0: unknown) in k's context from call site `site`,
 * called at host time host_ns (each launch is one range, named by its position: function, site and
 * time are kept to name it): when the counter data holds as many ranges as it can, they are
 * decoded, emitted and the counting goes on. 0, or a CUptiResult with why filled. */
int cp_inject_kernels_before_launch(cp_inject_kernels *k, const char *function, uint32_t crc,
                                    uint32_t site, uint64_t host_ns, cp_inject_kernels_emit emit,
                                    void *user, char *why, size_t why_size);

/* Before a CUDA graph's launch in k's context: its n kernel nodes are the next n ranges, named
 * by functions[0..n) in the order they run (their cubins crcs[0..n), or NULL; their call sites
 * sites[0..n), or NULL; all of the graph launch call's host time host_ns), or, when functions is
 * NULL, ranges that cannot be matched (the reason in unmatched). The counter data is emptied first
 * when the n ranges would not fit after those it holds. 0, or a CUptiResult with why filled. */
int cp_inject_kernels_before_graph(cp_inject_kernels *k, const char *const *functions,
                                   const uint32_t *crcs, const uint32_t *sites, size_t n,
                                   uint64_t host_ns, const char *unmatched,
                                   cp_inject_kernels_emit emit, void *user, char *why,
                                   size_t why_size);

/* Under kernel replay (more than one pass a launch), CUPTI replays a CUDA graph's launch without
 * restoring the memory its kernels write (seen on the H100: a graph of 100 increments launched
 * twice left 400, not 200), and records its ranges in an order and number that do not follow
 * its nodes. So the counting pauses around such a launch: before it the ranges held are emitted
 * and the profiler stopped (cp_inject_kernels_before_replayed_graph), after it started again
 * (cp_inject_kernels_after_replayed_graph); the graph's kernels make no kernel record. Both do
 * nothing when the launches are counted as they run (one pass). 0, or a CUptiResult with why
 * filled. */
int cp_inject_kernels_before_replayed_graph(cp_inject_kernels *k, cp_inject_kernels_emit emit,
                                            void *user, char *why, size_t why_size);
int cp_inject_kernels_after_replayed_graph(cp_inject_kernels *k, cp_inject_kernels_emit emit,
                                           void *user, char *why, size_t why_size);

/* Sampling (coalprobe trace counts the per-kernel counters of some launches only): the profiler
 * counts launches only while started, and auto ranges make a range of every launch then, each
 * serialised with the others. cp_inject_kernels_pause emits the ranges held and stops the
 * profiler (a launch that follows gets no range and runs as it would untraced);
 * cp_inject_kernels_resume starts it again. Both do nothing when it is already so. 0, or a
 * CUptiResult with why filled. */
int cp_inject_kernels_pause(cp_inject_kernels *k, cp_inject_kernels_emit emit, void *user,
                            char *why, size_t why_size);
int cp_inject_kernels_resume(cp_inject_kernels *k, char *why, size_t why_size);

/* 1 when the profiler is started (launches get ranges). */
int cp_inject_kernels_started(const cp_inject_kernels *k);

/* Ends the counting: the ranges not yet emitted are decoded and emitted, the profiler disabled
 * and k freed. *dropped is the count of ranges CUPTI dropped. 0, or a CUptiResult. */
int cp_inject_kernels_close(cp_inject_kernels *k, cp_inject_kernels_emit emit, void *user,
                            size_t *dropped, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
