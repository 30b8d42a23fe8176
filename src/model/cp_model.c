/* cp_model.c: the model engine: counts requests, sectors and lines from lane addresses, by
 * enumerating every warp (exact, slow: spread over the CPUs) or one warp per class of identical
 * warps (fast); estimates what a sweep will cost before it runs. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cp_model.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cp_model_family.h"
#include "cp_linear.h"

static const cp_family_model *cp_model_family_of(const cp_config *c)
{
    const cp_family_desc *d = cp_family_get(c->family);
    return d ? d->model : NULL;
}

static void cp_model_sort(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

void cp_model_count_request(const cp_warp_lanes *w, cp_counts *acc)
{
    uint64_t a[CP_WARP_SIZE];
    int n = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++)
        if (w->active_mask & (1u << l))
            a[n++] = w->addr[l];
    if (n == 0)
        return;
    cp_model_sort(a, n);
    /* Accesses are aligned to their size (at most 16 bytes), so each lane lies in one sector,
     * and two lanes' byte ranges are either the same or disjoint. */
    uint64_t distinct = 1, sectors = 1, lines = 1;
    for (int i = 1; i < n; i++) {
        distinct += a[i] != a[i - 1];
        sectors += (a[i] / CP_SECTOR_BYTES) != (a[i - 1] / CP_SECTOR_BYTES);
        lines += (a[i] / CP_LINE_BYTES) != (a[i - 1] / CP_LINE_BYTES);
    }
    acc->requests += 1;
    acc->sectors += sectors;
    acc->lines += lines;
    /* a broadcast asks for its bytes once: the hardware's smsp__sass_data_bytes counters count
     * a request's distinct bytes (seen on the H100 with the GEMM operands) */
    acc->bytes_requested += distinct * w->lane_bytes;
    acc->ideal_sectors += (distinct * w->lane_bytes + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
}

void cp_model_count_shared_request(const cp_warp_lanes *w, cp_counts *acc)
{
    /* every 4-byte word the active lanes touch (at most 32 lanes x 4 words), sorted and
     * deduplicated: a word read by several lanes is delivered once */
    uint64_t words[CP_WARP_SIZE * 4];
    int n = 0;
    uint32_t per_lane = w->lane_bytes / CP_SHARED_BANK_BYTES;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++)
        if (w->active_mask & (1u << l))
            for (uint32_t k = 0; k < per_lane; k++)
                words[n++] = w->addr[l] / CP_SHARED_BANK_BYTES + k;
    if (n == 0)
        return;
    cp_model_sort(words, n);
    uint32_t per_bank[CP_SHARED_BANKS] = {0};
    uint64_t distinct = 0, most = 0;
    for (int i = 0; i < n; i++) {
        if (i && words[i] == words[i - 1])
            continue;
        distinct++;
        uint32_t b = (uint32_t)(words[i] % CP_SHARED_BANKS);
        if (++per_bank[b] > most)
            most = per_bank[b];
    }
    uint64_t ideal = (distinct + CP_SHARED_BANKS - 1) / CP_SHARED_BANKS;
    acc->requests += 1;
    acc->bytes_requested += distinct * CP_SHARED_BANK_BYTES;
    acc->wavefronts += most;
    acc->ideal_wavefronts += ideal;
    acc->bank_conflicts += most - ideal;
}

void cp_model_count_constant_request(const cp_warp_lanes *w, cp_counts *acc)
{
    uint64_t words[CP_WARP_SIZE];
    uint64_t distinct = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        if (!(w->active_mask & (1u << l)))
            continue;
        uint64_t word = w->addr[l] / 4;
        uint64_t k = 0;
        while (k < distinct && words[k] != word)
            k++;
        if (k == distinct)
            words[distinct++] = word;
    }
    if (!distinct)
        return;
    acc->requests += 1;
    acc->bytes_requested += distinct * 4;
    acc->wavefronts += distinct;
    acc->ideal_wavefronts += 1;
    acc->bank_conflicts += distinct - 1;
}

