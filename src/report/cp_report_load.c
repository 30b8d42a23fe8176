/* cp_report_load.c: a sweep report read back from its JSON document (coalprobe show): every row's
 * configuration, prediction and measurement, and the device, as the run held them, so that the
 * writers print the table, CSV, Vega-Lite and JSON of a saved report as they print a run's. The
 * inverse of cp_report_json.c; values the document leaves out (an older coalprobe's report) are
 * unknown (NAN) or 0, as in a run that did not measure them. */
#include "cp_report.h"
#include "cp_show.h" /* cp_show_at, cp_show_num, cp_show_str: values by their dotted path */

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"

/* ---- values by their path ------------------------------------------------------------------ */

/* A count, 0 when missing, null or out of range. */
static uint64_t cp_rl_u64(const cJSON *o, const char *path)
{
    double v = cp_show_num(o, path);
    return v >= 0 && v < 18446744073709551616.0 ? (uint64_t)v : 0;
}

/* s copied into buf (len bytes), "" for NULL. */
static void cp_rl_copy(char *buf, size_t len, const char *s)
{
    snprintf(buf, len, "%s", s ? s : "");
}

/* "rows[3]: what" as a usage error of the report at path. */
static int cp_rl_bad(const cp_report_loaded *r, size_t row, const char *what, cp_status *st)
{
    cp_status_set(st, CP_EXIT_USAGE, "'%s' rows[%zu]: %s", r->path, row, what);
    cp_status_hint(st, "show reads the reports coalprobe --format json writes, as written");
    return CP_EXIT_USAGE;
}

/* ---- the configuration ---------------------------------------------------------------------- */

/* Sets the member of c that field f's value v stands for (its descriptor's setter); 0 when f has
 * none (a value derived from the others, only checked). */
static int cp_rl_set(cp_config *c, const cp_family_field *f, uint64_t v)
{
    if (!f->set)
        return 0;
    f->set(c, v);
    return 1;
}

/* The value of numeric or named field f in the row's "config" (a name as its index). */
static int cp_rl_field_value(const cJSON *config, const cp_family_field *f, uint64_t *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(config, f->key);
    if (cp_family_field_number(f)) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble != floor(x->valuedouble))
            return 0;
        *v = (uint64_t)x->valuedouble;
        return 1;
    }
    for (size_t i = 0; cJSON_IsString(x) && i < f->nnames; i++)
        if (strcmp(f->names[i], x->valuestring) == 0) {
            *v = i;
            return 1;
        }
    return 0;
}

/* The expression of an expr row: the one of the row before when its text and names are the same,
 * else parsed (and kept in r to be freed). */
static int cp_rl_expr(cp_report_loaded *r, size_t row, const cJSON *config, cp_config *c,
                      cp_status *st)
{
    const char *text = cp_show_str(config, "index");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(config, "params");
    const char *names[CP_EXPR_MAX_PARAMS];
    size_t n = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, params)
    {
        if (n == CP_EXPR_MAX_PARAMS || !cJSON_IsNumber(p))
            return cp_rl_bad(r, row, "config.params: not a set of numbers", st);
        names[n] = p->string;
        c->expr_params[n++] = (int64_t)p->valuedouble;
    }
    c->nexpr_params = (uint32_t)n;
    if (!text)
        return cp_rl_bad(r, row, "config.index: no expression", st);
    const struct cp_expr *last = r->nexprs ? r->exprs[r->nexprs - 1] : NULL;
    int same = last && strcmp(cp_expr_text(last), text) == 0;
    for (size_t k = 0; same && k < n; k++)
        same = cp_expr_param_name(last, k) && strcmp(cp_expr_param_name(last, k), names[k]) == 0;
    if (same && !cp_expr_param_name(last, n)) {
        c->expr = last;
        return CP_EXIT_OK;
    }
    struct cp_expr **grown = realloc(r->exprs, (r->nexprs + 1) * sizeof *grown);
    if (!grown)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading '%s'", r->path);
    r->exprs = grown;
    cp_expr *e = NULL;
    if (cp_expr_parse(text, names, n, &e, st) != CP_EXIT_OK) {
        char why[sizeof st->message + 16];
        snprintf(why, sizeof why, "config.index: %.400s", st->message);
        return cp_rl_bad(r, row, why, st);
    }
    r->exprs[r->nexprs++] = e;
    c->expr = e;
    return CP_EXIT_OK;
}

