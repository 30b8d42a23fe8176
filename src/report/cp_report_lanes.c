/* cp_report_lanes.c: the lane map of an access in the JSON report: the model's address of every
 * lane of one warp, the sectors each request touches with the bytes used in each, or the banks
 * and wavefronts of a shared request: the data --explain draws, for the page (--format html). */
#include "cp_report.h"
#include "cp_report_util.h"

#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"

/* The warp the report's lane maps show. */
#define CP_REPORT_LANES_WARP 0

static int cp_report_lanes_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* "touched_sectors" (sector indices: byte offset / 32, ascending) and "used_bytes" (the distinct
 * bytes the active lanes use in each): a global request's lanes, aligned to their size, lie in
 * one sector each; a TMA copy (lane 0) spans its bytes' sectors. */
static void cp_report_lanes_sectors(cp_json *j, cJSON *o, const cp_warp_lanes *w, cp_space space)
{
    cp_json_ints sectors = {0}, used = {0};
    cp_json_ints_open(&sectors);
    cp_json_ints_open(&used);
    if (space == CP_SPACE_TMA) {
        uint64_t first = w->addr[0], last = first + w->lane_bytes - 1;
        for (uint64_t s = first / CP_SECTOR_BYTES;
             (w->active_mask & 1u) && w->lane_bytes && s <= last / CP_SECTOR_BYTES; s++) {
            uint64_t lo = s * CP_SECTOR_BYTES > first ? s * CP_SECTOR_BYTES : first;
            uint64_t hi =
                (s + 1) * CP_SECTOR_BYTES - 1 < last ? (s + 1) * CP_SECTOR_BYTES - 1 : last;
            cp_json_ints_u64(&sectors, s);
            cp_json_ints_u64(&used, hi - lo + 1);
        }
    } else {
        uint64_t a[CP_WARP_SIZE];
        unsigned n = 0;
        for (unsigned l = 0; l < CP_WARP_SIZE; l++)
            if (w->active_mask & (1u << l))
                a[n++] = w->addr[l];
        qsort(a, n, sizeof *a, cp_report_lanes_cmp);
        for (unsigned i = 0; i < n;) {
            uint64_t s = a[i] / CP_SECTOR_BYTES, bytes = 0;
            for (; i < n && a[i] / CP_SECTOR_BYTES == s; i++)
                bytes += i == 0 || a[i] != a[i - 1] ? w->lane_bytes : 0; /* a broadcast: once */
            cp_json_ints_u64(&sectors, s);
            cp_json_ints_u64(&used, bytes);
        }
    }
    cp_json_ints_close(&sectors);
    cp_json_ints_close(&used);
    cp_json_ints_add(j, o, "touched_sectors", &sectors);
    cp_json_ints_add(j, o, "used_bytes", &used);
}

/* "words": [lane, bank, wavefront] for every 4-byte word each active lane of a shared request
 * touches; a bank's distinct words take wavefronts 1, 2, ... in address order (--explain's
 * rows), and lanes reading the same word share its wavefront (a broadcast). */
static void cp_report_lanes_banks(cp_json *j, cJSON *o, const cp_warp_lanes *w)
{
    enum { MAXW = CP_WARP_SIZE * 4 };
    uint64_t words[MAXW];
    unsigned lane_of[MAXW], n = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++)
        for (unsigned k = 0; (w->active_mask >> l) & 1u && k < w->lane_bytes / CP_SHARED_BANK_BYTES;
             k++) {
            words[n] = w->addr[l] / CP_SHARED_BANK_BYTES + k;
            lane_of[n++] = l;
        }
    /* each distinct word's wavefront: its rank among its bank's words in address order */
    uint64_t uniq[MAXW];
    unsigned wave[MAXW], per_bank[CP_SHARED_BANKS] = {0}, nu = 0;
    memcpy(uniq, words, n * sizeof *words);
    qsort(uniq, n, sizeof *uniq, cp_report_lanes_cmp);
    for (unsigned i = 0; i < n; i++)
        if (i == 0 || uniq[i] != uniq[nu - 1])
            uniq[nu++] = uniq[i];
    for (unsigned u = 0; u < nu; u++)
        wave[u] = ++per_bank[uniq[u] % CP_SHARED_BANKS];
    cp_json_ints list = {0};
    cp_json_ints_open(&list);
    for (unsigned i = 0; i < n; i++) {
        const uint64_t *at = bsearch(&words[i], uniq, nu, sizeof *uniq, cp_report_lanes_cmp);
        if (!at)
            break;
        cp_json_ints_open(&list);
        cp_json_ints_u64(&list, lane_of[i]);
        cp_json_ints_u64(&list, words[i] % CP_SHARED_BANKS);
        cp_json_ints_u64(&list, wave[at - uniq]);
        cp_json_ints_close(&list);
    }
    cp_json_ints_close(&list);
    cp_json_ints_add(j, o, "words", &list);
}

