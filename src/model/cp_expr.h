/* cp_expr.h: the --index expression language: parsing, checked evaluation, and C for the kernel. */
#ifndef CP_EXPR_H
#define CP_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "base/cp_base.h"

/* clang-format off */
/* The language of `coalprobe expr --index 'EXPR'`. Anything outside this grammar is refused:
 *
 *   expr    := ternary
 *   ternary := or ( '?' expr ':' ternary )?
 *   or      := and ( '||' and )*        and := bitor ( '&&' bitor )*
 *   bitor   := bitxor ( '|' bitxor )*   bitxor := bitand ( '^' bitand )*   bitand := eq ( '&' eq )*
 *   eq      := rel ( ('=='|'!=') rel )* rel := shift ( ('<'|'<='|'>'|'>=') shift )*
 *   shift   := add ( ('<<'|'>>') add )* add := mul ( ('+'|'-') mul )*  mul := unary ( ('*'|'/'|'%') unary )*
 *   unary   := ('-'|'+'|'~'|'!') unary | primary
 *   primary := NUMBER | NAME | '(' expr ')' | FUNC '(' expr (',' expr)* ')'
 *   NUMBER  := decimal digits, or 0x hex digits (no suffixes, no octal: a leading 0 followed by
 *              digits is refused to avoid C's octal surprise)
 *   NAME    := i | n | a user parameter name ([a-z_][a-z0-9_]*, at most 31 chars, not a keyword
 *              or function name)
 *   FUNC    := min(a,b) | max(a,b) | abs(a)
 *
 * Whitespace is allowed anywhere between tokens. Tokens are cut as C cuts them (longest first),
 * so "--" and "++" are refused rather than read as two signs (C would read a decrement): write
 * "- -i". At most CP_EXPR_MAX_TEXT characters, CP_EXPR_MAX_NODES AST nodes (numbers, names and
 * operators) and nesting depth CP_EXPR_MAX_DEPTH (parentheses, function calls, unary operators
 * and ternary branches); beyond, the expression is refused with the position (a byte offset,
 * from 0).
 *
 * Semantics: 64-bit signed integers (int64_t), C semantics for every operator: / and % truncate
 * toward zero, comparisons and logical operators give 0 or 1, && || ?: evaluate lazily, >> of a
 * negative value is arithmetic. Evaluation is checked: whatever is undefined behaviour in C is an
 * error, reported with the byte offset of the operator and the values involved: signed overflow
 * of + - * unary - and abs(INT64_MIN), / or % by zero, INT64_MIN / -1 and INT64_MIN % -1, shift
 * counts below 0 or above 63, left shift of a negative value or one that overflows. A number
 * above INT64_MAX is refused when parsed (write -9223372036854775807 - 1 for INT64_MIN). */
/* clang-format on */

#define CP_EXPR_MAX_PARAMS 8
#define CP_EXPR_MAX_TEXT 1024
#define CP_EXPR_MAX_NODES 256
#define CP_EXPR_MAX_DEPTH 64
#define CP_EXPR_MAX_NAME 31

typedef struct cp_expr cp_expr;

/* Checks that name may be a user parameter: [a-z_][a-z0-9_]*, at most CP_EXPR_MAX_NAME
 * characters, not i, n, min, max, abs or a C/C++/CUDA keyword. CP_EXIT_USAGE naming --param
 * otherwise. */
int cp_expr_check_param_name(const char *name, cp_status *st);

/* Parses text. Names allowed in it are i, n and param_names[0..nparams-1] (nparams at most
 * CP_EXPR_MAX_PARAMS, each valid for cp_expr_check_param_name, no two equal). On error returns
 * CP_EXIT_USAGE with a message naming --index and the position (byte offset, from 0), e.g.
 * "--index: unexpected ')' at position 18 ...", and a hint of two lines: the expression (a
 * window of it when long) and a caret under the position; *out is then NULL. */
int cp_expr_parse(const char *text, const char *const *param_names, size_t nparams, cp_expr **out,
                  cp_status *st);

/* Evaluates e for thread i of n, params holding the values of the parameters in the order given
 * to cp_expr_parse (NULL when there are none). On undefined behaviour returns CP_EXIT_USAGE with
 * the position, the operands and the variables, e.g. "--index: division by zero at position 12:
 * 5 / 0 (i = 5, n = 1024)", and the caret hint; *value is then untouched. Allocates nothing and
 * touches st only on error. */
int cp_expr_eval(const cp_expr *e, int64_t i, int64_t n, const int64_t *params, int64_t *value,
                 cp_status *st);

/* The value of e for thread i of n, for an expression already checked over every thread (the
 * model's validation): 0 if evaluation fails after all. */
int64_t cp_expr_value(const cp_expr *e, int64_t i, int64_t n, const int64_t *params);

/* Writes e as a C expression for a CUDA kernel into buf (len bytes, NUL-terminated): fully
 * parenthesised, every literal a long long literal ("(1024LL)"), every comparison and logical
 * result cast to long long, i and n replaced by i_name and n_name, parameter k by param_fmt with
 * its single "%zu" replaced by k (e.g. "cp_p[%zu]"), and min, max, abs by calls to func_prefix
 * followed by the name (func_prefix "cp_" gives "cp_min(a, b)"); these names must denote long long
 * values and helpers. No user text reaches the compiler. Returns CP_EXIT_RUNTIME, saying how many
 * bytes are needed, when buf is too small or param_fmt is not one "%zu" and no other '%'. */
int cp_expr_to_c(const cp_expr *e, const char *i_name, const char *n_name, const char *param_fmt,
                 const char *func_prefix, char *buf, size_t len, cp_status *st);

/* The canonical text of e for reports: one space around binary operators and ?:, none after
 * unary operators, "min(a, b)", the user's parentheses kept (one pair where several were
 * nested), numbers in the base written (hex as 0x and lower-case digits, no leading zeros).
 * Parsing it gives the same expression. */
const char *cp_expr_text(const cp_expr *e);

/* Records in st the hint of two lines that the errors of this module give: the expression as
 * written (a window of it when long) and a caret under byte offset pos. */
void cp_expr_hint_at(const cp_expr *e, size_t pos, cp_status *st);

/* The name of parameter k of e (NULL when k is out of range). */
const char *cp_expr_param_name(const cp_expr *e, size_t k);

/* Frees e (NULL is fine). */
void cp_expr_free(cp_expr *e);

#endif