/* The row's configuration from its "pattern" and "config"; every numeric field checked against
 * what the configuration gives back (offset_bytes against offset and width, ...). */
static int cp_rl_config(cp_report_loaded *r, size_t row, const cJSON *o, cp_config *c,
                        cp_status *st)
{
    const char *pattern = cp_show_str(o, "pattern");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(o, "config");
    if (!pattern || !cp_family_find(pattern, &c->family))
        return cp_rl_bad(r, row, "pattern: not a family of this coalprobe", st);
    const cp_family_desc *d = cp_family_get(c->family);
    for (int pass = 0; pass < 2; pass++) /* set every member, then check every field */
        for (size_t i = 0; i < d->nfields; i++) {
            const cp_family_field *f = &d->fields[i];
            uint64_t v = 0;
            if (f->kind == CP_FIELD_INDEX && pass == 0)
                CP_TRY(cp_rl_expr(r, row, config, c, st));
            if (f->kind == CP_FIELD_INDEX || f->kind == CP_FIELD_PARAMS)
                continue;
            char what[160];
            snprintf(what, sizeof what, "config.%s: missing or not a value of this coalprobe",
                     f->key);
            if (!cp_rl_field_value(config, f, &v))
                return cp_rl_bad(r, row, what, st);
            if (pass == 0)
                cp_rl_set(c, f, v);
            else if (f->get(c) != v) {
                snprintf(what, sizeof what, "config.%s: %llu disagrees with the other values",
                         f->key, (unsigned long long)v);
                return cp_rl_bad(r, row, what, st);
            }
        }
    return CP_EXIT_OK;
}

/* ---- the prediction ---------------------------------------------------------------------- */

/* The counts under o (global, shared or constant: each has some of them). */
static cp_counts cp_rl_counts(const cJSON *o)
{
    cp_counts c = {
        .requests = cp_rl_u64(o, "requests"),
        .sectors = cp_rl_u64(o, "sectors"),
        .lines = cp_rl_u64(o, "lines"),
        .bytes_requested = cp_rl_u64(o, "bytes_requested"),
        .ideal_sectors = cp_rl_u64(o, "ideal_sectors"),
        .footprint_sectors = cp_rl_u64(o, "footprint_sectors"),
        .wavefronts = cp_rl_u64(o, "wavefronts"),
        .ideal_wavefronts = cp_rl_u64(o, "ideal_wavefronts"),
        .bank_conflicts = cp_rl_u64(o, "bank_conflicts"),
    };
    return c;
}

/* The index of name in names (n of them), -1 when absent. */
static int cp_rl_index(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; name && i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

/* The regime estimate: where the working set is likely served from. */
static void cp_rl_regime(const cJSON *o, cp_prediction *p)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "regime_estimate");
    const char *level = cp_show_str(r, "level");
    for (int g = CP_REGIME_UNKNOWN + 1; level && cp_regime_name((cp_regime)g); g++)
        if (strcmp(cp_regime_name((cp_regime)g), level) == 0)
            p->regime = (cp_regime)g;
    p->working_set_bytes = cp_rl_u64(r, "working_set_bytes");
    p->caches.l1_per_sm = cp_rl_u64(r, "l1_bytes_per_sm");
    p->caches.constant_cache_per_sm = cp_rl_u64(r, "constant_cache_bytes_per_sm");
    p->caches.l2 = cp_rl_u64(r, "l2_bytes");
}

/* The values of family d's own counters under o's "family_counters" (NAN where absent or null)
 * into out[]. */
static void cp_rl_family_values(const cJSON *o, const cp_family_desc *d, double *out)
{
    const cJSON *f = cp_show_at(o, "family_counters");
    for (size_t i = 0; d && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(f, d->counters[i].key);
        out[i] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
    }
}

