/* cp_trace_analyze.c: what a trace means: per kernel and per instruction requests, sectors
 * against the ideal, excess bytes, shared wavefronts and bank conflicts; every instruction
 * ranked by the bytes it wastes, its share of the program's waste, one line of meaning in
 * coalprobe's own terms, the gate, and why a trace may hold no counts. One file over 800 lines:
 * the selection, the sums, the ranks and the gate are one pass over the same kernel and
 * instruction fields, in an order cp_trace_analyze fixes, sharing its static helpers. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "measure/cp_measure.h"

/* ---- counts and their meaning --------------------------------------------------------------- */

static int cp_trace_has(const cp_trace_counts *c, int m)
{
    return (c->has >> m) & 1u;
}

static double cp_trace_get(const cp_trace_counts *c, int m)
{
    return cp_trace_has(c, m) ? (double)c->value[m] : NAN;
}

static double cp_trace_ratio(double num, double den)
{
    return isfinite(num) && isfinite(den) && den > 0 ? num / den : NAN;
}

/* The sum of metrics ms[0..n), NAN when none was recorded (a missing one counts as 0). */
static double cp_trace_sum(const cp_trace_counts *c, const int *ms, size_t n)
{
    double sum = 0;
    int any = 0;
    for (size_t i = 0; i < n; i++)
        if (cp_trace_has(c, ms[i])) {
            sum += (double)c->value[ms[i]];
            any = 1;
        }
    return any ? sum : NAN;
}

/* What one side of the memory did, global (sectors) or shared (wavefronts): its requests, what
 * they took and would ideally take, the excess over the ideal, per request and in percent (the
 * last three may be NULL where a side has no such number). */
typedef struct cp_trace_side {
    double *requests, *actual, *ideal, *excess, *per_request, *ideal_per_request, *pct;
} cp_trace_side;

/* Derives one side from the counts: `requests` its requests, actual and ideal its metrics. */
static void cp_trace_derive_side(const cp_trace_counts *c, double requests, int actual, int ideal,
                                 cp_trace_side x)
{
    double excess;
    *x.requests = requests;
    *x.actual = cp_trace_get(c, actual);
    *x.ideal = cp_trace_get(c, ideal);
    excess = isfinite(*x.actual) && isfinite(*x.ideal) ? fmax(0, *x.actual - *x.ideal) : NAN;
    *x.per_request = cp_trace_ratio(*x.actual, requests);
    *x.ideal_per_request = cp_trace_ratio(*x.ideal, requests);
    if (x.excess)
        *x.excess = excess;
    if (x.pct)
        *x.pct = 100 * cp_trace_ratio(excess, *x.actual);
}

void cp_trace_derive(const cp_trace_counts *c, cp_trace_derived *d)
{
    static const int global[] = {CP_TRACE_M_GLOBAL_LD, CP_TRACE_M_GLOBAL_ST, CP_TRACE_M_LDGSTS,
                                 CP_TRACE_M_GLOBAL_ATOM, CP_TRACE_M_GLOBAL_RED};
    static const int shared[] = {CP_TRACE_M_SHARED_LD, CP_TRACE_M_SHARED_ST, CP_TRACE_M_LDSM,
                                 CP_TRACE_M_STSM};
    static const int atomic[] = {CP_TRACE_M_GLOBAL_ATOM, CP_TRACE_M_GLOBAL_RED};
    static const int local[] = {CP_TRACE_M_LOCAL_LD, CP_TRACE_M_LOCAL_ST};
    static const int tma[] = {CP_TRACE_M_TMA_LD, CP_TRACE_M_TMA_ST};
    d->atomic_requests = cp_trace_sum(c, atomic, CP_COUNT_OF(atomic));
    d->local_requests = cp_trace_sum(c, local, CP_COUNT_OF(local));
    d->tma_requests = cp_trace_sum(c, tma, CP_COUNT_OF(tma));
    d->gmma_requests = cp_trace_get(c, CP_TRACE_M_GMMA);
    d->gmma_wavefronts = cp_trace_get(c, CP_TRACE_M_GMMA_WAVEFRONTS);
    cp_trace_derive_side(c, cp_trace_sum(c, global, CP_COUNT_OF(global)), CP_TRACE_M_SECTORS,
                         CP_TRACE_M_SECTORS_IDEAL,
                         (cp_trace_side){&d->requests, &d->sectors, &d->ideal_sectors,
                                         &d->excess_sectors, &d->sectors_per_request,
                                         &d->ideal_sectors_per_request, &d->excess_pct});
    d->excess_bytes = d->excess_sectors * CP_SECTOR_BYTES;
    cp_trace_derive_side(c, cp_trace_sum(c, shared, CP_COUNT_OF(shared)), CP_TRACE_M_WAVEFRONTS,
                         CP_TRACE_M_WAVEFRONTS_IDEAL,
                         (cp_trace_side){&d->shared_requests, &d->wavefronts, &d->ideal_wavefronts,
                                         &d->bank_conflicts, &d->wavefronts_per_request,
                                         &d->ideal_wavefronts_per_request, &d->conflict_pct});
    cp_trace_derive_side(c, cp_trace_get(c, CP_TRACE_M_LDGSTS), CP_TRACE_M_FILL_WAVEFRONTS,
                         CP_TRACE_M_FILL_WAVEFRONTS_IDEAL,
                         (cp_trace_side){&d->ldgsts_requests, &d->fill_wavefronts,
                                         &d->ideal_fill_wavefronts, NULL,
                                         &d->fill_wavefronts_per_request,
                                         &d->ideal_fill_wavefronts_per_request, NULL});
}

/* One instruction's global sectors are not seen when it made no global request the sector metrics
 * count but ran as a TMA copy, a local load or store or a wgmma: the per-instruction sector metrics
 * do not count their bytes, so its sectors, ideal sectors and excess are unknown (NAN: null in
 * JSON, empty in CSV, "-" in the table), never 0. A kernel's totals keep the counted sectors and
 * say through its coverage what they leave out. */
static void cp_trace_unseen_sectors(cp_trace_derived *d)
{
    if (d->requests > 0 || !(d->tma_requests > 0 || d->local_requests > 0 || d->gmma_requests > 0))
        return;
    d->sectors = d->ideal_sectors = d->excess_sectors = d->excess_bytes = NAN;
}

/* Moves the wavefronts of c (one instruction) into the metrics to[2], when its count of metric
 * `kind` is not zero. */
static void cp_trace_move_wavefronts(cp_trace_counts *c, int kind, const int to[2])
{
    if (!cp_trace_has(c, kind) || c->value[kind] == 0)
        return;
    static const int from[] = {CP_TRACE_M_WAVEFRONTS, CP_TRACE_M_WAVEFRONTS_IDEAL};
    for (size_t i = 0; i < CP_COUNT_OF(from); i++) {
        if (!cp_trace_has(c, from[i]))
            continue;
        c->value[to[i]] = c->value[from[i]];
        c->has |= 1u << to[i];
        c->value[from[i]] = 0;
        c->has &= ~(1u << from[i]);
    }
}

