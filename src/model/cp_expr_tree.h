/* cp_expr_tree.h: the tree of a parsed --index expression and its operators, for the analyses of
 * an expression (cp_expr_period.c) beside the parser and evaluator of cp_expr.c. */
#ifndef CP_EXPR_TREE_H
#define CP_EXPR_TREE_H

#include <stdint.h>

#include "cp_expr.h"

/* Eager binary operators, in the order of their stack-machine opcodes: X(NAME, C spelling). */
#define CP_EXPR_BINOPS(X)                                                                          \
    X(ADD, "+")                                                                                    \
    X(SUB, "-")                                                                                    \
    X(MUL, "*")                                                                                    \
    X(DIV, "/")                                                                                    \
    X(MOD, "%")                                                                                    \
    X(SHL, "<<")                                                                                   \
    X(SHR, ">>")                                                                                   \
    X(LT, "<")                                                                                     \
    X(LE, "<=")                                                                                    \
    X(GT, ">")                                                                                     \
    X(GE, ">=")                                                                                    \
    X(EQ, "==")                                                                                    \
    X(NE, "!=")                                                                                    \
    X(BAND, "&")                                                                                   \
    X(BXOR, "^")                                                                                   \
    X(BOR, "|")                                                                                    \
    X(MIN, "min")                                                                                  \
    X(MAX, "max")

/* A node's operator: the eager binary ones, then the lazy ones, the unary ones and the leaves. */
#define CP_EXPR_ENUM_OP(name, sym) CP_EXPR_OP_##name,
enum {
    CP_EXPR_BINOPS(CP_EXPR_ENUM_OP) CP_EXPR_OP_NBIN, /* count of eager binary operators */
    CP_EXPR_OP_LAND = CP_EXPR_OP_NBIN,
    CP_EXPR_OP_LOR,
    CP_EXPR_OP_NEG,
    CP_EXPR_OP_PLUS,
    CP_EXPR_OP_BNOT,
    CP_EXPR_OP_NOT,
    CP_EXPR_OP_ABS,
    CP_EXPR_OP_COND,
    CP_EXPR_OP_NUM,
    CP_EXPR_OP_VAR,
};
#undef CP_EXPR_ENUM_OP

/* The leaves CP_EXPR_OP_VAR name, in value: */
#define CP_EXPR_VAR_I 0     /* the thread */
#define CP_EXPR_VAR_N 1     /* the elements */
#define CP_EXPR_VAR_PARAM 2 /* and 2 + k: parameter k */

/* One node of the tree: operator, operands (node numbers, -1 when absent: a the left or only
 * one, b the right, c the ternary's else), value (CP_EXPR_OP_NUM: the number; CP_EXPR_OP_VAR:
 * CP_EXPR_VAR_*) and the byte offset of its operator, name or number in the text. */
typedef struct cp_expr_node {
    int op;
    int a, b, c;
    int64_t value;
    unsigned pos;
} cp_expr_node;

/* The number of the root node (nodes are numbered 0 .. CP_EXPR_MAX_NODES - 1). */
int cp_expr_tree_root(const cp_expr *e);

/* Node k of e. */
cp_expr_node cp_expr_tree_node(const cp_expr *e, int k);

/* Applies an eager binary operator (b is ignored for a unary one) with C's semantics, as the
 * evaluator does: 1 with *r set, or 0 where C's behaviour is undefined (*r untouched). */
int cp_expr_tree_apply(int op, int64_t a, int64_t b, int64_t *r);

/* How an operator is written: "+", "min", "&&", "?:", "-" (unary minus), "abs". */
const char *cp_expr_tree_spelling(int op);

#endif