static int cp_rl_predicted(cp_report_loaded *r, size_t row, const cJSON *o, cp_family family,
                           cp_prediction *p, cp_status *st)
{
    static const char *const spaces[] = {"global", "shared", "constant", "tma"}; /* cp_space */
    memset(p, 0, sizeof *p);
    if (!cJSON_IsObject(o))
        return CP_EXIT_OK; /* null: not modelled (cuBLAS) */
    p->modelled = 1;
    p->threads = cp_rl_u64(o, "threads");
    p->warps = cp_rl_u64(o, "warps");
    p->load = cp_rl_counts(cp_show_at(o, "load"));
    p->store = cp_rl_counts(cp_show_at(o, "store"));
    p->tma_load = cp_rl_counts(cp_show_at(o, "tma_load"));
    p->shared_modelled = cJSON_IsObject(cp_show_at(o, "shared_load"));
    p->shared_exact = cJSON_IsTrue(cp_show_at(o, "shared_exact"));
    p->shared_load = cp_rl_counts(cp_show_at(o, "shared_load"));
    p->shared_store = cp_rl_counts(cp_show_at(o, "shared_store"));
    cp_rl_regime(o, p);
    const cJSON *a;
    cJSON_ArrayForEach(a, cp_show_at(o, "accesses"))
    {
        if (p->naccesses == CP_MODEL_MAX_ACCESSES)
            return cp_rl_bad(r, row, "predicted.accesses: more than this coalprobe models", st);
        cp_access_prediction *x = &p->accesses[p->naccesses++];
        int op = cp_rl_index(cp_show_str(a, "op"), cp_config_op_names, CP_OP_COUNT);
        int space = cp_rl_index(cp_show_str(a, "space"), spaces, CP_COUNT_OF(spaces));
        x->name = cp_show_str(a, "name");
        x->op = op < 0 ? CP_OP_LOAD : (cp_op)op;
        x->space = space < 0 ? CP_SPACE_GLOBAL : (cp_space)space;
        x->lane_bytes = (uint32_t)cp_rl_u64(a, "lane_bytes");
        x->instructions = (uint32_t)cp_rl_u64(a, "instructions");
        x->iterations = cp_rl_u64(a, "iterations");
        x->buffer_bytes = cp_rl_u64(a, "buffer_bytes");
        x->strided = cJSON_IsTrue(cp_show_at(a, "strided"));
        x->counts = cp_rl_counts(a);
    }
    /* the family's own counters: the saved values, and which of them a metric measures */
    const cp_family_desc *d = cp_family_get(family);
    cp_rl_family_values(o, d, p->family);
    for (size_t i = 0; d && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        p->nfamily = i + 1;
        if (d->counters[i].metric)
            p->family_checked |= 1u << i;
    }
    return CP_EXIT_OK;
}

/* ---- the measurement ----------------------------------------------------------------------- */

/* The counters the run did not read and why ("unavailable"), into gaps kept by r. */
static int cp_rl_gaps(cp_report_loaded *r, const cJSON *unavailable, cp_measurement *m,
                      cp_status *st)
{
    size_t n = (size_t)cJSON_GetArraySize(unavailable);
    if (!cJSON_IsObject(unavailable) || n == 0)
        return CP_EXIT_OK;
    cp_counter_gap *gaps = calloc(n, sizeof *gaps);
    cp_counter_gap **grown = realloc(r->gaps, (r->ngaps + 1) * sizeof *grown);
    if (!gaps || !grown) {
        free(gaps);
        if (grown)
            r->gaps = grown;
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading '%s'", r->path);
    }
    r->gaps = grown;
    r->gaps[r->ngaps++] = gaps;
    const cJSON *g;
    size_t k = 0;
    cJSON_ArrayForEach(g, unavailable)
    {
        gaps[k].counter = g->string;
        cp_rl_copy(gaps[k].reason, sizeof gaps[k].reason, cJSON_IsString(g) ? g->valuestring : "");
        k++;
    }
    m->counter_gaps = gaps;
    m->ncounter_gaps = k;
    return CP_EXIT_OK;
}

