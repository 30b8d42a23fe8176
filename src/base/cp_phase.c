/* cp_phase.c: the --verbose time breakdown (cp_phase.h). */
#define _POSIX_C_SOURCE 200809L
#include "cp_phase.h"

#include <time.h>

#define CP_PHASE_DEPTH 16

static const char *const cp_phase_names[CP_PHASE_COUNT] = {
    [CP_PHASE_PLAN] = "plan",
    [CP_PHASE_MODEL] = "model",
    [CP_PHASE_DRIVER] = "CUDA driver start",
    [CP_PHASE_CONTEXT] = "CUDA context",
    [CP_PHASE_DEVICE] = "device facts",
    [CP_PHASE_KERNEL_IMAGE] = "kernel loading",
    [CP_PHASE_FLUSH_SETUP] = "flush buffer",
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
    /* the start-up: whether it ended, when (seconds since the start) and each phase's seconds
     * and count then */
    int start_up_done;
    double start_up;
    double start_up_seconds[CP_PHASE_COUNT];
    unsigned long start_up_count[CP_PHASE_COUNT];
    double beside[CP_PHASE_COUNT]; /* work on threads of their own (cp_phase_beside) */
    struct {
        cp_phase phase;
        double began, inner; /* inner: the time of the phases begun inside it */
    } stack[CP_PHASE_DEPTH];
    int depth;
    /* the time outside every phase, by the phases it lies between (the last one ended and the
     * next one begun; CP_PHASE_COUNT: the run's start, or its end) */
    double gap[CP_PHASE_COUNT + 1][CP_PHASE_COUNT + 1];
    unsigned long gaps[CP_PHASE_COUNT + 1][CP_PHASE_COUNT + 1];
    int last;          /* the phase that ended last at depth 0 (CP_PHASE_COUNT: none yet) */
    double last_ended; /* when */
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
        cp_phase_table.seconds[i] = cp_phase_table.beside[i] = 0;
        cp_phase_table.count[i] = 0;
    }
    for (int a = 0; a <= CP_PHASE_COUNT; a++)
        for (int b = 0; b <= CP_PHASE_COUNT; b++) {
            cp_phase_table.gap[a][b] = 0;
            cp_phase_table.gaps[a][b] = 0;
        }
    cp_phase_table.start_up_done = 0;
    cp_phase_table.depth = 0;
    cp_phase_table.started = cp_phase_now();
    cp_phase_table.last = CP_PHASE_COUNT;
    cp_phase_table.last_ended = cp_phase_table.started;
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
    if (d == 0) { /* the time since the last phase ended lies between it and this one */
        cp_phase_table.gap[cp_phase_table.last][p] +=
            cp_phase_table.stack[d].began - cp_phase_table.last_ended;
        cp_phase_table.gaps[cp_phase_table.last][p]++;
    }
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
    if (d > 0) {
        cp_phase_table.stack[d - 1].inner += elapsed;
    } else {
        cp_phase_table.last = p;
        cp_phase_table.last_ended = cp_phase_table.stack[d].began + elapsed;
    }
}

void cp_phase_start_up_done(void)
{
    if (cp_phase_ignored || cp_phase_table.start_up_done)
        return;
    cp_phase_table.start_up_done = 1;
    cp_phase_table.start_up = cp_phase_now() - cp_phase_table.started;
    for (int i = 0; i < CP_PHASE_COUNT; i++) {
        cp_phase_table.start_up_seconds[i] = cp_phase_table.seconds[i];
        cp_phase_table.start_up_count[i] = cp_phase_table.count[i];
    }
}

void cp_phase_beside(cp_phase p, double seconds)
{
    if (!cp_phase_ignored && p >= 0 && p < CP_PHASE_COUNT && seconds > 0)
        cp_phase_table.beside[p] += seconds;
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

/* The lines of `total` seconds: each phase that ran (seconds[i], count[i]), then "other". */
static void cp_phase_print_lines(FILE *out, double total, const double *seconds,
                                 const unsigned long *count)
{
    double covered = 0;
    for (int i = 0; i < CP_PHASE_COUNT; i++) {
        if (count[i] == 0)
            continue;
        covered += seconds[i];
        fprintf(out, "  %-20s %8.3f s  %5.1f%%  (%lu time%s)\n", cp_phase_names[i], seconds[i],
                total > 0 ? 100 * seconds[i] / total : 0, count[i], count[i] == 1 ? "" : "s");
    }
    double other = total - covered;
    fprintf(out, "  %-20s %8.3f s  %5.1f%%  (in no phase above)\n", "other", other > 0 ? other : 0,
            total > 0 && other > 0 ? 100 * other / total : 0);
}

/* The name of a phase at one end of a gap (CP_PHASE_COUNT: the start, or the end). */
static const char *cp_phase_edge_name(int p, const char *none)
{
    return p < CP_PHASE_COUNT ? cp_phase_names[p] : none;
}

/* Where the time outside every phase went: the largest gaps (at least a millisecond), by the
 * phases they lie between, at most three. */
static void cp_phase_print_gaps(FILE *out, double now)
{
    int shown[3][2];
    int nshown = 0;
    /* the time from the last phase to now lies between it and the end */
    double tail = now - cp_phase_table.last_ended;
    for (int k = 0; k < 3; k++) {
        int best_a = -1, best_b = -1;
        double best = 1e-3;
        for (int a = 0; a <= CP_PHASE_COUNT; a++)
            for (int b = 0; b <= CP_PHASE_COUNT; b++) {
                double g = cp_phase_table.gap[a][b] +
                           (a == cp_phase_table.last && b == CP_PHASE_COUNT ? tail : 0);
                int taken = 0;
                for (int i = 0; i < nshown; i++)
                    taken |= shown[i][0] == a && shown[i][1] == b;
                if (!taken && g > best) {
                    best = g;
                    best_a = a;
                    best_b = b;
                }
            }
        if (best_a < 0)
            break;
        shown[nshown][0] = best_a;
        shown[nshown][1] = best_b;
        nshown++;
        unsigned long n = cp_phase_table.gaps[best_a][best_b] +
                          (best_a == cp_phase_table.last && best_b == CP_PHASE_COUNT);
        fprintf(out, "    between %s and %s: %.3f s (%lu time%s)\n",
                cp_phase_edge_name(best_a, "the start"), cp_phase_edge_name(best_b, "the end"),
                best, n, n == 1 ? "" : "s");
    }
}

void cp_phase_print(FILE *out)
{
    double now = cp_phase_now();
    double total = now - cp_phase_table.started;
    fprintf(out, "coalprobe: %.3f s in all (--verbose):\n", total);
    cp_phase_print_lines(out, total, cp_phase_table.seconds, cp_phase_table.count);
    cp_phase_print_gaps(out, now);
    if (cp_phase_table.start_up_done) {
        fprintf(out, "coalprobe: %.3f s of it before the first configuration (the start-up):\n",
                cp_phase_table.start_up);
        cp_phase_print_lines(out, cp_phase_table.start_up, cp_phase_table.start_up_seconds,
                             cp_phase_table.start_up_count);
    }
    int beside = 0;
    for (int i = 0; i < CP_PHASE_COUNT; i++) {
        if (cp_phase_table.beside[i] <= 0)
            continue;
        if (!beside++)
            fputs("coalprobe: beside them, on threads of their own (in no time above):\n", out);
        fprintf(out, "  %-20s %8.3f s\n", cp_phase_names[i], cp_phase_table.beside[i]);
    }
}