/* An LDGSTS instruction's shared wavefronts are those of its fill, a wgmma's those of its reads:
 * each moved to metrics of their own, so that a kernel's shared wavefronts and bank conflicts
 * count LDS, STS, LDSM and STSM only. */
static void cp_trace_split_wavefronts(cp_trace_counts *c)
{
    static const int fill[] = {CP_TRACE_M_FILL_WAVEFRONTS, CP_TRACE_M_FILL_WAVEFRONTS_IDEAL};
    static const int gmma[] = {CP_TRACE_M_GMMA_WAVEFRONTS, CP_TRACE_M_GMMA_WAVEFRONTS_IDEAL};
    cp_trace_move_wavefronts(c, CP_TRACE_M_LDGSTS, fill);
    cp_trace_move_wavefronts(c, CP_TRACE_M_GMMA, gmma);
}

/* 1 when the instruction ran at least once (global or shared requests). */
static int cp_trace_executed(const cp_trace_derived *d)
{
    const double runs[] = {d->requests, d->shared_requests, d->local_requests, d->tma_requests,
                           d->gmma_requests};
    for (size_t i = 0; i < CP_COUNT_OF(runs); i++)
        if (isfinite(runs[i]) && runs[i] > 0)
            return 1;
    return 0;
}

/* The instruction kinds that have a metric of their own: the metric, and the instruction's op,
 * space and kind when it counts. */
static const struct {
    int metric;
    const char *op, *space, *kind;
} cp_trace_kinds[] = {
    {CP_TRACE_M_LDGSTS, "load", "global_to_shared", "ldgsts"},
    {CP_TRACE_M_GLOBAL_ATOM, "atomic", "global", "atom"},
    {CP_TRACE_M_GLOBAL_RED, "reduction", "global", "red"},
    {CP_TRACE_M_LOCAL_LD, "load", "local", "ld.lc"},
    {CP_TRACE_M_LOCAL_ST, "store", "local", "st.lc"},
    {CP_TRACE_M_LDSM, "load", "shared", "ldsm"},
    {CP_TRACE_M_STSM, "store", "shared", "stsm"},
    {CP_TRACE_M_GMMA, "mma", "shared", "hgmma"},
    {CP_TRACE_M_TMA_LD, "load", "global_to_shared", "tma.ld"},
    {CP_TRACE_M_TMA_ST, "store", "shared_to_global", "tma.st"},
};

/* The entry of cp_trace_kinds instruction i counts in, or -1 (a plain load or store). */
static int cp_trace_special(const cp_trace_instr *i)
{
    for (size_t k = 0; k < CP_COUNT_OF(cp_trace_kinds); k++)
        if (i->counts.value[cp_trace_kinds[k].metric] > 0)
            return (int)k;
    return -1;
}

/* Instruction i's op, space and kind (each may be NULL when not wanted). */
static void cp_trace_names(const cp_trace_instr *i, const char **op, const char **space,
                           const char **kind)
{
    int k = cp_trace_special(i);
    if (k >= 0) {
        *op = cp_trace_kinds[k].op, *space = cp_trace_kinds[k].space;
        *kind = cp_trace_kinds[k].kind;
        return;
    }
    const cp_trace_counts *c = &i->counts;
    int gl_ld = c->value[CP_TRACE_M_GLOBAL_LD] > 0, gl_st = c->value[CP_TRACE_M_GLOBAL_ST] > 0;
    int sh_ld = c->value[CP_TRACE_M_SHARED_LD] > 0, sh_st = c->value[CP_TRACE_M_SHARED_ST] > 0;
    int ld = gl_ld || sh_ld, st = gl_st || sh_st, gl = gl_ld || gl_st, sh = sh_ld || sh_st;
    static const char *const kinds[3][3] = {
        {"ld.gl", "ld.sh", "ld.gs"}, {"st.gl", "st.sh", "st.gs"}, {"ls.gl", "ls.sh", "ls.gs"}};
    *op = ld && st ? "load_store" : ld ? "load" : st ? "store" : NULL;
    *space = gl && sh ? "global_shared" : gl ? "global" : sh ? "shared" : NULL;
    *kind = *op && *space ? kinds[ld && st ? 2 : st][gl && sh ? 2 : sh] : "-";
}

const char *cp_trace_op_name(const cp_trace_instr *i)
{
    const char *op, *space, *kind;
    cp_trace_names(i, &op, &space, &kind);
    return op;
}

const char *cp_trace_space_name(const cp_trace_instr *i)
{
    const char *op, *space, *kind;
    cp_trace_names(i, &op, &space, &kind);
    return space;
}

const char *cp_trace_kind_name(const cp_trace_instr *i)
{
    const char *op, *space, *kind;
    cp_trace_names(i, &op, &space, &kind);
    return kind;
}

void cp_trace_where(const cp_trace_kernel *k, const cp_trace_instr *i, char *buf, size_t n)
{
    if (i->file)
        snprintf(buf, n, "%s:%u", i->file, i->line);
    else
        snprintf(buf, n, "%s+0x%x", k->name ? k->name : k->function, i->pc);
}

/* x within 1% of k */
static int cp_trace_near(double x, double k)
{
    return fabs(x - k) <= 0.01 * fabs(k) + 1e-9;
}

/* A count per request: "4" when whole, else "4.50". */
static void cp_trace_num(char *buf, size_t n, double v)
{
    if (fabs(v - round(v)) < 0.005)
        snprintf(buf, n, "%.0f", round(v));
    else
        snprintf(buf, n, "%.2f", v);
}

/* The lane width (4, 8 or 16 bytes) whose full warp needs `ideal` sectors or wavefronts per
 * request (scaled: 1 for 4-byte sectors of ideal 4, i.e. pass ideal / unit), 0 when none. */
static int cp_trace_width(double ideal, double unit)
{
    static const int widths[] = {4, 8, 16};
    for (size_t i = 0; i < CP_COUNT_OF(widths); i++)
        if (cp_trace_near(ideal, widths[i] / unit))
            return widths[i];
    return 0;
}

