/* cp_atomic_model.c: the model's view of the atomic family (cp_atomic.h): one atomic add a
 * thread (a warp's one from lane 0 when aggregated) to its accumulator, an access its family's
 * own counters count (the atomic or reduction requests and sectors, never a load's or a
 * store's), and, for atom, a dense store of the old values. */
#include "cp_atomic.h"
#include "cp_model_family.h"
#include "cp_atomic_config.h"
#include "cp_atomic_model.h"

_Static_assert((int)CP_ATOMIC_VARIANT_CONTENTION == CP_ATOMIC_CONTENTION &&
                   (int)CP_ATOMIC_VARIANT_STRIDED == CP_ATOMIC_STRIDED &&
                   (int)CP_ATOMIC_VARIANT_AGGREGATED == CP_ATOMIC_AGGREGATED &&
                   (int)CP_ATOMIC_OP_RED == CP_ATOMIC_RED &&
                   (int)CP_ATOMIC_TYPE_F32 == CP_ATOMIC_F32,
               "the atomic enumerations of cp_atomic_config.h follow cp_atomic.h");

enum { CP_ATOMIC_ACC, CP_ATOMIC_OUT };

static uint64_t cp_atomic_slots_of(const cp_config *c)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    return cp_atomic_slots(c->elements, (int)cfg->variant, cfg->addresses, cfg->lane_words);
}

static void cp_model_atomic_describe(const cp_config *c, cp_prediction *out)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    uint64_t n = c->elements;
    int atom = cfg->op == CP_ATOMIC_OP_ATOM;
    cp_model_linear_grid(out, n, atom ? 2 : 1);
    cp_model_element_access(&out->accesses[CP_ATOMIC_ACC], "acc", CP_OP_STORE, CP_SPACE_GLOBAL, 4,
                            4 * cp_atomic_slots_of(c), cfg->variant == CP_ATOMIC_VARIANT_STRIDED);
    out->accesses[CP_ATOMIC_ACC].family_counted = 1; /* an atomic: the family's counters */
    if (atom)
        cp_model_element_access(&out->accesses[CP_ATOMIC_OUT], "out", CP_OP_STORE, CP_SPACE_GLOBAL,
                                4, 4 * n, 0);
}

/* The accumulator thread i adds to, or i for out. */
static uint64_t cp_atomic_element(const cp_config *c, size_t a, uint64_t i)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    if (a != CP_ATOMIC_ACC)
        return i;
    return cp_atomic_slot(i, (int)cfg->variant, cfg->addresses, cfg->lane_words);
}

/* Lanes of warp w: every thread's, but the aggregated atomic's lane 0 alone. */
static uint32_t cp_model_atomic_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                      uint64_t t, uint64_t addr[CP_WARP_SIZE])
{
    (void)ins;
    (void)t;
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    uint32_t mask = cp_model_linear_lanes(c, a, w, 4, 0, cp_atomic_element, addr);
    if (a == CP_ATOMIC_ACC && cfg->variant == CP_ATOMIC_VARIANT_AGGREGATED)
        return mask & 1u;
    return mask;
}

/* 1 when every full warp's accumulators are its predecessor's moved by whole 128-byte lines: own
 * and strided, contention over a whole warp's 32 words. */
static int cp_atomic_acc_regular(const cp_config *c)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    return cfg->variant == CP_ATOMIC_VARIANT_OWN || cfg->variant == CP_ATOMIC_VARIANT_STRIDED ||
           (cfg->variant == CP_ATOMIC_VARIANT_CONTENTION && cfg->addresses % 32 == 0);
}

static size_t cp_model_atomic_classes(const cp_config *c, size_t a,
                                      cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    if (a == CP_ATOMIC_ACC && !cp_atomic_acc_regular(c))
        return CP_MODEL_EVERY_WARP;
    return cp_model_linear_classes(c->elements, classes);
}

static uint64_t cp_model_atomic_footprint(const cp_config *c, size_t a)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    if (a != CP_ATOMIC_ACC)
        return cp_model_monotone_footprint(c->elements, 4, 0, 4);
    if (!cp_atomic_acc_regular(c))
        return CP_MODEL_FOOTPRINT_FROM_LANES;
    uint64_t step = cfg->variant == CP_ATOMIC_VARIANT_STRIDED ? 4 * cfg->lane_words : 4;
    return cp_model_monotone_footprint(c->elements, step, 0, 4);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_atomic_model = {
    .describe = cp_model_atomic_describe,
    .lanes = cp_model_atomic_lanes,
    .classes = cp_model_atomic_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_atomic_footprint,
    .thread_by_thread = 1,
};

/* ---- its own counters (cp_atomic_family.c names them) ----------------------------------- */

