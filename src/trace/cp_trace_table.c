/* cp_trace_table.c: the trace report as text for a terminal (at most 100 columns): the program,
 * then per process its devices, refusals, dropped records and notes, and per kernel a summary
 * and its top instructions by excess bytes, each with its line of meaning; the gate's verdict;
 * and the gate's offending lines for standard error. Text from the raw files is shown with its
 * control characters escaped. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "cp_trace_report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Writes text, less its leading spaces, wrapped at the table width (the base layer's one
 * wrapper, cp_text_wrap_first). */
void cp_trace_table_wrap(FILE *out, const char *first, const char *rest, const char *text)
{
    while (*text == ' ')
        text++;
    cp_text_wrap_first(out, text, CP_TRACE_TABLE_WIDTH, first, rest);
}

/* text cut to n columns, with "..." at the end when cut. */
void cp_trace_table_clip(char *buf, size_t size, const char *text, size_t n)
{
    if (strlen(text) <= n)
        snprintf(buf, size, "%s", text);
    else
        snprintf(buf, size, "%.*s...", (int)(n > 3 ? n - 3 : 0), text);
}

/* A count in at most 9 columns: digits, or 3 significant digits with k/M/G/T/P/E. */
void cp_trace_table_count(char *buf, size_t n, double v)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    if (!isfinite(v)) {
        snprintf(buf, n, "-");
        return;
    }
    if (v < 1e9) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    size_t p = 0;
    while (v >= 999.5 && p + 1 < CP_COUNT_OF(prefixes)) {
        v /= 1000;
        p++;
    }
    snprintf(buf, n, "%.*f%s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, prefixes[p]);
}

static double cp_trace_or_zero(double v)
{
    return isfinite(v) ? v : 0;
}

void cp_trace_table_ratio(char *buf, size_t n, double v)
{
    if (isfinite(v))
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "-");
}

void cp_trace_table_pct(char *buf, size_t n, double fraction)
{
    if (isfinite(fraction))
        snprintf(buf, n, "%.1f%%", fraction * 100);
    else
        snprintf(buf, n, "-");
}

void cp_trace_table_where_text(char *buf, size_t n, const char *file, uint32_t line)
{
    char full[4200];
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(full, sizeof full, "%s:%u", base ? base + 1 : file, line);
    } else {
        snprintf(full, sizeof full, "(no line)");
    }
    size_t len = strlen(full);
    if (len <= CP_TRACE_WHERE_WIDTH)
        snprintf(buf, n, "%s", full);
    else
        snprintf(buf, n, "...%s", full + len - (CP_TRACE_WHERE_WIDTH - 3));
}

/* What was counted, when a selection or the sampling left something out: "counted: 1,400 of
 * 2,000 launches (--launch-skip 10); per-kernel counters from 20 of them (the first 5 of each
 * kernel and launch shape; --all-launches for every one)". Nothing for old raw files. */
static void cp_trace_table_collection(FILE *out, const cp_trace_report *r)
{
    const cp_trace_selection *s = r->selection;
    if (!s)
        return;
    char line[1400], opts[900] = "", a[32], b[32], c[32];
    size_t n = 0;
    if (s->kernel)
        n += (size_t)snprintf(opts + n, sizeof opts - n, "%s--kernel %.300s", n ? ", " : "",
                              s->kernel);
    if (s->launch_skip && n < sizeof opts)
        n += (size_t)snprintf(opts + n, sizeof opts - n, "%s--launch-skip %llu", n ? ", " : "",
                              (unsigned long long)s->launch_skip);
    if (s->launch_count != UINT64_MAX && n < sizeof opts)
        n += (size_t)snprintf(opts + n, sizeof opts - n, "%s--launch-count %llu", n ? ", " : "",
                              (unsigned long long)s->launch_count);
    if (s->nvtx_include && n < sizeof opts)
        n += (size_t)snprintf(opts + n, sizeof opts - n, "%s--nvtx-include %.300s", n ? ", " : "",
                              s->nvtx_include);
    if (s->capture_profiler_api && n < sizeof opts)
        n += (size_t)snprintf(opts + n, sizeof opts - n, "%s--capture-range profiler-api",
                              n ? ", " : "");
    int left_out = r->seen_known && r->launches_seen > r->launches_counted;
    if (!n && !left_out && !r->nsampled && !s->instructions_sampled)
        return;
    cp_trace_table_count(a, sizeof a, (double)r->launches_counted);
    cp_trace_table_count(b, sizeof b, (double)r->launches_seen);
    cp_trace_table_count(c, sizeof c, (double)r->launches_with_counters);
    size_t m = (size_t)snprintf(line, sizeof line, "counted: %s", a);
    if (r->seen_known && m < sizeof line)
        m += (size_t)snprintf(line + m, sizeof line - m, " of %s", b);
    if (m < sizeof line)
        m += (size_t)snprintf(line + m, sizeof line - m, " launch%s%s%s%s",
                              r->launches_counted == 1 && !r->seen_known ? "" : "es", n ? " (" : "",
                              opts, n ? ")" : "");
    if (m < sizeof line && s->every_launch)
        snprintf(line + m, sizeof line - m,
                 "; per-kernel counters from every counted launch "
                 "(--all-launches)");
    else if (m < sizeof line && s->counter_launches == 0)
        snprintf(line + m, sizeof line - m, "; no per-kernel counters (--counter-launches 0)");
    else if (m < sizeof line && s->instructions_sampled)
        snprintf(line + m, sizeof line - m,
                 "; instruction counts and per-kernel counters from %s of them, each run "
                 "serialised (--instructions sampled: the first %llu of each kernel and launch "
                 "shape); the totals add up those launches only, never scaled up",
                 c, (unsigned long long)s->counter_launches);
    else if (m < sizeof line)
        snprintf(line + m, sizeof line - m,
                 "; per-kernel counters from %s of them, each run serialised (the first %llu of "
                 "each kernel and launch shape; --all-launches for every one)",
                 c, (unsigned long long)s->counter_launches);
    cp_trace_table_wrap(out, "", "  ", line);
}

