/* cp_expr_period.h: a period of a user's index expression proved from its tree, so that the model
 * counts one period of warps instead of every thread (docs/model.md, "A period of a user's
 * expression"). */
#ifndef CP_EXPR_PERIOD_H
#define CP_EXPR_PERIOD_H

#include <stdint.h>

#include "cp_expr.h"

/* What cp_expr_period_find proves of f(i), the expression at thread i of the threads 0..n-1:
 *   window_size 0: f(i + T) = f(i) + D for every thread i with i + T < n;
 *   window_size W: every f(i) lies in [B, B + W) and f(i + T) = B + (f(i) - B + D) mod W
 *                  (0 <= D < W): it wraps around within the window;
 * and the expression is defined (no undefined behaviour) for every thread, with every f(i) in
 * [lo, hi]. */
typedef struct cp_expr_period {
    uint64_t threads;    /* T; 0 when no period was proved */
    int64_t shift;       /* D */
    int64_t window_base; /* B */
    int64_t window_size; /* W, 0 when f does not wrap around */
    int64_t lo, hi;
    char why[224]; /* the rule proved ("f(i + 1024) = f(i) + 1024"), or why there is none */
} cp_expr_period;

/* Looks for such a period of e over the threads 0..n-1 (params: its parameters' values) with T a
 * multiple of thread_multiple and at most max_threads, and D, B and W multiples of
 * shift_multiple; T is the least multiple the proof needs. The proof follows the tree: i moves
 * by T, a sum by the sum of its operands' moves, a product with a number by that multiple, a
 * quotient or remainder by a number d, a shift or a mask of k bits when its operand moves by a
 * multiple of d or 2^k (and keeps its sign), comparisons, min, max, conditions and operators of
 * operands that do not move when the outcome is the same at i and i + T; a remainder at the top
 * (beside added and multiplied numbers) may wrap around. Every operand's range, bounded from the
 * tree and then exactly from its values at the first min(T, n) threads (evaluated as C does,
 * lazily), shows that no thread overflows. Returns 1 when proved, 0 with out->threads 0 and
 * out->why naming the operator and position that stopped it (or the first thread that fails). */
int cp_expr_period_find(const cp_expr *e, int64_t n, const int64_t *params,
                        uint64_t thread_multiple, uint64_t shift_multiple, uint64_t max_threads,
                        cp_expr_period *out);

#endif
