/* cp_expr.c: the --index language: parser, checked stack machine, canonical text, C for NVRTC.
 * One file over 1,500 lines: the parser, the checker and the emitters share the node
 * representation and its invariants, private to it; the period analysis is cp_expr_period.c. */
#include "cp_expr.h"
#include "cp_expr_tree.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTION "--index"

/* Longest token quoted in a message. */
#define TOK_QUOTE_MAX 40
/* Widest window of the expression shown above the caret. */
#define HINT_WINDOW 100

/* --- operators --------------------------------------------------------------------------- */

#define CP_EXPR_SPELL_OP(name, sym) sym,
static const char *const binop_spelling[CP_EXPR_OP_NBIN] = {CP_EXPR_BINOPS(CP_EXPR_SPELL_OP)};
#undef CP_EXPR_SPELL_OP

/* Errors of checked evaluation (C's undefined behaviour). */
enum { E_NONE = 0, E_OVERFLOW, E_DIVZERO, E_SHIFT_NEG, E_SHIFT_BIG, E_SHL_NEG };

/* Checked + - *: 1 on overflow. The builtins where the compiler has them (define
 * CP_EXPR_PORTABLE_OVERFLOW to test the portable versions). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(CP_EXPR_PORTABLE_OVERFLOW)
#define CP_EXPR_BUILTIN_OVERFLOW 1
#endif

#ifdef CP_EXPR_BUILTIN_OVERFLOW
static inline int add_ovf(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_add_overflow(a, b, r);
}
static inline int sub_ovf(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_sub_overflow(a, b, r);
}
static inline int mul_ovf(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}
#else
static inline int add_ovf(int64_t a, int64_t b, int64_t *r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 1;
    *r = a + b;
    return 0;
}

static inline int sub_ovf(int64_t a, int64_t b, int64_t *r)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return 1;
    *r = a - b;
    return 0;
}

static inline int mul_ovf(int64_t a, int64_t b, int64_t *r)
{
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
              : (b > 0 ? a < INT64_MIN / b : (a != 0 && b < INT64_MAX / a)))
        return 1;
    *r = a * b;
    return 0;
}
#endif

/* A shift count's undefined behaviour: E_SHIFT_NEG, E_SHIFT_BIG, or E_NONE for 0..63. */
static inline int shift_count_error(int64_t b)
{
    return b < 0 ? E_SHIFT_NEG : b > 63 ? E_SHIFT_BIG : E_NONE;
}

/* Applies an eager binary operator with C's semantics; E_NONE, or the undefined behaviour. */
static inline int bin_apply(int op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case CP_EXPR_OP_ADD:
        return add_ovf(a, b, r) ? E_OVERFLOW : E_NONE;
    case CP_EXPR_OP_SUB:
        return sub_ovf(a, b, r) ? E_OVERFLOW : E_NONE;
    case CP_EXPR_OP_MUL:
        return mul_ovf(a, b, r) ? E_OVERFLOW : E_NONE;
    case CP_EXPR_OP_DIV:
    case CP_EXPR_OP_MOD:
        if (b == 0)
            return E_DIVZERO;
        if (b == -1 && a == INT64_MIN)
            return E_OVERFLOW;
        *r = op == CP_EXPR_OP_DIV ? a / b : a % b;
        return E_NONE;
    case CP_EXPR_OP_SHL:
        if (shift_count_error(b) != E_NONE)
            return shift_count_error(b);
        if (a < 0)
            return E_SHL_NEG;
        if (a > (INT64_MAX >> b))
            return E_OVERFLOW;
        *r = (int64_t)((uint64_t)a << b);
        return E_NONE;
    case CP_EXPR_OP_SHR:
        if (shift_count_error(b) != E_NONE)
            return shift_count_error(b);
        /* arithmetic, without relying on implementation-defined >> of a negative value */
        *r = a >= 0 ? a >> b : ~(~a >> b);
        return E_NONE;
    case CP_EXPR_OP_LT:
        *r = a < b;
        break;
    case CP_EXPR_OP_LE:
        *r = a <= b;
        break;
    case CP_EXPR_OP_GT:
        *r = a > b;
        break;
    case CP_EXPR_OP_GE:
        *r = a >= b;
        break;
    case CP_EXPR_OP_EQ:
        *r = a == b;
        break;
    case CP_EXPR_OP_NE:
        *r = a != b;
        break;
    case CP_EXPR_OP_BAND:
        *r = a & b;
        break;
    case CP_EXPR_OP_BXOR:
        *r = a ^ b;
        break;
    case CP_EXPR_OP_BOR:
        *r = a | b;
        break;
    case CP_EXPR_OP_MIN:
        *r = a < b ? a : b;
        break;
    default: /* CP_EXPR_OP_MAX */
        *r = a > b ? a : b;
        break;
    }
    return E_NONE; /* the operators that cannot go wrong */
}

/* Applies a unary operator (CP_EXPR_OP_NEG, CP_EXPR_OP_PLUS, CP_EXPR_OP_BNOT, CP_EXPR_OP_NOT,
 * CP_EXPR_OP_ABS). */
static inline int un_apply(int op, int64_t a, int64_t *r)
{
    switch (op) {
    case CP_EXPR_OP_NEG:
        if (a == INT64_MIN)
            return E_OVERFLOW;
        *r = -a;
        return E_NONE;
    case CP_EXPR_OP_ABS:
        if (a == INT64_MIN)
            return E_OVERFLOW;
        *r = a < 0 ? -a : a;
        return E_NONE;
    case CP_EXPR_OP_BNOT:
        *r = ~a;
        return E_NONE;
    case CP_EXPR_OP_NOT:
        *r = !a;
        return E_NONE;
    default: /* CP_EXPR_OP_PLUS */
        *r = a;
        return E_NONE;
    }
}

/* --- the expression ---------------------------------------------------------------------- */

/* An AST node; children are node indices (-1 when absent). */
typedef struct node {
    uint8_t op;
    uint8_t paren; /* the user wrapped it in parentheses */
    uint8_t hex;   /* CP_EXPR_OP_NUM written in hex */
    uint16_t pos;  /* byte offset of the operator, function name, number or name */
    int16_t a, b, c;
    int64_t value; /* CP_EXPR_OP_NUM: the number; CP_EXPR_OP_VAR: 0 i, 1 n, 2 + k parameter k */
} node;

/* Stack-machine opcodes: NK per eager binary operator (right operand popped from the stack, i or
 * n, a parameter, a constant), then the others. */