/* The meaning of the global side. */
static void cp_trace_meaning_global(const cp_trace_derived *d, char *buf, size_t n)
{
    double spr = d->sectors_per_request, ipr = d->ideal_sectors_per_request;
    char s[32], ideal[32], width[24] = "";
    cp_trace_num(s, sizeof s, spr);
    cp_trace_num(ideal, sizeof ideal, ipr);
    int w = cp_trace_width(ipr, 1);
    if (w && w != 4)
        snprintf(width, sizeof width, "--width %d ", w);
    if (!(d->excess_sectors > 0)) {
        const char *sectors = strcmp(s, "1") == 0 ? "sector" : "sectors";
        if (w)
            snprintf(buf, n,
                     "coalesced: %s %s per request, the ideal, like `coalprobe %s--stride 1`", s,
                     sectors, width);
        else
            snprintf(buf, n, "coalesced: %s %s per request, the ideal", s, sectors);
        return;
    }
    if (!w) {
        snprintf(buf, n,
                 "%s sectors per request where %s would do: %.0f%% of the sectors moved are wasted",
                 s, ideal, d->excess_pct);
        return;
    }
    double r = spr / ipr;
    long k = lround(r);
    if (spr >= 32 * 0.99)
        snprintf(buf, n,
                 "%s sectors per request where %s would do: each lane in its own sector, like "
                 "`coalprobe %s--stride %d` and above",
                 s, ideal, width, 32 / w);
    else if (k >= 2 && cp_trace_near(r, (double)k))
        snprintf(buf, n,
                 "%s sectors per request where %s would do: %ldx the ideal, like `coalprobe "
                 "%s--stride %ld`",
                 s, ideal, k, width, k);
    else if (cp_trace_near(spr - ipr, 1))
        snprintf(buf, n,
                 "%s sectors per request where %s would do: one sector more, like a misaligned "
                 "start (`coalprobe %s--offset 1`)",
                 s, ideal, width);
    else
        snprintf(
            buf, n,
            "%s sectors per request where %s would do (%.1fx): between `coalprobe %s--stride %ld` "
            "and `--stride %ld`",
            s, ideal, r, width, (long)floor(r), (long)floor(r) + 1);
}

/* The meaning of the shared side. */
static void cp_trace_meaning_shared(const cp_trace_derived *d, char *buf, size_t n)
{
    double wpr = d->wavefronts_per_request, ipr = d->ideal_wavefronts_per_request;
    char s[32], ideal[32], width[24] = "";
    cp_trace_num(s, sizeof s, wpr);
    cp_trace_num(ideal, sizeof ideal, ipr);
    if (!(d->bank_conflicts > 0)) {
        snprintf(buf, n, "no bank conflict: %s wavefront%s per request, the ideal", s,
                 strcmp(s, "1") == 0 ? "" : "s");
        return;
    }
    /* a full warp of w-byte lanes needs w / 4 wavefronts; stride k (a power of two) makes a
     * k-way conflict as long as k * w / 4 <= 32 */
    int w = cp_trace_width(ipr, 4);
    if (w && w != 4)
        snprintf(width, sizeof width, "--width %d ", w);
    double r = wpr / ipr;
    long k = lround(r);
    if (k >= 2 && cp_trace_near(r, (double)k)) {
        int pow2 = (k & (k - 1)) == 0;
        if (w && pow2 && k * w / 4 <= 32)
            snprintf(buf, n,
                     "%ld-way bank conflict: %s wavefronts per request where %s would do, like "
                     "`coalprobe smem %s--stride %ld`",
                     k, s, ideal, width, k);
        else
            snprintf(buf, n, "%ld-way bank conflict: %s wavefronts per request where %s would do",
                     k, s, ideal);
        return;
    }
    snprintf(buf, n, "bank conflicts: %s wavefronts per request where %s would do (%.1fx)", s,
             ideal, r);
}

/* The meaning of an LDGSTS's shared fill: a wavefront per global sector written, so an excess
 * over the ideal follows the global pattern. */
static void cp_trace_meaning_fill(const cp_trace_derived *d, char *buf, size_t n)
{
    double wpr = d->fill_wavefronts_per_request, ipr = d->ideal_fill_wavefronts_per_request;
    if (!isfinite(wpr) || !isfinite(ipr))
        return;
    char s[32], ideal[32];
    cp_trace_num(s, sizeof s, wpr);
    cp_trace_num(ideal, sizeof ideal, ipr);
    if (cp_trace_near(wpr, ipr) || wpr < ipr)
        snprintf(buf, n, "its shared fill %s wavefront%s per request, the ideal", s,
                 strcmp(s, "1") == 0 ? "" : "s");
    else
        snprintf(buf, n,
                 "its shared fill %s wavefronts per request where %s would do: one per global "
                 "sector it writes, so the global pattern is the cause, not a bank conflict",
                 s, ideal);
}

/* The meaning of an instruction whose bytes no per-instruction metric counts (local memory, a
 * TMA copy) or of wgmma's reads of shared memory; 0 when d is none of those. */
static int cp_trace_meaning_uncounted(const cp_trace_derived *d, char *buf, size_t n)
{
    const struct {
        double runs;
        const char *before, *after; /* the text around the runs */
    } kinds[] = {
        {d->local_requests, "local memory (register spills or a stack array): ",
         " requests; their bytes are not counted per instruction"},
        {d->tma_requests,
         "TMA copy: ", " executions; no per-instruction counter counts a TMA copy's bytes"},
        {d->gmma_requests, "wgmma reading shared memory: ", " instructions"},
    };
    for (size_t k = 0; k < CP_COUNT_OF(kinds); k++) {
        if (!(kinds[k].runs > 0))
            continue;
        char r[32], each[64] = "";
        cp_trace_num(r, sizeof r, kinds[k].runs);
        if (k == 2 && isfinite(d->gmma_wavefronts)) {
            char w[32];
            cp_trace_num(w, sizeof w, d->gmma_wavefronts / d->gmma_requests);
            snprintf(each, sizeof each, ", %s wavefronts each", w);
        }
        snprintf(buf, n, "%s%s%s%s", kinds[k].before, r, kinds[k].after, each);
        return 1;
    }
    return 0;
}

void cp_trace_meaning(const cp_trace_derived *d, char *buf, size_t n)
{
    char g[320] = "", s[320] = "";
    if (cp_trace_meaning_uncounted(d, buf, n))
        return;
    if (d->ldgsts_requests > 0) { /* cp.async: the global side, then the fill's */
        char gl[320] = "", fill[240] = "";
        if (isfinite(d->sectors_per_request) && isfinite(d->ideal_sectors_per_request) &&
            d->ideal_sectors_per_request > 0)
            cp_trace_meaning_global(d, gl, sizeof gl);
        else
            snprintf(gl, sizeof gl, "requests without sector counts (the chip lacks a metric)");
        cp_trace_meaning_fill(d, fill, sizeof fill);
        snprintf(buf, n, "cp.async: %s%s%s", gl, fill[0] ? "; " : "", fill);
        return;
    }
    if (d->requests > 0 && isfinite(d->sectors_per_request) &&
        isfinite(d->ideal_sectors_per_request) && d->ideal_sectors_per_request > 0) {
        char plain[300];
        cp_trace_meaning_global(d, plain, sizeof plain);
        snprintf(g, sizeof g, "%s%s", d->atomic_requests > 0 ? "atomic: " : "", plain);
    } else if (d->requests > 0)
        snprintf(g, sizeof g, "global requests without sector counts (the chip lacks a metric)");
    if (d->shared_requests > 0 && isfinite(d->wavefronts_per_request) &&
        isfinite(d->ideal_wavefronts_per_request) && d->ideal_wavefronts_per_request > 0)
        cp_trace_meaning_shared(d, s, sizeof s);
    else if (d->shared_requests > 0)
        snprintf(s, sizeof s, "shared requests without wavefront counts (the chip lacks a metric)");
    snprintf(buf, n, "%s%s%s", g, g[0] && s[0] ? "; " : "", s);
}