void cp_model_count_tma_request(const cp_warp_lanes *w, cp_counts *acc)
{
    if (!(w->active_mask & 1u) || w->lane_bytes == 0)
        return;
    uint64_t first = w->addr[0], last = first + w->lane_bytes - 1;
    acc->requests += 1;
    acc->sectors += last / CP_SECTOR_BYTES - first / CP_SECTOR_BYTES + 1;
    acc->lines += last / CP_LINE_BYTES - first / CP_LINE_BYTES + 1;
    acc->bytes_requested += w->lane_bytes;
    acc->ideal_sectors += (w->lane_bytes + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
}

/* Counts one request of an access in `space`. */
static void cp_model_count(cp_space space, const cp_warp_lanes *w, cp_counts *acc)
{
    if (space == CP_SPACE_SHARED)
        cp_model_count_shared_request(w, acc);
    else if (space == CP_SPACE_CONSTANT)
        cp_model_count_constant_request(w, acc);
    else if (space == CP_SPACE_TMA)
        cp_model_count_tma_request(w, acc);
    else
        cp_model_count_request(w, acc);
}

/* acc += k * x for the per-request counts (not the footprint). */
static void cp_counts_add_scaled(cp_counts *acc, const cp_counts *x, uint64_t k)
{
    acc->requests += k * x->requests;
    acc->sectors += k * x->sectors;
    acc->lines += k * x->lines;
    acc->bytes_requested += k * x->bytes_requested;
    acc->ideal_sectors += k * x->ideal_sectors;
    acc->wavefronts += k * x->wavefronts;
    acc->ideal_wavefronts += k * x->ideal_wavefronts;
    acc->bank_conflicts += k * x->bank_conflicts;
}

static void cp_counts_add(cp_counts *acc, const cp_counts *x)
{
    cp_counts_add_scaled(acc, x, 1);
    acc->footprint_sectors += x->footprint_sectors;
}

static int cp_model_family_describe(const cp_config *c, cp_prediction *out,
                                    const cp_family_model **fm, cp_status *st)
{
    memset(out, 0, sizeof *out);
    out->modelled = 1;
    out->shared_modelled = 1;
    out->shared_exact = 1;
    *fm = cp_model_family_of(c);
    if (!*fm)
        return cp_status_set(st, CP_EXIT_USAGE, "unknown pattern family %d", (int)c->family);
    (*fm)->describe(c, out);
    return CP_EXIT_OK;
}

static void cp_model_totals(cp_prediction *out)
{
    for (size_t a = 0; a < out->naccesses; a++) {
        const cp_access_prediction *ap = &out->accesses[a];
        int load = ap->op == CP_OP_LOAD;
        if (ap->family_counted)
            continue; /* its family's counters show it */
        if (ap->space == CP_SPACE_SHARED)
            cp_counts_add(load ? &out->shared_load : &out->shared_store, &ap->counts);
        else if (ap->space == CP_SPACE_GLOBAL)
            cp_counts_add(load ? &out->load : &out->store, &ap->counts);
        else if (ap->space == CP_SPACE_TMA)
            cp_counts_add(&out->tma_load, &ap->counts);
    }
}

/* Fills p's family counters (nfamily, family[], family_checked) from c's family's predict
 * hooks, once p's accesses are counted. */
static void cp_model_family_counters(const cp_config *c, cp_prediction *p)
{
    const cp_family_desc *d = cp_family_get(c->family);
    p->nfamily = 0;
    p->family_checked = 0;
    for (size_t i = 0; d && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        p->family[i] = d->counters[i].predict(c, p);
        if (d->counters[i].metric)
            p->family_checked |= 1u << i;
        p->nfamily = i + 1;
    }
}

uint64_t cp_model_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Counts one item (an iteration of a warp's instruction, or a warp) into acc. */
typedef void cp_model_item_fn(const void *arg, uint64_t item, cp_counts *acc);

/* Counts the items [0, total) into acc, where each of the items [0, regular) costs what the one
 * `period` items later costs: one period is counted and scaled (the first regular % period of
 * it once more), the items from `regular` on one by one. */
static void cp_model_count_periodic(uint64_t total, uint64_t regular, uint64_t period,
                                    cp_model_item_fn *item, const void *arg, cp_counts *acc)
{
    uint64_t direct = regular < period ? regular : period;
    uint64_t rest = regular % period;
    cp_counts first_rest, one_period;
    memset(&first_rest, 0, sizeof first_rest);
    memset(&one_period, 0, sizeof one_period);
    for (uint64_t t = 0; t < direct; t++) {
        if (regular >= period && t == rest)
            first_rest = one_period;
        item(arg, t, &one_period);
    }
    if (regular < period) {
        cp_counts_add_scaled(acc, &one_period, 1);
    } else {
        cp_counts_add_scaled(acc, &one_period, regular / period);
        cp_counts_add_scaled(acc, &first_rest, 1);
    }
    for (uint64_t t = regular; t < total; t++)
        item(arg, t, acc);
}

/* One instruction of one warp of an access, or (ins unused) every instruction of each warp. */
typedef struct cp_model_item_job {
    const cp_family_model *fm;
    const cp_config *c;
    size_t a;
    const cp_access_prediction *ap;
    uint32_t ins;
    uint64_t warp;
} cp_model_item_job;

static void cp_model_iteration_item(const void *arg, uint64_t t, cp_counts *acc)
{
    const cp_model_item_job *j = arg;
    cp_warp_lanes w;
    w.lane_bytes = j->ap->lane_bytes;
    w.active_mask = j->fm->lanes(j->c, j->a, j->ins, j->warp, t, w.addr);
    cp_model_count(j->ap->space, &w, acc);
}

/* Counts of one warp over all iterations of one instruction. Costs do not change when every
 * address moves by a multiple of 128 bytes, so over the regular iterations (same active mask)
 * they repeat with the period after which the per-iteration step adds up to such a multiple;
 * the iterations after those are counted one by one. */
static void cp_model_warp_iterations(const cp_family_model *fm, const cp_config *c, size_t a,
                                     uint32_t ins, uint64_t warp, const cp_access_prediction *ap,
                                     cp_counts *acc)
{
    uint64_t regular = fm->regular_iterations ? fm->regular_iterations(c, a) : ap->iterations;
    uint64_t step = fm->iteration_step(c, a) % CP_LINE_BYTES;
    uint64_t period = CP_LINE_BYTES / cp_model_gcd(step, CP_LINE_BYTES);
    cp_model_item_job j = {fm, c, a, ap, ins, warp};
    cp_model_count_periodic(ap->iterations, regular, period, cp_model_iteration_item, &j, acc);
}

static void cp_model_warp_item(const void *arg, uint64_t warp, cp_counts *acc)
{
    const cp_model_item_job *j = arg;
    for (uint32_t ins = 0; ins < j->ap->instructions; ins++)
        cp_model_warp_iterations(j->fm, j->c, j->a, ins, warp, j->ap, acc);
}

/* 1 when the environment asks for every thread to be evaluated, whatever a family proves
 * (COALPROBE_MODEL_WALK=1: the tests and bench/ compare both ways). */
static int cp_model_walk_forced(void)
{
    const char *v = getenv("COALPROBE_MODEL_WALK");
    return v && strcmp(v, "1") == 0;
}

/* What the family proves of c (out->period 0: nothing, and nothing when the walk is forced);
 * out->footprint only when want_footprint is set (cp_model_prove_fn). */
static void cp_model_prove(const cp_family_model *fm, const cp_config *c, int want_footprint,
                           cp_model_proof *out)
{
    memset(out, 0, sizeof *out);
    if (!fm->prove)
        return;
    if (cp_model_walk_forced()) {
        snprintf(out->why, sizeof out->why,
                 "every thread evaluated: COALPROBE_MODEL_WALK=1 forces the walk");
        return;
    }
    fm->prove(c, want_footprint, out);
}

/* Threads of the grid per chunk of the parallel check, warps per chunk of the parallel count
 * (64K threads either way): milliseconds of work, so that the chunks balance over the CPUs and
 * a configuration of fewer threads stays on one. */
#define CP_MODEL_CHECK_GRAIN 65536u
#define CP_MODEL_WARP_GRAIN 2048u
/* Threads of the sample cp_model_estimate times, and the sectors of its scratch footprint. */
#define CP_MODEL_SAMPLE_THREADS (4u * 65536u)
#define CP_MODEL_SAMPLE_SECTORS (1u << 20)

typedef struct cp_model_check_job {
    const cp_family_model *fm;
    const cp_config *c;
    atomic_uint_fast64_t first; /* the first thread known to fail; the grid's size while none */
} cp_model_check_job;

static void cp_model_check_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    cp_model_check_job *j = arg;
    (void)worker;
    if (begin >= atomic_load_explicit(&j->first, memory_order_relaxed))
        return; /* a thread before this chunk fails: the message is about that one */
    uint64_t failed = begin;
    if (j->fm->validate(j->c, begin, end, &failed, NULL) == CP_EXIT_OK)
        return;
    uint_fast64_t seen = atomic_load_explicit(&j->first, memory_order_relaxed);
    while (failed < seen && !atomic_compare_exchange_weak(&j->first, &seen, failed)) {
    }
}

/* A prediction cut short by a cancellation (cp_parallel_cancel: SIGINT, SIGTERM): no result. */
static int cp_model_interrupted(cp_status *st)
{
    return cp_status_set(st, CP_EXIT_RUNTIME, "interrupted (signal %d) before the model finished",
                         cp_parallel_cancelled());
}

/* The family's check of every thread of the grid, spread over the CPUs. When threads fail, the
 * message is the first one's, as a check in order gives it. A cancellation stops it within a
 * chunk per worker. */
static int cp_model_check(const cp_family_model *fm, const cp_config *c, uint64_t threads,
                          cp_status *st)
{
    if (!fm->validate)
        return CP_EXIT_OK;
    uint64_t failed = 0;
    unsigned workers = cp_parallel_workers(threads, CP_MODEL_CHECK_GRAIN);
    cp_model_check_job j = {fm, c, 0};
    atomic_init(&j.first, threads);
    if (!cp_parallel_for(workers, threads, CP_MODEL_CHECK_GRAIN, cp_model_check_chunk, &j))
        return cp_model_interrupted(st);
    uint64_t first = atomic_load(&j.first);
    if (first >= threads)
        return CP_EXIT_OK;
    return fm->validate(c, first, first + 1, &failed, st);
}

int cp_model_validate(const cp_config *c, cp_status *st)
{
    const cp_family_model *fm;
    cp_prediction p;
    cp_model_proof proof;
    CP_TRY(cp_model_family_describe(c, &p, &fm, st));
    cp_model_prove(fm, c, 0, &proof);
    return proof.period ? CP_EXIT_OK : cp_model_check(fm, c, p.threads, st);
}

/* Counting the warps of one access one by one: each worker adds into its own counts (summed in
 * the end: integers, so the same whatever the number of workers) and marks the sectors its
 * lanes touch in one shared bitmap when the footprint comes from the lanes. */
typedef struct cp_model_warps_job {
    const cp_family_model *fm;
    const cp_config *c;
    size_t a;
    const cp_access_prediction *ap;
    cp_counts *acc;             /* one per worker */
    atomic_uint_fast64_t *seen; /* one bit per sector, or NULL */
    uint64_t nsectors;          /* sectors of the buffer: lanes past it are not marked */
    uint64_t mask;              /* sector numbers are masked (a sample's small bitmap) */
} cp_model_warps_job;

static void cp_model_mark(const cp_model_warps_job *j, const cp_warp_lanes *w)
{
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        if (!(w->active_mask & (1u << l)))
            continue;
        /* a lane's bytes lie in one sector: accesses are aligned to their size, at most 16 */
        uint64_t s = (w->addr[l] / CP_SECTOR_BYTES) & j->mask;
        if (s >= j->nsectors)
            continue;
        uint_fast64_t bit = (uint_fast64_t)1 << (s % 64);
        atomic_uint_fast64_t *word = &j->seen[s / 64];
        if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
            atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
    }
}