enum { KS = 0, KV = 1, KP = 2, KK = 3, NK = 4 };
enum {
    I_PUSHK = NK * CP_EXPR_OP_NBIN, /* push imm */
    I_PUSHV,                        /* push imm ? n : i */
    I_PUSHP,                        /* push params[imm] */
    I_NEG,
    I_BNOT,
    I_NOT,
    I_ABS,
    I_BOOL,  /* top = top != 0 */
    I_DIVP2, /* top = top / 2^imm, imm >= 1 */
    I_MODP2, /* top = top % (imm + 1), imm + 1 a power of two */
    I_ANDJ,  /* top == 0: jump (top stays 0); else pop */
    I_ORJ,   /* top != 0: top = 1, jump; else pop */
    I_JZPOP, /* pop; jump when it was 0 */
    I_JMP,
    I_END,
};

typedef struct insn {
    uint8_t op;
    uint16_t pos;   /* the source position reported on error */
    int32_t target; /* jumps */
    int64_t imm;
} insn;

#define MAX_CODE (2 * CP_EXPR_MAX_NODES + 1)
#define NVARS (2 + CP_EXPR_MAX_PARAMS)

struct cp_expr {
    size_t nparams;
    char names[NVARS][CP_EXPR_MAX_NAME + 1]; /* i, n, the parameters */
    int nnodes;
    int root;
    node nodes[CP_EXPR_MAX_NODES];
    int ncode;
    insn code[MAX_CODE];
    char *src;  /* the text as given, for the caret of evaluation errors */
    size_t len; /* its length */
    char *text; /* canonical text */
};

/* --- messages ---------------------------------------------------------------------------- */

/* Records the hint: the expression (or a window of it) and a caret under pos. */
static void caret_hint(cp_status *st, const char *src, size_t len, size_t pos)
{
    if (!st)
        return;
    size_t start = 0, end = len;
    if (len > HINT_WINDOW) {
        start = pos > HINT_WINDOW / 2 ? pos - HINT_WINDOW / 2 : 0;
        end = start + HINT_WINDOW;
        if (end > len) {
            end = len;
            start = len - HINT_WINDOW;
        }
    }
    char line[HINT_WINDOW + 8], caret[HINT_WINDOW + 8];
    size_t k = 0;
    if (start > 0) {
        memcpy(line, "...", 3);
        k = 3;
    }
    size_t col = k + (pos - start);
    for (size_t j = start; j < end; j++) {
        unsigned char ch = (unsigned char)src[j];
        line[k++] = ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f' ? ' '
                    : ch < 0x20 || ch > 0x7e                                           ? '?'
                                                                                       : (char)ch;
    }
    if (end < len) {
        memcpy(line + k, "...", 3);
        k += 3;
    }
    line[k] = '\0';
    memset(caret, ' ', col);
    caret[col] = '^';
    caret[col + 1] = '\0';
    cp_status_hint(st, "%s\n%s", line, caret);
}

/* --- lexer ------------------------------------------------------------------------------- */

enum {
    T_END,
    T_NUM,
    T_NAME,
    T_LP,
    T_RP,
    T_COMMA,
    T_Q,
    T_COLON,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_PCT,
    T_SHL,
    T_SHR,
    T_LT,
    T_LE,
    T_GT,
    T_GE,
    T_EQ,
    T_NE,
    T_AMP,
    T_CARET,
    T_BAR,
    T_LAND,
    T_LOR,
    T_BANG,
    T_TILDE,
};

typedef struct token {
    int type;
    size_t pos, end; /* src[pos..end) */
    int64_t value;   /* T_NUM */
    int hex;         /* T_NUM */
} token;

typedef struct parser {
    const char *src;
    size_t len;
    size_t at; /* next byte to lex */
    token tok; /* current token */
    int depth;
    cp_expr *e;
    cp_status *st;
} parser;

