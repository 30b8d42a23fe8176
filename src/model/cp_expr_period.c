/* cp_expr_period.c: proves a period of an index expression from its tree (cp_expr_period.h):
 * first what each node does when i moves by T and which T that needs, with bounds of its values
 * from the tree; then every node's exact range from its values at the first period's threads.
 * One file of about 900 lines because the operators' rules, the first period's evaluation and
 * the ranges all read and write one analysis (the facts per node) and its 128-bit arithmetic,
 * which no other file needs. */
#include "cp_expr_period.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_expr_tree.h"

#ifndef __SIZEOF_INT128__
#error "cp_expr_period.c needs 128-bit integers (GCC or Clang)"
#endif
/* Bounds and products are computed in 128 bits; they saturate at +-WIDE_LIMIT, far beyond int64:
 * a range that leaves int64 decides nothing and fails the check of its node. */
__extension__ typedef __int128 wide;
#define WIDE_LIMIT ((wide)1 << 100)

/* What the analysis knows of a node, at every thread where it is evaluated. */
enum { K_NONE, K_FAIL, K_LIN, K_WRAP };

typedef struct range {
    wide lo, hi;
} range;

typedef struct info {
    uint8_t kind;       /* K_LIN: v(i + T) = v(i) + T * p / q; K_WRAP: the same modulo the window */
    uint8_t is_const;   /* the same value at every thread */
    int64_t value;      /* is_const */
    int64_t p, q;       /* the slope p / q, q > 0, reduced */
    int64_t base, size; /* K_WRAP: every value lies in [base, base + size) */
    range r;            /* bounds of every value it takes */
} info;

typedef struct analysis {
    const cp_expr *e;
    int64_t n;
    const int64_t *params;
    int allow_wrap; /* a remainder at the top may wrap around */
    int wrapped;    /* one did */
    wide need;      /* T must be a multiple of it */
    wide max_threads;
    char why[224];                /* the first reason there is no period; "" while there is one */
    int order[CP_EXPR_MAX_NODES]; /* the nodes analysed */
    int norder;
    info x[CP_EXPR_MAX_NODES];
    cp_expr_node nd[CP_EXPR_MAX_NODES]; /* the nodes analysed, as the tree has them */
    /* the first period's evaluation: each node's value at thread `stamp` - 1 (seen: the stamp of
     * the last thread that evaluated it); the least and greatest of its values at the threads
     * that recur one period fewer (0) and as often as the first (1) */
    int64_t val[CP_EXPR_MAX_NODES];
    uint32_t seen[CP_EXPR_MAX_NODES];
    int64_t vlo[2][CP_EXPR_MAX_NODES], vhi[2][CP_EXPR_MAX_NODES];
    uint8_t vseen[2][CP_EXPR_MAX_NODES];
} analysis;

/* --- 128-bit helpers ---------------------------------------------------------------------- */

static wide w_clamp(wide v)
{
    return v > WIDE_LIMIT ? WIDE_LIMIT : v < -WIDE_LIMIT ? -WIDE_LIMIT : v;
}

static wide w_abs(wide v)
{
    return v < 0 ? -v : v;
}

static wide w_min(wide a, wide b)
{
    return a < b ? a : b;
}

static wide w_max(wide a, wide b)
{
    return a > b ? a : b;
}

