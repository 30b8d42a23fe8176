/* cp_model.c: the model engine: counts requests, sectors and lines from lane addresses, by
 * enumerating every warp (exact, slow) or one warp per class of identical warps (fast). */
#include "cp_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cp_model_family.h"
#include "cp_stride.h"

static const cp_family_model *cp_model_family_of(const cp_config *c)
{
    switch (c->family) {
    case CP_FAMILY_STRIDE:
        return &cp_model_stride_family;
    case CP_FAMILY_LAYOUT:
        return &cp_model_layout_family;
    case CP_FAMILY_GEMM:
        return &cp_model_gemm_family;
    case CP_FAMILY_GATHER:
        return &cp_model_gather_family;
    case CP_FAMILY_SMEM:
        return &cp_model_smem_family;
    case CP_FAMILY_TRANSPOSE:
        return &cp_model_transpose_family;
    case CP_FAMILY_EXPR:
        return &cp_model_expr_family;
    default:
        return NULL;
    }
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

/* Counts one request of an access in `space`. */
static void cp_model_count(cp_space space, const cp_warp_lanes *w, cp_counts *acc)
{
    if (space == CP_SPACE_SHARED)
        cp_model_count_shared_request(w, acc);
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
        if (ap->space == CP_SPACE_SHARED)
            cp_counts_add(load ? &out->shared_load : &out->shared_store, &ap->counts);
        else
            cp_counts_add(load ? &out->load : &out->store, &ap->counts);
    }
}

static uint64_t cp_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Counts of one warp over all iterations of one instruction. Costs do not change when every
 * address moves by a multiple of 128 bytes, so over the regular iterations (same active mask)
 * they repeat with the period after which the per-iteration step adds up to such a multiple;
 * the iterations after those are counted one by one. */
static void cp_model_warp_iterations(const cp_family_model *fm, const cp_config *c, size_t a,
                                     uint32_t ins, uint64_t warp, const cp_access_prediction *ap,
                                     cp_counts *acc)
{
    uint64_t iterations = ap->iterations;
    uint32_t lane_bytes = ap->lane_bytes;
    uint64_t regular = fm->regular_iterations ? fm->regular_iterations(c, a) : iterations;
    uint64_t step = fm->iteration_step(c, a) % CP_LINE_BYTES;
    uint64_t period = CP_LINE_BYTES / cp_gcd(step, CP_LINE_BYTES);
    uint64_t direct = regular < period ? regular : period;
    uint64_t rest = regular % period;
    cp_counts first_rest, one_period;
    memset(&first_rest, 0, sizeof first_rest);
    memset(&one_period, 0, sizeof one_period);
    cp_warp_lanes w;
    w.lane_bytes = lane_bytes;
    for (uint64_t t = 0; t < direct; t++) {
        if (regular >= period && t == rest)
            first_rest = one_period;
        w.active_mask = fm->lanes(c, a, ins, warp, t, w.addr);
        cp_model_count(ap->space, &w, &one_period);
    }
    if (regular < period) {
        cp_counts_add_scaled(acc, &one_period, 1);
    } else {
        cp_counts_add_scaled(acc, &one_period, regular / period);
        cp_counts_add_scaled(acc, &first_rest, 1);
    }
    for (uint64_t t = regular; t < iterations; t++) {
        w.active_mask = fm->lanes(c, a, ins, warp, t, w.addr);
        cp_model_count(ap->space, &w, acc);
    }
}

int cp_model_validate(const cp_config *c, cp_status *st)
{
    const cp_family_model *fm = cp_model_family_of(c);
    if (!fm)
        return cp_status_set(st, CP_EXIT_USAGE, "unknown pattern family %d", (int)c->family);
    return fm->validate ? fm->validate(c, st) : CP_EXIT_OK;
}

int cp_model_describe(const cp_config *c, cp_prediction *out, cp_status *st)
{
    const cp_family_model *fm;
    return cp_model_family_describe(c, out, &fm, st);
}

int cp_model_predict(const cp_config *c, cp_prediction *out, cp_status *st)
{
    const cp_family_model *fm;
    CP_TRY(cp_model_family_describe(c, out, &fm, st));
    if (fm->validate)
        CP_TRY(fm->validate(c, st));
    cp_warp_class classes[CP_MODEL_MAX_CLASSES];
    for (size_t a = 0; a < out->naccesses; a++) {
        cp_access_prediction *ap = &out->accesses[a];
        size_t nclasses = fm->classes(c, a, classes);
        if (nclasses == CP_MODEL_EVERY_WARP) { /* no structure to exploit: every warp */
            for (uint64_t w = 0; w < out->warps; w++)
                for (uint32_t ins = 0; ins < ap->instructions; ins++)
                    cp_model_warp_iterations(fm, c, a, ins, w, ap, &ap->counts);
            ap->counts.footprint_sectors = fm->footprint(c, a);
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
    }
    cp_model_totals(out);
    return CP_EXIT_OK;
}

int cp_model_predict_exact(const cp_config *c, uint64_t max_lane_visits, cp_prediction *out,
                           cp_status *st)
{
    const cp_family_model *fm;
    CP_TRY(cp_model_family_describe(c, out, &fm, st));
    if (fm->validate)
        CP_TRY(fm->validate(c, st));
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
                        uint64_t s = w.addr[l] / CP_SECTOR_BYTES;
                        if (s >= nsectors) {
                            free(seen);
                            return cp_status_set(st, CP_EXIT_RUNTIME,
                                                 "model error: access %s lane %u of warp %" PRIu64
                                                 " is outside its %" PRIu64 "-byte buffer",
                                                 ap->name, l, warp, ap->buffer_bytes);
                        }
                        if (ap->space == CP_SPACE_GLOBAL && !(seen[s / 8] & (1u << (s % 8)))) {
                            seen[s / 8] |= (unsigned char)(1u << (s % 8));
                            ap->counts.footprint_sectors++;
                        }
                    }
                }
        free(seen);
    }
    cp_model_totals(out);
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
    uint64_t P = CP_SECTOR_BYTES / cp_gcd(S % CP_SECTOR_BYTES, CP_SECTOR_BYTES);
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
    uint64_t blocks = (threads + CP_STRIDE_BLOCK - 1) / CP_STRIDE_BLOCK;
    return blocks * (CP_STRIDE_BLOCK / CP_WARP_SIZE);
}

uint64_t cp_model_linear_thread(uint64_t w, unsigned lane)
{
    const uint64_t warps_per_block = CP_STRIDE_BLOCK / CP_WARP_SIZE;
    return cp_stride_thread(w / warps_per_block, (w % warps_per_block) * CP_WARP_SIZE + lane);
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
