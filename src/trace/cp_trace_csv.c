/* cp_trace_csv.c: the trace report as CSV: a header line and one line per instruction of the
 * selected kernels, in rank order (RFC 4180 quoting; empty cells for missing values). */
#include "cp_trace_report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *const cp_trace_csv_columns[] = {
    "rank",
    "pid",
    "process_command",
    "kernel",
    "function",
    "device",
    "launches",
    "pc",
    "file",
    "line",
    "opcode",
    "op",
    "space",
    "requests",
    "sectors",
    "ideal_sectors",
    "excess_sectors",
    "excess_bytes",
    "sectors_per_request",
    "ideal_sectors_per_request",
    "excess_pct",
    "excess_share",
    "shared_requests",
    "wavefronts",
    "ideal_wavefronts",
    "bank_conflicts",
    "wavefronts_per_request",
    "ideal_wavefronts_per_request",
    "conflict_pct",
    "conflict_share",
    "gate_failed",
    "meaning",
    /* appended with LDGSTS (cp.async): its requests and the wavefronts of its shared fill */
    "ldgsts_requests",
    "fill_wavefronts",
    "ideal_fill_wavefronts",
    "fill_wavefronts_per_request",
    "ideal_fill_wavefronts_per_request",
    /* appended with the other kinds of instruction */
    "kind",
    "atomic_requests",
    "local_requests",
    "tma_requests",
    "gmma_requests",
    "gmma_wavefronts",
    /* appended with coverage: the instruction's kernel's (empty when not measured) */
    "kernel_coverage",
    "kernel_excess_known",
    /* appended with sampling and selection: the kernel's launches seen (empty when the raw file
     * does not say) and its launches with per-kernel counters */
    "launches_seen",
    "counter_launches",
};

/* A number: empty when NAN; an integer when integral; else 6 significant digits. */
void cp_trace_csv_number(cp_text_csv_line *l, double v)
{
    char buf[48] = "";
    if (!isfinite(v))
        ;
    else if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);
    else
        snprintf(buf, sizeof buf, "%.6g", v);
    cp_text_csv_cell(l, buf);
}

void cp_trace_csv_header(cp_text_csv_line *l)
{
    for (size_t c = 0; c < CP_COUNT_OF(cp_trace_csv_columns); c++)
        cp_text_csv_cell(l, cp_trace_csv_columns[c]);
    cp_text_csv_end_line(l);
}

int cp_trace_write_csv(FILE *out, const cp_trace_report *r, cp_status *st)
{
    errno = 0;
    cp_text_csv_line l = {out, 0};
    cp_trace_csv_header(&l);
    for (size_t i = 0; i < r->ninstrs; i++) {
        const cp_trace_instr *in = r->instrs[i];
        const cp_trace_kernel *k = r->instr_kernel[i];
        const cp_trace_process *p = r->instr_proc[i];
        const cp_trace_derived *d = &in->d;
        char pc[24], meaning[700];
        cp_trace_csv_number(&l, in->rank ? (double)in->rank : NAN);
        cp_trace_csv_number(&l, p->pid >= 0 ? (double)p->pid : NAN);
        cp_text_csv_cell(&l, p->command);
        cp_text_csv_cell(&l, k->name ? k->name : k->function);
        cp_text_csv_cell(&l, k->function);
        cp_trace_csv_number(&l, k->device);
        cp_trace_csv_number(&l, (double)k->launches);
        snprintf(pc, sizeof pc, "0x%04x", in->pc);
        cp_text_csv_cell(&l, pc);
        cp_text_csv_cell(&l, in->file);
        cp_trace_csv_number(&l, in->file ? (double)in->line : NAN);
        cp_text_csv_cell(&l, in->opcode);
        cp_text_csv_cell(&l, cp_trace_op_name(in));
        cp_text_csv_cell(&l, cp_trace_space_name(in));
        const double values[] = {d->requests,
                                 d->sectors,
                                 d->ideal_sectors,
                                 d->excess_sectors,
                                 d->excess_bytes,
                                 d->sectors_per_request,
                                 d->ideal_sectors_per_request,
                                 d->excess_pct,
                                 in->excess_share,
                                 d->shared_requests,
                                 d->wavefronts,
                                 d->ideal_wavefronts,
                                 d->bank_conflicts,
                                 d->wavefronts_per_request,
                                 d->ideal_wavefronts_per_request,
                                 d->conflict_pct,
                                 in->conflict_share};
        for (size_t v = 0; v < CP_COUNT_OF(values); v++)
            cp_trace_csv_number(&l, values[v]);
        cp_text_csv_cell(&l, in->gate_failed ? "true" : "false");
        cp_trace_meaning(d, meaning, sizeof meaning);
        cp_text_csv_cell(&l, meaning);
        const double fill[] = {d->ldgsts_requests, d->fill_wavefronts, d->ideal_fill_wavefronts,
                               d->fill_wavefronts_per_request,
                               d->ideal_fill_wavefronts_per_request};
        for (size_t v = 0; v < CP_COUNT_OF(fill); v++)
            cp_trace_csv_number(&l, fill[v]);
        cp_text_csv_cell(&l, cp_trace_kind_name(in));
        const double other[] = {d->atomic_requests, d->local_requests, d->tma_requests,
                                d->gmma_requests, d->gmma_wavefronts};
        for (size_t v = 0; v < CP_COUNT_OF(other); v++)
            cp_trace_csv_number(&l, other[v]);
        cp_trace_csv_number(&l, k->cov.fraction);
        cp_text_csv_cell(&l, k->cov.excess_known ? "true" : "false");
        cp_trace_csv_number(&l, k->has_seen ? (double)k->launches_seen : NAN);
        cp_trace_csv_number(&l, (double)k->kc.records);
        cp_text_csv_end_line(&l);
    }
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the trace report: %s",
                             strerror(errno ? errno : EIO));
    return CP_EXIT_OK;
}
