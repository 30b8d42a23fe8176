/* cp_trace_where.c: where in the user's program the waste comes from: each call site's sectors
 * and excess (apportioned from its kernel's), the groups of --group-by (the innermost user line,
 * the call site, the NVTX range) over every process, and the per-rank totals with the ranks off
 * the median flagged. docs/trace.md, "Where the waste comes from", says what the numbers mean. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *cp_trace_group_name(int by)
{
    switch (by) {
    case CP_TRACE_GROUP_LINE:
        return "line";
    case CP_TRACE_GROUP_CALLSITE:
        return "callsite";
    case CP_TRACE_GROUP_RANGE:
        return "range";
    default:
        return "kernel";
    }
}

const char *cp_trace_site_kind_text(cp_trace_site_kind kind)
{
    switch (kind) {
    case CP_TRACE_SITE_NOPYTHON:
        return "no Python line: the process runs no Python";
    case CP_TRACE_SITE_NOGIL:
        return "no Python line: launched from a thread without the GIL";
    case CP_TRACE_SITE_NOUSER:
        return "no user frame: every Python frame was the standard library's or a package's";
    case CP_TRACE_SITE_OVERFLOW:
        return "no call site: past the 65536 distinct call sites a process keeps";
    case CP_TRACE_SITE_UNKNOWN:
        return "no call site recorded for these launches";
    default:
        return "no user frame recorded (a frame record is missing)";
    }
}

/* The site's frame, or NULL. */
static const cp_trace_frame *cp_trace_site_frame(const cp_trace_process *p, const cp_trace_site *s)
{
    return s && s->kind == CP_TRACE_SITE_FRAME && s->frame < p->nframes ? &p->frames[s->frame]
                                                                        : NULL;
}

void cp_trace_site_line(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n)
{
    const cp_trace_frame *f = cp_trace_site_frame(p, s);
    if (f)
        snprintf(buf, n, "%s:%u", f->file, f->line);
    else
        snprintf(buf, n, "-");
}

/* Appends text to buf (n bytes, holding len), cut at the end when it does not fit. */
static size_t cp_trace_append_text(char *buf, size_t n, size_t len, const char *text)
{
    if (len + 1 >= n)
        return len;
    int w = snprintf(buf + len, n - len, "%s", text);
    return w < 0 ? len : len + (size_t)w >= n ? n - 1 : len + (size_t)w;
}

void cp_trace_site_range(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!s || s->range >= p->nranges)
        return;
    size_t chain[64], depth = 0; /* innermost first; a longer chain (or a loop) is cut */
    for (size_t at = s->range; at < p->nranges && depth < CP_COUNT_OF(chain);
         at = p->ranges[at].parent)
        chain[depth++] = at;
    size_t len = 0;
    const cp_trace_range *inner = &p->ranges[s->range];
    if (inner->domain) {
        len = cp_trace_append_text(buf, n, len, inner->domain);
        len = cp_trace_append_text(buf, n, len, ":");
    }
    for (size_t i = depth; i-- > 0;) {
        len = cp_trace_append_text(buf, n, len, p->ranges[chain[i]].name);
        if (i)
            len = cp_trace_append_text(buf, n, len, "/");
    }
}

void cp_trace_site_stack(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n)
{
    buf[0] = '\0';
    const cp_trace_frame *f = cp_trace_site_frame(p, s);
    size_t len = 0, depth = 0;
    for (size_t at = f ? f->parent : SIZE_MAX; at < p->nframes && depth < 64;
         at = p->frames[at].parent, depth++) {
        char part[512];
        const cp_trace_frame *x = &p->frames[at];
        snprintf(part, sizeof part, "%s%s (%s:%u)", depth ? " < " : "", x->function, x->file,
                 x->line);
        len = cp_trace_append_text(buf, n, len, part);
    }
}

void cp_trace_process_label(const cp_trace_process *p, char *buf, size_t n)
{
    if (p->rank >= 0 && p->host)
        snprintf(buf, n, "rank %ld (%s, pid %ld)", p->rank, p->host, p->pid);
    else if (p->rank >= 0)
        snprintf(buf, n, "rank %ld (pid %ld)", p->rank, p->pid);
    else if (p->host)
        snprintf(buf, n, "process %ld (%s)", p->pid, p->host);
    else
        snprintf(buf, n, "process %ld", p->pid);
}