/* The counters' values: each side's requests, sectors and bytes, shared memory, the path. */
static void cp_rl_counter_values(const cJSON *c, cp_counter_values *v)
{
    static const struct {
        const char *path;
        size_t offset;
    } values[] = {
#define CP_RL_VALUE(path, member) {path, offsetof(cp_counter_values, member)}
        CP_RL_VALUE("load.requests", load_requests),
        CP_RL_VALUE("load.sectors", load_sectors),
        CP_RL_VALUE("load.bytes_requested", load_bytes_requested),
        CP_RL_VALUE("store.requests", store_requests),
        CP_RL_VALUE("store.sectors", store_sectors),
        CP_RL_VALUE("store.bytes_requested", store_bytes_requested),
        CP_RL_VALUE("l2_read_sectors", l2_read_sectors),
        CP_RL_VALUE("l2_write_sectors", l2_write_sectors),
        CP_RL_VALUE("dram_read_bytes", dram_read_bytes),
        CP_RL_VALUE("dram_write_bytes", dram_write_bytes),
        CP_RL_VALUE("dram_throughput_pct", dram_throughput_pct),
        CP_RL_VALUE("shared_load.requests", shared_load_requests),
        CP_RL_VALUE("shared_load.wavefronts", shared_load_wavefronts),
        CP_RL_VALUE("shared_load.bank_conflicts", shared_load_conflicts),
        CP_RL_VALUE("shared_store.requests", shared_store_requests),
        CP_RL_VALUE("shared_store.wavefronts", shared_store_wavefronts),
        CP_RL_VALUE("shared_store.bank_conflicts", shared_store_conflicts),
        CP_RL_VALUE("achieved_occupancy", achieved_occupancy),
        CP_RL_VALUE("l1_load_hit_rate", l1_load_hit_rate),
        CP_RL_VALUE("l2_read_hit_rate", l2_read_hit_rate),
        CP_RL_VALUE("sm_active", sm_active),
        CP_RL_VALUE("constant_load.requests", constant_requests),
        CP_RL_VALUE("ldgsts_requests", ldgsts_requests),
        CP_RL_VALUE("tma_load.requests", tma_load_requests),
        CP_RL_VALUE("tma_load.sectors", tma_load_sectors),
#undef CP_RL_VALUE
    };
    for (size_t i = 0; i < CP_COUNT_OF(values); i++) {
        double x = cp_show_num(c, values[i].path);
        memcpy((char *)v + values[i].offset, &x, sizeof x);
    }
}

/* The kernel's resources (null: not known, and why). */
static void cp_rl_resources(const cJSON *o, const cp_device_info *dev, cp_resources *r)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, "resources");
    r->known = cJSON_IsObject(x);
    cp_rl_copy(r->reason, sizeof r->reason, cp_show_str(o, "resources_reason"));
    r->registers_per_thread = (uint32_t)cp_rl_u64(x, "registers_per_thread");
    r->static_shared_bytes = cp_rl_u64(x, "static_shared_bytes");
    r->dynamic_shared_bytes = cp_rl_u64(x, "dynamic_shared_bytes");
    r->threads_per_block = (uint32_t)cp_rl_u64(x, "threads_per_block");
    r->blocks_per_sm = (uint32_t)cp_rl_u64(x, "blocks_per_sm");
    r->theoretical_occupancy = cp_show_num(x, "theoretical_occupancy");
    if (dev)
        r->sm = dev->sm; /* the limits the occupancy was computed against */
}