void cp_trace_table_program_excess_line(FILE *out, const cp_trace_program_excess *e)
{
    char bytes[32], sectors[32], tma[160] = "", conflicts[64] = "", line[512];
    cp_trace_format_bytes(bytes, sizeof bytes, e->excess_bytes);
    cp_trace_table_count(sectors, sizeof sectors, e->excess_sectors);
    if (e->tma_excess_bytes > 0) { /* issue 45: by the maps' geometry */
        char b[32];
        cp_trace_format_bytes(b, sizeof b, e->tma_excess_bytes);
        snprintf(tma, sizeof tma, ", and %s%s of TMA copies by their tensor maps' geometry",
                 e->tma_estimate ? "about " : "", b);
    }
    if (e->bank_conflicts > 0) {
        char c[32];
        cp_trace_table_count(c, sizeof c, e->bank_conflicts);
        snprintf(conflicts, sizeof conflicts, ", %s bank conflicts", c);
    }
    snprintf(line, sizeof line, "%s%s (%s sectors)%s%s%s%s", e->known ? "" : "unknown, ", bytes,
             sectors, e->known ? " in global memory" : " counted",
             e->sampled ? " in the sampled launches" : "", tma, conflicts);
    cp_trace_table_wrap(out, "the program's excess: ", "  ", line);
}

void cp_trace_table_coverage_words(char *buf, size_t n, int by_maps, double tma_excess_bytes,
                                   int tma_estimate, double fraction)
{
    if (by_maps && tma_excess_bytes > 0) {
        char excess[32];
        cp_trace_format_bytes(excess, sizeof excess, tma_excess_bytes);
        snprintf(buf, n, ", TMA judged by its tensor maps (rows of part sectors: %s%s excess)",
                 tma_estimate ? "about " : "", excess);
    } else if (by_maps) {
        snprintf(buf, n, ", TMA judged by its tensor maps (whole sectors: nothing wasted)");
    } else if (isfinite(fraction)) {
        snprintf(buf, n, ", coverage %.1f%%", 100 * fraction);
    } else {
        snprintf(buf, n, ", coverage unknown");
    }
}

/* The selected kernels counted, those launched but not counted, and those whose every launch
 * the selection left out. */
static void cp_trace_table_count_kernels(const cp_trace *t, size_t *counted, size_t *uncounted,
                                         size_t *left_out)
{
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            const cp_trace_kernel *kk = &t->procs[p].kernels[k];
            int out = kk->launches == 0 && kk->has_seen;
            *counted += kk->selected && kk->from != CP_TRACE_FROM_NONE;
            *uncounted += kk->selected && kk->from == CP_TRACE_FROM_NONE && !out;
            *left_out += kk->selected && kk->from == CP_TRACE_FROM_NONE && out;
        }
}