/* ---- each call site's counts ------------------------------------------------------------- */

/* A kernel record sum's global sectors, NAN when not recorded. */
static double cp_trace_kc_sectors(const cp_trace_kernel_counters *kc)
{
    return cp_trace_kc_sum2(kc, CP_TRACE_K_LD_SECTORS, CP_TRACE_K_ST_SECTORS);
}

/* Keeps under "DEVICE\tFUNCTION" the kernel that the launch and kernel records of that function
 * were filed under: the first of that name with launches or kernel records, else the first of
 * that name. -1 when out of memory. */
static int cp_trace_kernel_keys(cp_trace_process *p, cp_table *keys)
{
    for (size_t k = 0; k < p->nkernels; k++) {
        cp_trace_kernel *kk = &p->kernels[k];
        size_t len = strlen(kk->function) + 16;
        char *key = malloc(len);
        if (!key)
            return -1;
        snprintf(key, len, "%u\t%s", kk->device, kk->function);
        int created;
        cp_table_entry *e = cp_table_get(keys, key, &created);
        free(key);
        if (!e)
            return -1;
        const cp_trace_kernel *old = created ? NULL : &p->kernels[e->index];
        if (created || (!old->launches && !old->kc.records && (kk->launches || kk->kc.records)))
            e->index = k;
    }
    return 0;
}

/* The kernel of site s (cp_trace_kernel_keys), or NULL (also when out of memory). */
static cp_trace_kernel *cp_trace_site_kernel(cp_trace_process *p, const cp_table *keys,
                                             const cp_trace_site *s)
{
    size_t len = strlen(s->function) + 16;
    char *key = malloc(len);
    if (!key)
        return NULL;
    snprintf(key, len, "%u\t%s", s->device, s->function);
    cp_table_entry *e = cp_table_find(keys, key);
    free(key);
    return e ? &p->kernels[e->index] : NULL;
}

/* One site's share of its kernel k: by the sectors of its kernel records when the kernel's
 * records were filed under sites (kernel_at), else by its launches. */
static void cp_trace_site_counts(cp_trace_site *s, const cp_trace_kernel *k, int with_kernel_at)
{
    s->sectors = s->excess_bytes = NAN;
    s->by_launches = 0;
    if (!k || k->from == CP_TRACE_FROM_NONE)
        return;
    double ksectors = cp_trace_kc_sectors(&k->kc);
    if (with_kernel_at && isfinite(ksectors)) {
        double sectors = cp_trace_kc_sectors(&s->kc);
        s->sectors = isfinite(sectors) ? sectors : 0;
        double share = ksectors > 0 ? s->sectors / ksectors : 0;
        s->excess_bytes = share * k->d.excess_bytes;
        if (s->launches == 0)
            s->launches = s->kc.records;
        return;
    }
    double share = k->launches ? (double)s->launches / (double)k->launches : 0;
    s->by_launches = 1;
    s->sectors = share * k->d.sectors;
    s->excess_bytes = share * k->d.excess_bytes;
}

/* Every site of proc: its kernel and counts. -1 when out of memory. */
static int cp_trace_where_sites(cp_trace_process *proc)
{
    cp_table keys = {0};
    /* with_kernel_at[k]: some site of kernel k has kernel records */
    unsigned char *with_kernel_at = calloc(proc->nkernels + 1, 1);
    int bad = !with_kernel_at || cp_trace_kernel_keys(proc, &keys) != 0;
    for (size_t i = 0; i < proc->nsites && !bad; i++) {
        cp_trace_site *s = &proc->sites[i];
        s->kernel = cp_trace_site_kernel(proc, &keys, s);
        if (s->kernel && s->kc.records)
            with_kernel_at[s->kernel - proc->kernels] = 1;
    }
    for (size_t i = 0; i < proc->nsites && !bad; i++) {
        cp_trace_site *s = &proc->sites[i];
        cp_trace_site_counts(s, s->kernel, s->kernel && with_kernel_at[s->kernel - proc->kernels]);
    }
    free(with_kernel_at);
    cp_table_free(&keys, NULL);
    return bad ? -1 : 0;
}