void cp_trace_format_bytes(char *buf, size_t n, double bytes)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    if (!isfinite(bytes)) {
        snprintf(buf, n, "-");
        return;
    }
    size_t p = 0;
    double v = bytes;
    while (fabs(v) >= 999.5 && p + 1 < CP_COUNT_OF(prefixes)) {
        v /= 1000;
        p++;
    }
    if (p == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.*f %sB",
                 fabs(v) >= 99.95   ? 0
                 : fabs(v) >= 9.995 ? 1
                                    : 2,
                 v, prefixes[p]);
}

/* ---- refusals --------------------------------------------------------------------------- */

void cp_trace_refusal_text(int code, const char **cause, char *fix, size_t n)
{
    const char *f = NULL;
    if (!cp_measure_cupti_refusal_text(code, cause, &f)) {
        *cause = "CUPTI could not collect SASS metrics here";
        f = "see the refused call and CUPTI's message in the report";
    }
    /* the measure path's fixes end with its own way out, "..., or run (coalprobe) with
     * --no-counters ...": that last clause is cut */
    size_t len = strlen(f);
    const char *flag = strstr(f, "--no-counters");
    if (flag) {
        len = 0;
        for (const char *s = f; s < flag; s++)
            if ((s[0] == ',' || s[0] == ';') && strncmp(s + 1, " or ", 4) == 0)
                len = (size_t)(s - f);
    }
    if (len == 0)
        snprintf(fix, n, "trace the program on a GPU that allows profiling");
    else
        snprintf(fix, n, "%.*s", (int)len, f);
}

/* ---- sorting ---------------------------------------------------------------------------- */

/* v, or 0 when v is not a number (a count the chip did not give): for sorting. */
static double cp_trace_finite_or_zero(double v)
{
    return isfinite(v) ? v : 0;
}

/* Executed first; most excess bytes, then most bank conflicts, most requests (PCs not
 * compared). */
