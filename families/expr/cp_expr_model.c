/* cp_expr_model.c: the model's view of the expr family: thread i accesses element EXPR(i) of
 * the indexed buffer (the side --op picks) and element i of the other, like the stride family
 * with a user's index. Where the expression has a period the model proves (cp_expr_period.c),
 * one period of warps is counted and the footprint follows from the first period's sectors;
 * elsewhere the model evaluates the expression for every thread with the checked evaluator of
 * src/model/cp_expr.c (the kernel runs the same expression compiled by NVRTC): first to refuse
 * undefined behaviour and indices outside [0, n), then to count every warp and the footprint
 * from the same lanes; the engine spreads both passes over the CPUs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_expr.h"
#include "cp_expr_period.h"
#include "cp_model_family.h"
#include "cp_expr_config.h"

/* The longest period looked for: 4096 warps (counting them, and the footprint of their threads,
 * takes milliseconds). */
#define CP_MODEL_EXPR_PERIOD_THREADS (4096u * CP_WARP_SIZE)

/* Access 0 reads "in", access 1 writes "out"; op picks the indexed one, as in the stride
 * family. */
static int cp_expr_is_indexed(const cp_config *c, size_t a)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    return (cfg->op == CP_OP_LOAD) == (a == 0);
}

static void cp_expr_access(const cp_config *c, cp_access_prediction *ap, const char *name, cp_op op,
                           int indexed)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    cp_model_element_access(ap, name, op, CP_SPACE_GLOBAL, cfg->width_bytes,
                            c->elements * cfg->width_bytes, indexed);
}

static void cp_model_expr_describe(const cp_config *c, cp_prediction *out)
{
    cp_model_linear_grid(out, c->elements, 2);
    cp_expr_access(c, &out->accesses[0], "in", CP_OP_LOAD, cp_expr_is_indexed(c, 0));
    cp_expr_access(c, &out->accesses[1], "out", CP_OP_STORE, cp_expr_is_indexed(c, 1));
}

/* The element thread i accesses through access a: EXPR(i) on the indexed side (validate checked
 * every thread already), i on the other. */
static uint64_t cp_expr_element(const cp_config *c, size_t a, uint64_t i)
{
    if (!cp_expr_is_indexed(c, a))
        return i;
    return (uint64_t)cp_expr_value(c->expr, (int64_t)i, (int64_t)c->elements, c->expr_params);
}

static CP_MODEL_LINEAR_LANES_HOOK(cp_model_expr_lanes, cp_expr_element,
                                  cp_expr_config_of(c)->width_bytes)

    static size_t
    cp_model_expr_classes(const cp_config *c, size_t a, cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    if (cp_expr_is_indexed(c, a))
        return CP_MODEL_EVERY_WARP; /* nothing known of a user's expression */
    return cp_model_linear_classes(c->elements, classes);
}

/* The dense side touches every sector of its buffer; the indexed side is counted exactly by
 * the engine, from the lanes it evaluates (one bit per sector of the buffer: n * width / 32
 * bits, 2 MB for the default 64 MB). */
static uint64_t cp_model_expr_footprint(const cp_config *c, size_t a)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    uint64_t w = cfg->width_bytes;
    if (!cp_expr_is_indexed(c, a))
        return cp_model_monotone_footprint(c->elements, w, 0, w);
    return CP_MODEL_FOOTPRINT_FROM_LANES;
}

/* The index of every thread in [begin, end): defined (no undefined behaviour on the way) and
 * inside [0, n). */