static wide w_gcd(wide a, wide b)
{
    a = w_abs(a), b = w_abs(b);
    while (b) {
        wide t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Saturating product of two values within the limit. */
static wide w_mul(wide a, wide b)
{
    if (a == 0 || b == 0)
        return 0;
    if (w_abs(a) > WIDE_LIMIT / w_abs(b))
        return (a < 0) == (b < 0) ? WIDE_LIMIT : -WIDE_LIMIT;
    return a * b;
}

/* floor(v / 2^s), as >> does for int64. */
static wide w_floor_shift(wide v, int s)
{
    wide d = (wide)1 << s;
    wide q = v / d;
    return q * d > v ? q - 1 : q;
}

static int w_fits(wide v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* Bits of v >= 0. */
static int w_bits(wide v)
{
    int k = 0;
    while (v > 0) {
        v >>= 1;
        k++;
    }
    return k;
}

static range r_make(wide lo, wide hi)
{
    return (range){w_clamp(lo), w_clamp(hi)};
}

/* Bounds within int64: only those decide anything. */
static int r_known(range r)
{
    return w_fits(r.lo) && w_fits(r.hi);
}

static range r_scale(range r, wide c)
{
    wide a = w_mul(r.lo, c), b = w_mul(r.hi, c);
    return r_make(w_min(a, b), w_max(a, b));
}

static range r_product(range a, range b)
{
    wide v[4] = {w_mul(a.lo, b.lo), w_mul(a.lo, b.hi), w_mul(a.hi, b.lo), w_mul(a.hi, b.hi)};
    return r_make(w_min(w_min(v[0], v[1]), w_min(v[2], v[3])),
                  w_max(w_max(v[0], v[1]), w_max(v[2], v[3])));
}

/* 1 when every value of r is true (not 0), 0 when every one is 0, -1 when it depends. */
static int r_truth(range r)
{
    if (!r_known(r))
        return -1;
    if (r.lo > 0 || r.hi < 0)
        return 1;
    return r.lo == 0 && r.hi == 0 ? 0 : -1;
}

/* --- what a node does -------------------------------------------------------------------- */

/* Records the first reason there is no period: the operator of node k and its position. */
static void an_fail(analysis *an, int k, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void an_fail(analysis *an, int k, const char *fmt, ...)
{
    an->x[k].kind = K_FAIL;
    if (an->why[0])
        return;
    cp_expr_node nd = cp_expr_tree_node(an->e, k);
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *op = cp_expr_tree_spelling(nd.op);
    if (op[0])
        snprintf(an->why, sizeof an->why, "'%s' at position %u %s", op, nd.pos, what);
    else
        snprintf(an->why, sizeof an->why, "the term at position %u %s", nd.pos, what);
}

/* Reduces the slope p / q (q > 0 after); 0 when it does not fit 64 bits. */
static int an_reduce(wide p, wide q, int64_t *po, int64_t *qo)
{
    wide g = w_gcd(p, q);
    if (g > 1)
        p /= g, q /= g;
    if (q < 0)
        p = -p, q = -q;
    if (!w_fits(p) || !w_fits(q))
        return 0;
    *po = (int64_t)p, *qo = (int64_t)q;
    return 1;
}

/* Node k moves by T * p / q when i moves by T, with values in r; 0 (and a failure) when the
 * slope does not fit. */
static int an_lin(analysis *an, int k, wide p, wide q, range r)
{
    int64_t rp, rq;
    if (!an_reduce(p, q, &rp, &rq)) {
        an_fail(an, k, "moves by too much when i moves");
        return 0;
    }
    an->x[k] = (info){.kind = K_LIN, .p = rp, .q = rq, .r = r};
    return 1;
}

static void an_const(analysis *an, int k, int64_t v)
{
    an->x[k] = (info){.kind = K_LIN, .is_const = 1, .value = v, .q = 1, .r = {v, v}};
}

/* T must make T * p / q a multiple of d (node k's rule): T a multiple of q * d / gcd(p, q * d). */
static int an_require(analysis *an, int k, int64_t p, int64_t q, wide d)
{
    if (p == 0)
        return 1;
    wide m = (wide)q * d, step = m / w_gcd(p, m);
    wide need = an->need / w_gcd(an->need, step);
    if (step > an->max_threads || need > an->max_threads / step) {
        an_fail(an, k, "needs a period of more than %llu threads",
                (unsigned long long)an->max_threads);
        return 0;
    }
    an->need = need * step;
    return 1;
}

/* Node k is node a's value (an operator that leaves it as it is here). */
static void an_alias(analysis *an, int k, int a)
{
    an->x[k] = an->x[a];
}

static int an_same_slope(const info *a, const info *b)
{
    return a->p == b->p && a->q == b->q;
}

/* --- binary operators -------------------------------------------------------------------- */

/* a + b, a - b: slopes add; a wrap-around moves its window by the number added. */
static void an_add(analysis *an, int k, int op, const info *a, const info *b)
{
    int sub = op == CP_EXPR_OP_SUB;
    if (a->kind == K_WRAP || b->kind == K_WRAP) {
        const info *w = a->kind == K_WRAP ? a : b, *c = w == a ? b : a;
        wide base = (wide)w->base + (sub ? -(wide)c->value : (wide)c->value);
        if (!c->is_const || !w_fits(base)) {
            an_fail(an, k, "overflows");
            return;
        }
        wide by = sub ? -(wide)c->value : (wide)c->value;
        an->x[k] = *w;
        an->x[k].base = (int64_t)base;
        an->x[k].r = r_make(w->r.lo + by, w->r.hi + by);
        return;
    }
    wide p = (wide)a->p * b->q + (sub ? -(wide)b->p : (wide)b->p) * a->q;
    range r = sub ? r_make(a->r.lo - b->r.hi, a->r.hi - b->r.lo)
                  : r_make(a->r.lo + b->r.lo, a->r.hi + b->r.hi);
    an_lin(an, k, p, (wide)a->q * b->q, r);
}

/* a * b: a number times a term multiplies its slope (and a wrap-around's window); two terms
 * that do not move give one that does not. */
static void an_mul(analysis *an, int k, const info *a, const info *b)
{
    const info *c = b->is_const ? b : a->is_const ? a : NULL, *u = c == b ? a : b;
    if (!c) {
        if (a->p || b->p)
            an_fail(an, k, "multiplies two terms that move with i");
        else
            an_lin(an, k, 0, 1, r_product(a->r, b->r));
        return;
    }
    if (u->kind == K_WRAP) {
        wide base = (wide)u->base * c->value, size = (wide)u->size * c->value;
        info x = *u;
        if (c->value <= 0 || !w_fits(base) || !w_fits(size) ||
            !an_reduce((wide)u->p * c->value, u->q, &x.p, &x.q)) {
            an_fail(an, k, "scales a wrap-around by %lld", (long long)c->value);
            return;
        }
        x.base = (int64_t)base, x.size = (int64_t)size;
        x.r = r_scale(u->r, c->value);
        an->x[k] = x;
        return;
    }
    an_lin(an, k, (wide)u->p * c->value, u->q, r_scale(u->r, c->value));
}

/* 1 when every value of r has one sign (0 counting as either): truncating division moves evenly
 * then. */
static int an_one_sign(range r)
{
    return r_known(r) && (r.lo >= 0 || r.hi <= 0);
}

/* 1 unless a moving term a may reach INT64_MIN and d is -1 (C's behaviour is undefined there;
 * a term that does not move shows it at the first period's threads). */
static int an_not_min_by_minus_one(analysis *an, int k, const info *a, wide d)
{
    if (d != -1 || (r_known(a->r) && a->r.lo > INT64_MIN))
        return 1;
    an_fail(an, k, "may divide %lld by -1", (long long)INT64_MIN);
    return 0;
}

/* a / d for a number d: a term that moves by a multiple of d moves by that over d. */
static void an_div(analysis *an, int k, const info *a, const info *b)
{
    if (!b->is_const) {
        if (a->p || b->p)
            an_fail(an, k, "divides by a term that moves with i");
        else
            an_lin(an, k, 0, 1,
                   r_make(-w_max(w_abs(a->r.lo), w_abs(a->r.hi)),
                          w_max(w_abs(a->r.lo), w_abs(a->r.hi))));
        return;
    }
    wide d = b->value;
    if (d == 0) {
        an_fail(an, k, "divides by zero");
        return;
    }
    range r = d > 0 ? r_make(a->r.lo / d, a->r.hi / d) : r_make(a->r.hi / d, a->r.lo / d);
    if (a->p == 0) {
        an_lin(an, k, 0, 1, r);
        return;
    }
    if (!an_one_sign(a->r)) {
        an_fail(an, k,
                "divides a term that may be negative for some threads and positive for "
                "others (C's division truncates toward zero)");
        return;
    }
    if (!an_not_min_by_minus_one(an, k, a, d))
        return;
    if (an_require(an, k, a->p, a->q, w_abs(d)))
        an_lin(an, k, a->p, (wide)a->q * d, r);
}

/* The bounds of a % d for a number d != 0. */
static range an_mod_range(range a, wide d)
{
    wide m = w_abs(d) - 1;
    if (r_known(a) && a.lo >= 0)
        return r_make(0, w_min(a.hi, m));
    if (r_known(a) && a.hi <= 0)
        return r_make(w_max(a.lo, -m), 0);
    return r_make(-m, m);
}

/* a % d for a number d: the identity on [0, |d|); a term that moves by a multiple of d does not
 * move; at the top it may wrap around within [0, d) instead. */
static void an_mod(analysis *an, int k, int wrap_ok, int ka, const info *b)
{
    const info *a = &an->x[ka];
    if (!b->is_const) {
        wide m = w_max(w_abs(b->r.lo), w_abs(b->r.hi)) - 1;
        if (a->p || b->p)
            an_fail(an, k, "takes the remainder by a term that moves with i");
        else
            an_lin(an, k, 0, 1, r_known(a->r) && a->r.lo >= 0 ? r_make(0, m) : r_make(-m, m));
        return;
    }
    wide d = b->value;
    if (d == 0) {
        an_fail(an, k, "divides by zero");
    } else if (r_known(a->r) && a->r.lo >= 0 && a->r.hi < w_abs(d)) {
        an_alias(an, k, ka);
    } else if (a->p == 0) {
        an_lin(an, k, 0, 1, an_mod_range(a->r, d));
    } else if (!an_one_sign(a->r)) {
        an_fail(an, k,
                "takes the remainder of a term that may be negative for some threads and "
                "positive for others");
    } else if (!an_not_min_by_minus_one(an, k, a, d)) {
        return;
    } else if (wrap_ok && an->allow_wrap && d > 0 && a->r.lo >= 0) {
        an->wrapped = 1;
        an->x[k] = (info){.kind = K_WRAP, .p = a->p, .q = a->q, .size = (int64_t)d};
        an->x[k].r = an_mod_range(a->r, d);
    } else if (an_require(an, k, a->p, a->q, w_abs(d))) {
        an_lin(an, k, 0, 1, an_mod_range(a->r, d));
    }
}

/* a << s, a >> s for a number s in 0..63: a product with, or a floor division by, 2^s. */
static void an_shift(analysis *an, int k, int op, const info *a, const info *b)
{
    int left = op == CP_EXPR_OP_SHL;
    if (!b->is_const) {
        if (a->p || b->p)
            an_fail(an, k, "shifts by a term that moves with i");
        else
            an_lin(an, k, 0, 1,
                   left ? r_make(-WIDE_LIMIT, WIDE_LIMIT)
                        : r_make(w_min(a->r.lo, 0), w_max(a->r.hi, 0)));
        return;
    }
    if (b->value < 0 || b->value > 63) {
        an_fail(an, k, "shifts by %lld", (long long)b->value);
        return;
    }
    int s = (int)b->value;
    if (left) {
        if (a->p && !(r_known(a->r) && a->r.lo >= 0))
            an_fail(an, k, "shifts left a term that may be negative");
        else
            an_lin(an, k, (wide)a->p * ((wide)1 << s), a->q, r_scale(a->r, (wide)1 << s));
        return;
    }
    range r = r_make(w_floor_shift(a->r.lo, s), w_floor_shift(a->r.hi, s));
    if (an_require(an, k, a->p, a->q, (wide)1 << s))
        an_lin(an, k, a->p, (wide)a->q << s, r);
}

/* The outcome of comparison op of ranges a and b when they decide it: 1 or 0; else -1. */
static int an_compare_decided(int op, range a, range b)
{
    if (!r_known(a) || !r_known(b))
        return -1;
    int lt = a.hi<b.lo, ge = a.lo >= b.hi, le = a.hi <= b.lo, gt = a.lo> b.hi;
    int same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, apart = lt || gt;
    switch (op) {
    case CP_EXPR_OP_LT:
        return lt ? 1 : ge ? 0 : -1;
    case CP_EXPR_OP_LE:
        return le ? 1 : gt ? 0 : -1;
    case CP_EXPR_OP_GT:
        return gt ? 1 : le ? 0 : -1;
    case CP_EXPR_OP_GE:
        return ge ? 1 : lt ? 0 : -1;
    case CP_EXPR_OP_EQ:
        return same ? 1 : apart ? 0 : -1;
    default: /* CP_EXPR_OP_NE */
        return same ? 0 : apart ? 1 : -1;
    }
}

/* Comparisons: decided by the bounds, or of two terms that move alike (their difference does
 * not move). */
static void an_compare(analysis *an, int k, int op, const info *a, const info *b)
{
    int decided = an_compare_decided(op, a->r, b->r);
    if (decided >= 0)
        an_const(an, k, decided);
    else if (an_same_slope(a, b))
        an_lin(an, k, 0, 1, r_make(0, 1));
    else
        an_fail(an, k, "compares terms that move at different rates");
}

/* min and max: decided by the bounds, or of terms that move alike. */
static void an_minmax(analysis *an, int k, int op, int ka, int kb)
{
    const info *a = &an->x[ka], *b = &an->x[kb];
    int is_min = op == CP_EXPR_OP_MIN;
    if (r_known(a->r) && r_known(b->r) && (a->r.hi <= b->r.lo || b->r.hi <= a->r.lo)) {
        int a_below = a->r.hi <= b->r.lo;
        an_alias(an, k, a_below == is_min ? ka : kb);
    } else if (an_same_slope(a, b)) {
        range r = is_min ? r_make(w_min(a->r.lo, b->r.lo), w_min(a->r.hi, b->r.hi))
                         : r_make(w_max(a->r.lo, b->r.lo), w_max(a->r.hi, b->r.hi));
        an_lin(an, k, a->p, a->q, r);
    } else {
        an_fail(an, k, "picks between terms that move at different rates");
    }
}

/* The bounds of a & b, a | b, a ^ b. */
static range an_bits_range(int op, range a, range b)
{
    if (!r_known(a) || !r_known(b))
        return r_make(-WIDE_LIMIT, WIDE_LIMIT);
    if (op == CP_EXPR_OP_BAND && (a.lo >= 0 || b.lo >= 0))
        return r_make(0, a.lo >= 0 && b.lo >= 0 ? w_min(a.hi, b.hi) : a.lo >= 0 ? a.hi : b.hi);
    int k = w_bits(w_max(w_max(w_abs(a.lo), w_abs(a.hi)), w_max(w_abs(b.lo), w_abs(b.hi))));
    if (a.lo >= 0 && b.lo >= 0)
        return r_make(0, ((wide)1 << k) - 1);
    return r_make(-((wide)1 << k), ((wide)1 << k) - 1);
}

/* u OP v, u >= 0 moving, v not moving and within k bits: v in [0, 2^k) ("low") or in
 * [-2^k, 0) (every bit from k on set). When u moves by a multiple of 2^k its low k bits stay;
 * the bits above move with it (&, |, ^ of a low mask: those of u; & of a high mask: u's; | of
 * one: all set; ^ of one: u's inverted). */
static void an_bits_moving(analysis *an, int k, int op, const info *u, const info *v)
{
    if (!(r_known(u->r) && u->r.lo >= 0) || !r_known(v->r) || (v->r.lo < 0 && v->r.hi >= 0)) {
        an_fail(an, k,
                "combines bit by bit a term that moves with i and one that may be "
                "negative");
        return;
    }
    /* u & v where v keeps every bit u may have: u itself */
    wide ubits = ((wide)1 << w_bits(u->r.hi)) - 1;
    if (op == CP_EXPR_OP_BAND && v->is_const && ((wide)v->value & ubits) == ubits) {
        an->x[k] = *u;
        return;
    }
    int low = v->r.lo >= 0;
    int bits = low ? w_bits(v->r.hi) : w_bits(-v->r.lo - 1);
    if (bits > 62) {
        an_fail(an, k, "masks %d bits", bits);
        return;
    }
    wide top = ((wide)1 << bits) - 1;
    if (!an_require(an, k, u->p, u->q, top + 1))
        return;
    if (op == CP_EXPR_OP_BAND) /* a high mask clears u's low bits: 0 up to u, not u's range */
        an_lin(an, k, low ? 0 : u->p, u->q,
               low ? r_make(0, w_min(u->r.hi, v->r.hi)) : r_make(0, u->r.hi));
    else if (op == CP_EXPR_OP_BOR)
        an_lin(an, k, low ? u->p : 0, u->q, low ? r_make(0, u->r.hi + top) : r_make(-top - 1, -1));
    else
        an_lin(an, k, low ? u->p : -(wide)u->p, u->q,
               low ? r_make(0, u->r.hi + top) : r_make(-u->r.hi - top - 1, -1));
}

static void an_bits(analysis *an, int k, int op, const info *a, const info *b)
{
    if (a->p == 0 && b->p == 0)
        an_lin(an, k, 0, 1, an_bits_range(op, a->r, b->r));
    else if (a->p == 0 || b->p == 0)
        an_bits_moving(an, k, op, a->p ? a : b, a->p ? b : a);
    else
        an_fail(an, k, "combines bit by bit two terms that move with i");
}

/* --- the tree ---------------------------------------------------------------------------- */

static void an_node(analysis *an, int k, int wrap_ok);

/* 1 when node k's subtree names i. */
static int an_uses_i(const analysis *an, int k)
{
    if (k < 0)
        return 0;
    cp_expr_node nd = cp_expr_tree_node(an->e, k);
    if (nd.op == CP_EXPR_OP_VAR)
        return nd.value == CP_EXPR_VAR_I;
    return an_uses_i(an, nd.a) || an_uses_i(an, nd.b) || an_uses_i(an, nd.c);
}

/* Analyses operand j of node k; 1 when it has a rule. */
static int an_operand(analysis *an, int k, int j, int wrap_ok)
{
    an_node(an, j, wrap_ok);
    if (an->x[j].kind != K_FAIL)
        return 1;
    an->x[k].kind = K_FAIL;
    return 0;
}

static void an_binary(analysis *an, int k, const cp_expr_node *nd, int wrap_ok)
{
    int op = nd->op;
    /* a wrap-around may be moved by a number added or subtracted, or scaled by one */
    int keeps = op == CP_EXPR_OP_ADD || op == CP_EXPR_OP_SUB || op == CP_EXPR_OP_MUL;
    int wrap_a = wrap_ok && keeps && !an_uses_i(an, nd->b);
    int wrap_b = wrap_ok && keeps && op != CP_EXPR_OP_SUB && !an_uses_i(an, nd->a);
    if (!an_operand(an, k, nd->a, wrap_a) || !an_operand(an, k, nd->b, wrap_b))
        return;
    const info *a = &an->x[nd->a], *b = &an->x[nd->b];
    int64_t v;
    if (a->is_const && b->is_const) {
        if (cp_expr_tree_apply(op, a->value, b->value, &v))
            an_const(an, k, v);
        else
            an_fail(an, k, "fails for every thread");
    } else if (op == CP_EXPR_OP_ADD || op == CP_EXPR_OP_SUB) {
        an_add(an, k, op, a, b);
    } else if (op == CP_EXPR_OP_MUL) {
        an_mul(an, k, a, b);
    } else if (op == CP_EXPR_OP_DIV) {
        an_div(an, k, a, b);
    } else if (op == CP_EXPR_OP_MOD) {
        an_mod(an, k, wrap_ok, nd->a, b);
    } else if (op == CP_EXPR_OP_SHL || op == CP_EXPR_OP_SHR) {
        an_shift(an, k, op, a, b);
    } else if (op == CP_EXPR_OP_MIN || op == CP_EXPR_OP_MAX) {
        an_minmax(an, k, op, nd->a, nd->b);
    } else if (op == CP_EXPR_OP_BAND || op == CP_EXPR_OP_BOR || op == CP_EXPR_OP_BXOR) {
        an_bits(an, k, op, a, b);
    } else {
        an_compare(an, k, op, a, b);
    }
}

static void an_unary(analysis *an, int k, const cp_expr_node *nd, int wrap_ok)
{
    int op = nd->op;
    if (!an_operand(an, k, nd->a, op == CP_EXPR_OP_PLUS && wrap_ok))
        return;
    const info *a = &an->x[nd->a];
    int64_t v;
    int truth = r_truth(a->r);
    range r = a->r;
    int sign = !r_known(r) ? 0 : r.lo >= 0 ? 1 : r.hi <= 0 ? -1 : 0;
    if (a->is_const) {
        if (cp_expr_tree_apply(op, a->value, 0, &v))
            an_const(an, k, v);
        else
            an_fail(an, k, "fails for every thread");
    } else if (op == CP_EXPR_OP_PLUS || (op == CP_EXPR_OP_ABS && sign > 0)) {
        an_alias(an, k, nd->a);
    } else if (op == CP_EXPR_OP_NEG || (op == CP_EXPR_OP_ABS && sign < 0)) {
        an_lin(an, k, -(wide)a->p, a->q, r_make(-r.hi, -r.lo));
    } else if (op == CP_EXPR_OP_BNOT) {
        an_lin(an, k, -(wide)a->p, a->q, r_make(-r.hi - 1, -r.lo - 1));
    } else if (op == CP_EXPR_OP_NOT && truth >= 0) {
        an_const(an, k, !truth);
    } else if (a->p == 0) {
        wide m = w_max(w_abs(r.lo), w_abs(r.hi));
        an_lin(an, k, 0, 1, op == CP_EXPR_OP_NOT ? r_make(0, 1) : r_make(0, m));
    } else {
        an_fail(an, k, "%s",
                op == CP_EXPR_OP_NOT ? "tests a term that moves with i"
                                     : "takes abs of a term that changes sign");
    }
}

/* a && b, a || b: evaluated lazily; the outcome must not move, the right operand is evaluated
 * at the same threads of every period. */
static void an_logic(analysis *an, int k, const cp_expr_node *nd)
{
    int shortcut = nd->op == CP_EXPR_OP_LOR; /* the left value that decides */
    if (!an_operand(an, k, nd->a, 0))
        return;
    const info *a = &an->x[nd->a];
    int ta = r_truth(a->r);
    if (ta == shortcut) {
        an_const(an, k, shortcut);
        return;
    }
    if (ta < 0 && a->p) {
        an_fail(an, k, "tests a term that moves with i");
        return;
    }
    if (!an_operand(an, k, nd->b, 0))
        return;
    const info *b = &an->x[nd->b];
    int tb = r_truth(b->r);
    if (ta >= 0 && tb >= 0)
        an_const(an, k, tb);
    else if (tb >= 0 || b->p == 0)
        an_lin(an, k, 0, 1, r_make(0, 1));
    else
        an_fail(an, k, "tests a term that moves with i");
}

/* c ? a : b: decided by the bounds of c, or a condition that does not move choosing between
 * terms that move alike. */
static void an_cond(analysis *an, int k, const cp_expr_node *nd, int wrap_ok)
{
    if (!an_operand(an, k, nd->a, 0))
        return;
    const info *c = &an->x[nd->a];
    int truth = r_truth(c->r);
    if (truth >= 0) {
        int taken = truth ? nd->b : nd->c;
        if (an_operand(an, k, taken, wrap_ok))
            an_alias(an, k, taken);
        return;
    }
    if (c->p) {
        an_fail(an, k, "chooses by a condition that moves with i");
        return;
    }
    if (!an_operand(an, k, nd->b, 0) || !an_operand(an, k, nd->c, 0))
        return;
    const info *a = &an->x[nd->b], *b = &an->x[nd->c];
    if (an_same_slope(a, b))
        an_lin(an, k, a->p, a->q, r_make(w_min(a->r.lo, b->r.lo), w_max(a->r.hi, b->r.hi)));
    else
        an_fail(an, k, "chooses between terms that move at different rates");
}

static void an_leaf(analysis *an, int k, const cp_expr_node *nd)
{
    if (nd->op == CP_EXPR_OP_NUM)
        an_const(an, k, nd->value);
    else if (nd->value == CP_EXPR_VAR_I)
        an_lin(an, k, 1, 1, r_make(0, an->n - 1));
    else if (nd->value == CP_EXPR_VAR_N)
        an_const(an, k, an->n);
    else
        an_const(an, k, an->params[nd->value - CP_EXPR_VAR_PARAM]);
}

/* What node k does when i moves by T (wrap_ok: it may wrap around, the path from the root being
 * of sums with numbers and products with numbers only). */
static void an_node(analysis *an, int k, int wrap_ok)
{
    cp_expr_node nd = cp_expr_tree_node(an->e, k);
    an->order[an->norder++] = k;
    an->nd[k] = nd;
    if (nd.op == CP_EXPR_OP_NUM || nd.op == CP_EXPR_OP_VAR)
        an_leaf(an, k, &nd);
    else if (nd.op == CP_EXPR_OP_LAND || nd.op == CP_EXPR_OP_LOR)
        an_logic(an, k, &nd);
    else if (nd.op == CP_EXPR_OP_COND)
        an_cond(an, k, &nd, wrap_ok);
    else if (nd.op < CP_EXPR_OP_NBIN)
        an_binary(an, k, &nd, wrap_ok);
    else
        an_unary(an, k, &nd, wrap_ok);
}

/* --- the first period -------------------------------------------------------------------- */

/* Evaluates node k at thread i as the evaluator does (lazily, checked), keeping every node's
 * value with the stamp; 0 where C's behaviour is undefined. */
static int an_eval(analysis *an, int k, int64_t i, uint32_t stamp)
{
    if (an->x[k].kind == K_NONE) /* a branch the bounds decided away: not expected here */
        return 0;
    const cp_expr_node nd = an->nd[k];
    int64_t r = 0;
    if (nd.op == CP_EXPR_OP_NUM) {
        r = nd.value;
    } else if (nd.op == CP_EXPR_OP_VAR) {
        r = nd.value == CP_EXPR_VAR_I   ? i
            : nd.value == CP_EXPR_VAR_N ? an->n
                                        : an->params[nd.value - CP_EXPR_VAR_PARAM];
    } else if (nd.op == CP_EXPR_OP_LAND || nd.op == CP_EXPR_OP_LOR) {
        int shortcut = nd.op == CP_EXPR_OP_LOR;
        if (!an_eval(an, nd.a, i, stamp))
            return 0;
        if ((an->val[nd.a] != 0) == shortcut)
            r = shortcut;
        else if (!an_eval(an, nd.b, i, stamp))
            return 0;
        else
            r = an->val[nd.b] != 0;
    } else if (nd.op == CP_EXPR_OP_COND) {
        if (!an_eval(an, nd.a, i, stamp))
            return 0;
        int taken = an->val[nd.a] ? nd.b : nd.c;
        if (!an_eval(an, taken, i, stamp))
            return 0;
        r = an->val[taken];
    } else {
        if (!an_eval(an, nd.a, i, stamp) || (nd.b >= 0 && !an_eval(an, nd.b, i, stamp)))
            return 0;
        if (!cp_expr_tree_apply(nd.op, an->val[nd.a], nd.b >= 0 ? an->val[nd.b] : 0, &r))
            return 0;
    }
    an->val[k] = r;
    an->seen[k] = stamp;
    return 1;
}

/* Node k's range over every thread where it is evaluated (into *out), from its values at the
 * first period's threads that recur `last` - 1 (group 0) and `last` (group 1) times; 0 with the
 * reason when it leaves int64. */
static int an_node_range(analysis *an, int k, wide T, wide last, range *out)
{
    const info *x = &an->x[k];
    range r = x->r;
    if (x->kind != K_WRAP) {
        wide d = T * x->p / x->q;
        r = (range){WIDE_LIMIT, -WIDE_LIMIT};
        for (int g = 0; g < 2; g++) {
            if (!an->vseen[g][k])
                continue;
            wide m = w_mul(last - 1 + g, d);
            r.lo = w_min(r.lo, an->vlo[g][k] + w_min(m, 0));
            r.hi = w_max(r.hi, an->vhi[g][k] + w_max(m, 0));
        }
    }
    *out = r;
    if (r.lo <= r.hi && !r_known(r)) {
        an_fail(an, k, "overflows for some thread");
        return 0;
    }
    return 1;
}

/* Evaluates the first min(T, n) threads and widens each moving node's range by its moves over
 * the periods after (thread j recurs at j + m T for m < its count), the root's into *root_range;
 * 0 with the reason when a thread fails or a node may overflow. */
static int an_ranges(analysis *an, int root, wide T, range *root_range)
{
    /* thread j recurs in the `later` periods after the first: last - 1 or last of them */
    wide first = T < an->n ? T : an->n, last = (an->n - 1) / T, edge = an->n - 1 - last * T;
    for (int o = 0; o < an->norder; o++) {
        int k = an->order[o];
        for (int g = 0; g < 2; g++)
            an->vlo[g][k] = INT64_MAX, an->vhi[g][k] = INT64_MIN, an->vseen[g][k] = 0;
    }
    for (wide j = 0; j < first; j++) {
        uint32_t stamp = (uint32_t)j + 1;
        if (!an_eval(an, root, (int64_t)j, stamp)) {
            snprintf(an->why, sizeof an->why, "thread %lld fails (the walk names how)",
                     (long long)j);
            return 0;
        }
        int g = j <= edge; /* recurs `last` times */
        for (int o = 0; o < an->norder; o++) {
            int k = an->order[o];
            if (an->seen[k] != stamp)
                continue;
            int64_t v = an->val[k];
            an->vlo[g][k] = v < an->vlo[g][k] ? v : an->vlo[g][k];
            an->vhi[g][k] = v > an->vhi[g][k] ? v : an->vhi[g][k];
            an->vseen[g][k] = 1;
        }
    }
    for (int o = 0; o < an->norder; o++) {
        int k = an->order[o];
        range r;
        if (!an_node_range(an, k, T, last, &r))
            return 0;
        if (k == root)
            *root_range = r;
    }
    return 1;
}

/* --- the period -------------------------------------------------------------------------- */

/* The least T of the proof: a multiple of thread_multiple whose move at the root (and window) is
 * a multiple of shift_multiple. */
static int an_period(analysis *an, int root, uint64_t thread_multiple, uint64_t shift_multiple,
                     wide *T)
{
    const info *f = &an->x[root];
    if (f->kind == K_WRAP &&
        (f->base % (int64_t)shift_multiple || f->size % (int64_t)shift_multiple)) {
        an_fail(an, root,
                "wraps around within %lld elements from %lld: not multiples of %llu "
                "elements (128 bytes)",
                (long long)f->size, (long long)f->base, (unsigned long long)shift_multiple);
        return 0;
    }
    if (!an_require(an, root, f->p, f->q, shift_multiple) ||
        !an_require(an, root, 1, 1, thread_multiple))
        return 0;
    *T = an->need;
    return 1;
}

/* One attempt: the tree's rules, the period, the ranges; fills out when they hold. */
static int an_try(analysis *an, uint64_t thread_multiple, uint64_t shift_multiple,
                  cp_expr_period *out)
{
    int root = cp_expr_tree_root(an->e);
    wide T;
    range r = {0, 0};
    an_node(an, root, 1);
    if (an->x[root].kind == K_FAIL || !an_period(an, root, thread_multiple, shift_multiple, &T) ||
        !an_ranges(an, root, T, &r))
        return 0;
    const info *f = &an->x[root];
    wide D = T * f->p / f->q;
    if (f->kind == K_WRAP)
        D = ((D % f->size) + f->size) % f->size;
    if (!w_fits(D)) {
        an_fail(an, root, "moves by more than 64 bits hold");
        return 0;
    }
    *out = (cp_expr_period){.threads = (uint64_t)T,
                            .shift = (int64_t)D,
                            .window_base = f->kind == K_WRAP ? f->base : 0,
                            .window_size = f->kind == K_WRAP ? f->size : 0,
                            .lo = (int64_t)r.lo,
                            .hi = (int64_t)r.hi};
    return 1;
}

/* The rule proved, for -v. */
static void an_describe(cp_expr_period *p)
{
    unsigned long long T = (unsigned long long)p->threads;
    long long D = (long long)p->shift, B = (long long)p->window_base;
    long long W = (long long)p->window_size;
    if (!W)
        snprintf(p->why, sizeof p->why, "f(i + %llu) = f(i) %s %lld", T, D < 0 ? "-" : "+",
                 D < 0 ? -D : D);
    else if (!B)
        snprintf(p->why, sizeof p->why, "f(i + %llu) = (f(i) + %lld) mod %lld", T, D, W);
    else
        snprintf(p->why, sizeof p->why, "f(i + %llu) = %lld + (f(i) - %lld + %lld) mod %lld", T, B,
                 B, D, W);
}

static void an_start(analysis *an, const cp_expr *e, int64_t n, const int64_t *params,
                     uint64_t max_threads, int allow_wrap)
{
    memset(an, 0, sizeof *an);
    an->e = e, an->n = n, an->params = params;
    an->max_threads = max_threads;
    an->allow_wrap = allow_wrap;
    an->need = 1;
}

int cp_expr_period_find(const cp_expr *e, int64_t n, const int64_t *params,
                        uint64_t thread_multiple, uint64_t shift_multiple, uint64_t max_threads,
                        cp_expr_period *out)
{
    memset(out, 0, sizeof *out);
    analysis *an = malloc(sizeof *an);
    if (!e || n <= 0 || !an || !thread_multiple || !shift_multiple) {
        snprintf(out->why, sizeof out->why, "%s", !an ? "out of memory" : "nothing to prove");
        free(an);
        return 0;
    }
    an_start(an, e, n, params, max_threads, 1);
    int found = an_try(an, thread_multiple, shift_multiple, out);
    if (!found && an->wrapped) { /* without wrapping around, a longer period may still do */
        char first[sizeof an->why];
        memcpy(first, an->why, sizeof first);
        an_start(an, e, n, params, max_threads, 0);
        found = an_try(an, thread_multiple, shift_multiple, out);
        if (!found)
            memcpy(an->why, first, sizeof first);
    }
    if (found)
        an_describe(out);
    else
        snprintf(out->why, sizeof out->why, "%s", an->why);
    free(an);
    return found;
}
