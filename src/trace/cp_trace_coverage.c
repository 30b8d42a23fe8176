/* cp_trace_coverage.c: how much of a kernel's traffic between L1 and L2 its counts cover, and so
 * whether its excess is known: the per-instruction sector counters see global loads, stores,
 * atomics and cp.async, not TMA copies or local memory, whose bytes only the kernel counters of
 * L1's traffic show (docs/trace.md, "Coverage"). */
#include "cp_trace_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/cp_measure.h"

static int cp_trace_kc_has(const cp_trace_kernel_counters *kc, int m)
{
    return (kc->has >> m) & 1u;
}

/* Kernel metric m, a count of sectors, in bytes; NAN unless it was recorded. */
static double cp_trace_kc_bytes(const cp_trace_kernel_counters *kc, int m)
{
    return cp_trace_kc_has(kc, m) ? kc->value[m] * CP_SECTOR_BYTES : NAN;
}

static double cp_trace_positive(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

/* TMA's bytes, 0 where not counted (their bytes are then in other_bytes). */
static double cp_trace_coverage_tma(const cp_trace_coverage *c)
{
    return cp_trace_positive(c->tma_load_bytes) + cp_trace_positive(c->tma_store_bytes);
}

/* The fraction of the parts: attributed over attributed, TMA's and the others' bytes. */
static void cp_trace_coverage_fraction(cp_trace_coverage *c)
{
    double all = c->attributed_bytes + cp_trace_coverage_tma(c) + c->other_bytes;
    c->fraction = !isfinite(all) ? NAN : all > 0 ? c->attributed_bytes / all : 1;
}

/* The bytes nobody counted, from attributed, l1_l2 and the TMA bytes, then the fraction. */
static void cp_trace_coverage_parts(cp_trace_coverage *c)
{
    c->other_bytes = NAN;
    if (isfinite(c->l1_l2_bytes) && isfinite(c->attributed_bytes))
        /* the counted sectors are those asked of L1, of which L1 hits never reach L2: what L2
         * saw beyond them and TMA's bytes is traffic no counter attributes */
        c->other_bytes = fmax(0, c->l1_l2_bytes - cp_trace_coverage_tma(c) - c->attributed_bytes);
    cp_trace_coverage_fraction(c);
}

/* The reason text of a fraction below CP_TRACE_COVERAGE_KNOWN; tma_ran: the kernel ran TMA
 * copies (whose bytes, when TMA's sectors were not counted apart, are among the others). */
static void cp_trace_coverage_why(cp_trace_coverage *c, int tma_ran)
{
    char tma[32], other[32];
    double tma_bytes = cp_trace_coverage_tma(c);
    cp_trace_format_bytes(tma, sizeof tma, tma_bytes);
    cp_trace_format_bytes(other, sizeof other, c->other_bytes);
    if (tma_bytes > 0 && c->other_bytes > 0)
        snprintf(c->reason, sizeof c->reason,
                 "TMA copies moved %s and other paths (local memory, texture, ...) %s between L1 "
                 "and L2, which no per-instruction counter sees",
                 tma, other);
    else if (tma_bytes > 0)
        snprintf(c->reason, sizeof c->reason,
                 "TMA copies moved %s between L1 and L2, which no per-instruction counter sees",
                 tma);
    else if (tma_ran && isnan(c->tma_load_bytes))
        snprintf(c->reason, sizeof c->reason,
                 "%s moved between L1 and L2 that no per-instruction counter sees: its TMA "
                 "copies' bytes among them (--kernel-counters full counts those apart)",
                 other);
    else
        snprintf(c->reason, sizeof c->reason,
                 "%s moved between L1 and L2 by paths no per-instruction counter sees (local "
                 "memory, texture, ...)",
                 other);
}

void cp_trace_coverage_of(const cp_trace_kernel *k, cp_trace_coverage *c)
{
    memset(c, 0, sizeof *c);
    const cp_trace_kernel_counters *kc = &k->kc;
    c->attributed_bytes =
        k->from == CP_TRACE_FROM_NONE ? NAN : cp_trace_positive(k->d.sectors) * CP_SECTOR_BYTES;
    c->l1_l2_bytes = cp_trace_kc_bytes(kc, CP_TRACE_K_L2);
    c->tma_load_bytes = cp_trace_kc_bytes(kc, CP_TRACE_K_TMA_LD);
    c->tma_store_bytes = cp_trace_kc_bytes(kc, CP_TRACE_K_TMA_ST);
    cp_trace_coverage_parts(c);
    int uncounted_ran =
        cp_trace_positive(k->d.tma_requests) + cp_trace_positive(k->d.local_requests) > 0;
    if (k->from == CP_TRACE_FROM_NONE) {
        c->excess_known = 0;
        snprintf(c->reason, sizeof c->reason, "the kernel was not counted");
    } else if (isfinite(c->fraction)) {
        c->excess_known = c->fraction >= CP_TRACE_COVERAGE_KNOWN;
        if (!c->excess_known)
            cp_trace_coverage_why(c, cp_trace_positive(k->d.tma_requests) > 0);
    } else {
        /* without the L1-L2 counters only the instructions that ran tell */
        c->excess_known = !uncounted_ran;
        snprintf(c->reason, sizeof c->reason,
                 "%s; the L1-L2 counters that measure coverage were not collected",
                 uncounted_ran ? "TMA copies or local memory moved bytes no per-instruction "
                                 "counter sees"
                               : "no instruction that bypasses the per-instruction counters ran");
    }
}

void cp_trace_coverage_begin(cp_trace_coverage *sum)
{
    memset(sum, 0, sizeof *sum);
}

void cp_trace_coverage_add(cp_trace_coverage *sum, const cp_trace_coverage *c)
{
    /* a part unknown in one kernel leaves the sum unknown: NAN propagates */
    sum->attributed_bytes += c->attributed_bytes;
    sum->l1_l2_bytes += c->l1_l2_bytes;
    sum->tma_load_bytes += cp_trace_positive(c->tma_load_bytes);
    sum->tma_store_bytes += cp_trace_positive(c->tma_store_bytes);
    sum->other_bytes += c->other_bytes; /* each kernel's: one's L1 hits hide no other's */
}

void cp_trace_coverage_end(cp_trace_coverage *sum, size_t nunknown_excess)
{
    cp_trace_coverage_fraction(sum);
    sum->excess_known = nunknown_excess == 0;
    if (nunknown_excess)
        snprintf(sum->reason, sizeof sum->reason,
                 "the excess of %zu kernel%s is not known (see %s coverage)", nunknown_excess,
                 nunknown_excess == 1 ? "" : "s", nunknown_excess == 1 ? "its" : "their");
    else if (!isfinite(sum->fraction))
        snprintf(sum->reason, sizeof sum->reason,
                 "the L1-L2 counters that measure coverage were not collected for every kernel");
}