static int cp_model_expr_validate(const cp_config *c, uint64_t begin, uint64_t end,
                                  uint64_t *failed, cp_status *st)
{
    *failed = begin;
    if (!c->expr)
        return cp_status_set(st, CP_EXIT_USAGE, "expr: no --index expression");
    for (uint64_t i = begin; i < end; i++) {
        int64_t v;
        int rc = cp_expr_eval(c->expr, (int64_t)i, (int64_t)c->elements, c->expr_params, &v, st);
        if (rc != CP_EXIT_OK) {
            *failed = i;
            return rc;
        }
        if (v < 0 || (uint64_t)v >= c->elements) {
            *failed = i;
            if (!st)
                return CP_EXIT_USAGE;
            cp_status_set(
                st, CP_EXIT_USAGE,
                "--index: the expression at position 0 gives %" PRId64 " for i = %" PRIu64
                " (n = %" PRIu64
                "), outside the buffer's elements 0..n-1 (keep it inside, e.g. with %% n)",
                v, i, c->elements);
            cp_expr_hint_at(c->expr, 0, st);
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}

/* --- a period ------------------------------------------------------------------------------ */

/* `len` positions from `start` in coset `coset` of a line (cycle 0) or of a cycle of `cycle`
 * positions. */
typedef struct cp_expr_arc {
    uint64_t coset, start, len;
} cp_expr_arc;

static int cp_expr_arc_order(const void *x, const void *y)
{
    const cp_expr_arc *a = x, *b = y;
    if (a->coset != b->coset)
        return a->coset < b->coset ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Appends the arc (one on a line, one or two on a cycle, which it may wrap around) at v[k];
 * returns the new count. */
static size_t cp_expr_arc_add(cp_expr_arc *v, size_t k, uint64_t coset, uint64_t start,
                              uint64_t len, uint64_t cycle)
{
    if (cycle && len >= cycle)
        start = 0, len = cycle;
    if (cycle && start + len > cycle) {
        v[k++] = (cp_expr_arc){coset, start, cycle - start};
        len = start + len - cycle, start = 0;
    }
    v[k++] = (cp_expr_arc){coset, start, len};
    return k;
}

/* Positions covered by the arcs v[0..n) (reordered). */
static uint64_t cp_expr_arcs_union(cp_expr_arc *v, size_t n)
{
    qsort(v, n, sizeof *v, cp_expr_arc_order);
    uint64_t total = 0, end = 0;
    for (size_t k = 0; k < n; k++) {
        int fresh = k == 0 || v[k].coset != v[k - 1].coset;
        uint64_t from = fresh || v[k].start > end ? v[k].start : end;
        uint64_t to = v[k].start + v[k].len;
        total += to > from ? to - from : 0;
        end = fresh || to > end ? to : end;
    }
    return total;
}

/* x^-1 modulo m, for x and m coprime (m >= 1). */
static uint64_t cp_expr_inverse(uint64_t x, uint64_t m)
{
    int64_t t = 0, nt = 1;
    uint64_t r = m, nr = x % m;
    while (nr) {
        uint64_t q = r / nr, tr = r - q * nr;
        int64_t tt = t - (int64_t)q * nt;
        t = nt, nt = tt, r = nr, nr = tr;
    }
    return t < 0 ? (uint64_t)(t + (int64_t)m) : (uint64_t)t;
}

/* How the sectors of the indexed side move from one period to the next: by `step` sectors
 * along the buffer, or, wrapping around within the window of `cycle` * `coset` sectors from
 * `base`, by `step` there (position on its orbit: (x / coset) * inverse mod cycle). */
typedef struct cp_expr_sector_move {
    int64_t step;
    uint64_t base, coset, cycle, inverse;
} cp_expr_sector_move;

static cp_expr_sector_move cp_expr_sector_move_of(const cp_expr_period *p, uint64_t w)
{
    cp_expr_sector_move m = {p->shift * (int64_t)w / CP_SECTOR_BYTES, 0, 0, 0, 0};
    if (!p->window_size)
        return m;
    uint64_t size = (uint64_t)p->window_size * w / CP_SECTOR_BYTES;
    m.base = (uint64_t)p->window_base * w / CP_SECTOR_BYTES;
    m.coset = m.step ? cp_model_gcd((uint64_t)m.step, size) : size;
    m.cycle = size / m.coset;
    m.inverse = cp_expr_inverse((uint64_t)m.step / m.coset, m.cycle);
    return m;
}

/* The arc of the sectors thread j's element (sector s) and its `count` recurrences, one period
 * apart, touch. */
static size_t cp_expr_sector_arcs(const cp_expr_sector_move *m, uint64_t s, uint64_t count,
                                  cp_expr_arc *v, size_t k)
{
    if (m->step == 0)
        return cp_expr_arc_add(v, k, s, 0, 1, 0);
    if (m->cycle) {
        __extension__ typedef unsigned __int128 u128;
        uint64_t x = s - m->base;
        uint64_t at = (uint64_t)((u128)(x / m->coset) * m->inverse % m->cycle);
        return cp_expr_arc_add(v, k, x % m->coset, at, count, m->cycle);
    }
    uint64_t step = (uint64_t)(m->step < 0 ? -m->step : m->step);
    uint64_t from = m->step > 0 ? s : s - (count - 1) * step;
    return cp_expr_arc_add(v, k, from % step, from / step, count, 0);
}

/* Distinct sectors of the indexed side: thread j + m T (m below its count) touches the sector
 * of f(j) moved by m periods: a progression (on a line, or around the window's cycle) per
 * thread of the first period, merged per coset. 0 when out of memory. */
static int cp_model_expr_period_footprint(const cp_config *c, const cp_expr_period *p,
                                          uint64_t *footprint)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    uint64_t n = c->elements, T = p->threads, first = T < n ? T : n, w = cfg->width_bytes;
    cp_expr_arc *v = malloc(2 * first * sizeof *v);
    if (!v)
        return 0;
    cp_expr_sector_move m = {0, 0, 0, 0, 0};
    if (first < n) /* the move matters only where a thread recurs */
        m = cp_expr_sector_move_of(p, w);
    size_t k = 0;
    for (uint64_t j = 0; j < first; j++) {
        uint64_t f = cp_expr_element(c, cp_expr_is_indexed(c, 0) ? 0 : 1, j);
        k = cp_expr_sector_arcs(&m, f * w / CP_SECTOR_BYTES, (n - 1 - j) / T + 1, v, k);
    }
    *footprint = cp_expr_arcs_union(v, k);
    free(v);
    return 1;
}

static void cp_model_expr_prove(const cp_config *c, int want_footprint, cp_model_proof *out)
{
    const cp_expr_config *cfg = cp_expr_config_of(c);
    memset(out, 0, sizeof *out);
    size_t a = cp_expr_is_indexed(c, 0) ? 0 : 1;
    uint64_t n = c->elements, shift = CP_LINE_BYTES / cp_model_gcd(cfg->width_bytes, CP_LINE_BYTES);
    cp_expr_period p;
    memset(&p, 0, sizeof p);
    if (!c->expr || n > INT64_MAX ||
        !cp_expr_period_find(c->expr, (int64_t)n, c->expr_params, CP_WARP_SIZE, shift,
                             CP_MODEL_EXPR_PERIOD_THREADS, &p)) {
        snprintf(out->why, sizeof out->why, "every thread evaluated, no period proved: %s", p.why);
        return;
    }
    if (p.threads >= n) {
        snprintf(out->why, sizeof out->why,
                 "every thread evaluated: the period proved, %s, is no shorter than the %" PRIu64
                 " threads",
                 p.why, n);
        return;
    }
    if (p.lo < 0 || (uint64_t)p.hi >= n) {
        snprintf(out->why, sizeof out->why,
                 "every thread evaluated: %s, but the indices may reach %" PRId64 "..%" PRId64
                 ", not proved inside 0..n-1",
                 p.why, p.lo, p.hi);
        return;
    }
    if (want_footprint && !cp_model_expr_period_footprint(c, &p, &out->footprint[a])) {
        snprintf(out->why, sizeof out->why, "every thread evaluated: out of memory for a period");
        return;
    }
    out->period = p.threads / CP_WARP_SIZE;
    out->regular = n / CP_WARP_SIZE;
    snprintf(out->why, sizeof out->why,
             "counted over a period of %" PRIu64 " warp%s of %" PRIu64
             ": %s (every index in %" PRId64 "..%" PRId64 ")",
             out->period, out->period == 1 ? "" : "s", cp_model_linear_warps(n), p.why, p.lo, p.hi);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_expr_model = {
    .describe = cp_model_expr_describe,
    .lanes = cp_model_expr_lanes,
    .classes = cp_model_expr_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_expr_footprint,
    .validate = cp_model_expr_validate,
    .prove = cp_model_expr_prove,
    .thread_by_thread = 1,
};