/* ---- groups ------------------------------------------------------------------------------ */

/* One part of a kernel's counts that goes into a group: a site's, or the rest no site holds. */
typedef struct cp_trace_part {
    const cp_trace_process *proc;
    const cp_trace_site *site; /* NULL: the rest */
    const cp_trace_kernel *kernel;
    uint64_t launches;
    double sectors, excess_bytes;
    int by_launches;
} cp_trace_part;

/* The key of a part under --group-by by, into buf. */
static void cp_trace_part_key(const cp_trace_part *x, int by, char *buf, size_t n)
{
    char range[1024], line[1024], stack[2048];
    cp_trace_site_range(x->proc, x->site, range, sizeof range);
    const cp_trace_frame *f = cp_trace_site_frame(x->proc, x->site);
    const char *none = cp_trace_site_kind_text(x->site ? x->site->kind : CP_TRACE_SITE_UNKNOWN);
    if (by == CP_TRACE_GROUP_RANGE) {
        snprintf(buf, n, "%s", range[0] ? range : "no NVTX range");
        return;
    }
    if (f)
        snprintf(line, sizeof line, "%s:%u", f->file, f->line);
    else
        snprintf(line, sizeof line, "%s", none);
    if (by == CP_TRACE_GROUP_LINE) {
        snprintf(buf, n, "%s", line);
        return;
    }
    cp_trace_site_stack(x->proc, x->site, stack, sizeof stack);
    const char *parts[] = {line,
                           f ? " in " : "",
                           f ? f->function : "",
                           stack[0] ? " < " : "",
                           stack,
                           range[0] ? " [" : "",
                           range,
                           range[0] ? "]" : ""};
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < CP_COUNT_OF(parts); i++)
        len = cp_trace_append_text(buf, n, len, parts[i]);
}

static double cp_trace_or_zero(double v)
{
    return isfinite(v) ? v : 0;
}

/* Adds part x to its group (created when new); -1 when out of memory. */
static int cp_trace_group_add(cp_trace_report *r, cp_table *keys, size_t *cap,
                              const cp_trace_part *x)
{
    char key[4096];
    cp_trace_part_key(x, r->options->group_by, key, sizeof key);
    int created;
    cp_table_entry *e = cp_table_get(keys, key, &created);
    if (!e)
        return -1;
    if (created) {
        if (r->ngroups == *cap) {
            size_t want = *cap ? *cap * 2 : 8;
            cp_trace_group *grown = realloc(r->groups, want * sizeof *grown);
            if (!grown)
                return -1;
            r->groups = grown;
            *cap = want;
        }
        cp_trace_group *g = &r->groups[r->ngroups];
        memset(g, 0, sizeof *g);
        if (!(g->key = strdup(key)))
            return -1;
        g->kind = x->site ? x->site->kind : CP_TRACE_SITE_UNKNOWN;
        g->proc = x->proc;
        g->site = x->site;
        e->index = r->ngroups++;
    }
    cp_trace_group *g = &r->groups[e->index];
    g->launches += x->launches;
    g->sectors += cp_trace_or_zero(x->sectors);
    g->excess_bytes += cp_trace_or_zero(x->excess_bytes);
    g->by_launches |= x->by_launches;
    const char *name = x->kernel->name ? x->kernel->name : x->kernel->function;
    size_t i = 0;
    while (i < g->nkernels &&
           strcmp(name, g->kernels[i].kernel->name ? g->kernels[i].kernel->name
                                                   : g->kernels[i].kernel->function))
        i++;
    if (i == g->nkernels) {
        cp_trace_group_kernel *grown = realloc(g->kernels, (g->nkernels + 1) * sizeof *grown);
        if (!grown)
            return -1;
        g->kernels = grown;
        memset(&g->kernels[g->nkernels++], 0, sizeof *grown);
        g->kernels[i].kernel = x->kernel;
    }
    g->kernels[i].launches += x->launches;
    g->kernels[i].sectors += cp_trace_or_zero(x->sectors);
    g->kernels[i].excess_bytes += cp_trace_or_zero(x->excess_bytes);
    return 0;
}