static void cp_trace_table_header(FILE *out, const cp_trace_report *r)
{
    const cp_trace_run *run = r->run;
    const cp_trace *t = r->trace;
    char line[8192];
    if (run && run->program) {
        snprintf(line, sizeof line, "%s", run->program);
        cp_trace_table_wrap(out, "coalprobe trace: ", "                 ", line);
    } else if (run && run->from_raw) {
        size_t len = (size_t)snprintf(line, sizeof line, "raw files in %s", run->from_raw);
        for (size_t i = 1; i < run->nfrom_raw && len < sizeof line; i++)
            len += (size_t)snprintf(line + len, sizeof line - len, " %s", run->from_raw_dirs[i]);
        if (len < sizeof line)
            snprintf(line + len, sizeof line - len, " (--from-raw)");
        cp_trace_table_wrap(out, "coalprobe trace: ", "                 ", line);
    }
    if (run && run->program) {
        char wall[64] = "";
        if (isfinite(run->wall_seconds))
            snprintf(wall, sizeof wall, " after %.3f s", run->wall_seconds);
        if (run->exited)
            fprintf(out, "the program exited with status %d%s\n", run->exit_code, wall);
        else if (run->signaled)
            fprintf(out, "the program was killed by signal %d%s\n", run->term_signal, wall);
    }
    size_t counted = 0, uncounted = 0, left_out = 0;
    cp_trace_table_count_kernels(t, &counted, &uncounted, &left_out);
    fprintf(out, "%zu process%s used CUDA; %zu kernel%s counted", t->nprocs,
            t->nprocs == 1 ? "" : "es", counted, counted == 1 ? "" : "s");
    if (r->nkernel_only)
        fprintf(out, " (%zu only as a whole)", r->nkernel_only);
    if (uncounted)
        fprintf(out, ", %zu launched but not counted", uncounted);
    if (left_out)
        fprintf(out, ", %zu left out by the selection", left_out);
    if (r->options->kernel_regex) {
        size_t all = 0;
        for (size_t p = 0; p < t->nprocs; p++)
            all += t->procs[p].nkernels;
        fprintf(out, " (%zu of %zu match --kernel)", r->nselected, all);
    }
    fputc('\n', out);
    cp_trace_table_collection(out, r);
    if (r->counted) {
        cp_trace_program_excess e = {.excess_bytes = r->program.excess_bytes,
                                     .excess_sectors = r->program.excess_sectors,
                                     .known = r->program_coverage.excess_known,
                                     .sampled = r->selection && r->selection->instructions_sampled,
                                     .tma_excess_bytes = r->program_coverage.tma_excess_bytes,
                                     .tma_estimate = r->program_coverage.tma_edge,
                                     .bank_conflicts = r->program.bank_conflicts};
        cp_trace_table_program_excess_line(out, &e);
        const cp_trace_coverage *c = &r->program_coverage;
        if (isfinite(c->fraction)) {
            char text[600];
            snprintf(text, sizeof text,
                     "coverage: %.1f%% of the global traffic counted per instruction%s%s",
                     100 * c->fraction, c->reason[0] ? "; " : "", c->reason);
            cp_trace_table_wrap(out, "", "  ", text);
        } else if (c->reason[0]) {
            cp_trace_table_wrap(out, "coverage: ", "  ", c->reason);
        }
    } else {
        cp_trace_table_wrap(out, "no counts: ", "  ", r->no_counts_reason);
        if (r->no_counts_fix[0])
            cp_trace_table_wrap(out, "hint: ", "      ", r->no_counts_fix);
    }
    if (!r->complete)
        cp_trace_table_wrap(out, "INCOMPLETE: ", "  ", r->incomplete_reason);
    for (size_t i = 0; i < t->nnotes; i++)
        cp_trace_table_wrap(out, "note: ", "      ", t->notes[i]);
}

static void cp_trace_table_process(FILE *out, const cp_trace_process *p)
{
    char line[8192], label[512];
    cp_trace_process_label(p, label, sizeof label);
    snprintf(line, sizeof line, "%s%s: ", label,
             p->complete && !p->truncated ? "" : " (incomplete)");
    char cmd[CP_TRACE_TABLE_WIDTH + 1];
    cp_trace_table_clip(cmd, sizeof cmd, p->command ? p->command : "?",
                        CP_TRACE_TABLE_WIDTH - strlen(line));
    fprintf(out, "\n%s%s\n", line, cmd);
    for (size_t i = 0; i < p->ndevices; i++) {
        const cp_trace_device *d = &p->devices[i];
        snprintf(line, sizeof line, "device %u: %s (%s, compute capability %s)", d->ordinal,
                 d->name, d->chip, d->cc);
        cp_trace_table_wrap(out, "  ", "    ", line);
    }
    for (size_t i = 0; i < p->nmissing; i++) {
        snprintf(line, sizeof line, "missing metric %s: %s", p->missing[i].a, p->missing[i].b);
        cp_trace_table_wrap(out, "  ", "    ", line);
    }
    for (size_t i = 0; i < p->nrefusals; i++) {
        const cp_trace_refusal *x = &p->refusals[i];
        const char *cause;
        char fix[512];
        cp_trace_refusal_text(x->code, &cause, fix, sizeof fix);
        snprintf(line, sizeof line, "CUPTI refused: %s (%s from %s: %s)", cause, x->name, x->call,
                 x->message);
        cp_trace_table_wrap(out, "  ", "    ", line);
        cp_trace_table_wrap(out, "  hint: ", "        ", fix);
    }
    for (size_t i = 0; i < p->ndropped; i++) {
        char count[32];
        cp_trace_table_count(count, sizeof count, (double)p->dropped[i].count);
        snprintf(line, sizeof line, "DROPPED: %s record%s on device %u: %s", count,
                 p->dropped[i].count == 1 ? "" : "s", p->dropped[i].device, p->dropped[i].reason);
        cp_trace_table_wrap(out, "  ", "    ", line);
    }
    for (size_t i = 0; i < p->nunmatched; i++) {
        char count[32];
        const cp_trace_dropped *u = &p->unmatched[i];
        cp_trace_table_count(count, sizeof count, (double)u->count);
        snprintf(line, sizeof line,
                 "UNMATCHED: %s kernel record%s on device %u belong to no launch coalprobe could "
                 "name (%s): in no kernel and no total",
                 count, u->count == 1 ? "" : "s", u->device, u->reason);
        cp_trace_table_wrap(out, "  ", "    ", line);
    }
    if (p->malformed) {
        snprintf(line, sizeof line, "%s: %zu malformed line%s skipped", p->file, p->malformed,
                 p->malformed == 1 ? "" : "s");
        cp_trace_table_wrap(out, "  note: ", "        ", line);
    }
    for (size_t i = 0; i < p->nnotes; i++)
        cp_trace_table_wrap(out, "  note: ", "        ", p->notes[i]);
}