static void cp_model_warps_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    const cp_model_warps_job *j = arg;
    const cp_access_prediction *ap = j->ap;
    cp_counts *acc = &j->acc[worker];
    if (!j->seen) {
        cp_model_item_job item = {j->fm, j->c, j->a, ap, 0, 0};
        for (uint64_t warp = begin; warp < end; warp++)
            cp_model_warp_item(&item, warp, acc);
        return;
    }
    cp_warp_lanes w;
    w.lane_bytes = ap->lane_bytes;
    for (uint64_t warp = begin; warp < end; warp++)
        for (uint32_t ins = 0; ins < ap->instructions; ins++)
            for (uint64_t t = 0; t < ap->iterations; t++) {
                w.active_mask = j->fm->lanes(j->c, j->a, ins, warp, t, w.addr);
                cp_model_count(ap->space, &w, acc);
                cp_model_mark(j, &w);
            }
}

/* Counts the warps [0, nwarps) of access a one by one on `workers` workers, adding to ap's
 * counts; then its footprint, from the lanes when the family asks for that (`sample`: into a
 * small scratch bitmap, left uncounted, for cp_model_estimate). */
static int cp_model_count_every_warp(const cp_family_model *fm, const cp_config *c, size_t a,
                                     cp_access_prediction *ap, uint64_t nwarps, unsigned workers,
                                     int sample, cp_status *st)
{
    uint64_t footprint = fm->footprint(c, a);
    int from_lanes = footprint == CP_MODEL_FOOTPRINT_FROM_LANES;
    cp_model_warps_job j = {fm, c, a, ap, NULL, NULL, 0, UINT64_MAX};
    uint64_t words = 0;
    if (from_lanes && ap->space == CP_SPACE_GLOBAL) {
        j.nsectors = (ap->buffer_bytes + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
        if (sample) {
            j.nsectors = CP_MODEL_SAMPLE_SECTORS;
            j.mask = CP_MODEL_SAMPLE_SECTORS - 1;
        }
        words = j.nsectors / 64 + 1;
        j.seen = calloc(words, sizeof *j.seen);
        if (!j.seen)
            return cp_status_set(st, CP_EXIT_RUNTIME,
                                 "out of memory for the footprint of %" PRIu64 " sectors",
                                 j.nsectors);
    }
    j.acc = calloc(workers ? workers : 1, sizeof *j.acc);
    if (!j.acc) {
        free(j.seen);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory");
    }
    if (!cp_parallel_for(workers, nwarps, CP_MODEL_WARP_GRAIN, cp_model_warps_chunk, &j)) {
        free(j.acc);
        free(j.seen);
        return cp_model_interrupted(st);
    }
    for (unsigned k = 0; k < (workers ? workers : 1); k++)
        cp_counts_add_scaled(&ap->counts, &j.acc[k], 1);
    if (from_lanes) {
        footprint = 0;
        for (uint64_t k = 0; j.seen && !sample && k < words; k++)
            footprint += (uint64_t)__builtin_popcountll(atomic_load(&j.seen[k]));
    }
    ap->counts.footprint_sectors = footprint;
    free(j.acc);
    free(j.seen);
    return CP_EXIT_OK;
}

int cp_model_describe(const cp_config *c, cp_prediction *out, cp_status *st)
{
    const cp_family_model *fm;
    return cp_model_family_describe(c, out, &fm, st);
}

/* Counts access a, whose warps have no classes, from a proved period: one period of warps, the
 * warps from proof->regular on one by one; its footprint is the proof's. */
static void cp_model_count_period(const cp_family_model *fm, const cp_config *c, size_t a,
                                  cp_access_prediction *ap, uint64_t warps,
                                  const cp_model_proof *proof)
{
    cp_model_item_job j = {fm, c, a, ap, 0, 0};
    cp_model_count_periodic(warps, proof->regular, proof->period, cp_model_warp_item, &j,
                            &ap->counts);
    ap->counts.footprint_sectors = proof->footprint[a];
}

int cp_model_predict(const cp_config *c, cp_prediction *out, cp_status *st)
{
    const cp_family_model *fm;
    cp_model_proof proof;
    CP_TRY(cp_model_family_describe(c, out, &fm, st));
    cp_model_prove(fm, c, 1, &proof);
    if (!proof.period)
        CP_TRY(cp_model_check(fm, c, out->threads, st));
    cp_warp_class classes[CP_MODEL_MAX_CLASSES];
    for (size_t a = 0; a < out->naccesses; a++) {
        cp_access_prediction *ap = &out->accesses[a];
        size_t nclasses = fm->classes(c, a, classes);
        if (nclasses == CP_MODEL_EVERY_WARP && proof.period) {
            cp_model_count_period(fm, c, a, ap, out->warps, &proof);
            continue;
        }
        if (nclasses == CP_MODEL_EVERY_WARP) { /* no structure to exploit: every warp */
            unsigned workers = cp_parallel_workers(out->warps, CP_MODEL_WARP_GRAIN);
            CP_TRY(cp_model_count_every_warp(fm, c, a, ap, out->warps, workers, 0, st));
            continue;
        }
        for (size_t k = 0; k < nclasses; k++) {
            cp_counts one;
            memset(&one, 0, sizeof one);
            for (uint32_t ins = 0; ins < ap->instructions; ins++)
                cp_model_warp_iterations(fm, c, a, ins, classes[k].rep_warp, ap, &one);
            cp_counts_add_scaled(&ap->counts, &one, classes[k].count);
        }
        ap->counts.footprint_sectors = fm->footprint(c, a);
        if (ap->counts.footprint_sectors == CP_MODEL_FOOTPRINT_FROM_LANES)
            return cp_status_set(st, CP_EXIT_RUNTIME,
                                 "model error: access %s has warp classes, so no lanes to count "
                                 "its footprint from",
                                 ap->name);
    }
    cp_model_totals(out);
    cp_model_family_counters(c, out);
    return CP_EXIT_OK;
}

/* Whether predicting c evaluates threads one by one: a check of every thread, or an access
 * counted warp by warp. */
static int cp_model_one_by_one(const cp_family_model *fm, const cp_config *c,
                               const cp_prediction *p)
{
    cp_model_proof proof;
    cp_model_prove(fm, c, 0, &proof);
    if (proof.period)
        return 0;
    if (fm->validate)
        return 1;
    cp_warp_class classes[CP_MODEL_MAX_CLASSES];
    for (size_t a = 0; a < p->naccesses; a++)
        if (fm->classes(c, a, classes) == CP_MODEL_EVERY_WARP)
            return 1;
    return 0;
}

static double cp_model_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wall seconds per thread that predicting c takes with `workers` CPU threads, timed on its
 * first `threads` threads (a chunk for each worker, as the run spreads them): the check, then
 * every access counted warp by warp (the footprint into a small scratch bitmap). Negative when
 * the sample fails the check (the prediction then stops early too). */
static double cp_model_sample(const cp_family_model *fm, const cp_config *c, const cp_prediction *p,
                              uint64_t threads, unsigned workers)
{
    if (threads == 0)
        return 0;
    double start = cp_model_now();
    if (fm->validate) {
        cp_model_check_job j = {fm, c, 0};
        atomic_init(&j.first, threads);
        if (!cp_parallel_for(workers, threads, CP_MODEL_CHECK_GRAIN, cp_model_check_chunk, &j))
            return 0; /* cancelled: no estimate */
        if (atomic_load(&j.first) < threads)
            return -1;
    }
    uint64_t warps = (threads + CP_WARP_SIZE - 1) / CP_WARP_SIZE;
    if (warps > p->warps)
        warps = p->warps;
    cp_warp_class classes[CP_MODEL_MAX_CLASSES];
    for (size_t a = 0; a < p->naccesses; a++) {
        if (fm->classes(c, a, classes) != CP_MODEL_EVERY_WARP)
            continue;
        cp_access_prediction scratch = p->accesses[a];
        if (cp_model_count_every_warp(fm, c, a, &scratch, warps, workers, 1, NULL) != CP_EXIT_OK)
            return 0;
    }
    return (cp_model_now() - start) / (double)threads;
}

void cp_model_estimate(const cp_config *configs, size_t n, cp_model_cost *out)
{
    memset(out, 0, sizeof *out);
    size_t biggest = 0;
    double spread = 0; /* threads over the CPU threads each configuration is spread over */
    cp_prediction p;
    for (size_t i = 0; i < n; i++) {
        const cp_family_model *fm = cp_model_family_of(&configs[i]);
        if (!fm || !fm->thread_by_thread ||
            cp_model_family_describe(&configs[i], &p, &fm, NULL) != CP_EXIT_OK ||
            !cp_model_one_by_one(fm, &configs[i], &p))
            continue;
        if (out->configs == 0 || p.threads > out->largest) {
            biggest = i;
            out->largest = p.threads;
        }
        out->configs++;
        out->threads += p.threads;
        spread += (double)p.threads / cp_parallel_workers(p.threads, CP_MODEL_CHECK_GRAIN);
    }
    if (out->configs == 0)
        return;
    unsigned workers = cp_parallel_workers(out->largest, CP_MODEL_CHECK_GRAIN);
    out->cpu_threads = workers;
    spread *= workers; /* thread-equivalents at the sample's `workers` CPU threads */
    const cp_family_model *fm;
    cp_model_family_describe(&configs[biggest], &p, &fm, NULL);
    uint64_t sample = (uint64_t)CP_MODEL_SAMPLE_THREADS * workers;
    if (sample > out->largest)
        sample = out->largest;
    /* the faster of two samples: the first one also pays for starting cold */
    unsigned sample_workers = cp_parallel_workers(sample, CP_MODEL_CHECK_GRAIN);
    double per_thread = cp_model_sample(fm, &configs[biggest], &p, sample, sample_workers);
    if (per_thread > 0) {
        double again = cp_model_sample(fm, &configs[biggest], &p, sample, sample_workers);
        per_thread = again > 0 && again < per_thread ? again : per_thread;
    }
    out->seconds = per_thread > 0 ? per_thread * spread : 0;
}

int cp_model_counting(const cp_config *c, char *buf, size_t len)
{
    const cp_family_model *fm = cp_model_family_of(c);
    cp_model_proof proof;
    if (len)
        buf[0] = '\0';
    if (!fm || !fm->prove)
        return 0;
    cp_model_prove(fm, c, 1, &proof); /* says what predict does, a period's memory included */
    snprintf(buf, len, "%s", proof.why);
    return 1;
}

int cp_model_predict_exact(const cp_config *c, uint64_t max_lane_visits, cp_prediction *out,
                           cp_status *st)
{
    const cp_family_model *fm;
    CP_TRY(cp_model_family_describe(c, out, &fm, st));
    CP_TRY(cp_model_check(fm, c, out->threads, st));
    uint64_t visits = 0;
    for (size_t a = 0; a < out->naccesses; a++)
        visits +=
            out->warps * out->accesses[a].instructions * out->accesses[a].iterations * CP_WARP_SIZE;
    if (visits > max_lane_visits)
        return cp_status_set(st, CP_EXIT_USAGE,
                             "exact enumeration needs %" PRIu64 " lane visits, more than %" PRIu64,
                             visits, max_lane_visits);
    for (size_t a = 0; a < out->naccesses; a++) {
        cp_access_prediction *ap = &out->accesses[a];
        uint64_t nsectors = (ap->buffer_bytes + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
        unsigned char *seen = calloc(nsectors / 8 + 1, 1);
        if (!seen)
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %" PRIu64 " sectors",
                                 nsectors);
        cp_warp_lanes w;
        w.lane_bytes = ap->lane_bytes;
        for (uint64_t warp = 0; warp < out->warps; warp++)
            for (uint32_t ins = 0; ins < ap->instructions; ins++)
                for (uint64_t t = 0; t < ap->iterations; t++) {
                    w.active_mask = fm->lanes(c, a, ins, warp, t, w.addr);
                    cp_model_count(ap->space, &w, &ap->counts);
                    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
                        if (!(w.active_mask & (1u << l)))
                            continue;
                        /* a lane's bytes lie in one sector, a TMA copy's span several */
                        uint64_t s = w.addr[l] / CP_SECTOR_BYTES;
                        uint64_t e = (w.addr[l] + w.lane_bytes - 1) / CP_SECTOR_BYTES;
                        if (e >= nsectors) {
                            free(seen);
                            return cp_status_set(st, CP_EXIT_RUNTIME,
                                                 "model error: access %s lane %u of warp %" PRIu64
                                                 " is outside its %" PRIu64 "-byte buffer",
                                                 ap->name, l, warp, ap->buffer_bytes);
                        }
                        int counted = ap->space == CP_SPACE_GLOBAL || ap->space == CP_SPACE_TMA;
                        for (; counted && s <= e; s++)
                            if (!(seen[s / 8] & (1u << (s % 8)))) {
                                seen[s / 8] |= (unsigned char)(1u << (s % 8));
                                ap->counts.footprint_sectors++;
                            }
                    }
                }
        free(seen);
    }
    cp_model_totals(out);
    cp_model_family_counters(c, out);
    return CP_EXIT_OK;
}