/* Each kernel's counts that none of its sites holds, in rests (one per kernel of proc). */
static void cp_trace_group_rests(const cp_trace_process *proc, cp_trace_part *rests)
{
    for (size_t k = 0; k < proc->nkernels; k++) {
        const cp_trace_kernel *kk = &proc->kernels[k];
        cp_trace_part rest = {proc,
                              NULL,
                              kk,
                              kk->launches,
                              cp_trace_or_zero(kk->d.sectors),
                              cp_trace_or_zero(kk->d.excess_bytes),
                              0};
        rests[k] = rest;
    }
    for (size_t i = 0; i < proc->nsites; i++) {
        const cp_trace_site *s = &proc->sites[i];
        if (!s->kernel)
            continue;
        cp_trace_part *rest = &rests[s->kernel - proc->kernels];
        rest->launches -= s->launches < rest->launches ? s->launches : rest->launches;
        rest->sectors -= cp_trace_or_zero(s->sectors);
        rest->excess_bytes -= cp_trace_or_zero(s->excess_bytes);
    }
    for (size_t k = 0; k < proc->nkernels; k++) {
        /* what is left beyond rounding (the sites' shares add up to their kernel's) */
        if (rests[k].sectors < 0.5)
            rests[k].sectors = 0;
        if (rests[k].excess_bytes < 0.5)
            rests[k].excess_bytes = 0;
    }
}

/* Adds every site of the selected kernels of proc, and each kernel's rest no site holds. */
static int cp_trace_group_process(cp_trace_report *r, cp_table *keys, size_t *cap,
                                  const cp_trace_process *proc)
{
    for (size_t i = 0; i < proc->nsites; i++) {
        const cp_trace_site *s = &proc->sites[i];
        if (!s->kernel || !s->kernel->selected)
            continue;
        cp_trace_part x = {proc,          s, s->kernel, s->launches, s->sectors, s->excess_bytes,
                           s->by_launches};
        if (cp_trace_group_add(r, keys, cap, &x) != 0)
            return -1;
    }
    cp_trace_part *rests = calloc(proc->nkernels + 1, sizeof *rests);
    if (!rests)
        return -1;
    cp_trace_group_rests(proc, rests);
    int bad = 0;
    for (size_t k = 0; k < proc->nkernels && !bad; k++) {
        const cp_trace_part *rest = &rests[k];
        if (rest->kernel->selected &&
            (rest->launches || rest->sectors > 0 || rest->excess_bytes > 0))
            bad = cp_trace_group_add(r, keys, cap, rest) != 0;
    }
    free(rests);
    return bad ? -1 : 0;
}

