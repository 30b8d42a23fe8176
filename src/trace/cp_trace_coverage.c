/* cp_trace_coverage.c: how much of a kernel's global-memory traffic its counts cover, and so
 * whether its excess is known: the per-instruction sector counters see global loads, stores,
 * atomics and cp.async, not TMA copies or local memory, whose sectors only kernel counters show
 * (docs/trace.md, "Coverage"). Counters of L1's own traffic cannot serve: while the SASS
 * metrics' instrumentation runs, its own stores, reductions and local memory swell them many
 * times over; TMA's counters and the SASS metrics' local sectors stay exact. */
#include "cp_trace_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/cp_measure.h"

static double cp_trace_positive(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

/* attributed over everything: the counted part, TMA's and local memory's (NAN when unknown). */
static void cp_trace_coverage_fraction(cp_trace_coverage *c)
{
    double all = c->attributed_bytes + c->tma_load_bytes + c->tma_store_bytes + c->local_bytes;
    c->fraction = !isfinite(all) ? NAN : all > 0 ? c->attributed_bytes / all : 1;
}

/* The reason text of a fraction below CP_TRACE_COVERAGE_KNOWN: the parts that moved. */
static void cp_trace_coverage_why(cp_trace_coverage *c)
{
    char tma[32], local[32], parts[128];
    double tma_bytes = c->tma_load_bytes + c->tma_store_bytes;
    cp_trace_format_bytes(tma, sizeof tma, tma_bytes);
    cp_trace_format_bytes(local, sizeof local, c->local_bytes);
    if (tma_bytes > 0 && c->local_bytes > 0)
        snprintf(parts, sizeof parts, "TMA copies moved %s and local memory %s", tma, local);
    else if (tma_bytes > 0)
        snprintf(parts, sizeof parts, "TMA copies moved %s", tma);
    else
        snprintf(parts, sizeof parts, "local memory moved %s", local);
    snprintf(c->reason, sizeof c->reason, "%s, which no per-instruction counter sees", parts);
}

/* 1 when every counted launch of k passed tensor maps as parameters, all of them maps encoded
 * on the host while traced and each whole sectors (cp_trace_tmap_judge): its TMA copies then
 * move no byte their boxes do not hold (docs/trace.md, "Tensor maps"). */
static int cp_trace_coverage_tmaps_ideal(const cp_trace_process *p, const cp_trace_kernel *k)
{
    if (!p || k->ntmaps == 0 || k->tmap_unseen > 0 || k->tmap_checked != k->launches)
        return 0;
    for (size_t i = 0; i < k->ntmaps; i++) {
        cp_trace_tmap_judgement j;
        if (k->tmaps[i].map >= p->ntmaps)
            return 0;
        cp_trace_tmap_judge(&p->tmaps[k->tmaps[i].map], &j);
        if (!j.known || !j.whole_sectors)
            return 0;
    }
    return 1;
}

void cp_trace_coverage_of(const cp_trace_process *p, const cp_trace_kernel *k, cp_trace_coverage *c)
{
    memset(c, 0, sizeof *c);
    const cp_trace_kernel_counters *kc = &k->kc;
    c->attributed_bytes =
        k->from == CP_TRACE_FROM_NONE ? NAN : cp_trace_positive(k->d.sectors) * CP_SECTOR_BYTES;
    c->tma_load_bytes = cp_trace_kc_value(kc, CP_TRACE_K_TMA_LD) * CP_SECTOR_BYTES;
    c->tma_store_bytes = cp_trace_kc_value(kc, CP_TRACE_K_TMA_ST) * CP_SECTOR_BYTES;
    c->local_bytes = cp_trace_kc_value(kc, CP_TRACE_K_LOCAL) * CP_SECTOR_BYTES;
    double tma_runs = cp_trace_positive(k->d.tma_requests),
           local_runs = cp_trace_positive(k->d.local_requests);
    if (k->from == CP_TRACE_FROM_NONE) {
        snprintf(c->reason, sizeof c->reason, "the kernel was not counted");
        c->fraction = NAN;
        return;
    }
    /* TMA's and local memory's bytes counted by the kernel records; the instructions counted,
     * and of known kinds */
    int counted =
        isfinite(c->tma_load_bytes) && isfinite(c->tma_store_bytes) && isfinite(c->local_bytes);
    int instructions = k->from == CP_TRACE_FROM_INSTRUCTIONS;
    int kinds = instructions && isfinite(k->d.tma_requests) && isfinite(k->d.local_requests);
    if (counted && instructions && cp_trace_kernel_instructions_sampled(k)) {
        /* --instructions sampled: instructions and counters of the same launches, unscaled */
        c->basis = "sampled_launches";
    } else if (counted && instructions && cp_trace_kernel_sampled(k)) {
        /* counters of some launches beside instructions counted over all of them: the
         * fraction compares their means per launch, said by the basis */
        c->basis = "sampled_counters";
        double per = (double)k->launches / (double)kc->records;
        c->tma_load_bytes *= per;
        c->tma_store_bytes *= per;
        c->local_bytes *= per;
    } else if (counted) {
        c->basis = "counters";
    } else if (kinds && tma_runs > 0 && local_runs == 0 && cp_trace_coverage_tmaps_ideal(p, k)) {
        /* TMA's bytes not counted, but judged: whole-sector boxes waste nothing */
        c->basis = "tensor_map_geometry";
        c->by_maps = 1;
        c->tma_load_bytes = c->tma_store_bytes = NAN;
        c->local_bytes = 0;
        c->fraction = NAN;
        c->excess_known = 1;
        snprintf(c->reason, sizeof c->reason,
                 "TMA copies' bytes were not counted, but every launch passed tensor maps of "
                 "whole sectors, which move no byte their boxes do not hold: the excess is known");
        return;
    } else if (kinds && tma_runs == 0 && local_runs == 0) {
        /* every instruction that ran is of a kind the sector counters see */
        c->basis = "instruction_kinds";
        c->tma_load_bytes = c->tma_store_bytes = c->local_bytes = 0;
    } else {
        char runs[128] = "";
        if (tma_runs > 0 || local_runs > 0)
            snprintf(runs, sizeof runs, "%.0f TMA copies and %.0f local memory requests ran, ",
                     tma_runs, local_runs);
        snprintf(c->reason, sizeof c->reason,
                 "%swhose bytes no per-instruction counter sees, and their kernel counters were "
                 "not collected (--kernel-counters full counts them)",
                 runs[0] ? runs : "instructions of unknown kinds ran, ");
        c->fraction = NAN;
        return;
    }
    cp_trace_coverage_fraction(c);
    c->excess_known = c->fraction >= CP_TRACE_COVERAGE_KNOWN;
    if (!c->excess_known)
        cp_trace_coverage_why(c);
}

void cp_trace_coverage_begin(cp_trace_coverage *sum)
{
    memset(sum, 0, sizeof *sum);
}

void cp_trace_coverage_add(cp_trace_coverage *sum, const cp_trace_coverage *c)
{
    /* a part unknown in one kernel leaves the sum unknown: NAN propagates */
    sum->attributed_bytes += c->attributed_bytes;
    sum->tma_load_bytes += c->tma_load_bytes;
    sum->tma_store_bytes += c->tma_store_bytes;
    sum->local_bytes += c->local_bytes;
}

void cp_trace_coverage_end(cp_trace_coverage *sum, size_t nunknown_excess)
{
    cp_trace_coverage_fraction(sum);
    sum->excess_known = nunknown_excess == 0;
    if (nunknown_excess)
        snprintf(sum->reason, sizeof sum->reason,
                 "the excess of %zu kernel%s is not known (see %s coverage)", nunknown_excess,
                 nunknown_excess == 1 ? "" : "s", nunknown_excess == 1 ? "its" : "their");
}