static int cp_trace_instr_weight_order(const cp_trace_instr *x, const cp_trace_instr *y)
{
    int ex = cp_trace_executed(&x->d), ey = cp_trace_executed(&y->d);
    if (ex != ey)
        return ey - ex;
    const double kx[3] = {
        cp_trace_finite_or_zero(x->d.excess_bytes), cp_trace_finite_or_zero(x->d.bank_conflicts),
        cp_trace_finite_or_zero(x->d.requests) + cp_trace_finite_or_zero(x->d.shared_requests)};
    const double ky[3] = {
        cp_trace_finite_or_zero(y->d.excess_bytes), cp_trace_finite_or_zero(y->d.bank_conflicts),
        cp_trace_finite_or_zero(y->d.requests) + cp_trace_finite_or_zero(y->d.shared_requests)};
    for (int i = 0; i < 3; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? 1 : -1;
    return 0;
}

/* Inside a kernel: by weight, then lowest PC. */
static int cp_trace_instr_cmp(const void *a, const void *b)
{
    const cp_trace_instr *x = a, *y = b;
    int c = cp_trace_instr_weight_order(x, y);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

static const char *cp_trace_kernel_name(const cp_trace_kernel *k)
{
    return k->name ? k->name : k->function;
}

/* Counted kernels first; most excess bytes, most bank conflicts, most launches; by name. */
static int cp_trace_kernel_cmp(const void *a, const void *b)
{
    const cp_trace_kernel *x = a, *y = b;
    int cx = x->from != CP_TRACE_FROM_NONE, cy = y->from != CP_TRACE_FROM_NONE;
    if (cx != cy)
        return cy - cx;
    const double kx[3] = {cp_trace_finite_or_zero(x->d.excess_bytes),
                          cp_trace_finite_or_zero(x->d.bank_conflicts), (double)x->launches};
    const double ky[3] = {cp_trace_finite_or_zero(y->d.excess_bytes),
                          cp_trace_finite_or_zero(y->d.bank_conflicts), (double)y->launches};
    for (int i = 0; i < 3; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? 1 : -1;
    int c = strcmp(cp_trace_kernel_name(x), cp_trace_kernel_name(y));
    if (c)
        return c;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    return (x->crc > y->crc) - (x->crc < y->crc);
}

/* The report's instruction list: by weight, then kernels in report order, then PC. */
typedef struct cp_trace_ref {
    cp_trace_instr *instr;
    const cp_trace_kernel *kernel;
    const cp_trace_process *proc;
    size_t order; /* kernel order in the report */
} cp_trace_ref;

static int cp_trace_ref_cmp(const void *a, const void *b)
{
    const cp_trace_ref *x = a, *y = b;
    int c = cp_trace_instr_weight_order(x->instr, y->instr);
    if (c)
        return c;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (x->instr->pc > y->instr->pc) - (x->instr->pc < y->instr->pc);
}

/* ---- the report ------------------------------------------------------------------------- */

static void cp_trace_add_counts(cp_trace_counts *sum, const cp_trace_counts *c)
{
    for (int m = 0; m < CP_TRACE_NMETRICS; m++) {
        if (!cp_trace_has(c, m))
            continue;
        sum->value[m] =
            sum->value[m] > UINT64_MAX - c->value[m] ? UINT64_MAX : sum->value[m] + c->value[m];
        sum->has |= 1u << m;
    }
}

/* Sets metric m of c to v (rounded to a count) when v is a number. */
static void cp_trace_set_count(cp_trace_counts *c, int m, double v)
{
    if (!isfinite(v) || v < 0)
        return;
    c->value[m] = v >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(v);
    c->has |= 1u << m;
}

/* A kernel's totals from its kernel records alone: requests, sectors, shared requests and
 * wavefronts as counted; the ideal sectors are the bytes the lanes asked for in 32-byte sectors
 * (exact when every request's bytes fill whole sectors, as 4-, 8- and 16-byte lanes of a full
 * warp do), the ideal wavefronts the wavefronts without the bank conflicts. */
static void cp_trace_kernel_totals(const cp_trace_kernel_counters *kc, cp_trace_counts *c)
{
    memset(c, 0, sizeof *c);
    /* requests are warp-level instructions (as the SASS metrics count them); the lean metric set
     * has the instructions without l1tex's request counts */
    if (cp_trace_kc_has(kc, CP_TRACE_K_LD_REQUESTS))
        cp_trace_set_count(c, CP_TRACE_M_GLOBAL_LD, kc->value[CP_TRACE_K_LD_REQUESTS]);
    else if (cp_trace_kc_has(kc, CP_TRACE_K_LD_INSTRUCTIONS))
        cp_trace_set_count(c, CP_TRACE_M_GLOBAL_LD, kc->value[CP_TRACE_K_LD_INSTRUCTIONS]);
    if (cp_trace_kc_has(kc, CP_TRACE_K_ST_REQUESTS))
        cp_trace_set_count(c, CP_TRACE_M_GLOBAL_ST, kc->value[CP_TRACE_K_ST_REQUESTS]);
    else if (cp_trace_kc_has(kc, CP_TRACE_K_ST_INSTRUCTIONS))
        cp_trace_set_count(c, CP_TRACE_M_GLOBAL_ST, kc->value[CP_TRACE_K_ST_INSTRUCTIONS]);
    cp_trace_set_count(c, CP_TRACE_M_SECTORS,
                       cp_trace_kc_sum2(kc, CP_TRACE_K_LD_SECTORS, CP_TRACE_K_ST_SECTORS));
    cp_trace_set_count(
        c, CP_TRACE_M_SECTORS_IDEAL,
        ceil(cp_trace_kc_sum2(kc, CP_TRACE_K_LD_BYTES, CP_TRACE_K_ST_BYTES) / CP_SECTOR_BYTES));
    if (cp_trace_kc_has(kc, CP_TRACE_K_SHARED_LD))
        cp_trace_set_count(c, CP_TRACE_M_SHARED_LD, kc->value[CP_TRACE_K_SHARED_LD]);
    if (cp_trace_kc_has(kc, CP_TRACE_K_SHARED_ST))
        cp_trace_set_count(c, CP_TRACE_M_SHARED_ST, kc->value[CP_TRACE_K_SHARED_ST]);
    double wf = cp_trace_kc_sum2(kc, CP_TRACE_K_LD_WAVEFRONTS, CP_TRACE_K_ST_WAVEFRONTS);
    double conflicts = cp_trace_kc_sum2(kc, CP_TRACE_K_LD_CONFLICTS, CP_TRACE_K_ST_CONFLICTS);
    cp_trace_set_count(c, CP_TRACE_M_WAVEFRONTS, wf);
    if (isfinite(wf) && isfinite(conflicts))
        cp_trace_set_count(c, CP_TRACE_M_WAVEFRONTS_IDEAL, fmax(0, wf - conflicts));
}

/* Where a kernel's counts come from, its instructions' counts over every launch (eff) and its
 * totals. The pc records of a function whose launches the Range Profiler replays count the
 * replay passes of one launch (cp_trace_raw.h), so they are scaled by the kernel records:
 * scale = the instructions of every launch (kernel records) / those in the pc records. Without
 * kernel records the pc records are taken as they are; when they count nothing although the
 * kernel records count instructions, only the kernel records are known. Under --instructions
 * sampled the pc records count the launches with kernel records only: taken as they are, and a
 * kernel none of whose launches had a range is not counted (never zeros). */
static void cp_trace_kernel_counts(const cp_trace_process *p, cp_trace_kernel *k)
{
    double in_pc = 0;
    for (size_t i = 0; i < k->ninstrs; i++) {
        const cp_trace_counts *c = &k->instrs[i].counts;
        in_pc += (double)c->value[CP_TRACE_M_GLOBAL_LD] + (double)c->value[CP_TRACE_M_GLOBAL_ST] +
                 (double)c->value[CP_TRACE_M_SHARED_LD] + (double)c->value[CP_TRACE_M_SHARED_ST];
    }
    const cp_trace_kernel_counters *kc = &k->kc;
    double in_kernel = NAN;
    if (kc->records && cp_trace_kc_has(kc, CP_TRACE_K_LD_INSTRUCTIONS) &&
        cp_trace_kc_has(kc, CP_TRACE_K_ST_INSTRUCTIONS))
        in_kernel =
            kc->value[CP_TRACE_K_LD_INSTRUCTIONS] + kc->value[CP_TRACE_K_ST_INSTRUCTIONS] +
            (cp_trace_kc_has(kc, CP_TRACE_K_SHARED_LD) ? kc->value[CP_TRACE_K_SHARED_LD] : 0) +
            (cp_trace_kc_has(kc, CP_TRACE_K_SHARED_ST) ? kc->value[CP_TRACE_K_SHARED_ST] : 0);
    k->scale = NAN;
    k->instructions_zero = 0;
    /* --instructions sampled: the pc records cover the launches with kernel records, no other */
    k->instructions_sampled = p && p->selection.instructions_sampled;
    if (cp_trace_kernel_instructions_sampled(k) && kc->records == 0) {
        k->from = CP_TRACE_FROM_NONE; /* no launch had a range: launched, not counted */
    } else if (k->ninstrs && k->every_launch && in_pc > 0) {
        k->from = CP_TRACE_FROM_INSTRUCTIONS; /* every launch counted: as they are */
    } else if (k->ninstrs && isfinite(in_kernel) && in_pc > 0) {
        k->from = CP_TRACE_FROM_INSTRUCTIONS;
        k->scale = in_kernel / in_pc;
    } else if (k->ninstrs && isfinite(in_kernel) && in_kernel > 0) {
        k->from = CP_TRACE_FROM_KERNEL;
        k->instructions_zero = 1;
    } else if (k->ninstrs) {
        k->from = CP_TRACE_FROM_INSTRUCTIONS;
    } else {
        k->from = kc->records ? CP_TRACE_FROM_KERNEL : CP_TRACE_FROM_NONE;
    }
    memset(&k->totals, 0, sizeof k->totals);
    for (size_t i = 0; i < k->ninstrs; i++) {
        cp_trace_instr *in = &k->instrs[i];
        if (k->from != CP_TRACE_FROM_INSTRUCTIONS) {
            memset(&in->eff, 0, sizeof in->eff); /* unknown */
        } else if (isfinite(k->scale)) {
            memset(&in->eff, 0, sizeof in->eff);
            for (int m = 0; m < CP_TRACE_NMETRICS; m++)
                if (cp_trace_has(&in->counts, m))
                    cp_trace_set_count(&in->eff, m, (double)in->counts.value[m] * k->scale);
        } else {
            in->eff = in->counts;
        }
        cp_trace_split_wavefronts(&in->eff);
        cp_trace_derive(&in->eff, &in->d);
        cp_trace_unseen_sectors(&in->d);
        cp_trace_add_counts(&k->totals, &in->eff);
    }
    if (k->from == CP_TRACE_FROM_KERNEL)
        cp_trace_kernel_totals(kc, &k->totals);
    cp_trace_derive(&k->totals, &k->d);
    cp_trace_coverage_of(p, k, &k->cov);
}

static const char *cp_trace_signal_name(int sig)
{
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGKILL:
        return "SIGKILL";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGHUP:
        return "SIGHUP";
    case SIGPIPE:
        return "SIGPIPE";
    default:
        return NULL;
    }
}

/* Whether the trace is complete, and if not, the first reason. */
static void cp_trace_completeness(const cp_trace *t, const cp_trace_run *run, cp_trace_report *r)
{
    r->complete = 1;
    if (run && run->interrupted) {
        r->complete = 0;
        snprintf(r->incomplete_reason, sizeof r->incomplete_reason,
                 "coalprobe was interrupted by %s while reporting%s%s",
                 run->interrupted == SIGINT ? "SIGINT" : "SIGTERM",
                 t->stopped & CP_TRACE_STOPPED_LOAD ? "; raw files were left unread" : "",
                 t->stopped & CP_TRACE_STOPPED_SASS ? "; nvdisasm was stopped, so SASS opcodes "
                                                      "are missing"
                                                    : "");
        return;
    }
    if (run && run->signaled) {
        const char *name = cp_trace_signal_name(run->term_signal);
        r->complete = 0;
        if (name)
            snprintf(r->incomplete_reason, sizeof r->incomplete_reason,
                     "the program was killed by %s", name);
        else
            snprintf(r->incomplete_reason, sizeof r->incomplete_reason,
                     "the program was killed by signal %d", run->term_signal);
        return;
    }
    for (size_t i = 0; i < t->nprocs; i++) {
        const cp_trace_process *p = &t->procs[i];
        if (p->interrupted && p->complete && !p->truncated) {
            r->complete = 0;
            snprintf(r->incomplete_reason, sizeof r->incomplete_reason,
                     "process %ld (%s) ended its trace early: %s", p->pid, p->file, p->interrupted);
            return;
        }
        if (p->complete && !p->truncated)
            continue;
        r->complete = 0;
        snprintf(r->incomplete_reason, sizeof r->incomplete_reason,
                 "process %ld (%s) did not finish its trace (%s): it crashed, was killed or "
                 "called _exit before CUDA's teardown",
                 p->pid, p->file, p->truncated ? "its last line is cut off" : "no end record");
        return;
    }
}

/* Why no instruction was counted, with a fix when there is one. */
static void cp_trace_no_counts(const cp_trace *t, cp_trace_report *r)
{
    size_t n = sizeof r->no_counts_reason;
    r->no_counts_fix[0] = '\0';
    if (t->nprocs == 0) {
        snprintf(r->no_counts_reason, n,
                 "no process initialised CUDA: the program does not use the GPU, or there is no "
                 "GPU or driver here");
        snprintf(r->no_counts_fix, sizeof r->no_counts_fix,
                 "trace a program that uses CUDA, on a machine whose NVIDIA GPU and driver "
                 "nvidia-smi lists");
        return;
    }
    for (size_t i = 0; i < t->nprocs; i++) {
        const cp_trace_process *p = &t->procs[i];
        if (p->nrefusals) {
            const cp_trace_refusal *x = &p->refusals[0];
            const char *cause;
            cp_trace_refusal_text(x->code, &cause, r->no_counts_fix, sizeof r->no_counts_fix);
            snprintf(r->no_counts_reason, n, "CUPTI refused in process %ld: %s (%s from %s)",
                     p->pid, cause, x->name, x->call);
            return;
        }
    }
    size_t launched = 0;
    for (size_t i = 0; i < t->nprocs; i++)
        launched += t->procs[i].nkernels; /* none of them counted */
    for (size_t i = 0; i < t->nprocs; i++) {
        const cp_trace_process *p = &t->procs[i];
        if (p->nnotes && launched == 0) {
            snprintf(r->no_counts_reason, n, "process %ld: %s", p->pid, p->notes[0]);
            return;
        }
    }
    if (launched)
        snprintf(r->no_counts_reason, n,
                 "%zu kernel%s launched, and CUPTI counted none of them (see the notes)", launched,
                 launched == 1 ? " was" : "s were");
    else
        snprintf(r->no_counts_reason, n, "the process%s that initialised CUDA launched no kernel",
                 t->nprocs == 1 ? "" : "es");
}

static int cp_trace_add_violation(cp_trace_report *r, size_t *cap, const cp_trace_ref *ref,
                                  const char *what, double value, double limit)
{
    if (r->nviolations == *cap) {
        size_t want = *cap ? *cap * 2 : 16;
        cp_trace_violation *grown = realloc(r->violations, want * sizeof *grown);
        if (!grown)
            return -1;
        r->violations = grown;
        *cap = want;
    }
    r->violations[r->nviolations++] =
        (cp_trace_violation){ref->proc, ref->kernel, ref->instr, what, value, limit};
    return 0;
}

/* The gate: every executed instruction of the selected kernels with at least min_requests
 * requests (global and shared together) against the limits. */
/* Judges one set of counts against the limits: appends its violations. */
static int cp_trace_judge(cp_trace_report *r, size_t *cap, const cp_trace_ref *ref,
                          const cp_trace_derived *d, const cp_trace_options *o, int *failed)
{
    double requests =
        cp_trace_finite_or_zero(d->requests) + cp_trace_finite_or_zero(d->shared_requests);
    if (requests < (double)o->min_requests)
        return 0;
    r->gate_judged++;
    const struct {
        const char *what;
        double value, limit;
    } checks[] = {{"sectors_per_request", d->sectors_per_request, o->max_sectors_per_request},
                  {"excess_pct", d->excess_pct, o->max_excess_pct},
                  {"conflict_pct", d->conflict_pct, o->max_excess_pct}};
    for (size_t c = 0; c < CP_COUNT_OF(checks); c++) {
        if (!isfinite(checks[c].limit) || !(checks[c].value > checks[c].limit))
            continue;
        *failed = 1;
        if (cp_trace_add_violation(r, cap, ref, checks[c].what, checks[c].value, checks[c].limit) !=
            0)
            return -1;
    }
    return 0;
}

/* --min-coverage: every counted kernel of the selected ones, as a whole; an unknown coverage
 * fails (the gate cannot vouch for bytes nobody measured). */
static int cp_trace_gate_coverage(cp_trace_report *r, size_t *cap, const cp_trace_options *o)
{
    if (!isfinite(o->min_coverage))
        return 0;
    const cp_trace *t = r->trace;
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (!kk->selected || kk->from == CP_TRACE_FROM_NONE)
                continue;
            r->gate_judged_coverage++;
            if (isfinite(kk->cov.fraction) && kk->cov.fraction >= o->min_coverage)
                continue;
            /* TMA judged by its tensor maps: every byte counted or judged ideal (issue 45) */
            if (kk->cov.by_maps)
                continue;
            kk->gate_failed = 1;
            cp_trace_ref ref = {NULL, kk, &t->procs[p], kk->index};
            if (cp_trace_add_violation(r, cap, &ref, "coverage", kk->cov.fraction,
                                       o->min_coverage) != 0)
                return -1;
        }
    return 0;
}

static int cp_trace_gate(cp_trace_report *r, const cp_trace_ref *refs, size_t n,
                         const cp_trace_options *o)
{
    r->gate_checked = isfinite(o->max_sectors_per_request) || isfinite(o->max_excess_pct) ||
                      isfinite(o->min_coverage);
    if (!r->gate_checked)
        return 0;
    size_t cap = 0;
    if (cp_trace_gate_coverage(r, &cap, o) != 0)
        return -1;
    if (!isfinite(o->max_sectors_per_request) && !isfinite(o->max_excess_pct))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (cp_trace_executed(&refs[i].instr->d) &&
            cp_trace_judge(r, &cap, &refs[i], &refs[i].instr->d, o, &refs[i].instr->gate_failed) !=
                0)
            return -1;
    /* kernels counted only as a whole are judged as a whole */
    const cp_trace *t = r->trace;
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (!kk->selected || kk->from != CP_TRACE_FROM_KERNEL || !cp_trace_executed(&kk->d))
                continue;
            cp_trace_ref ref = {NULL, kk, &t->procs[p], kk->index};
            size_t before = r->gate_judged;
            if (cp_trace_judge(r, &cap, &ref, &kk->d, o, &kk->gate_failed) != 0)
                return -1;
            r->gate_judged_kernels += r->gate_judged - before;
        }
    return 0;
}

