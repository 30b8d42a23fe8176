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

/* The bytes one tensor copy through m moves past its box's bytes, by geometry: the box's rows
 * (every dimension past the innermost) x its row's sectors less the row's bytes; -1 when the
 * geometry does not tell (an im2col or interleaved map, or rows of whole sectors that can start
 * off a sector, which then move one sector more or not, by where the box starts). A row of an
 * odd multiple of 16 bytes moves its bytes rounded up to sectors wherever it starts, since the
 * driver keeps every address and stride a multiple of 16 bytes and a copy's innermost coordinate
 * must be too (else an illegal instruction on Hopper), so every row starts on one. *edge: 1 when
 * the tensor is no whole number of boxes, so that boxes can reach past its edge. */
static double cp_trace_coverage_copy_excess(const cp_trace_tmap *m, int *edge)
{
    cp_trace_tmap_judgement j;
    cp_trace_tmap_judge(m, &j);
    if (!j.known || !m->kind || strcmp(m->kind, "tiled") != 0 ||
        (m->interleave && strcmp(m->interleave, "none") != 0) || m->nbox != m->rank ||
        (!j.whole_sectors && j.row_bytes % CP_SECTOR_BYTES == 0))
        return -1;
    double rows = 1;
    for (unsigned d = 1; d < m->rank; d++)
        rows *= (double)m->box[d];
    for (unsigned d = 0; d < m->rank; d++)
        *edge |= m->box[d] && m->dims[d] % m->box[d] != 0;
    return rows * (double)(j.row_sectors_bytes - j.row_bytes);
}

/* The executions of k's TMA copies, when every instruction that ran one is a tensor copy
 * (UTMALDG, UTMASTG by its SASS opcode); -1 when a bulk copy (UBLKCP, which no map describes),
 * another TMA instruction or an opcode not known ran some. */
static double cp_trace_coverage_tensor_copies(const cp_trace_kernel *k)
{
    double copies = 0;
    for (size_t i = 0; i < k->ninstrs; i++) {
        const cp_trace_instr *in = &k->instrs[i];
        if (!(in->d.tma_requests > 0))
            continue;
        if (!in->opcode ||
            (strncmp(in->opcode, "UTMALDG", 7) != 0 && strncmp(in->opcode, "UTMASTG", 7) != 0))
            return -1;
        copies += in->d.tma_requests;
    }
    /* every copy the kernel's count holds found on a tensor-copy instruction */
    return copies == k->d.tma_requests ? copies : -1;
}

/* Whether k's TMA copies are judged by its maps: every counted launch of k passed tensor maps
 * as parameters, all of them maps encoded on the host while traced, each of a geometry that
 * tells its copies' excess, the same for all of them (which copy used which map is not seen),
 * and every TMA instruction that ran is a tensor copy. Then c's tma_* fields are set and 1 is
 * returned; else 0, with why in c->reason when a map was the obstacle. */
static int cp_trace_coverage_by_maps(const cp_trace_process *p, const cp_trace_kernel *k,
                                     cp_trace_coverage *c)
{
    if (!p || k->ntmaps == 0 || k->tmap_unseen > 0 || k->tmap_checked != k->launches)
        return 0;
    double per_copy = -1;
    int edge = 0;
    for (size_t i = 0; i < k->ntmaps; i++) {
        if (k->tmaps[i].map >= p->ntmaps)
            return 0;
        double e = cp_trace_coverage_copy_excess(&p->tmaps[k->tmaps[i].map], &edge);
        if (e < 0) {
            snprintf(c->reason, sizeof c->reason,
                     "map #%zu's geometry does not tell what its copies move (an im2col or "
                     "interleaved map, or rows of whole sectors that may start off a sector)",
                     k->tmaps[i].map);
            return 0;
        }
        if (per_copy >= 0 && e != per_copy) {
            snprintf(c->reason, sizeof c->reason,
                     "its maps differ in what a copy wastes, and which copy used which map is "
                     "not seen");
            return 0;
        }
        per_copy = e;
    }
    double copies = cp_trace_coverage_tensor_copies(k);
    if (copies < 0) {
        snprintf(c->reason, sizeof c->reason,
                 "its maps cannot judge its copies: a TMA instruction ran that is no tensor copy "
                 "(UBLKCP moves bytes no map describes) or whose SASS opcode is not known");
        return 0;
    }
    c->tma_copies = copies;
    c->tma_excess_bytes = copies * per_copy;
    c->tma_edge = edge && per_copy > 0;
    return 1;
}