static int cp_rl_measured(cp_report_loaded *r, const cJSON *row, const cJSON *o, cp_family family,
                          cp_measurement *m, cp_status *st)
{
    cp_measurement_clear(m);
    const char *source = cp_show_str(row, "source");
    m->timed = source && strcmp(source, "measured") == 0;
    m->reps = (uint32_t)cp_rl_u64(o, "reps");
    m->time_median_s = cp_show_num(o, "time_s.median");
    m->time_min_s = cp_show_num(o, "time_s.min");
    m->time_max_s = cp_show_num(o, "time_s.max");
    m->noise = cp_show_num(o, "noise"); /* absent before the stopping rule: NAN, not noisy */
    m->noisy = cJSON_IsTrue(cp_show_at(o, "noisy"));
    m->useful_bytes = cp_show_num(o, "useful_bytes");
    m->useful_bytes_per_s = cp_show_num(o, "useful_bytes_per_s");
    m->dram_bytes_per_s = cp_show_num(o, "dram_bytes_per_s");
    m->pct_of_peak = cp_show_num(o, "pct_of_peak");
    m->verified = cJSON_IsTrue(cp_show_at(o, "verified"));
    m->flop_per_s = cp_show_num(o, "flop_per_s");
    m->pct_of_cublas = cp_show_num(o, "pct_of_cublas");
    m->rel_error = cp_show_num(o, "rel_error_vs_cublas");
    const cJSON *c = cp_show_at(o, "counters");
    const char *status = cp_show_str(c, "status");
    m->counters_status = !status                          ? CP_COUNTERS_NOT_RUN
                         : strcmp(status, "ok") == 0      ? CP_COUNTERS_OK
                         : strcmp(status, "refused") == 0 ? CP_COUNTERS_REFUSED
                                                          : CP_COUNTERS_NOT_RUN;
    cp_rl_copy(m->counters_reason, sizeof m->counters_reason, cp_show_str(c, "reason"));
    cp_rl_counter_values(c, &m->counters);
    cp_rl_family_values(c, cp_family_get(family), m->counters.family);
    CP_TRY(cp_rl_gaps(r, cp_show_at(c, "unavailable"), m, st));
    const cJSON *match = cp_show_at(o, "match");
    m->counts_match = cJSON_IsTrue(match) ? 1 : cJSON_IsFalse(match) ? 0 : -1;
    cp_rl_resources(o, r->report.device, &m->resources);
    cp_rl_copy(m->load_opcode, sizeof m->load_opcode, cp_show_str(o, "load_opcode"));
    cp_rl_copy(m->load_opcode_reason, sizeof m->load_opcode_reason,
               cp_show_str(o, "load_opcode_reason"));
    return CP_EXIT_OK;
}

/* ---- the device and the document ------------------------------------------------------------- */

/* The device the rows were measured on (the facts of its architecture are this coalprobe's). */
static void cp_rl_device(const cJSON *o, cp_device_info *d)
{
    static const char *const kinds[] = {"sass", "sass_compatible", "ptx_jit", "none"};
    memset(d, 0, sizeof *d);
    d->index = (int)cp_show_num(o, "index");
    cp_rl_copy(d->name, sizeof d->name, cp_show_str(o, "name"));
    const char *cc = cp_show_str(o, "compute_capability");
    if (cc)
        sscanf(cc, "%d.%d", &d->cc_major, &d->cc_minor);
    d->sm_count = (int)cp_rl_u64(o, "sm_count");
    d->l2_bytes = cp_rl_u64(o, "l2_bytes");
    d->memory_bytes = cp_rl_u64(o, "memory_bytes");
    d->driver_version = (int)cp_rl_u64(o, "driver_version");
    d->runtime_version = (int)cp_rl_u64(o, "runtime_version");
    cp_rl_copy(d->driver_release, sizeof d->driver_release, cp_show_str(o, "driver_release"));
    d->sm_clock_hz = cp_show_num(o, "sm_clock_hz");
    d->memory_clock_hz = cp_show_num(o, "memory_clock_hz");
    d->memory_bus_bits = (int)cp_rl_u64(o, "memory_bus_bits");
    d->peak_theoretical_bytes_per_s = cp_show_num(o, "peak_theoretical_bytes_per_s");
    d->peak_measured_bytes_per_s = cp_show_num(o, "peak_measured_bytes_per_s");
    int kind = cp_rl_index(cp_show_str(o, "kernel_image.kind"), kinds, CP_COUNT_OF(kinds));
    d->kernel_kind = kind < 0 ? CP_ARCH_RUN_NONE : (cp_arch_run_kind)kind;
    const char *arch = cp_show_str(o, "kernel_image.arch");
    if (arch && !sscanf(arch, "sm_%d", &d->kernel_arch))
        sscanf(arch, "compute_%d", &d->kernel_arch);
    d->sm.warp_size = (uint32_t)cp_rl_u64(o, "sm.warp_size");
    d->sm.max_threads_per_sm = (uint32_t)cp_rl_u64(o, "sm.max_threads");
    d->sm.max_blocks_per_sm = (uint32_t)cp_rl_u64(o, "sm.max_blocks");
    d->sm.registers_per_sm = (uint32_t)cp_rl_u64(o, "sm.registers");
    d->sm.register_unit = (uint32_t)cp_rl_u64(o, "sm.register_unit");
    d->sm.register_partitions = (uint32_t)cp_rl_u64(o, "sm.register_partitions");
    d->sm.shared_bytes_per_sm = cp_rl_u64(o, "sm.shared_bytes");
    d->sm.shared_unit = (uint32_t)cp_rl_u64(o, "sm.shared_unit");
    d->sm.shared_reserved_per_block = (uint32_t)cp_rl_u64(o, "sm.shared_reserved_per_block");
}