static int cp_trace_group_cmp(const void *a, const void *b)
{
    const cp_trace_group *x = a, *y = b;
    if (x->excess_bytes != y->excess_bytes)
        return x->excess_bytes > y->excess_bytes ? -1 : 1;
    if (x->sectors != y->sectors)
        return x->sectors > y->sectors ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int cp_trace_group_kernel_cmp(const void *a, const void *b)
{
    const cp_trace_group_kernel *x = a, *y = b;
    if (x->excess_bytes != y->excess_bytes)
        return x->excess_bytes > y->excess_bytes ? -1 : 1;
    if (x->launches != y->launches)
        return x->launches > y->launches ? -1 : 1;
    return x->kernel->index < y->kernel->index ? -1 : x->kernel->index > y->kernel->index;
}

/* The groups of --group-by, by excess, each with its share of the program's excess. */
static int cp_trace_where_groups(cp_trace *t, cp_trace_report *r)
{
    cp_table keys = {0};
    size_t cap = 0;
    int bad = 0;
    for (size_t p = 0; p < t->nprocs && !bad; p++)
        bad = cp_trace_group_process(r, &keys, &cap, &t->procs[p]);
    cp_table_free(&keys, NULL);
    if (bad)
        return -1;
    for (size_t i = 0; i < r->ngroups; i++) {
        cp_trace_group *g = &r->groups[i];
        g->excess_share =
            r->program.excess_bytes > 0 ? g->excess_bytes / r->program.excess_bytes : NAN;
        if (g->nkernels > 1)
            qsort(g->kernels, g->nkernels, sizeof *g->kernels, cp_trace_group_kernel_cmp);
    }
    if (r->ngroups > 1)
        qsort(r->groups, r->ngroups, sizeof *r->groups, cp_trace_group_cmp);
    return 0;
}

/* ---- ranks ------------------------------------------------------------------------------- */

/* Adds proc's selected kernels to its rank's totals (created when new); -1: out of memory. */
static int cp_trace_rank_add(cp_trace_report *r, const cp_trace_process *proc)
{
    size_t i = 0;
    while (i < r->nranks && r->ranks[i].rank != proc->rank)
        i++;
    if (i == r->nranks) {
        cp_trace_rank_total *grown = realloc(r->ranks, (r->nranks + 1) * sizeof *grown);
        if (!grown)
            return -1;
        r->ranks = grown;
        memset(&r->ranks[r->nranks++], 0, sizeof *grown);
        r->ranks[i].rank = proc->rank;
    }
    cp_trace_rank_total *x = &r->ranks[i];
    long *pids = realloc(x->pids, (x->npids + 1) * sizeof *pids);
    if (!pids)
        return -1;
    x->pids = pids;
    x->pids[x->npids++] = proc->pid;
    if (!x->host)
        x->host = proc->host;
    for (size_t k = 0; k < proc->nkernels; k++) {
        const cp_trace_kernel *kk = &proc->kernels[k];
        if (!kk->selected)
            continue;
        x->launches += kk->launches;
        x->sectors += cp_trace_or_zero(kk->d.sectors);
        x->excess_bytes += cp_trace_or_zero(kk->d.excess_bytes);
    }
    return 0;
}

static int cp_trace_rank_cmp(const void *a, const void *b)
{
    const cp_trace_rank_total *x = a, *y = b;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int cp_trace_double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The ranks' totals, the median rank's excess and the ranks off it by more than the spread. */
static int cp_trace_where_ranks(cp_trace *t, cp_trace_report *r)
{
    for (size_t p = 0; p < t->nprocs; p++)
        if (t->procs[p].rank >= 0 && cp_trace_rank_add(r, &t->procs[p]) != 0)
            return -1;
    if (r->nranks == 0)
        return 0;
    qsort(r->ranks, r->nranks, sizeof *r->ranks, cp_trace_rank_cmp);
    double *excess = malloc(r->nranks * sizeof *excess);
    if (!excess)
        return -1;
    for (size_t i = 0; i < r->nranks; i++)
        excess[i] = r->ranks[i].excess_bytes;
    qsort(excess, r->nranks, sizeof *excess, cp_trace_double_cmp);
    r->rank_median = excess[(r->nranks - 1) / 2]; /* the lower middle of an even count */
    free(excess);
    double spread = r->options->rank_spread;
    for (size_t i = 0; i < r->nranks; i++) {
        cp_trace_rank_total *x = &r->ranks[i];
        x->deviation =
            r->rank_median > 0 ? (x->excess_bytes - r->rank_median) / r->rank_median : NAN;
        x->flagged = r->rank_median > 0 ? fabs(x->deviation) > spread : x->excess_bytes > 0;
    }
    return 0;
}

int cp_trace_where_analyze(cp_trace *t, cp_trace_report *r, cp_status *st)
{
    int bad = 0;
    for (size_t p = 0; p < t->nprocs && !bad; p++)
        bad = cp_trace_where_sites(&t->procs[p]);
    if (!bad)
        bad = cp_trace_where_ranks(t, r);
    if (!bad && r->options->group_by != CP_TRACE_GROUP_KERNEL)
        bad = cp_trace_where_groups(t, r);
    if (bad) {
        cp_trace_where_free(r);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory grouping the trace");
    }
    return CP_EXIT_OK;
}

void cp_trace_where_free(cp_trace_report *r)
{
    for (size_t i = 0; i < r->ngroups; i++) {
        free(r->groups[i].key);
        free(r->groups[i].kernels);
    }
    free(r->groups);
    for (size_t i = 0; i < r->nranks; i++)
        free(r->ranks[i].pids);
    free(r->ranks);
    r->groups = NULL;
    r->ranks = NULL;
    r->ngroups = r->nranks = 0;
}
