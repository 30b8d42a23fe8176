/* cp_trace_where_out.c: "where the waste comes from" in the table (the ranks under the header,
 * the groups of --group-by, each with its kernels and their worst instructions; at most 100
 * columns) and in JSON (groups, ranks, each kernel's call sites, each process's host and rank
 * variables). */
#include "cp_trace_where.h"

#include <math.h>
#include <string.h>

#define CP_TRACE_WHERE_COLUMNS 100

/* text after indent, cut to the table's width ("..." at the end when cut). */
static void cp_trace_where_put(FILE *out, const char *indent, const char *text)
{
    size_t room = CP_TRACE_WHERE_COLUMNS - strlen(indent);
    if (strlen(text) <= room)
        fprintf(out, "%s%s\n", indent, text);
    else
        fprintf(out, "%s%.*s...\n", indent, (int)(room - 3), text);
}

/* text cut from the left to n columns ("..." first when cut): a path's end holds its line. */
static const char *cp_trace_where_tail(char *buf, size_t size, const char *text, size_t n)
{
    size_t len = strlen(text);
    if (len <= n)
        snprintf(buf, size, "%s", text);
    else
        snprintf(buf, size, "...%s", text + len - (n - 3));
    return buf;
}

static void cp_trace_where_pct(char *buf, size_t n, double fraction)
{
    if (isfinite(fraction))
        snprintf(buf, n, "%.1f%%", 100 * fraction);
    else
        snprintf(buf, n, "-");
}

void cp_trace_where_table_ranks(FILE *out, const cp_trace_report *r)
{
    if (r->nranks == 0)
        return;
    char median[32], line[512];
    cp_trace_format_bytes(median, sizeof median, r->rank_median);
    snprintf(line, sizeof line,
             "ranks: %zu, the median rank's excess %s; flagged: off it by more than %g%%",
             r->nranks, median, 100 * r->options->rank_spread);
    cp_trace_where_put(out, "", line);
    for (size_t i = 0; i < r->nranks; i++) {
        const cp_trace_rank_total *x = &r->ranks[i];
        char excess[32], pids[64] = "", flag[64] = "";
        cp_trace_format_bytes(excess, sizeof excess, x->excess_bytes);
        for (size_t p = 0, len = 0; p < x->npids && len + 16 < sizeof pids; p++)
            len +=
                (size_t)snprintf(pids + len, sizeof pids - len, "%s%ld", p ? "," : "", x->pids[p]);
        if (x->flagged && isfinite(x->deviation))
            snprintf(flag, sizeof flag, "  FLAGGED: %+.0f%% off the median", 100 * x->deviation);
        else if (x->flagged)
            snprintf(flag, sizeof flag, "  FLAGGED: the median is 0");
        snprintf(line, sizeof line,
                 "rank %ld (%s, pid %s): excess %s, %.0f sectors, %llu launch%s%s", x->rank,
                 x->host ? x->host : "?", pids, excess, x->sectors, (unsigned long long)x->launches,
                 x->launches == 1 ? "" : "es", flag);
        cp_trace_where_put(out, "  ", line);
    }
}

/* The worst instructions (up to --top) of the kernels of g, over the whole report. */
static void cp_trace_where_table_worst(FILE *out, const cp_trace_report *r, const cp_trace_group *g)
{
    size_t shown = 0;
    for (size_t i = 0; i < r->ninstrs && shown < r->options->top; i++) {
        const cp_trace_instr *in = r->instrs[i];
        const cp_trace_kernel *k = r->instr_kernel[i];
        int mine = 0;
        for (size_t j = 0; j < g->nkernels && !mine; j++) {
            const cp_trace_kernel *gk = g->kernels[j].kernel;
            mine = strcmp(gk->name ? gk->name : gk->function, k->name ? k->name : k->function) == 0;
        }
        if (!mine || !in->rank)
            continue;
        char where[256], at[40], excess[32], share[32], meaning[700], line[1024];
        cp_trace_where(k, in, where, sizeof where);
        const char *base = in->file ? strrchr(where, '/') : NULL; /* basename:line */
        if (base)
            memmove(where, base + 1, strlen(base + 1) + 1);
        cp_trace_format_bytes(excess, sizeof excess, in->d.excess_bytes);
        cp_trace_where_pct(share, sizeof share, in->excess_share);
        cp_trace_meaning(&in->d, meaning, sizeof meaning);
        snprintf(line, sizeof line, "#%zu %s %s, excess %s (%s): %s", in->rank,
                 cp_trace_where_tail(at, sizeof at, where, 30), cp_trace_kind_name(in), excess,
                 share, meaning);
        cp_trace_where_put(out, shown ? "            " : "     worst: ", line);
        shown++;
    }
}