/* Why a kernel's coverage leaves its excess unknown: the part counted and what was not. */
static void cp_trace_table_coverage(FILE *out, const cp_trace_coverage *c)
{
    char line[640];
    if (isfinite(c->fraction))
        snprintf(line, sizeof line,
                 "coverage: %.1f%% of its global traffic counted per instruction; %s",
                 100 * c->fraction, c->reason);
    else
        snprintf(line, sizeof line, "coverage: unknown: %s", c->reason);
    cp_trace_table_wrap(out, "    ", "      ", line);
}

/* The tensor maps the process encoded on the host, one line each (wrapped), with the verdict on
 * whole sectors; nothing when there are none. */
static void cp_trace_table_tmaps(FILE *out, const cp_trace_process *p)
{
    if (!p->tmaps_watched || (!p->tmap_encodes && !p->tmap_replaced))
        return;
    char line[1024], extra[160] = "";
    if (p->tmap_unrecorded)
        snprintf(extra, sizeof extra, ", %" PRIu64 " not shown (over 256 distinct maps)",
                 p->tmap_unrecorded);
    snprintf(line, sizeof line,
             "tensor maps encoded on the host: %" PRIu64 " encode%s, %" PRIu64
             " address%s replaced%s",
             p->tmap_encodes, p->tmap_encodes == 1 ? "" : "s", p->tmap_replaced,
             p->tmap_replaced == 1 ? "" : "es", extra);
    fputc('\n', out);
    cp_trace_table_wrap(out, "  ", "    ", line);
    for (size_t i = 0; i < p->ntmaps; i++) {
        const cp_trace_tmap *m = &p->tmaps[i];
        cp_trace_tmap_judgement j;
        cp_trace_tmap_judge(m, &j);
        char box[96], dims[128], strides[128];
        cp_trace_tmap_list(box, sizeof box, m->box, m->nbox, "x");
        cp_trace_tmap_list(dims, sizeof dims, m->dims, m->rank, "x");
        cp_trace_tmap_list(strides, sizeof strides, m->strides, m->rank - 1, ",");
        char strides_text[160] = "";
        if (m->rank > 1)
            snprintf(strides_text, sizeof strides_text, ", strides %s B", strides);
        snprintf(
            line, sizeof line, "#%zu: %" PRIu64 " x %s %s rank %u: box %s%s of %s%s, swizzle %s", i,
            m->count, m->kind, m->data_type, m->rank, box,
            strcmp(m->kind, "tiled") ? " (channels x pixels)" : "", dims, strides_text, m->swizzle);
        cp_trace_table_wrap(out, "    ", "      ", line);
        snprintf(line, sizeof line, "whole sectors: %s%s%s",
                 !j.known          ? "unknown"
                 : j.whole_sectors ? "yes"
                                   : "no",
                 j.whole_sectors ? "" : ": ", j.whole_sectors ? "" : j.reason);
        cp_trace_table_wrap(out, "      ", "        ", line);
    }
}

/* A kernel's launches: "1400 launches", and where the selection or the sampling left some out
 * "1400 launches counted of 2000 seen, counters from 5 of 1400 launches" (or "no per-kernel
 * counters" when a library that samples gave it none). */
static void cp_trace_table_launches(const cp_trace_report *r, const cp_trace_kernel *k, char *buf,
                                    size_t n)
{
    char counted[96] = "", sampled[96] = "";
    if (k->has_seen && k->launches_seen > k->launches)
        snprintf(counted, sizeof counted, " counted of %llu seen",
                 (unsigned long long)k->launches_seen);
    if (cp_trace_kernel_sampled(k))
        snprintf(sampled, sizeof sampled, ", %scounters from %llu of %llu launches",
                 cp_trace_kernel_instructions_sampled(k) ? "instructions and " : "",
                 (unsigned long long)k->kc.records, (unsigned long long)k->launches);
    else if (r->selection && k->kc.records == 0 && k->launches > 0)
        snprintf(sampled, sizeof sampled, ", no per-kernel counters");
    snprintf(buf, n, "%llu launch%s%s%s", (unsigned long long)k->launches,
             k->launches == 1 ? "" : "es", counted, sampled);
}

/* ", 1.5 ms on the GPU" from k's kernel records (" in those": of the sampled launches only), or
 * nothing. */
static void cp_trace_table_gpu_time(const cp_trace_kernel *k, char *gpu, size_t n)
{
    if (!cp_trace_kc_has(&k->kc, CP_TRACE_K_DURATION))
        return;
    double seconds = k->kc.value[CP_TRACE_K_DURATION] * 1e-9;
    const char *in = cp_trace_kernel_sampled(k) ? " in those" : "";
    if (seconds >= 1)
        snprintf(gpu, n, ", %.3g s on the GPU%s", seconds, in);
    else if (seconds >= 1e-3)
        snprintf(gpu, n, ", %.3g ms on the GPU%s", seconds * 1e3, in);
    else
        snprintf(gpu, n, ", %.3g us on the GPU%s", seconds * 1e6, in);
}