/* Adds the i-th kernel whose excess is not known to names ("a, b, c, ..."): the first 3, each up
 * to its argument list and 48 characters. */
static void cp_trace_unknown_name(char *names, size_t size, size_t i, const char *name)
{
    size_t used = strlen(names);
    if (i > 3 || used + 8 >= size)
        return;
    if (i == 3) {
        snprintf(names + used, size - used, ", ...");
        return;
    }
    size_t n = strcspn(name ? name : "?", "(");
    snprintf(names + used, size - used, "%s%.*s", i ? ", " : "", (int)(n < 48 ? n : 48),
             name ? name : "?");
}

/* Counts and orders each kernel's instructions, marks the kernels --kernel selects (re, when
 * have_re) and adds up the program's counts; the selected kernels' instructions, into *nrefs. */
static void cp_trace_analyze_kernels(cp_trace *t, cp_trace_report *r, int have_re,
                                     const regex_t *re, cp_trace_counts *program, size_t *nrefs_out)
{
    size_t nrefs = 0, nunknown_excess = 0;
    char names[256] = "";
    cp_trace_coverage_begin(&r->program_coverage);
    r->seen_known = t->nprocs > 0;
    for (size_t p = 0; p < t->nprocs; p++) {
        cp_trace_process *proc = &t->procs[p];
        if (!r->selection && proc->selection.present)
            r->selection = &proc->selection;
        for (size_t k = 0; k < proc->nkernels; k++) {
            cp_trace_kernel *kk = &proc->kernels[k];
            for (size_t i = 0; i < kk->ninstrs; i++) {
                kk->instrs[i].gate_failed = 0;
                kk->instrs[i].rank = 0;
            }
            kk->gate_failed = 0;
            cp_trace_kernel_counts(proc, kk);
            cp_trace_add_counts(program, &kk->totals);
            if (kk->from != CP_TRACE_FROM_NONE) {
                cp_trace_coverage_add(&r->program_coverage, &kk->cov);
                if (!kk->cov.excess_known)
                    cp_trace_unknown_name(names, sizeof names, nunknown_excess++,
                                          cp_trace_kernel_name(kk));
            }
            kk->selected = !have_re || regexec(re, cp_trace_kernel_name(kk), 0, NULL, 0) == 0;
            if (kk->ninstrs > 1)
                qsort(kk->instrs, kk->ninstrs, sizeof *kk->instrs, cp_trace_instr_cmp);
            if (kk->selected) {
                r->nselected++;
                r->ncounted += kk->from != CP_TRACE_FROM_NONE;
                r->nkernel_only += kk->from == CP_TRACE_FROM_KERNEL;
                r->nkernels_ran += kk->from == CP_TRACE_FROM_KERNEL && cp_trace_executed(&kk->d);
                nrefs += kk->ninstrs;
                r->launches_counted += kk->launches;
                r->launches_with_counters += kk->kc.records;
                r->launches_seen += kk->has_seen ? kk->launches_seen : kk->launches;
                r->seen_known &= kk->has_seen;
                r->nsampled += (size_t)cp_trace_kernel_sampled(kk);
            }
        }
        if (proc->nkernels > 1)
            qsort(proc->kernels, proc->nkernels, sizeof *proc->kernels, cp_trace_kernel_cmp);
    }
    cp_trace_coverage_end(&r->program_coverage, nunknown_excess, names);
    *nrefs_out = nrefs;
}