/* One group: its key, counts and share, its kernels, their worst instructions. */
static void cp_trace_where_table_group(FILE *out, const cp_trace_report *r, size_t n,
                                       const cp_trace_group *g)
{
    char key[128], excess[32], share[32], line[1024];
    cp_trace_format_bytes(excess, sizeof excess, g->excess_bytes);
    cp_trace_where_pct(share, sizeof share, g->excess_share);
    snprintf(line, sizeof line, "#%zu %s", n,
             g->kind == CP_TRACE_SITE_FRAME ? cp_trace_where_tail(key, sizeof key, g->key, 90)
                                            : g->key);
    cp_trace_where_put(out, "\n  ", line);
    snprintf(line, sizeof line, "excess %s (%s of the program's), %.0f sectors, %llu launch%s%s",
             excess, share, g->sectors, (unsigned long long)g->launches,
             g->launches == 1 ? "" : "es", g->by_launches ? "; apportioned by launches" : "");
    cp_trace_where_put(out, "     ", line);
    for (size_t i = 0; i < g->nkernels; i++) {
        const cp_trace_group_kernel *x = &g->kernels[i];
        char name[128], tail[96];
        cp_trace_format_bytes(excess, sizeof excess, x->excess_bytes);
        snprintf(tail, sizeof tail, ": %llu launch%s, excess %s", (unsigned long long)x->launches,
                 x->launches == 1 ? "" : "es", excess);
        const char *full = x->kernel->name ? x->kernel->name : x->kernel->function;
        size_t room = CP_TRACE_WHERE_COLUMNS - 12 - strlen(tail);
        if (strlen(full) > room)
            snprintf(name, sizeof name, "%.*s...", (int)(room - 3), full);
        else
            snprintf(name, sizeof name, "%s", full);
        snprintf(line, sizeof line, "%s%s", name, tail);
        cp_trace_where_put(out, "     kernel ", line);
    }
    cp_trace_where_table_worst(out, r, g);
}