/* The tensor maps a kernel's launches passed (their numbers in the process's list below), and,
 * for a kernel that ran TMA copies, the launches that passed a 128-byte parameter that is no map
 * encoded on the host while traced. */
static void cp_trace_table_kernel_tmaps(FILE *out, const cp_trace_kernel *k)
{
    uint64_t unseen = k->d.tma_requests > 0 ? k->tmap_unseen : 0;
    if (!k->ntmaps && !unseen)
        return;
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line, "tensor maps passed:");
    for (size_t i = 0; i < k->ntmaps && n < sizeof line; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s #%zu (%" PRIu64 " launch%s)",
                              i ? "," : "", k->tmaps[i].map, k->tmaps[i].launches,
                              k->tmaps[i].launches == 1 ? "" : "es");
    if (unseen && n < sizeof line)
        snprintf(line + n, sizeof line - n,
                 "%s %" PRIu64 " launch%s passed a 128-byte parameter that is no map encoded on "
                 "the host while traced",
                 k->ntmaps ? ";" : "", unseen, unseen == 1 ? "" : "es");
    cp_trace_table_wrap(out, "    ", "      ", line);
}

void cp_trace_table_kernel_totals(FILE *out, const cp_trace_derived *d, int excess_known,
                                  const char *share)
{
    char line[512], a[32], b[32], c[32], e[32];
    if (d->requests > 0) {
        cp_trace_table_count(a, sizeof a, d->requests);
        cp_trace_table_ratio(b, sizeof b, d->sectors_per_request);
        cp_trace_table_ratio(c, sizeof c, d->ideal_sectors_per_request);
        cp_trace_format_bytes(e, sizeof e, d->excess_bytes);
        if (excess_known)
            snprintf(line, sizeof line,
                     "global: %s requests, %s sectors/request where %s would do, %s excess%s", a, b,
                     c, e, share);
        else
            snprintf(line, sizeof line,
                     "global: %s requests, %s sectors/request where %s would do, excess unknown "
                     "(%s counted)",
                     a, b, c, e);
        cp_trace_table_wrap(out, "    ", "      ", line);
    }
    if (d->shared_requests > 0) {
        cp_trace_table_count(a, sizeof a, d->shared_requests);
        cp_trace_table_ratio(b, sizeof b, d->wavefronts_per_request);
        cp_trace_table_ratio(c, sizeof c, d->ideal_wavefronts_per_request);
        cp_trace_table_count(e, sizeof e, d->bank_conflicts);
        snprintf(line, sizeof line,
                 "shared: %s requests, %s wavefronts/request where %s would do, %s bank conflicts",
                 a, b, c, e);
        cp_trace_table_wrap(out, "    ", "      ", line);
    }
}

/* A kernel's heading: its name, launches, time on the GPU, and its global and shared totals. */
static void cp_trace_table_kernel_head(FILE *out, const cp_trace_report *r,
                                       const cp_trace_kernel *k)
{
    char name[CP_TRACE_TABLE_WIDTH + 1], line[1024];
    cp_trace_table_clip(name, sizeof name, k->name ? k->name : k->function,
                        CP_TRACE_TABLE_WIDTH - 9);
    fprintf(out, "\n  kernel %s\n", name);
    char crc[32] = "";
    if (k->has_crc)
        snprintf(crc, sizeof crc, ", cubin %08x", k->crc);
    char gpu[64] = "";
    cp_trace_table_gpu_time(k, gpu, sizeof gpu);
    char coverage[160] = "";
    if (k->from != CP_TRACE_FROM_NONE)
        cp_trace_table_coverage_words(coverage, sizeof coverage, k->cov.by_maps,
                                      k->cov.tma_excess_bytes, k->cov.tma_edge, k->cov.fraction);
    char launches[300];
    cp_trace_table_launches(r, k, launches, sizeof launches);
    snprintf(line, sizeof line, "device %u, %s%s%s%s%s", k->device, launches, gpu, crc,
             k->nosource ? ", no line information" : "", coverage);
    cp_trace_table_wrap(out, "    ", "      ", line);
    if (k->inductor.wrapper) {
        snprintf(line, sizeof line, "torch.compile: from %.300s (%.300s), launched in %.300s",
                 k->inductor.nodes, k->inductor.aten, k->inductor.wrapper);
        cp_trace_table_wrap(out, "    ", "      ", line);
    }
    const cp_trace_derived *d = &k->d;
    char share[32] = "";
    if (r->program.excess_bytes > 0 && d->excess_bytes > 0)
        snprintf(share, sizeof share, " (%.1f%%)", 100 * d->excess_bytes / r->program.excess_bytes);
    cp_trace_table_kernel_totals(out, d, k->cov.excess_known, share);
    if (k->from != CP_TRACE_FROM_NONE && !k->cov.excess_known) /* bytes nobody counted */
        cp_trace_table_coverage(out, &k->cov);
    cp_trace_table_kernel_tmaps(out, k);
    if (d->ldgsts_requests > 0) { /* of the global requests above: the cp.async copies */
        char a[32], b[32], c[32];
        cp_trace_table_count(a, sizeof a, d->ldgsts_requests);
        cp_trace_table_ratio(b, sizeof b, d->fill_wavefronts_per_request);
        cp_trace_table_ratio(c, sizeof c, d->ideal_fill_wavefronts_per_request);
        snprintf(line, sizeof line,
                 "cp.async: %s of the global requests, their shared fill %s wavefronts/request "
                 "where %s would do",
                 a, b, c);
        cp_trace_table_wrap(out, "    ", "      ", line);
    }
}