/* c for a kernel whose TMA copies its maps judged (cp_trace_coverage_by_maps): the excess known,
 * TMA's bytes and the fraction not. */
static void cp_trace_coverage_geometry(cp_trace_coverage *c)
{
    c->basis = "tensor_map_geometry";
    c->by_maps = 1;
    c->tma_load_bytes = c->tma_store_bytes = NAN;
    c->local_bytes = 0;
    c->fraction = NAN;
    c->excess_known = 1;
    if (c->tma_excess_bytes == 0)
        snprintf(c->reason, sizeof c->reason,
                 "TMA copies' bytes were not counted, but every launch passed tensor maps of "
                 "whole sectors, which move no byte their boxes do not hold: the excess is known");
    else
        snprintf(c->reason, sizeof c->reason,
                 "TMA copies' bytes were not counted, but every launch passed tensor maps whose "
                 "rows are no whole sectors: their excess is %.0f copies x what a box's rows move "
                 "past their bytes%s",
                 c->tma_copies,
                 c->tma_edge ? " (an estimate: boxes can reach past the tensor's edge, where a "
                               "row moves less or more)"
                             : "");
}

void cp_trace_coverage_of(const cp_trace_process *p, const cp_trace_kernel *k, cp_trace_coverage *c)
{
    memset(c, 0, sizeof *c);
    c->tma_excess_bytes = c->tma_copies = NAN;
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
    } else if (kinds && tma_runs > 0 && local_runs == 0 && cp_trace_coverage_by_maps(p, k, c)) {
        cp_trace_coverage_geometry(c); /* TMA's bytes not counted, but judged */
        return;
    } else if (kinds && tma_runs == 0 && local_runs == 0) {
        /* every instruction that ran is of a kind the sector counters see */
        c->basis = "instruction_kinds";
        c->tma_load_bytes = c->tma_store_bytes = c->local_bytes = 0;
    } else {
        char runs[128] = "", maps[sizeof c->reason];
        snprintf(maps, sizeof maps, "%s", c->reason); /* why the maps could not judge them */
        if (tma_runs > 0 || local_runs > 0)
            snprintf(runs, sizeof runs, "%.0f TMA copies and %.0f local memory requests ran, ",
                     tma_runs, local_runs);
        snprintf(c->reason, sizeof c->reason,
                 "%swhose bytes no per-instruction counter sees, and their kernel counters were "
                 "not collected (--kernel-counters full counts them)%s%.250s",
                 runs[0] ? runs : "instructions of unknown kinds ran, ", maps[0] ? "; " : "", maps);
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
    sum->tma_excess_bytes = sum->tma_copies = NAN; /* no kernel judged by its maps */
}

void cp_trace_coverage_add(cp_trace_coverage *sum, const cp_trace_coverage *c)
{
    /* a part unknown in one kernel leaves the sum unknown: NAN propagates */
    sum->attributed_bytes += c->attributed_bytes;
    sum->tma_load_bytes += c->tma_load_bytes;
    sum->tma_store_bytes += c->tma_store_bytes;
    sum->local_bytes += c->local_bytes;
    if (c->by_maps) { /* the TMA excess the maps' geometry gives: of the kernels judged so */
        sum->tma_excess_bytes =
            (isfinite(sum->tma_excess_bytes) ? sum->tma_excess_bytes : 0) + c->tma_excess_bytes;
        sum->tma_copies = (isfinite(sum->tma_copies) ? sum->tma_copies : 0) + c->tma_copies;
        sum->tma_edge |= c->tma_edge;
    }
}

void cp_trace_coverage_end(cp_trace_coverage *sum, size_t nunknown_excess, const char *names)
{
    cp_trace_coverage_fraction(sum);
    sum->excess_known = nunknown_excess == 0;
    if (nunknown_excess)
        snprintf(sum->reason, sizeof sum->reason,
                 "the excess of %zu kernel%s is not known (see %s coverage)%s%s", nunknown_excess,
                 nunknown_excess == 1 ? "" : "s", nunknown_excess == 1 ? "its" : "their",
                 names && names[0] ? ": " : "", names ? names : "");
}