void cp_trace_where_table_groups(FILE *out, const cp_trace_report *r)
{
    const char *by = cp_trace_group_name(r->options->group_by);
    fprintf(out, "\nwhere the excess comes from, by %s: %zu group%s\n", by, r->ngroups,
            r->ngroups == 1 ? "" : "s");
    cp_trace_where_put(out, "  ",
                       "a call site's excess: its kernel's, apportioned by the sectors of the "
                       "site's launches");
    cp_trace_where_put(out, "  ",
                       "(exact when every launch moves the same pattern; docs/trace.md says "
                       "more)");
    for (size_t i = 0; i < r->ngroups; i++)
        cp_trace_where_table_group(out, r, i + 1, &r->groups[i]);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static const char *cp_trace_where_kind_name(cp_trace_site_kind kind)
{
    static const char *const names[] = {"frame",         "no_python", "nogil",
                                        "no_user_frame", "overflow",  "unknown"};
    return (size_t)kind < CP_COUNT_OF(names) ? names[kind] : "unknown";
}

/* The frame (file, line, function) of a site, its stack above it (an array, innermost first)
 * and its range path, under o. */
static void cp_trace_where_json_site_where(cp_json *j, cJSON *o, const cp_trace_process *p,
                                           const cp_trace_site *s)
{
    const cp_trace_frame *f =
        s && s->kind == CP_TRACE_SITE_FRAME && s->frame < p->nframes ? &p->frames[s->frame] : NULL;
    cp_json_string(j, o, "frame", cp_trace_where_kind_name(s ? s->kind : CP_TRACE_SITE_UNKNOWN));
    cp_json_string(j, o, "file", f ? f->file : NULL);
    cp_json_number(j, o, "line", f ? (double)f->line : NAN);
    cp_json_string(j, o, "function", f ? f->function : NULL);
    cJSON *stack = cp_json_array(j, o, "stack");
    size_t depth = 0;
    for (size_t at = f ? f->parent : SIZE_MAX; at < p->nframes && depth < 64;
         at = p->frames[at].parent, depth++) {
        cJSON *x = cp_json_append(j, stack);
        cp_json_string(j, x, "file", p->frames[at].file);
        cp_json_number(j, x, "line", p->frames[at].line);
        cp_json_string(j, x, "function", p->frames[at].function);
    }
    char range[2048];
    cp_trace_site_range(p, s, range, sizeof range);
    cp_json_string(j, o, "range_path", range[0] ? range : NULL);
}

void cp_trace_where_json_kernel(cp_json *j, cJSON *o, const cp_trace_process *p,
                                const cp_trace_kernel *k)
{
    cJSON *list = cp_json_array(j, o, "call_sites");
    for (size_t i = 0; i < p->nsites; i++) {
        const cp_trace_site *s = &p->sites[i];
        if (s->kernel != k)
            continue;
        cJSON *x = cp_json_append(j, list);
        cp_trace_where_json_site_where(j, x, p, s);
        cp_json_number(j, x, "launches", (double)s->launches);
        cp_json_number(j, x, "sectors", s->sectors);
        cp_json_number(j, x, "excess_bytes", s->excess_bytes);
        cp_json_bool(j, x, "excess_apportioned", 1);
        cp_json_string(j, x, "apportioned_by", s->by_launches ? "launches" : "sectors");
    }
}

void cp_trace_where_json_process(cp_json *j, cJSON *o, const cp_trace_process *p)
{
    cp_json_string(j, o, "host", p->host);
    cp_json_number(j, o, "rank", p->rank >= 0 ? (double)p->rank : NAN);
    cJSON *ranks = cp_json_object(j, o, "ranks");
    for (size_t i = 0; i < p->nenvs; i++)
        cp_json_string(j, ranks, p->envs[i].a, p->envs[i].b);
}

/* One group of --group-by. */
static void cp_trace_where_json_group(cp_json *j, cJSON *x, const cp_trace_report *r,
                                      const cp_trace_group *g)
{
    cp_json_string(j, x, "key", g->key);
    cp_trace_where_json_site_where(j, x, g->proc, g->site);
    if (g->kind != CP_TRACE_SITE_FRAME)
        cp_json_string(j, x, "why_no_line", cp_trace_site_kind_text(g->kind));
    else
        cp_json_null(j, x, "why_no_line");
    cp_json_number(j, x, "launches", (double)g->launches);
    cp_json_number(j, x, "sectors", g->sectors);
    cp_json_number(j, x, "excess_bytes", g->excess_bytes);
    cp_json_number(j, x, "excess_share", g->excess_share);
    cp_json_bool(j, x, "excess_apportioned", 1);
    cp_json_string(j, x, "apportioned_by", g->by_launches ? "launches" : "sectors");
    cJSON *kernels = cp_json_array(j, x, "kernels");
    for (size_t i = 0; i < g->nkernels; i++) {
        const cp_trace_group_kernel *k = &g->kernels[i];
        cJSON *y = cp_json_append(j, kernels);
        cp_json_string(j, y, "name", k->kernel->name ? k->kernel->name : k->kernel->function);
        cp_json_number(j, y, "kernel_index", k->kernel->selected ? (double)k->kernel->index : NAN);
        cp_json_number(j, y, "launches", (double)k->launches);
        cp_json_number(j, y, "sectors", k->sectors);
        cp_json_number(j, y, "excess_bytes", k->excess_bytes);
    }
    (void)r;
}

void cp_trace_where_json(cp_json *j, cJSON *root, const cp_trace_report *r)
{
    cJSON *groups = cp_json_object(j, root, "groups");
    cp_json_string(j, groups, "by", cp_trace_group_name(r->options->group_by));
    if (r->options->group_by == CP_TRACE_GROUP_KERNEL) {
        cp_json_null(j, groups, "items"); /* the kernels are the groups */
    } else {
        cJSON *items = cp_json_array(j, groups, "items");
        for (size_t i = 0; i < r->ngroups; i++)
            cp_trace_where_json_group(j, cp_json_append(j, items), r, &r->groups[i]);
    }
    cJSON *ranks = cp_json_array(j, root, "ranks");
    for (size_t i = 0; i < r->nranks; i++) {
        const cp_trace_rank_total *x = &r->ranks[i];
        cJSON *o = cp_json_append(j, ranks);
        cp_json_number(j, o, "rank", (double)x->rank);
        cp_json_string(j, o, "host", x->host);
        cJSON *pids = cp_json_array(j, o, "pids");
        for (size_t p = 0; p < x->npids; p++) {
            cJSON *n = cp_json_check(j, cJSON_CreateNumber((double)x->pids[p]));
            if (pids && n)
                cJSON_AddItemToArray(pids, n);
            else
                cJSON_Delete(n);
        }
        cp_json_number(j, o, "launches", (double)x->launches);
        cp_json_number(j, o, "sectors", x->sectors);
        cp_json_number(j, o, "excess_bytes", x->excess_bytes);
        cp_json_number(j, o, "deviation", x->deviation);
        cp_json_bool(j, o, "flagged", x->flagged);
    }
}
