/* cp_measure.c: resetting measurement records, judging counts against the model, the metrics a
 * sweep's families add, and what a device cannot measure. */
#include "cp_measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cp_counter_values_clear(cp_counter_values *v)
{
    v->load_requests = v->load_sectors = NAN;
    v->store_requests = v->store_sectors = NAN;
    v->l2_read_sectors = v->l2_write_sectors = NAN;
    v->dram_read_bytes = v->dram_write_bytes = NAN;
    v->load_bytes_requested = v->store_bytes_requested = NAN;
    v->dram_throughput_pct = NAN;
    v->shared_load_requests = v->shared_load_wavefronts = v->shared_load_conflicts = NAN;
    v->shared_store_requests = v->shared_store_wavefronts = v->shared_store_conflicts = NAN;
    v->achieved_occupancy = NAN;
    v->l1_load_hit_rate = v->l2_read_hit_rate = v->sm_active = NAN;
    v->constant_requests = v->ldgsts_requests = NAN;
    for (size_t i = 0; i < CP_FAMILY_COUNTERS_MAX; i++)
        v->family[i] = NAN;
    v->tma_load_requests = v->tma_load_sectors = NAN;
}

/* 1 when every value is a number (a counter that was read). */
static int cp_measure_all_read(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(v[i]))
            return 0;
    return 1;
}

int cp_measure_counts_match(const cp_prediction *p, const cp_counter_values *v)
{
    if (!p->modelled)
        return -1;
    const double global_v[] = {v->load_requests, v->load_sectors, v->store_requests,
                               v->store_sectors};
    if (!cp_measure_all_read(global_v, 4))
        return -1;
    int global = v->load_requests == (double)p->load.requests &&
                 v->load_sectors == (double)p->load.sectors &&
                 v->store_requests == (double)p->store.requests &&
                 v->store_sectors == (double)p->store.sectors;
    /* copies by the TMA unit: judged by their sectors, where they were counted. Their
     * instruction count is shown, not judged: the code the compiler puts around a copy may
     * execute it more than once (on the H100 a one-stage tensor copy took 9 UTMALDG executions
     * a tile, a two-stage one 1; docs/model.md) */
    if (p->tma_load.requests) {
        if (isnan(v->tma_load_sectors))
            return global ? -1 : 0;
        global = global && v->tma_load_sectors == (double)p->tma_load.sectors;
    }
    /* the family's own counters that a metric measures: one not read leaves it unknown */
    for (size_t i = 0; i < p->nfamily; i++) {
        if (!(p->family_checked & (1u << i)))
            continue;
        if (isnan(v->family[i]))
            return global ? -1 : 0;
        global = global && v->family[i] == p->family[i];
    }
    if (!p->shared_modelled || !p->shared_exact)
        return global;
    const cp_counts *sl = &p->shared_load, *ss = &p->shared_store;
    const double shared_v[] = {v->shared_load_requests,    v->shared_load_wavefronts,
                               v->shared_load_conflicts,   v->shared_store_requests,
                               v->shared_store_wavefronts, v->shared_store_conflicts};
    if (!cp_measure_all_read(shared_v, 6)) {
        /* not read: a kernel the model says has no shared access is judged by its global
         * counts; one that has shared accesses cannot be judged */
        if (sl->requests == 0 && ss->requests == 0)
            return global;
        return global ? -1 : 0;
    }
    return global && v->shared_load_requests == (double)sl->requests &&
           v->shared_load_wavefronts == (double)sl->wavefronts &&
           v->shared_load_conflicts == (double)sl->bank_conflicts &&
           v->shared_store_requests == (double)ss->requests &&
           v->shared_store_wavefronts == (double)ss->wavefronts &&
           v->shared_store_conflicts == (double)ss->bank_conflicts;
}

size_t cp_backend_options_family_index(const cp_backend_options *o, const char *metric)
{
    size_t k = 0;
    while (k < o->nfamily_metrics && strcmp(o->family_metrics[k], metric) != 0)
        k++;
    return k;
}

void cp_backend_options_add_family(cp_backend_options *o, const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    for (size_t i = 0; d && i < d->ncounters; i++) {
        const char *metric = cp_family_counter_metric(&d->counters[i], c);
        if (metric && cp_backend_options_family_index(o, metric) == o->nfamily_metrics &&
            o->nfamily_metrics < CP_FAMILY_COUNTERS_MAX)
            o->family_metrics[o->nfamily_metrics++] = metric;
    }
}

int cp_measure_beyond(const cp_config *c, const cp_device_info *dev)
{
    return cp_family_needs_cc(c) > dev->cc_major * 10 + dev->cc_minor;
}

void cp_measurement_clear(cp_measurement *m)
{
    memset(m, 0, sizeof *m);
    m->time_median_s = m->time_min_s = m->time_max_s = m->noise = NAN;
    m->useful_bytes = m->useful_bytes_per_s = m->dram_bytes_per_s = m->pct_of_peak = NAN;
    m->flop_per_s = m->pct_of_cublas = m->rel_error = NAN;
    m->counters_status = CP_COUNTERS_NOT_RUN;
    m->counts_match = -1;
    cp_counter_values_clear(&m->counters);
    m->resources.theoretical_occupancy = NAN;
}

void cp_measure_parse_driver_release(const char *line, char *buf, unsigned long len)
{
    buf[0] = '\0';
    for (const char *p = line; *p;) {
        size_t n = strspn(p, "0123456789.");
        int word_start = p == line || p[-1] == ' ' || p[-1] == '\t';
        int word_end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';
        if (n > 2 && word_start && word_end && memchr(p, '.', n) && p[0] != '.') {
            snprintf(buf, len, "%.*s", (int)n, p);
            return;
        }
        p += n ? n : 1;
    }
}

void cp_measure_format_uuid(const unsigned char bytes[16], char *buf, unsigned long len)
{
    static const int dash_after[] = {4, 6, 8, 10}; /* bytes before each dash */
    size_t at = 0, d = 0;
    if (!buf || len == 0)
        return;
    at += (size_t)snprintf(buf, len, "GPU-");
    for (int i = 0; i < 16 && at < len; i++) {
        if (d < CP_COUNT_OF(dash_after) && i == dash_after[d]) {
            at += (size_t)snprintf(buf + at, len - at, "-");
            d++;
        }
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at, "%02x", bytes[i]);
    }
}