/* One instruction's row, and what its numbers mean under it: from a run or a saved report. */
void cp_trace_table_instr_row(FILE *out, const cp_trace_values *v)
{
    static const char *const requests[] = {"requests", "shared_requests", "local_requests",
                                           "tma_requests", "gmma_requests"};
    char rank[24], where[64], pc[24], kind[8], req[32], spr[32], ispr[32], wpr[32], iwpr[32],
        excess[32], share[32], buf[700], text[1200];
    double global = cp_trace_value(v, "requests"), line = cp_trace_value(v, "line"), all = 0;
    snprintf(rank, sizeof rank, "%.0f", cp_trace_value(v, "rank"));
    cp_trace_table_where_text(where, sizeof where, cp_trace_value_text(v, "file", buf, sizeof buf),
                              isfinite(line) ? (uint32_t)line : 0);
    snprintf(pc, sizeof pc, "0x%04llx", (unsigned long long)cp_trace_value(v, "pc"));
    const char *k = cp_trace_value_text(v, "kind", buf, sizeof buf);
    snprintf(kind, sizeof kind, "%s", k ? k : "-");
    for (size_t i = 0; i < CP_COUNT_OF(requests); i++)
        all += cp_trace_or_zero(cp_trace_value(v, requests[i]));
    cp_trace_table_count(req, sizeof req, all);
    cp_trace_table_ratio(spr, sizeof spr, cp_trace_value(v, "sectors_per_request"));
    cp_trace_table_ratio(ispr, sizeof ispr, cp_trace_value(v, "ideal_sectors_per_request"));
    int fill = cp_trace_value(v, "ldgsts_requests") > 0; /* an LDGSTS's shared side: its fill */
    cp_trace_table_ratio(
        wpr, sizeof wpr,
        cp_trace_value(v, fill ? "fill_wavefronts_per_request" : "wavefronts_per_request"));
    cp_trace_table_ratio(iwpr, sizeof iwpr,
                         cp_trace_value(v, fill ? "ideal_fill_wavefronts_per_request"
                                                : "ideal_wavefronts_per_request"));
    if (global > 0)
        cp_trace_format_bytes(excess, sizeof excess, cp_trace_value(v, "excess_bytes"));
    else
        snprintf(excess, sizeof excess, "-");
    cp_trace_table_pct(share, sizeof share,
                       cp_trace_value(v, global > 0 ? "excess_share" : "conflict_share"));
    /* each in its column's cell (cp_trace_columns.c): the requests of every kind, an LDGSTS's
     * fill as its wavefronts, a shared access's share of the conflicts */
    const struct {
        const char *key, *cell;
    } made[CP_TRACE_TABLE_CELLS] = {
        {"rank", rank},
        {"file", where},
        {"pc", pc},
        {"kind", kind},
        {"requests", req},
        {"sectors_per_request", spr},
        {"ideal_sectors_per_request", ispr},
        {"wavefronts_per_request", wpr},
        {"ideal_wavefronts_per_request", iwpr},
        {"excess_bytes", excess},
        {"excess_share", share},
    };
    const char *cells[CP_TRACE_TABLE_CELLS] = {0};
    for (size_t i = 0; i < CP_TRACE_TABLE_CELLS; i++) {
        int at = cp_trace_text_cell(made[i].key);
        if (at >= 0)
            cells[at] = made[i].cell;
    }
    cp_trace_table_row(out, cells);
    char opcode[200], meaning[700]; /* a run's text is made in them */
    const char *op = cp_trace_value_text(v, "opcode", opcode, sizeof opcode);
    const char *says = cp_trace_value_text(v, "meaning", meaning, sizeof meaning);
    snprintf(text, sizeof text, "%s%s%s", op ? op : "", op ? ": " : "", says ? says : "");
    if (text[0])
        cp_trace_table_wrap(out, "         ", "           ", text);
}