int cp_model_warp_lanes(const cp_config *c, size_t access, uint32_t instruction, uint64_t warp,
                        uint64_t iter, cp_warp_lanes *out, cp_status *st)
{
    const cp_family_model *fm;
    cp_prediction p;
    CP_TRY(cp_model_family_describe(c, &p, &fm, st));
    if (access >= p.naccesses)
        return cp_status_set(st, CP_EXIT_USAGE, "access %zu does not exist (the kernel has %zu)",
                             access, p.naccesses);
    const cp_access_prediction *ap = &p.accesses[access];
    if (instruction >= ap->instructions || iter >= ap->iterations)
        return cp_status_set(st, CP_EXIT_USAGE, "instruction or iteration out of range");
    if (warp >= p.warps)
        return cp_status_set(st, CP_EXIT_USAGE,
                             "warp %" PRIu64 " does not exist (the grid has %" PRIu64 " warps)",
                             warp, p.warps);
    memset(out, 0, sizeof *out);
    out->lane_bytes = ap->lane_bytes;
    out->active_mask = fm->lanes(c, access, instruction, warp, iter, out->addr);
    return CP_EXIT_OK;
}

uint64_t cp_model_monotone_footprint(uint64_t n, uint64_t S, uint64_t O, uint64_t L)
{
    if (n == 0 || L == 0)
        return 0;
    /* The sectors of element i + P are those of element i moved by P*S/32 sectors, so the
     * number of new sectors per element repeats with period P from element 1 on. */
    uint64_t P = CP_SECTOR_BYTES / cp_model_gcd(S % CP_SECTOR_BYTES, CP_SECTOR_BYTES);
    uint64_t total = 0, prev_hi = 0, period_sum = 0;
    uint64_t direct = n < 2 * P ? n : 2 * P + (n - P) % P;
    for (uint64_t i = 0; i < direct; i++) {
        uint64_t lo = (i * S + O) / CP_SECTOR_BYTES;
        uint64_t hi = (i * S + O + L - 1) / CP_SECTOR_BYTES;
        uint64_t from = (i > 0 && prev_hi + 1 > lo) ? prev_hi + 1 : lo;
        uint64_t add = hi >= from ? hi - from + 1 : 0;
        total += add;
        if (i >= P && i < 2 * P)
            period_sum += add;
        prev_hi = hi;
    }
    if (n >= 2 * P)
        total += ((n - P) / P - 1) * period_sum;
    return total;
}