/* The accumulators' atomic requests and sectors (ATOM or RED: the counter its op reads). */
static double cp_atomic_requests(const cp_config *c, const cp_prediction *p)
{
    (void)c;
    return p->naccesses > CP_ATOMIC_ACC ? (double)p->accesses[CP_ATOMIC_ACC].counts.requests : 0;
}
/* The sectors warp w's atomic moves: L1 serves the lanes on one address one at a time, in passes
 * that each take one waiting lane of every address, and each pass moves the distinct sectors of
 * its addresses (the H100, 2026-12-07: every contention width from 1 to 31 addresses, ATOM and
 * RED, u32 and f32, against CUPTI's counters; docs/model.md). Lanes on distinct
 * addresses take one pass: the distinct sectors, as for a store. */
static uint64_t cp_atomic_warp_sectors(const cp_config *c, uint64_t w)
{
    uint64_t addr[CP_WARP_SIZE], sectors = 0;
    uint32_t left = cp_model_atomic_lanes(c, CP_ATOMIC_ACC, 0, w, 0, addr);
    while (left) {
        /* the pass: the first waiting lane of each address, counted once a sector */
        uint32_t pass = 0;
        for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
            if (!(left & (1u << l)))
                continue;
            int same_address = 0, same_sector = 0;
            for (unsigned k = 0; k < l; k++)
                if (pass & (1u << k)) {
                    same_address |= addr[k] == addr[l];
                    same_sector |= addr[k] / CP_SECTOR_BYTES == addr[l] / CP_SECTOR_BYTES;
                }
            if (!same_address) {
                pass |= 1u << l;
                sectors += !same_sector;
            }
        }
        left &= ~pass;
    }
    return sectors;
}

/* Contention's sectors, warp by warp: warp w's addresses start 4 * w * addresses bytes into the
 * accumulators, so its sectors repeat every 8 warps (a sector is 8 words); the last warp may be
 * partial. Every other variant gives each active lane its own address: one pass, the access's
 * distinct sectors as the model counted them. */
static double cp_atomic_sectors(const cp_config *c, const cp_prediction *p)
{
    if (p->naccesses <= CP_ATOMIC_ACC)
        return 0;
    if (cp_atomic_config_of(c)->variant != CP_ATOMIC_VARIANT_CONTENTION)
        return (double)p->accesses[CP_ATOMIC_ACC].counts.sectors;
    uint64_t full = c->elements / CP_WARP_SIZE, period = 0, total = 0;
    for (uint64_t w = 0; w < 8 && w < full; w++)
        period += cp_atomic_warp_sectors(c, w);
    total = full / 8 * period;
    for (uint64_t w = 0; w < full % 8; w++)
        total += cp_atomic_warp_sectors(c, w);
    if (c->elements % CP_WARP_SIZE)
        total += cp_atomic_warp_sectors(c, full);
    return (double)total;
}

/* 1 when c's atomics are reductions (red: RED, counted by CUPTI's op_red), 0 for atom. */
static int cp_atomic_is_red(const cp_config *c)
{
    return cp_atomic_config_of(c)->op == CP_ATOMIC_OP_RED;
}

/* The most active lanes of warp w's atomic on one address. */
static uint64_t cp_atomic_warp_collisions(const cp_config *c, uint64_t w)
{
    uint64_t addr[CP_WARP_SIZE], most = 0;
    uint32_t mask = cp_model_atomic_lanes(c, CP_ATOMIC_ACC, 0, w, 0, addr);
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        if (!(mask & (1u << l)))
            continue;
        uint64_t same = 0;
        for (unsigned k = 0; k < CP_WARP_SIZE; k++)
            same += (mask & (1u << k)) && addr[k] == addr[l];
        most = same > most ? same : most;
    }
    return most;
}

/* The lanes that collide on one address: the most of any warp's atomic. Every full warp's lanes
 * have the same slots relative to its first (cp_atomic.h), so its first and its last warp
 * (partial, perhaps) say it. */
static double cp_atomic_lanes_per_address(const cp_config *c, const cp_prediction *p)
{
    if (!p->warps)
        return 0;
    uint64_t first = cp_atomic_warp_collisions(c, 0);
    uint64_t last = cp_atomic_warp_collisions(c, p->warps - 1);
    return (double)(first > last ? first : last);
}

/* Its own counters, in the order of its columns: the atomic requests and sectors of global
 * memory, read by L1's op_atom counters for atom and op_red for red, and the lanes on one
 * address, the model's alone. */
const cp_family_counter cp_atomic_counters[CP_ATOMIC_COUNTERS] = {
    {.key = "atomic_requests",
     .metric = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
     .alt_metric = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
     .metric_of = cp_atomic_is_red,
     .label = "atomic",
     .unit = "req",
     .predict = cp_atomic_requests},
    {.key = "atomic_sectors",
     .metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
     .alt_metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
     .metric_of = cp_atomic_is_red,
     .label = "atomic",
     .unit = "sectors",
     .predict = cp_atomic_sectors},
    {.key = "lanes_per_address",
     .label = "lanes",
     .unit = "/addr",
     .predict = cp_atomic_lanes_per_address},
};