static void cp_trace_table_kernel(FILE *out, const cp_trace_report *r, const cp_trace_kernel *k)
{
    cp_trace_table_kernel_head(out, r, k);
    const cp_trace_derived *d = &k->d;
    if (k->from == CP_TRACE_FROM_KERNEL) {
        cp_trace_table_wrap(
            out, "    ", "      ",
            k->instructions_zero
                ? "counted as a whole only: CUPTI's per-instruction counts are zero for "
                  "it (seen for a function launched once)"
                : "counted as a whole only: CUPTI gave no per-instruction records for it");
        char meaning[700];
        cp_trace_meaning(d, meaning, sizeof meaning);
        if (meaning[0])
            cp_trace_table_wrap(out, "    whole kernel: ", "      ", meaning);
        return;
    }
    size_t executed = 0;
    for (size_t i = 0; i < k->ninstrs; i++)
        executed += k->instrs[i].rank > 0;
    if (executed == 0) {
        fprintf(out, "    no memory instruction of it ran\n");
        return;
    }
    size_t shown = executed < r->options->top ? executed : r->options->top;
    if (shown)
        cp_trace_table_row_header(out);
    /* instructions are in rank order inside the kernel; ranks count over the whole report */
    for (size_t i = 0, listed = 0; i < k->ninstrs && listed < shown; i++) {
        const cp_trace_instr *in = &k->instrs[i];
        if (!in->rank)
            continue;
        listed++;
        const cp_trace_values v = {in, k, NULL, NULL, NULL, NULL};
        cp_trace_table_instr_row(out, &v);
    }
    if (executed > shown)
        fprintf(out, "    ... %zu more instruction%s (--top N shows more; JSON and CSV hold all)\n",
                executed - shown, executed - shown == 1 ? "" : "s");
}

static void cp_trace_limits(char *buf, size_t n, const cp_trace_options *o)
{
    char a[64] = "", b[64] = "", c[64] = "", d[64] = "";
    if (isfinite(o->max_sectors_per_request))
        snprintf(a, sizeof a, "at most %g sectors/request", o->max_sectors_per_request);
    if (isfinite(o->max_excess_pct))
        snprintf(b, sizeof b, "%sat most %g%% excess", a[0] ? ", " : "", o->max_excess_pct);
    if (isfinite(o->min_coverage))
        snprintf(d, sizeof d, "%scoverage at least %g", a[0] || b[0] ? ", " : "", o->min_coverage);
    if (o->min_requests && (a[0] || b[0]))
        snprintf(c, sizeof c, ", instructions of %llu+ requests",
                 (unsigned long long)o->min_requests);
    snprintf(buf, n, "%s%s%s%s", a, b, d, c);
}

static void cp_trace_violations_write(FILE *err, const cp_trace_report *r);

/* One line of a kernel not counted: its name clipped to the table, its device and launches. */
static void cp_trace_table_uncounted(FILE *out, const cp_trace_kernel *kk, uint64_t launches)
{
    char name[CP_TRACE_TABLE_WIDTH + 1], tail[64];
    snprintf(tail, sizeof tail, " (device %u, %llu launch%s)", kk->device,
             (unsigned long long)launches, launches == 1 ? "" : "es");
    cp_trace_table_clip(name, sizeof name, kk->name ? kk->name : kk->function,
                        CP_TRACE_TABLE_WIDTH - 4 - strlen(tail));
    fprintf(out, "    %s%s\n", name, tail);
}

/* The selected kernels of proc the library saw and the selection left out entirely. */
static void cp_trace_table_left_out(FILE *out, const cp_trace_process *proc)
{
    fprintf(out, "\n  seen, every launch left out by the selection:\n");
    for (size_t k = 0; k < proc->nkernels; k++) {
        const cp_trace_kernel *kk = &proc->kernels[k];
        if (kk->selected && kk->from == CP_TRACE_FROM_NONE && kk->launches == 0 && kk->has_seen)
            cp_trace_table_uncounted(out, kk, kk->launches_seen);
    }
}

