/* cp_phase.c: the --verbose time breakdown (cp_phase.h). */
#define _POSIX_C_SOURCE 200809L
#include "cp_phase.h"

#include <time.h>

#define CP_PHASE_DEPTH 16

static const char *const cp_phase_names[CP_PHASE_COUNT] = {
    [CP_PHASE_PLAN] = "plan",
    [CP_PHASE_MODEL] = "model",
    [CP_PHASE_DRIVER] = "CUDA driver start",
    [CP_PHASE_DEVICE] = "device set-up",
    [CP_PHASE_PEAK] = "peak bandwidth",
    [CP_PHASE_CUPTI_OPEN] = "CUPTI session",
    [CP_PHASE_BUFFERS] = "buffers and fills",
    [CP_PHASE_VERIFY] = "verification",
    [CP_PHASE_TIMING] = "timing",
    [CP_PHASE_CUBLAS] = "cuBLAS reference",
    [CP_PHASE_PASSES] = "counter passes",
    [CP_PHASE_PASS_EDGES] = "  CUPTI start/stop",
    [CP_PHASE_RANGE_EDGES] = "  CUPTI push/pop",
    [CP_PHASE_DECODE] = "counter decoding",
    [CP_PHASE_REPORT] = "report",
    [CP_PHASE_TEARDOWN] = "teardown",
    [CP_PHASE_TRACE_LOAD] = "reading the raw files",
    [CP_PHASE_TRACE_DEMANGLE] = "demangling",
    [CP_PHASE_TRACE_NVDISASM] = "nvdisasm",
    [CP_PHASE_TRACE_ANALYZE] = "analysis",
    [CP_PHASE_TRACE_WRITE] = "writing the report",
};

static struct {
    double started;
    double seconds[CP_PHASE_COUNT];
    unsigned long count[CP_PHASE_COUNT];
    struct {
        cp_phase phase;
        double began, inner; /* inner: the time of the phases begun inside it */
    } stack[CP_PHASE_DEPTH];
    int depth;
} cp_phase_table;

double cp_phase_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cp_phase_start(void)
{
    for (int i = 0; i < CP_PHASE_COUNT; i++) {
        cp_phase_table.seconds[i] = 0;
        cp_phase_table.count[i] = 0;
    }
    cp_phase_table.depth = 0;
    cp_phase_table.started = cp_phase_now();
}

/* 1 on a thread whose phases are not recorded (cp_phase_ignore_thread) */
static _Thread_local int cp_phase_ignored;

void cp_phase_ignore_thread(void)
{
    cp_phase_ignored = 1;
}

void cp_phase_begin(cp_phase p)
{
    if (cp_phase_ignored)
        return;
    if (cp_phase_table.depth == CP_PHASE_DEPTH || p < 0 || p >= CP_PHASE_COUNT) {
        cp_phase_table.depth++; /* counted, so that the matching end stays matched */
        return;
    }
    int d = cp_phase_table.depth++;
    cp_phase_table.stack[d].phase = p;
    cp_phase_table.stack[d].began = cp_phase_now();
    cp_phase_table.stack[d].inner = 0;
}

void cp_phase_end(void)
{
    if (cp_phase_ignored || cp_phase_table.depth == 0)
        return;
    int d = --cp_phase_table.depth;
    if (d >= CP_PHASE_DEPTH)
        return;
    double elapsed = cp_phase_now() - cp_phase_table.stack[d].began;
    double own = elapsed - cp_phase_table.stack[d].inner;
    cp_phase p = cp_phase_table.stack[d].phase;
    cp_phase_table.seconds[p] += own > 0 ? own : 0;
    cp_phase_table.count[p]++;
    if (d > 0)
        cp_phase_table.stack[d - 1].inner += elapsed;
}

const char *cp_phase_name(cp_phase p)
{
    return p < CP_PHASE_COUNT ? cp_phase_names[p] : "?";
}

double cp_phase_seconds(cp_phase p)
{
    return p >= 0 && p < CP_PHASE_COUNT ? cp_phase_table.seconds[p] : 0;
}

unsigned long cp_phase_count(cp_phase p)
{
    return p >= 0 && p < CP_PHASE_COUNT ? cp_phase_table.count[p] : 0;
}

void cp_phase_print(FILE *out)
{
    double total = cp_phase_now() - cp_phase_table.started, covered = 0;
    fprintf(out, "coalprobe: %.3f s in all (--verbose):\n", total);
    for (int i = 0; i < CP_PHASE_COUNT; i++) {
        if (cp_phase_table.count[i] == 0)
            continue;
        covered += cp_phase_table.seconds[i];
        fprintf(out, "  %-20s %8.3f s  %5.1f%%  (%lu time%s)\n", cp_phase_names[i],
                cp_phase_table.seconds[i], total > 0 ? 100 * cp_phase_table.seconds[i] / total : 0,
                cp_phase_table.count[i], cp_phase_table.count[i] == 1 ? "" : "s");
    }
    double other = total - covered;
    fprintf(out, "  %-20s %8.3f s  %5.1f%%  (in no phase above)\n", "other", other > 0 ? other : 0,
            total > 0 && other > 0 ? 100 * other / total : 0);
}