/* The stopping rule the rows were timed under ("timing"). */
static void cp_rl_timing(const cJSON *o, cp_sampling *s)
{
    memset(s, 0, sizeof *s);
    s->reps = (uint32_t)cp_rl_u64(o, "reps");
    s->min_samples = (uint32_t)cp_rl_u64(o, "min_samples");
    s->max_noise = cp_show_num(o, "max_noise");
    s->min_time_s = cp_show_num(o, "min_time_s");
    s->max_time_s = cp_show_num(o, "max_time_s");
}

int cp_report_load(const cJSON *doc, const char *path, cp_report_loaded *r, cp_status *st)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    size_t n = (size_t)cJSON_GetArraySize(rows);
    r->rows = calloc(n ? n : 1, sizeof *r->rows);
    r->meas = calloc(n ? n : 1, sizeof *r->meas);
    if (!r->rows || !r->meas)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading '%s'", path);
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(doc, "device");
    if (cJSON_IsObject(device)) {
        cp_rl_device(device, &r->device);
        r->report.device = &r->device;
    }
    const cJSON *timing = cJSON_GetObjectItemCaseSensitive(doc, "timing");
    if (cJSON_IsObject(timing)) {
        cp_rl_timing(timing, &r->sampling);
        r->report.sampling = &r->sampling;
    }
    r->report.tool_version = cp_show_str(doc, "tool.version");
    r->report.command = cp_show_str(doc, "command");
    r->report.incomplete = cJSON_IsTrue(cp_show_at(doc, "incomplete"));
    r->report.rows = r->rows;
    size_t i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, rows)
    {
        cp_row *row = &r->rows[i];
        CP_TRY(cp_rl_config(r, i, o, &row->config, st));
        CP_TRY(cp_rl_predicted(r, i, cJSON_GetObjectItemCaseSensitive(o, "predicted"),
                               row->config.family, &row->predicted, st));
        const cJSON *measured = cJSON_GetObjectItemCaseSensitive(o, "measured");
        if (cJSON_IsObject(measured)) {
            CP_TRY(cp_rl_measured(r, o, measured, row->config.family, &r->meas[i], st));
            row->measured = &r->meas[i];
        }
        r->report.nrows = ++i;
    }
    return CP_EXIT_OK;
}

void cp_report_loaded_free(cp_report_loaded *r)
{
    for (size_t i = 0; i < r->nexprs; i++)
        cp_expr_free(r->exprs[i]);
    for (size_t i = 0; i < r->ngaps; i++)
        free(r->gaps[i]);
    free(r->exprs);
    free(r->gaps);
    free(r->rows);
    free(r->meas);
    memset(r, 0, sizeof *r);
}