/* The table, as it is; cp_trace_write_table escapes it on its way out. */
static void cp_trace_table_write(FILE *out, const cp_trace_report *r)
{
    const cp_trace *t = r->trace;
    cp_trace_table_header(out, r);
    cp_trace_where_table_ranks(out, r);
    int grouped = r->options->group_by != CP_TRACE_GROUP_KERNEL;
    if (grouped) /* the groups instead of each process's kernels */
        cp_trace_where_table_groups(out, r);
    for (size_t p = 0; p < t->nprocs; p++) {
        const cp_trace_process *proc = &t->procs[p];
        cp_trace_table_process(out, proc);
        size_t uncounted = 0, left_out = 0;
        for (size_t k = 0; k < proc->nkernels && !grouped; k++) {
            const cp_trace_kernel *kk = &proc->kernels[k];
            if (!kk->selected)
                continue;
            if (kk->from != CP_TRACE_FROM_NONE)
                cp_trace_table_kernel(out, r, kk);
            else if (kk->launches == 0 && kk->has_seen)
                left_out++;
            else
                uncounted++;
        }
        if (left_out)
            cp_trace_table_left_out(out, proc);
        if (uncounted) {
            fprintf(out, "\n  launched, not counted (%s):\n",
                    proc->selection.instructions_sampled
                        ? "--instructions sampled, and none of their launches was sampled"
                        : "CUPTI returned no records for them");
            for (size_t k = 0; k < proc->nkernels; k++) {
                const cp_trace_kernel *kk = &proc->kernels[k];
                if (kk->selected && kk->from == CP_TRACE_FROM_NONE)
                    cp_trace_table_uncounted(out, kk, kk->launches);
            }
        }
        cp_trace_table_tmaps(out, proc);
    }
    if (r->gate_checked) {
        char limits[256], line[1024], judged[192];
        cp_trace_limits(limits, sizeof limits, r->options);
        size_t instrs = r->gate_judged - r->gate_judged_kernels;
        char cov[64] = "";
        if (isfinite(r->options->min_coverage))
            snprintf(cov, sizeof cov, "%s%zu %s coverage",
                     isfinite(r->options->max_sectors_per_request) ||
                             isfinite(r->options->max_excess_pct)
                         ? " and "
                         : "",
                     r->gate_judged_coverage,
                     r->gate_judged_coverage == 1 ? "kernel's" : "kernels'");
        if (!isfinite(r->options->max_sectors_per_request) && !isfinite(r->options->max_excess_pct))
            snprintf(judged, sizeof judged, "%s", cov);
        else if (r->gate_judged_kernels)
            snprintf(judged, sizeof judged,
                     "%zu instruction%s and %zu kernel%s counted as a whole%s", instrs,
                     instrs == 1 ? "" : "s", r->gate_judged_kernels,
                     r->gate_judged_kernels == 1 ? "" : "s", cov);
        else
            snprintf(judged, sizeof judged, "%zu instruction%s%s", instrs, instrs == 1 ? "" : "s",
                     cov);
        if (r->gate_empty)
            snprintf(line, sizeof line, "NOTHING JUDGED (%s): %s; an error, exit 1", limits,
                     r->gate_empty_reason);
        else if (r->nviolations)
            snprintf(line, sizeof line,
                     "FAILED: %zu violation%s among %s judged (%s); the offending lines are on "
                     "standard error",
                     r->nviolations, r->nviolations == 1 ? "" : "s", judged, limits);
        else
            snprintf(line, sizeof line, "passed: %s judged (%s)", judged, limits);
        fputc('\n', out);
        cp_trace_table_wrap(out, "gate: ", "      ", line);
    }
}

/* Writes text (len bytes) line by line with every control character but the line breaks
 * escaped: names from the raw files (kernels, files, the program's arguments) reach a terminal
 * as visible text, never as escape sequences. */
static void cp_trace_table_emit(FILE *out, char *text, size_t len)
{
    char *end = text + len;
    for (char *line = text; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl)
            *nl = '\0';
        cp_text_put_printable(out, line);
        if (!nl)
            break;
        fputc('\n', out);
        line = nl + 1;
    }
}

/* Runs write(out-like stream, r) into memory and emits the text escaped; -1 when out of memory. */
static int cp_trace_table_escaped(FILE *out, const cp_trace_report *r,
                                  void (*write)(FILE *, const cp_trace_report *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return -1;
    write(mem, r);
    int bad = ferror(mem);
    if (fclose(mem) != 0 || bad) {
        free(text);
        return -1;
    }
    cp_trace_table_emit(out, text, len);
    free(text);
    return 0;
}

int cp_trace_write_table(FILE *out, const cp_trace_report *r, cp_status *st)
{
    errno = 0;
    if (cp_trace_table_escaped(out, r, cp_trace_table_write) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory writing the trace report");
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the trace report: %s",
                             strerror(errno ? errno : EIO));
    return CP_EXIT_OK;
}

void cp_trace_write_violations(FILE *err, const cp_trace_report *r)
{
    if (cp_trace_table_escaped(err, r, cp_trace_violations_write) != 0)
        cp_trace_violations_write(err, r); /* out of memory: as they are, rather than not at all */
}

static void cp_trace_violations_write(FILE *err, const cp_trace_report *r)
{
    for (size_t i = 0; i < r->nviolations; i++) {
        const cp_trace_violation *v = &r->violations[i];
        char where[4400], what[128];
        if (v->instr)
            cp_trace_where(v->kernel, v->instr, where, sizeof where);
        if (strcmp(v->what, "sectors_per_request") == 0)
            snprintf(what, sizeof what, "%.2f sectors/request > %g", v->value, v->limit);
        else if (strcmp(v->what, "coverage") == 0 && isfinite(v->value))
            snprintf(what, sizeof what,
                     "%.1f%% of its global traffic counted per instruction < %g%%", 100 * v->value,
                     100 * v->limit);
        else if (strcmp(v->what, "coverage") == 0)
            snprintf(what, sizeof what,
                     "coverage unknown (TMA or local instructions ran, their counters were not "
                     "collected)");
        else if (strcmp(v->what, "excess_pct") == 0)
            snprintf(what, sizeof what, "%.1f%% of its sectors in excess > %g%%", v->value,
                     v->limit);
        else
            snprintf(what, sizeof what, "%.1f%% of its wavefronts bank conflicts > %g%%", v->value,
                     v->limit);
        if (v->instr)
            fprintf(err, "coalprobe: gate: %s (pc 0x%04x, rank %zu, process %ld): %s\n", where,
                    v->instr->pc, v->instr->rank, v->proc->pid, what);
        else
            fprintf(err, "coalprobe: gate: kernel %s (%s, process %ld): %s\n",
                    v->kernel->name ? v->kernel->name : v->kernel->function,
                    strcmp(v->what, "coverage") == 0 ? "as a whole" : "counted as a whole",
                    v->proc->pid, what);
    }
}