/* Ranks the selected kernels' instructions over the whole report (cp_trace_ref_cmp) into
 * r->instrs, each with its share of the program's excess; refs (nrefs of them, freed by the
 * caller) is the ranked list the gate reads. */
static int cp_trace_analyze_rank(cp_trace *t, cp_trace_report *r, size_t nrefs,
                                 cp_trace_ref **refs_out, cp_status *st)
{
    cp_trace_ref *refs = calloc(nrefs ? nrefs : 1, sizeof *refs);
    *refs_out = refs;
    if (!refs)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory analysing the trace");
    size_t n = 0, order = 0;
    for (size_t p = 0; p < t->nprocs; p++) {
        cp_trace_process *proc = &t->procs[p];
        for (size_t k = 0; k < proc->nkernels; k++) {
            cp_trace_kernel *kk = &proc->kernels[k];
            if (!kk->selected)
                continue;
            kk->index = order++;
            for (size_t i = 0; i < kk->ninstrs; i++)
                refs[n++] = (cp_trace_ref){&kk->instrs[i], kk, proc, kk->index};
        }
    }
    if (n > 1)
        qsort(refs, n, sizeof *refs, cp_trace_ref_cmp);
    r->instrs = malloc((n ? n : 1) * sizeof *r->instrs);
    r->instr_kernel = malloc((n ? n : 1) * sizeof *r->instr_kernel);
    r->instr_proc = malloc((n ? n : 1) * sizeof *r->instr_proc);
    if (!r->instrs || !r->instr_kernel || !r->instr_proc) {
        free(refs);
        *refs_out = NULL;
        cp_trace_report_free(r);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory analysing the trace");
    }
    for (size_t i = 0; i < n; i++) {
        cp_trace_instr *in = refs[i].instr;
        in->rank = cp_trace_executed(&in->d) ? i + 1 : 0;
        r->nexecuted += in->rank > 0;
        in->excess_share = r->program.excess_bytes > 0 && isfinite(in->d.excess_bytes)
                               ? in->d.excess_bytes / r->program.excess_bytes
                               : NAN;
        in->conflict_share = r->program.bank_conflicts > 0 && isfinite(in->d.bank_conflicts)
                                 ? in->d.bank_conflicts / r->program.bank_conflicts
                                 : NAN;
        r->instrs[i] = in;
        r->instr_kernel[i] = refs[i].kernel;
        r->instr_proc[i] = refs[i].proc;
        r->counted = 1;
    }
    r->ninstrs = n;
    return CP_EXIT_OK;
}

/* The most requests (global and shared) of one executed instruction of the selected kernels,
 * or of a selected kernel counted as a whole: what --min-requests is to be held against. */