uint64_t cp_model_linear_warps(uint64_t threads)
{
    uint64_t blocks = (threads + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    return blocks * (CP_LINEAR_BLOCK / CP_WARP_SIZE);
}

uint64_t cp_model_linear_thread(uint64_t w, unsigned lane)
{
    const uint64_t warps_per_block = CP_LINEAR_BLOCK / CP_WARP_SIZE;
    return cp_linear_thread(w / warps_per_block, (w % warps_per_block) * CP_WARP_SIZE + lane);
}

void cp_model_linear_grid(cp_prediction *out, uint64_t threads, size_t naccesses)
{
    out->threads = threads;
    out->warps = cp_model_linear_warps(threads);
    out->naccesses = naccesses;
}

size_t cp_model_linear_classes(uint64_t threads, cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    size_t k = 0;
    if (threads / CP_WARP_SIZE)
        classes[k++] = (cp_warp_class){0, threads / CP_WARP_SIZE};
    if (threads % CP_WARP_SIZE)
        classes[k++] = (cp_warp_class){threads / CP_WARP_SIZE, 1};
    return k;
}

void cp_model_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                     uint32_t lane_bytes, uint32_t instructions, uint64_t iterations,
                     uint64_t buffer_bytes, int strided)
{
    *ap = (cp_access_prediction){.name = name,
                                 .op = op,
                                 .space = space,
                                 .lane_bytes = lane_bytes,
                                 .instructions = instructions,
                                 .iterations = iterations,
                                 .buffer_bytes = buffer_bytes,
                                 .strided = strided};
}

void cp_model_element_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                             uint32_t width, uint64_t buffer_bytes, int strided)
{
    uint32_t lane = cp_model_lane_bytes(width);
    cp_model_access(ap, name, op, space, lane, width / lane, 1, buffer_bytes, strided);
}

uint64_t cp_model_no_iteration_step(const cp_config *c, size_t a)
{
    (void)c;
    (void)a;
    return 0;
}

void cp_model_estimate_regime(cp_prediction *p, int arch, uint64_t l2_bytes)
{
    memset(&p->caches, 0, sizeof p->caches);
    p->regime = CP_REGIME_UNKNOWN;
    if (p->working_set_bytes && cp_regime_caches(arch, l2_bytes, &p->caches))
        p->regime = cp_regime_estimate(p->working_set_bytes, p->working_set_constant, &p->caches);
}