/* Records a parse error at pos: "--index: " + the formatted text, and the caret hint. */
static int perr(parser *p, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int perr(parser *p, size_t pos, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cp_status_set(p->st, CP_EXIT_USAGE, "%s: %s", OPTION, what);
    caret_hint(p->st, p->src, p->len, pos);
    return CP_EXIT_USAGE;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || is_digit(c);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Length of a quoted token as an int for "%.*s", clamped. */
static int quote_len(size_t n)
{
    return n > TOK_QUOTE_MAX ? TOK_QUOTE_MAX : (int)n;
}

/* Lexes a number at p->at (a digit there). */
static int lex_number(parser *p, token *t)
{
    const char *s = p->src;
    size_t start = p->at, k = start;
    uint64_t v = 0;
    int too_large = 0;
    t->hex = 0;
    if (s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X')) {
        k += 2;
        size_t digits = k;
        while (hex_digit(s[k]) >= 0) {
            if (v > (uint64_t)INT64_MAX >> 4)
                too_large = 1;
            v = (v << 4) | (uint64_t)hex_digit(s[k]);
            k++;
        }
        size_t tail = k;
        while (is_name_char(s[tail]) || s[tail] == '.')
            tail++;
        if (s[start + 1] == 'X')
            return perr(p, start, "'%.*s' at position %zu: write hexadecimal numbers with 0x",
                        quote_len(tail - start), s + start, start);
        if (k == digits || tail != k)
            return perr(p, start, "bad hexadecimal number '%.*s' at position %zu",
                        quote_len(tail - start), s + start, start);
        t->hex = 1;
    } else {
        while (is_digit(s[k])) {
            unsigned d = (unsigned)(s[k] - '0');
            if (v > ((uint64_t)INT64_MAX - d) / 10)
                too_large = 1;
            else
                v = v * 10 + d;
            k++;
        }
        size_t tail = k;
        while (is_name_char(s[tail]) || s[tail] == '.')
            tail++;
        if (tail != k) {
            int dot = memchr(s + start, '.', tail - start) != NULL;
            return perr(p, start, "bad number '%.*s' at position %zu (%s)", quote_len(tail - start),
                        s + start, start, dot ? "numbers are integers" : "digits only, no suffix");
        }
        if (s[start] == '0' && k - start > 1)
            return perr(p, start,
                        "number '%.*s' at position %zu starts with 0 (C would read it as octal); "
                        "write it without the leading 0, or in hex as 0x...",
                        quote_len(k - start), s + start, start);
    }
    if (too_large || v > (uint64_t)INT64_MAX)
        return perr(p, start, "number '%.*s' at position %zu is too large (at most %" PRId64 ")",
                    quote_len(k - start), s + start, start, INT64_MAX);
    t->value = (int64_t)v;
    t->type = T_NUM;
    t->end = k;
    p->at = k;
    return CP_EXIT_OK;
}

/* The operators and punctuation, by their spelling; two-character ones are tried first. */
static const struct {
    char spelling[3];
    int type;
} cp_expr_operators[] = {
    {"<<", T_SHL},  {"<=", T_LE},   {">>", T_SHR},  {">=", T_GE},   {"==", T_EQ},
    {"!=", T_NE},   {"&&", T_LAND}, {"||", T_LOR},  {"(", T_LP},    {")", T_RP},
    {",", T_COMMA}, {"?", T_Q},     {":", T_COLON}, {"+", T_PLUS},  {"-", T_MINUS},
    {"*", T_STAR},  {"/", T_SLASH}, {"%", T_PCT},   {"~", T_TILDE}, {"^", T_CARET},
    {"<", T_LT},    {">", T_GT},    {"!", T_BANG},  {"&", T_AMP},   {"|", T_BAR},
};

/* Lexes the operator or punctuation c (d: the next byte) into t; refuses anything else. */
static int cp_expr_lex_operator(parser *p, token *t, char c, char d)
{
    if ((c == '+' || c == '-') && d == c)
        return perr(p, p->at,
                    "'%c%c' at position %zu is not an operator (C would read it as %s); put a "
                    "space between the signs",
                    c, c, p->at, c == '+' ? "an increment" : "a decrement");
    for (size_t k = 0; k < CP_COUNT_OF(cp_expr_operators); k++) {
        const char *op = cp_expr_operators[k].spelling;
        if (op[0] == c && (!op[1] || op[1] == d)) {
            /* "<<=" and the like: the '=' is refused by the next call */
            t->type = cp_expr_operators[k].type;
            t->end = p->at + (op[1] ? 2 : 1);
            p->at = t->end;
            return CP_EXIT_OK;
        }
    }
    unsigned char u = (unsigned char)c;
    if (c == '=')
        return perr(p, p->at, "unexpected '=' at position %zu (no assignment; '==' compares)",
                    p->at);
    if (u >= 0x21 && u <= 0x7e)
        return perr(p, p->at, "unexpected character '%c' at position %zu", c, p->at);
    return perr(p, p->at, "unexpected byte 0x%02x at position %zu", u, p->at);
}

/* Lexes the next token into p->tok. */
static int lex(parser *p)
{
    const char *s = p->src;
    while (p->at < p->len && is_space(s[p->at]))
        p->at++;
    token *t = &p->tok;
    t->pos = p->at;
    if (p->at >= p->len) {
        t->type = T_END;
        t->end = p->at;
        return CP_EXIT_OK;
    }
    char c = s[p->at], d = s[p->at + 1]; /* s[len] is the terminator */
    if (is_digit(c))
        return lex_number(p, t);
    if (is_name_start(c)) {
        size_t k = p->at;
        while (is_name_char(s[k]))
            k++;
        t->type = T_NAME;
        t->end = k;
        p->at = k;
        return CP_EXIT_OK;
    }
    return cp_expr_lex_operator(p, t, c, d);
}

/* Refuses the current token: "unexpected 'X' at position P (expected ...)". */
static int unexpected(parser *p, const char *expected)
{
    const token *t = &p->tok;
    if (t->type == T_END)
        return perr(p, t->pos, "unexpected end of the expression at position %zu (expected %s)",
                    t->pos, expected);
    return perr(p, t->pos, "unexpected '%.*s' at position %zu (expected %s)",
                quote_len(t->end - t->pos), p->src + t->pos, t->pos, expected);
}

/* --- parser ------------------------------------------------------------------------------ */

static int new_node(parser *p, int op, size_t pos, int a, int b, int c, int *out)
{
    cp_expr *e = p->e;
    if (e->nnodes >= CP_EXPR_MAX_NODES)
        return perr(p, pos,
                    "the expression has more than %d numbers, names and operators (at position "
                    "%zu)",
                    CP_EXPR_MAX_NODES, pos);
    node *nd = &e->nodes[e->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->op = (uint8_t)op;
    nd->pos = (uint16_t)pos;
    nd->a = (int16_t)a;
    nd->b = (int16_t)b;
    nd->c = (int16_t)c;
    *out = e->nnodes++;
    return CP_EXIT_OK;
}

static int enter(parser *p, size_t pos)
{
    if (++p->depth > CP_EXPR_MAX_DEPTH)
        return perr(p, pos, "the expression nests deeper than %d at position %zu",
                    CP_EXPR_MAX_DEPTH, pos);
    return CP_EXIT_OK;
}

static int parse_expr(parser *p, int *out);

/* The names allowed, "i, n, a, b", for messages. */
static void names_list(const cp_expr *e, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < 2 + e->nparams; j++) {
        int w = snprintf(buf + k, len - k, "%s%s", j ? ", " : "", e->names[j]);
        if (w < 0 || (size_t)w >= len - k)
            return;
        k += (size_t)w;
    }
}

static int tok_is(const parser *p, const char *word)
{
    size_t n = p->tok.end - p->tok.pos;
    return strlen(word) == n && memcmp(p->src + p->tok.pos, word, n) == 0;
}

/* FUNC '(' expr (',' expr)* ')', the current token being the name. */
static int parse_call(parser *p, int op, int nargs, int *out)
{
    size_t pos = p->tok.pos;
    const char *fname = op == CP_EXPR_OP_ABS ? "abs" : op == CP_EXPR_OP_MIN ? "min" : "max";
    const char *usage = op == CP_EXPR_OP_ABS   ? "abs(a)"
                        : op == CP_EXPR_OP_MIN ? "min(a, b)"
                                               : "max(a, b)";
    CP_TRY(lex(p));
    if (p->tok.type != T_LP)
        return perr(p, pos, "'%s' at position %zu is a function: write %s", fname, pos, usage);
    size_t lp = p->tok.pos;
    CP_TRY(enter(p, lp));
    CP_TRY(lex(p));
    int args[2] = {-1, -1}, got = 0;
    if (p->tok.type != T_RP) {
        for (;;) {
            int a;
            CP_TRY(parse_expr(p, &a));
            if (got < 2)
                args[got] = a;
            got++;
            if (p->tok.type == T_COMMA) {
                CP_TRY(lex(p));
                continue;
            }
            if (p->tok.type == T_RP)
                break;
            if (p->tok.type == T_END)
                return perr(p, p->tok.pos,
                            "missing ')' at position %zu to close '%s(' at position %zu",
                            p->tok.pos, fname, pos);
            return unexpected(p, "',' or ')'");
        }
    }
    if (got != nargs)
        return perr(p, pos, "%s takes %d argument%s, not %d, at position %zu: write %s", fname,
                    nargs, nargs == 1 ? "" : "s", got, pos, usage);
    p->depth--;
    CP_TRY(lex(p));
    return new_node(p, op, pos, args[0], args[1], -1, out);
}

static int parse_primary(parser *p, int *out)
{
    token t = p->tok;
    cp_expr *e = p->e;
    switch (t.type) {
    case T_NUM:
        CP_TRY(new_node(p, CP_EXPR_OP_NUM, t.pos, -1, -1, -1, out));
        e->nodes[*out].value = t.value;
        e->nodes[*out].hex = (uint8_t)t.hex;
        return lex(p);
    case T_NAME: {
        if (tok_is(p, "min"))
            return parse_call(p, CP_EXPR_OP_MIN, 2, out);
        if (tok_is(p, "max"))
            return parse_call(p, CP_EXPR_OP_MAX, 2, out);
        if (tok_is(p, "abs"))
            return parse_call(p, CP_EXPR_OP_ABS, 1, out);
        for (size_t j = 0; j < 2 + e->nparams; j++)
            if (tok_is(p, e->names[j])) {
                CP_TRY(new_node(p, CP_EXPR_OP_VAR, t.pos, -1, -1, -1, out));
                e->nodes[*out].value = (int64_t)j;
                return lex(p);
            }
        char names[NVARS * (CP_EXPR_MAX_NAME + 2)];
        names_list(e, names, sizeof names);
        return perr(p, t.pos, "unknown name '%.*s' at position %zu (names: %s)",
                    quote_len(t.end - t.pos), p->src + t.pos, t.pos, names);
    }
    case T_LP: {
        CP_TRY(enter(p, t.pos));
        CP_TRY(lex(p));
        CP_TRY(parse_expr(p, out));
        if (p->tok.type == T_END)
            return perr(p, p->tok.pos, "missing ')' at position %zu to close '(' at position %zu",
                        p->tok.pos, t.pos);
        if (p->tok.type != T_RP)
            return unexpected(p, "an operator or ')'");
        e->nodes[*out].paren = 1;
        p->depth--;
        return lex(p);
    }
    default:
        return unexpected(p, "a number, a name, '(' or a unary operator");
    }
}

static int parse_unary(parser *p, int *out)
{
    int op;
    switch (p->tok.type) {
    case T_MINUS:
        op = CP_EXPR_OP_NEG;
        break;
    case T_PLUS:
        op = CP_EXPR_OP_PLUS;
        break;
    case T_TILDE:
        op = CP_EXPR_OP_BNOT;
        break;
    case T_BANG:
        op = CP_EXPR_OP_NOT;
        break;
    default:
        return parse_primary(p, out);
    }
    size_t pos = p->tok.pos;
    int a;
    CP_TRY(enter(p, pos));
    CP_TRY(lex(p));
    CP_TRY(parse_unary(p, &a));
    p->depth--;
    return new_node(p, op, pos, a, -1, -1, out);
}

/* Binary levels, loosest first: || && | ^ & (== !=) (< <= > >=) (<< >>) (+ -) (* / %). */
#define NLEVELS 10

/* The level and operator of a binary-operator token, or -1. */
static int binop_of(int type, int *op)
{
    switch (type) {
    case T_LOR:
        *op = CP_EXPR_OP_LOR;
        return 0;
    case T_LAND:
        *op = CP_EXPR_OP_LAND;
        return 1;
    case T_BAR:
        *op = CP_EXPR_OP_BOR;
        return 2;
    case T_CARET:
        *op = CP_EXPR_OP_BXOR;
        return 3;
    case T_AMP:
        *op = CP_EXPR_OP_BAND;
        return 4;
    case T_EQ:
        *op = CP_EXPR_OP_EQ;
        return 5;
    case T_NE:
        *op = CP_EXPR_OP_NE;
        return 5;
    case T_LT:
        *op = CP_EXPR_OP_LT;
        return 6;
    case T_LE:
        *op = CP_EXPR_OP_LE;
        return 6;
    case T_GT:
        *op = CP_EXPR_OP_GT;
        return 6;
    case T_GE:
        *op = CP_EXPR_OP_GE;
        return 6;
    case T_SHL:
        *op = CP_EXPR_OP_SHL;
        return 7;
    case T_SHR:
        *op = CP_EXPR_OP_SHR;
        return 7;
    case T_PLUS:
        *op = CP_EXPR_OP_ADD;
        return 8;
    case T_MINUS:
        *op = CP_EXPR_OP_SUB;
        return 8;
    case T_STAR:
        *op = CP_EXPR_OP_MUL;
        return 9;
    case T_SLASH:
        *op = CP_EXPR_OP_DIV;
        return 9;
    case T_PCT:
        *op = CP_EXPR_OP_MOD;
        return 9;
    default:
        return -1;
    }
}

static int parse_level(parser *p, int level, int *out)
{
    if (level == NLEVELS)
        return parse_unary(p, out);
    int left, op = 0;
    CP_TRY(parse_level(p, level + 1, &left));
    while (binop_of(p->tok.type, &op) == level) {
        size_t pos = p->tok.pos;
        int right;
        CP_TRY(lex(p));
        CP_TRY(parse_level(p, level + 1, &right));
        CP_TRY(new_node(p, op, pos, left, right, -1, &left));
    }
    *out = left;
    return CP_EXIT_OK;
}

/* ternary := or ( '?' expr ':' ternary )? */
static int parse_expr(parser *p, int *out)
{
    int cond;
    CP_TRY(parse_level(p, 0, &cond));
    if (p->tok.type != T_Q) {
        *out = cond;
        return CP_EXIT_OK;
    }
    size_t q = p->tok.pos;
    int yes, no;
    CP_TRY(enter(p, q));
    CP_TRY(lex(p));
    CP_TRY(parse_expr(p, &yes));
    if (p->tok.type != T_COLON) {
        if (p->tok.type == T_END)
            return perr(p, p->tok.pos, "missing ':' at position %zu for the '?' at position %zu",
                        p->tok.pos, q);
        return unexpected(p, "an operator or ':'");
    }
    CP_TRY(lex(p));
    CP_TRY(parse_expr(p, &no)); /* parses or ( '?' ... )?, the ternary of the grammar */
    p->depth--;
    return new_node(p, CP_EXPR_OP_COND, q, cond, yes, no, out);
}

/* --- parameter names --------------------------------------------------------------------- */

static const char *const reserved_words[] = {
    /* the language */
    "i", "n", "min", "max", "abs",
    /* C11 */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while",
    /* C++ (CUDA is C++) */
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t",
    "char16_t", "char32_t", "class", "compl", "concept", "const_cast", "consteval", "constexpr",
    "constinit", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept", "not",
    "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
    "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t",
    "xor", "xor_eq"};

#define NAME_RULE                                                                                  \
    "a parameter name is [a-z_][a-z0-9_]*, at most 31 characters, not i, n, min, max, abs or a "   \
    "C/C++ keyword"

int cp_expr_check_param_name(const char *name, cp_status *st)
{
    size_t len = 0;
    int ok = name && ((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
    if (ok) {
        for (; name[len] && len <= CP_EXPR_MAX_NAME; len++) {
            char c = name[len];
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
                ok = 0;
        }
        if (len > CP_EXPR_MAX_NAME)
            ok = 0;
    }
    if (ok)
        for (size_t j = 0; j < CP_COUNT_OF(reserved_words); j++)
            if (strcmp(name, reserved_words[j]) == 0) {
                cp_status_set(st, CP_EXIT_USAGE, "--param: '%s' is reserved, not a parameter name",
                              name);
                cp_status_hint(st, "%s", NAME_RULE);
                return CP_EXIT_USAGE;
            }
    if (!ok) {
        cp_status_set(st, CP_EXIT_USAGE, "--param: '%.*s' is not a parameter name",
                      name ? quote_len(strlen(name)) : 0, name ? name : "");
        cp_status_hint(st, "%s", NAME_RULE);
        return CP_EXIT_USAGE;
    }
    return CP_EXIT_OK;
}

/* --- text output ------------------------------------------------------------------------- */

/* Appends to a buffer, counting what does not fit. */
typedef struct writer {
    char *buf;
    size_t cap;
    size_t len;
} writer;

static void put_n(writer *w, const char *s, size_t n)
{
    if (w->len < w->cap) {
        size_t room = w->cap - w->len;
        memcpy(w->buf + w->len, s, n < room ? n : room);
    }
    w->len += n;
}

static void put(writer *w, const char *s)
{
    put_n(w, s, strlen(s));
}

static void put_i64(writer *w, int64_t v, int hex)
{
    char num[32];
    if (hex)
        snprintf(num, sizeof num, "0x%" PRIx64, (uint64_t)v);
    else
        snprintf(num, sizeof num, "%" PRId64, v);
    put(w, num);
}

static int is_unary(int op)
{
    return op == CP_EXPR_OP_NEG || op == CP_EXPR_OP_PLUS || op == CP_EXPR_OP_BNOT ||
           op == CP_EXPR_OP_NOT;
}

static const char *unary_spelling(int op)
{
    return op == CP_EXPR_OP_NEG    ? "-"
           : op == CP_EXPR_OP_PLUS ? "+"
           : op == CP_EXPR_OP_BNOT ? "~"
                                   : "!";
}

static const char *lazy_spelling(int op)
{
    return op == CP_EXPR_OP_LAND ? "&&" : "||";
}

/* The names the C form of an expression uses for i, n, the parameters and the functions. */
typedef struct c_names {
    const char *i, *n, *fmt_head, *fmt_tail, *func;
    size_t head_len;
} c_names;

static int is_compare(int op)
{
    return op == CP_EXPR_OP_LT || op == CP_EXPR_OP_LE || op == CP_EXPR_OP_GT ||
           op == CP_EXPR_OP_GE || op == CP_EXPR_OP_EQ || op == CP_EXPR_OP_NE;
}

/* The leaves in C: a number, i, n or a parameter through its format. */
static void emit_c_leaf(const node *nd, const c_names *cn, writer *w)
{
    char num[40];
    if (nd->op == CP_EXPR_OP_NUM) {
        snprintf(num, sizeof num, "(%" PRId64 "LL)", nd->value);
        put(w, num);
        return;
    }
    put(w, "(");
    if (nd->value == 0) {
        put(w, cn->i);
    } else if (nd->value == 1) {
        put(w, cn->n);
    } else {
        put_n(w, cn->fmt_head, cn->head_len);
        snprintf(num, sizeof num, "%" PRId64, nd->value - 2);
        put(w, num);
        put(w, cn->fmt_tail);
    }
    put(w, ")");
}

/* Writes the subtree k: as canonical text when cn is NULL (the source's parentheses kept), else
 * as C with names cn (every operation in parentheses, every value a long long). */
static void write_tree(const cp_expr *e, int k, const c_names *cn, writer *w)
{
    const node *nd = &e->nodes[k];
    const char *open = cn ? "(" : "", *close = cn ? ")" : "";
    if (cn && (nd->op == CP_EXPR_OP_NUM || nd->op == CP_EXPR_OP_VAR)) {
        emit_c_leaf(nd, cn, w);
        return;
    }
    if (!cn && nd->paren)
        put(w, "(");
    if (nd->op == CP_EXPR_OP_NUM) {
        put_i64(w, nd->value, nd->hex);
    } else if (nd->op == CP_EXPR_OP_VAR) {
        put(w, e->names[nd->value]);
    } else if (is_unary(nd->op)) {
        const node *child = &e->nodes[nd->a];
        /* ! gives int in C: cast so that every value is a long long */
        put(w, cn && nd->op == CP_EXPR_OP_NOT ? "((long long)" : open);
        put(w, unary_spelling(nd->op));
        if (!cn && (nd->op == CP_EXPR_OP_NEG || nd->op == CP_EXPR_OP_PLUS) && !child->paren &&
            child->op == nd->op)
            put(w, " "); /* "- -i", never "--i" */
        write_tree(e, nd->a, cn, w);
        put(w, close);
    } else if (nd->op == CP_EXPR_OP_ABS) {
        put(w, cn ? cn->func : "");
        put(w, "abs(");
        write_tree(e, nd->a, cn, w);
        put(w, ")");
    } else if (nd->op == CP_EXPR_OP_MIN || nd->op == CP_EXPR_OP_MAX) {
        put(w, cn ? cn->func : "");
        put(w, binop_spelling[nd->op]);
        put(w, "(");
        write_tree(e, nd->a, cn, w);
        put(w, ", ");
        write_tree(e, nd->b, cn, w);
        put(w, ")");
    } else if (nd->op == CP_EXPR_OP_COND) {
        put(w, open);
        write_tree(e, nd->a, cn, w);
        put(w, " ? ");
        write_tree(e, nd->b, cn, w);
        put(w, " : ");
        write_tree(e, nd->c, cn, w);
        put(w, close);
    } else {
        /* comparisons and && || give int in C: cast so that every value is a long long */
        int cast =
            cn && (is_compare(nd->op) || nd->op == CP_EXPR_OP_LAND || nd->op == CP_EXPR_OP_LOR);
        put(w, cast ? "((long long)(" : open);
        write_tree(e, nd->a, cn, w);
        put(w, " ");
        put(w, nd->op < CP_EXPR_OP_NBIN ? binop_spelling[nd->op] : lazy_spelling(nd->op));
        put(w, " ");
        write_tree(e, nd->b, cn, w);
        put(w, cast ? "))" : close);
    }
    if (!cn && nd->paren)
        put(w, ")");
}

/* --- compilation to the stack machine ---------------------------------------------------- */

typedef struct compiler {
    cp_expr *e;
    uint8_t is_const[CP_EXPR_MAX_NODES];
    int64_t cval[CP_EXPR_MAX_NODES];
} compiler;

/* Marks the subtrees without variables whose evaluation succeeds as constants. */
static void fold(compiler *c, int k)
{
    const node *nd = &c->e->nodes[k];
    int64_t r = 0;
    int ok = 0;
    switch (nd->op) {
    case CP_EXPR_OP_NUM:
        r = nd->value;
        ok = 1;
        break;
    case CP_EXPR_OP_VAR:
        break;
    case CP_EXPR_OP_NEG:
    case CP_EXPR_OP_PLUS:
    case CP_EXPR_OP_BNOT:
    case CP_EXPR_OP_NOT:
    case CP_EXPR_OP_ABS:
        fold(c, nd->a);
        ok = c->is_const[nd->a] && un_apply(nd->op, c->cval[nd->a], &r) == E_NONE;
        break;
    case CP_EXPR_OP_LAND:
    case CP_EXPR_OP_LOR: {
        fold(c, nd->a);
        fold(c, nd->b);
        int shortcut = nd->op == CP_EXPR_OP_LAND ? 0 : 1;
        if (c->is_const[nd->a] && (c->cval[nd->a] != 0) == shortcut) {
            r = shortcut;
            ok = 1;
        } else if (c->is_const[nd->a] && c->is_const[nd->b]) {
            r = c->cval[nd->b] != 0;
            ok = 1;
        }
        break;
    }
    case CP_EXPR_OP_COND:
        fold(c, nd->a);
        fold(c, nd->b);
        fold(c, nd->c);
        if (c->is_const[nd->a]) {
            int taken = c->cval[nd->a] ? nd->b : nd->c;
            ok = c->is_const[taken];
            r = c->cval[taken];
        }
        break;
    default: /* eager binary */
        fold(c, nd->a);
        fold(c, nd->b);
        ok = c->is_const[nd->a] && c->is_const[nd->b] &&
             bin_apply(nd->op, c->cval[nd->a], c->cval[nd->b], &r) == E_NONE;
        break;
    }
    c->is_const[k] = (uint8_t)ok;
    c->cval[k] = ok ? r : 0;
}

static int emit(compiler *c, int op, size_t pos, int64_t imm)
{
    cp_expr *e = c->e;
    insn *in = &e->code[e->ncode];
    in->op = (uint8_t)op;
    in->pos = (uint16_t)pos;
    in->target = 0;
    in->imm = imm;
    return e->ncode++;
}

/* log2 of v when v is a power of two, else -1. */
static int log2_exact(int64_t v)
{
    if (v <= 0 || (v & (v - 1)) != 0)
        return -1;
    int k = 0;
    while (v > 1) {
        v >>= 1;
        k++;
    }
    return k;
}

static void compile(compiler *c, int k)
{
    cp_expr *e = c->e;
    const node *nd = &e->nodes[k];
    if (c->is_const[k]) {
        emit(c, I_PUSHK, nd->pos, c->cval[k]);
        return;
    }
    int j1, j2;
    switch (nd->op) {
    case CP_EXPR_OP_VAR:
        if (nd->value < 2)
            emit(c, I_PUSHV, nd->pos, nd->value);
        else
            emit(c, I_PUSHP, nd->pos, nd->value - 2);
        return;
    case CP_EXPR_OP_PLUS:
        compile(c, nd->a);
        return;
    case CP_EXPR_OP_NEG:
    case CP_EXPR_OP_BNOT:
    case CP_EXPR_OP_NOT:
    case CP_EXPR_OP_ABS:
        compile(c, nd->a);
        emit(c,
             nd->op == CP_EXPR_OP_NEG    ? I_NEG
             : nd->op == CP_EXPR_OP_BNOT ? I_BNOT
             : nd->op == CP_EXPR_OP_NOT  ? I_NOT
                                         : I_ABS,
             nd->pos, 0);
        return;
    case CP_EXPR_OP_LAND:
    case CP_EXPR_OP_LOR:
        compile(c, nd->a);
        j1 = emit(c, nd->op == CP_EXPR_OP_LAND ? I_ANDJ : I_ORJ, nd->pos, 0);
        compile(c, nd->b);
        emit(c, I_BOOL, nd->pos, 0);
        e->code[j1].target = e->ncode;
        return;
    case CP_EXPR_OP_COND:
        compile(c, nd->a);
        j1 = emit(c, I_JZPOP, nd->pos, 0);
        compile(c, nd->b);
        j2 = emit(c, I_JMP, nd->pos, 0);
        e->code[j1].target = e->ncode;
        compile(c, nd->c);
        e->code[j2].target = e->ncode;
        return;
    default: { /* eager binary */
        compile(c, nd->a);
        int b = nd->b;
        if (c->is_const[b]) {
            int64_t v = c->cval[b];
            int lg = log2_exact(v);
            if (nd->op == CP_EXPR_OP_DIV && lg >= 1)
                emit(c, I_DIVP2, nd->pos, lg);
            else if (nd->op == CP_EXPR_OP_MOD && lg >= 0)
                emit(c, I_MODP2, nd->pos, v - 1);
            else
                emit(c, NK * nd->op + KK, nd->pos, v);
        } else if (e->nodes[b].op == CP_EXPR_OP_VAR) {
            int64_t var = e->nodes[b].value;
            if (var < 2)
                emit(c, NK * nd->op + KV, nd->pos, var);
            else
                emit(c, NK * nd->op + KP, nd->pos, var - 2);
        } else {
            compile(c, b);
            emit(c, NK * nd->op + KS, nd->pos, 0);
        }
        return;
    }
    }
}

/* --- public API: parse ------------------------------------------------------------------- */

/* Refuses too many parameters, a name that is not one, and a name given twice. */
static int cp_expr_check_params(const char *const *param_names, size_t nparams, cp_status *st)
{
    if (nparams > CP_EXPR_MAX_PARAMS)
        return cp_status_set(st, CP_EXIT_USAGE, "--param: %zu parameters, more than the limit %d",
                             nparams, CP_EXPR_MAX_PARAMS);
    for (size_t k = 0; k < nparams; k++) {
        CP_TRY(cp_expr_check_param_name(param_names[k], st));
        for (size_t j = 0; j < k; j++)
            if (strcmp(param_names[j], param_names[k]) == 0)
                return cp_status_set(st, CP_EXIT_USAGE, "--param: '%s' is given twice",
                                     param_names[k]);
    }
    return CP_EXIT_OK;
}

/* Parses p's text into the tree of p->e: one whole expression, nothing after it. */
static int cp_expr_parse_tree(parser *p, const char *text)
{
    if (p->len > CP_EXPR_MAX_TEXT) {
        p->len = strlen(text); /* the whole of it, for the hint's window */
        return perr(p, CP_EXPR_MAX_TEXT,
                    "the expression is longer than %d characters (at position %d)",
                    CP_EXPR_MAX_TEXT, CP_EXPR_MAX_TEXT);
    }
    CP_TRY(lex(p));
    if (p->tok.type == T_END)
        return perr(p, p->tok.pos,
                    "the expression is empty: expected a number, a name or '(' at position %zu "
                    "(e.g. (i %% 32) * 32 + i / 32)",
                    p->tok.pos);
    CP_TRY(parse_expr(p, &p->e->root));
    if (p->tok.type == T_RP)
        return perr(p, p->tok.pos, "unmatched ')' at position %zu", p->tok.pos);
    if (p->tok.type != T_END)
        return unexpected(p, "an operator or the end of the expression");
    return CP_EXIT_OK;
}

/* Keeps the source of e (text, len bytes) for the caret of evaluation errors, and writes its
 * canonical text. */
static int cp_expr_keep_text(cp_expr *e, const char *text, size_t len, cp_status *st)
{
    e->src = malloc(len + 1);
    writer w = {NULL, 0, 0};
    write_tree(e, e->root, NULL, &w);
    e->text = malloc(w.len + 1);
    if (!e->src || !e->text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory parsing %s", OPTION);
    memcpy(e->src, text, len);
    e->src[len] = '\0';
    e->len = len;
    w = (writer){e->text, w.len + 1, 0};
    write_tree(e, e->root, NULL, &w);
    e->text[w.len] = '\0';
    return CP_EXIT_OK;
}

/* Folds the constants of e's tree and compiles it to e's code. */
static int cp_expr_compile_tree(cp_expr *e, cp_status *st)
{
    compiler *c = malloc(sizeof *c);
    if (!c)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory parsing %s", OPTION);
    c->e = e;
    fold(c, e->root);
    compile(c, e->root);
    emit(c, I_END, 0, 0);
    free(c);
    return CP_EXIT_OK;
}

int cp_expr_parse(const char *text, const char *const *param_names, size_t nparams, cp_expr **out,
                  cp_status *st)
{
    *out = NULL;
    CP_TRY(cp_expr_check_params(param_names, nparams, st));
    if (!text)
        text = "";
    size_t len = 0;
    while (len <= CP_EXPR_MAX_TEXT && text[len])
        len++;

    cp_expr *e = calloc(1, sizeof *e);
    if (!e)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory parsing %s", OPTION);
    e->nparams = nparams;
    strcpy(e->names[0], "i");
    strcpy(e->names[1], "n");
    for (size_t k = 0; k < nparams; k++)
        strcpy(e->names[2 + k], param_names[k]);

    parser p = {.src = text, .len = len, .e = e, .st = st};
    int rc = cp_expr_parse_tree(&p, text);
    if (rc == CP_EXIT_OK)
        rc = cp_expr_keep_text(e, text, len, st);
    if (rc == CP_EXIT_OK)
        rc = cp_expr_compile_tree(e, st);
    if (rc != CP_EXIT_OK) {
        cp_expr_free(e);
        return rc;
    }
    *out = e;
    return CP_EXIT_OK;
}

int64_t cp_expr_value(const cp_expr *e, int64_t i, int64_t n, const int64_t *params)
{
    int64_t v = 0;
    return cp_expr_eval(e, i, n, params, &v, NULL) == CP_EXIT_OK ? v : 0;
}

void cp_expr_hint_at(const cp_expr *e, size_t pos, cp_status *st)
{
    if (e)
        caret_hint(st, e->src, e->len, pos < e->len ? pos : 0);
}

const char *cp_expr_param_name(const cp_expr *e, size_t k)
{
    return e && k < e->nparams ? e->names[2 + k] : NULL;
}

void cp_expr_free(cp_expr *e)
{
    if (!e)
        return;
    free(e->src);
    free(e->text);
    free(e);
}

const char *cp_expr_text(const cp_expr *e)
{
    return e ? e->text : "";
}

/* --- public API: the tree (cp_expr_tree.h) ------------------------------------------------ */

int cp_expr_tree_root(const cp_expr *e)
{
    return e->root;
}

cp_expr_node cp_expr_tree_node(const cp_expr *e, int k)
{
    const node *nd = &e->nodes[k];
    return (cp_expr_node){nd->op, nd->a, nd->b, nd->c, nd->value, nd->pos};
}

int cp_expr_tree_apply(int op, int64_t a, int64_t b, int64_t *r)
{
    if (op < CP_EXPR_OP_NBIN)
        return bin_apply(op, a, b, r) == E_NONE;
    return un_apply(op, a, r) == E_NONE;
}

const char *cp_expr_tree_spelling(int op)
{
    if (op < CP_EXPR_OP_NBIN)
        return binop_spelling[op];
    if (op == CP_EXPR_OP_LAND || op == CP_EXPR_OP_LOR)
        return lazy_spelling(op);
    if (is_unary(op))
        return unary_spelling(op);
    return op == CP_EXPR_OP_ABS ? "abs" : op == CP_EXPR_OP_COND ? "?:" : "";
}

/* --- public API: evaluation -------------------------------------------------------------- */

/* Formats v for a message, in parentheses when negative: "5", "(-3)". */
static void fmt_operand(char *buf, size_t len, int64_t v)
{
    snprintf(buf, len, v < 0 ? "(%" PRId64 ")" : "%" PRId64, v);
}

/* Kept out of line so that the evaluation loop stays small. */
#if defined(__GNUC__)
#define CP_EXPR_COLD __attribute__((cold, noinline))
#else
#define CP_EXPR_COLD
#endif

/* Records an evaluation error of instruction in with operands a (and b). */
CP_EXPR_COLD static int eval_error(const cp_expr *e, const insn *in, int err, int64_t a, int64_t b,
                                   int64_t i, int64_t n, const int64_t *params, cp_status *st)
{
    if (!st)
        return CP_EXIT_USAGE;
    char sa[32], sb[32], what[96], ctx[NVARS * (CP_EXPR_MAX_NAME + 28)];
    fmt_operand(sa, sizeof sa, a);
    fmt_operand(sb, sizeof sb, b);
    if (in->op == I_NEG)
        snprintf(what, sizeof what, "-%s", sa);
    else if (in->op == I_ABS)
        snprintf(what, sizeof what, "abs(%" PRId64 ")", a);
    else
        snprintf(what, sizeof what, "%s %s %s", sa, binop_spelling[in->op / NK], sb);
    size_t k = 0;
    for (size_t j = 0; j < 2 + e->nparams; j++) {
        int64_t v = j == 0 ? i : j == 1 ? n : params[j - 2];
        int wr =
            snprintf(ctx + k, sizeof ctx - k, "%s%s = %" PRId64, j ? ", " : "", e->names[j], v);
        if (wr < 0 || (size_t)wr >= sizeof ctx - k)
            break;
        k += (size_t)wr;
    }
    const char *kind = err == E_OVERFLOW    ? "signed overflow"
                       : err == E_DIVZERO   ? "division by zero"
                       : err == E_SHIFT_NEG ? "negative shift count"
                       : err == E_SHIFT_BIG ? "shift count above 63"
                                            : "left shift of a negative value";
    cp_status_set(st, CP_EXIT_USAGE, "%s: %s at position %u: %s (%s)", OPTION, kind,
                  (unsigned)in->pos, what, ctx);
    caret_hint(st, e->src, e->len, in->pos);
    return CP_EXIT_USAGE;
}

/* NK cases per eager binary operator: the right operand from the stack, i or n, a parameter, a
 * constant; then the operator, checked. */
#define VM_BINOP(name, sym)                                                                        \
    case NK *CP_EXPR_OP_##name + KS:                                                               \
        b = acc;                                                                                   \
        a = stack[--sp];                                                                           \
        goto do_##name;                                                                            \
    case NK *CP_EXPR_OP_##name + KV:                                                               \
        a = acc;                                                                                   \
        b = in->imm ? n : i;                                                                       \
        goto do_##name;                                                                            \
    case NK *CP_EXPR_OP_##name + KP:                                                               \
        a = acc;                                                                                   \
        b = params[in->imm];                                                                       \
        goto do_##name;                                                                            \
    case NK *CP_EXPR_OP_##name + KK:                                                               \
        a = acc;                                                                                   \
        b = in->imm;                                                                               \
        do_##name : if ((err = bin_apply(CP_EXPR_OP_##name, a, b, &r)) != E_NONE) goto fail;       \
        acc = r;                                                                                   \
        break;

/* The evaluation loop: one function because it is the interpreter's dispatch, one switch over
 * the instruction set whose cases share the accumulator and the stack in locals; helpers would
 * cost a call per instruction on the hottest path of a sweep. */
int cp_expr_eval(const cp_expr *e, int64_t i, int64_t n, const int64_t *params, int64_t *value,
                 cp_status *st)
{
    /* the top of the stack lives in acc; stack[0] receives acc's initial 0 on the first push */
    int64_t stack[CP_EXPR_MAX_NODES + 2];
    size_t sp = 0;
    int64_t acc = 0, a = 0, b = 0, r = 0;
    int err;
    if (!e)
        return cp_status_set(st, CP_EXIT_USAGE, "--index: no expression to evaluate");
    const insn *code = e->code, *in;
    for (const insn *ip = code;;) {
        in = ip++;
        switch (in->op) {
            CP_EXPR_BINOPS(VM_BINOP)
        case I_PUSHK:
            stack[sp++] = acc;
            acc = in->imm;
            break;
        case I_PUSHV:
            stack[sp++] = acc;
            acc = in->imm ? n : i;
            break;
        case I_PUSHP:
            stack[sp++] = acc;
            acc = params[in->imm];
            break;
        case I_NEG:
            if (acc == INT64_MIN)
                goto unary_overflow;
            acc = -acc;
            break;
        case I_ABS:
            if (acc == INT64_MIN)
                goto unary_overflow;
            acc = acc < 0 ? -acc : acc;
            break;
        case I_BNOT:
            acc = ~acc;
            break;
        case I_NOT:
            acc = !acc;
            break;
        case I_BOOL:
            acc = acc != 0;
            break;
        case I_DIVP2: {
            uint64_t mag = acc < 0 ? 0 - (uint64_t)acc : (uint64_t)acc;
            int64_t q = (int64_t)(mag >> in->imm); /* imm >= 1: fits */
            acc = acc < 0 ? -q : q;
            break;
        }
        case I_MODP2: {
            uint64_t mag = acc < 0 ? 0 - (uint64_t)acc : (uint64_t)acc;
            int64_t m = (int64_t)(mag & (uint64_t)in->imm);
            acc = acc < 0 ? -m : m;
            break;
        }
        case I_ANDJ:
            if (acc == 0)
                ip = code + in->target;
            else
                acc = stack[--sp];
            break;
        case I_ORJ:
            if (acc != 0) {
                acc = 1;
                ip = code + in->target;
            } else {
                acc = stack[--sp];
            }
            break;
        case I_JZPOP: {
            int64_t cond = acc;
            acc = stack[--sp];
            if (cond == 0)
                ip = code + in->target;
            break;
        }
        case I_JMP:
            ip = code + in->target;
            break;
        default: /* I_END */
            *value = acc;
            return CP_EXIT_OK;
        }
    }
unary_overflow: /* -INT64_MIN and abs(INT64_MIN) do not fit */
    a = acc;
    err = E_OVERFLOW;
fail:
    return eval_error(e, in, err, a, b, i, n, params, st);
}

/* --- public API: C source ---------------------------------------------------------------- */

int cp_expr_to_c(const cp_expr *e, const char *i_name, const char *n_name, const char *param_fmt,
                 const char *func_prefix, char *buf, size_t len, cp_status *st)
{
    if (buf && len)
        buf[0] = '\0';
    c_names cn = {.i = i_name ? i_name : "",
                  .n = n_name ? n_name : "",
                  .func = func_prefix ? func_prefix : ""};
    const char *fmt = param_fmt ? param_fmt : "";
    const char *zu = strstr(fmt, "%zu");
    const char *pct = strchr(fmt, '%');
    if (!i_name || !n_name || !func_prefix || !zu || pct != zu || strchr(zu + 3, '%'))
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "cp_expr_to_c: bad names (the parameter format '%s' must hold one "
                             "%%zu and no other %%)",
                             fmt);
    cn.fmt_head = fmt;
    cn.head_len = (size_t)(zu - fmt);
    cn.fmt_tail = zu + 3;
    writer w = {buf, buf ? len : 0, 0};
    write_tree(e, e->root, &cn, &w);
    if (w.len >= w.cap) {
        if (buf && len)
            buf[0] = '\0';
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "%s: the C form of the expression needs %zu bytes, more than the "
                             "buffer's %zu",
                             OPTION, w.len + 1, len);
    }
    buf[w.len] = '\0';
    return CP_EXIT_OK;
}