static double cp_trace_most_requests(const cp_trace_report *r)
{
    double most = 0;
    for (size_t i = 0; i < r->ninstrs; i++) {
        const cp_trace_derived *d = &r->instrs[i]->d;
        double q =
            cp_trace_finite_or_zero(d->requests) + cp_trace_finite_or_zero(d->shared_requests);
        if (cp_trace_executed(d) && q > most)
            most = q;
    }
    const cp_trace *t = r->trace;
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            const cp_trace_kernel *kk = &t->procs[p].kernels[k];
            const cp_trace_derived *d = &kk->d;
            double q =
                cp_trace_finite_or_zero(d->requests) + cp_trace_finite_or_zero(d->shared_requests);
            if (kk->selected && kk->from == CP_TRACE_FROM_KERNEL && cp_trace_executed(d) &&
                q > most)
                most = q;
        }
    return most;
}

/* A gate that judged nothing is an error, never a pass (a CI job must not pass by measuring
 * nothing): each limit given is checked on its own (the instructions' limits, --min-coverage),
 * and the reason names the filter that left it empty, the first that did: no counts at all,
 * --kernel, no counted or executed selected kernel, --min-requests. */
static void cp_trace_gate_empty(const cp_trace *t, const cp_trace_options *o, cp_trace_report *r)
{
    int per_instr = isfinite(o->max_sectors_per_request) || isfinite(o->max_excess_pct);
    int instr_empty = per_instr && r->gate_judged == 0;
    int cov_empty = isfinite(o->min_coverage) && r->gate_judged_coverage == 0;
    if (!r->gate_checked || (!instr_empty && !cov_empty))
        return;
    r->gate_empty = 1;
    size_t n = sizeof r->gate_empty_reason, nf = sizeof r->gate_empty_fix;
    const char *which = instr_empty && cov_empty ? "no instruction and no kernel was judged"
                        : instr_empty            ? (isfinite(o->max_sectors_per_request)
                                                        ? "--max-sectors-per-request judged no instruction"
                                                        : "--max-excess-pct judged no instruction")
                                                 : "--min-coverage judged no kernel";
    size_t nkernels = 0;
    for (size_t p = 0; p < t->nprocs; p++)
        nkernels += t->procs[p].nkernels;
    const char *fix = "check --kernel against the kernel names of a trace without it";
    if (!r->counted) {
        snprintf(r->gate_empty_reason, n, "%s", r->no_counts_reason); /* no limit could judge */
        fix = r->no_counts_fix[0] ? r->no_counts_fix : NULL;
    } else if (r->nselected == 0) {
        snprintf(r->gate_empty_reason, n,
                 "%s: --kernel '%s' matches none of the %zu kernel%s launched", which,
                 o->kernel_regex ? o->kernel_regex : "", nkernels, nkernels == 1 ? "" : "s");
    } else if (r->ncounted == 0) {
        snprintf(r->gate_empty_reason, n,
                 "%s: none of the %zu kernel%s that --kernel selects was counted (CUPTI returned "
                 "no records for them)",
                 which, r->nselected, r->nselected == 1 ? "" : "s");
        fix = "see the report's notes on why those kernels were not counted";
    } else if (r->nexecuted + r->nkernels_ran == 0) {
        snprintf(r->gate_empty_reason, n,
                 "%s: no memory instruction of the %zu selected kernel%s ran", which, r->ncounted,
                 r->ncounted == 1 ? "" : "s");
    } else {
        char most[48];
        cp_strbuf_format_number(most, sizeof most, cp_trace_most_requests(r));
        char kernels[96] = "";
        if (r->nkernels_ran)
            snprintf(kernels, sizeof kernels, " and %zu kernel%s counted as a whole",
                     r->nkernels_ran, r->nkernels_ran == 1 ? "" : "s");
        snprintf(r->gate_empty_reason, n,
                 "%s: --min-requests %llu leaves out every one of the %zu instruction%s%s that "
                 "ran (the most requests of one: %s)",
                 which, (unsigned long long)o->min_requests, r->nexecuted,
                 r->nexecuted == 1 ? "" : "s", kernels, most);
        snprintf(r->gate_empty_fix, nf,
                 "lower --min-requests to at most %s, so that the gate judges something", most);
        return;
    }
    if (fix)
        snprintf(r->gate_empty_fix, nf, "%s", fix);
}

int cp_trace_analyze(cp_trace *t, const cp_trace_run *run, const cp_trace_options *o,
                     cp_trace_report *r, cp_status *st)
{
    memset(r, 0, sizeof *r);
    r->trace = t;
    r->run = run;
    r->options = o;
    regex_t re;
    int have_re = o->kernel_regex != NULL;
    if (have_re) {
        int e = regcomp(&re, o->kernel_regex, REG_EXTENDED | REG_NOSUB);
        if (e != 0) {
            char why[256];
            regerror(e, &re, why, sizeof why);
            cp_status_set(st, CP_EXIT_USAGE, "--kernel: '%s' is not a regular expression: %s",
                          o->kernel_regex, why);
            cp_status_hint(st, "--kernel takes a POSIX extended regular expression matched "
                               "against the demangled kernel name, e.g. 'transpose|copy'");
            return CP_EXIT_USAGE;
        }
    }
    cp_trace_counts program = {0};
    size_t nrefs = 0;
    cp_trace_analyze_kernels(t, r, have_re, &re, &program, &nrefs);
    if (have_re)
        regfree(&re);
    cp_trace_derive(&program, &r->program);

    cp_trace_ref *refs = NULL;
    CP_TRY(cp_trace_analyze_rank(t, r, nrefs, &refs, st));
    int gate = cp_trace_gate(r, refs, r->ninstrs, o);
    free(refs);
    if (gate != 0) {
        cp_trace_report_free(r);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory checking the gate");
    }
    /* counted: anything counted anywhere in the program, whatever --kernel selects */
    r->counted = 0;
    for (size_t p = 0; p < t->nprocs && !r->counted; p++)
        for (size_t k = 0; k < t->procs[p].nkernels && !r->counted; k++)
            r->counted = t->procs[p].kernels[k].from != CP_TRACE_FROM_NONE;
    if (!r->counted)
        cp_trace_no_counts(t, r);
    cp_trace_gate_empty(t, o, r);
    cp_trace_completeness(t, run, r);
    int rc = cp_trace_where_analyze(t, r, st);
    if (rc != CP_EXIT_OK)
        cp_trace_report_free(r);
    return rc;
}

void cp_trace_report_free(cp_trace_report *r)
{
    free((void *)r->instrs);
    free((void *)r->instr_kernel);
    free((void *)r->instr_proc);
    free(r->violations);
    cp_trace_where_free(r);
    r->instrs = NULL;
    r->instr_kernel = NULL;
    r->instr_proc = NULL;
    r->violations = NULL;
    r->ninstrs = r->nviolations = 0;
}

int cp_trace_demangle_all(cp_trace *t, cp_status *st)
{
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (kk->name)
                continue;
            kk->name = cp_trace_demangle(kk->function);
            if (!kk->name)
                kk->name = strdup(kk->function);
            if (!kk->name)
                return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory demangling names");
        }
    return CP_EXIT_OK;
}