/* One request's counts, as the access's own counts name them. */
static void cp_report_lanes_counts(cp_json *j, cJSON *o, const cp_warp_lanes *w, cp_space space)
{
    cp_counts c;
    memset(&c, 0, sizeof c);
    if (space == CP_SPACE_SHARED)
        cp_model_count_shared_request(w, &c);
    else if (space == CP_SPACE_CONSTANT)
        cp_model_count_constant_request(w, &c);
    else if (space == CP_SPACE_TMA)
        cp_model_count_tma_request(w, &c);
    else
        cp_model_count_request(w, &c);
    cJSON *k = cp_json_object(j, o, "counts");
    cp_json_u64(j, k, "bytes_requested", c.bytes_requested);
    if (space == CP_SPACE_SHARED || space == CP_SPACE_CONSTANT) { /* wavefronts, not sectors */
        cp_json_u64(j, k, "wavefronts", c.wavefronts);
        cp_json_u64(j, k, "ideal_wavefronts", c.ideal_wavefronts);
        cp_json_u64(j, k, "bank_conflicts", c.bank_conflicts);
        return;
    }
    cp_json_u64(j, k, "sectors", c.sectors);
    cp_json_u64(j, k, "lines", c.lines);
    cp_json_u64(j, k, "ideal_sectors", c.ideal_sectors);
    cp_json_number(j, k, "efficiency", cp_counts_efficiency(&c));
}

/* One instruction of the warp: its lanes' addresses (null for an inactive lane) and what they
 * touch. */
static void cp_report_lanes_request(cp_json *j, cJSON *requests, const cp_warp_lanes *w,
                                    uint32_t instruction, cp_space space)
{
    cJSON *o = cp_json_append(j, requests);
    cp_json_u64(j, o, "instruction", instruction);
    cp_json_u64(j, o, "active_mask", w->active_mask);
    cp_json_ints addresses = {0};
    cp_json_ints_open(&addresses);
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        if (w->active_mask & (1u << l))
            cp_json_ints_u64(&addresses, w->addr[l]);
        else
            cp_json_ints_null(&addresses);
    }
    cp_json_ints_close(&addresses);
    cp_json_ints_add(j, o, "addresses", &addresses);
    if (space == CP_SPACE_SHARED)
        cp_report_lanes_banks(j, o, w);
    else if (space == CP_SPACE_GLOBAL || space == CP_SPACE_TMA)
        cp_report_lanes_sectors(j, o, w, space);
    cp_report_lanes_counts(j, o, w, space);
}

void cp_report_json_add_lane_map(cp_json *j, cJSON *access, const cp_config *c, size_t a,
                                 const cp_prediction *p)
{
    const cp_access_prediction *ap = &p->accesses[a];
    cp_status st;
    cp_status_clear(&st);
    if (!p->modelled || p->warps <= CP_REPORT_LANES_WARP || ap->iterations == 0) {
        cp_json_null(j, access, "lane_map");
        return;
    }
    cJSON *m = cp_json_object(j, access, "lane_map");
    cp_json_u64(j, m, "warp", CP_REPORT_LANES_WARP);
    cp_json_u64(j, m, "iteration", 0);
    cJSON *requests = cp_json_array(j, m, "requests");
    for (uint32_t ins = 0; ins < ap->instructions; ins++) {
        cp_warp_lanes w;
        if (cp_model_warp_lanes(c, a, ins, CP_REPORT_LANES_WARP, 0, &w, &st) != CP_EXIT_OK)
            break; /* cannot happen for a predicted row; the map ends */
        cp_report_lanes_request(j, requests, &w, ins, ap->space);
    }
}
