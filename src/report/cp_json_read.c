/* cp_json_read.c: a JSON report read strictly (cp_json_read.h): bounded while it is read, one
 * document, no duplicate key, finite numbers, each number's text where asked. */
#define _POSIX_C_SOURCE 200809L
#include "cp_json_read.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_JSON_READ_STR2(x) #x
#define CP_JSON_READ_STR(x) CP_JSON_READ_STR2(x)
#define CP_JSON_READ_HINT "coalprobe's reports are one JSON document each (--format json)"

/* What the watch saw of the text so far. */
typedef struct cp_json_watch {
    size_t depth;
    int in_string, escape, opened, closed;
    const char *stop; /* why reading stopped: NULL while it goes on */
    size_t stop_at, stop_line;
} cp_json_watch;

/* Why standard input stopped being read: it is read once, and compare may ask for it again. */
static cp_json_watch cp_json_stdin_watch;

/* cp_text_watch: stops at a NUL byte, at nesting deeper than cJSON reads, and at anything but
 * white space after the document's closing bracket. */
static int cp_json_watch_text(void *ctx, const char *text, size_t from, size_t to)
{
    cp_json_watch *w = ctx;
    for (size_t i = from; i < to; i++) {
        char c = text[i];
        if (c == '\0') {
            w->stop = "a NUL byte: it is not text";
        } else if (w->in_string) {
            if (w->escape)
                w->escape = 0;
            else if (c == '\\')
                w->escape = 1;
            else if (c == '"')
                w->in_string = 0;
            continue;
        } else if (w->closed && !isspace((unsigned char)c)) {
            w->stop = "text after the end of the JSON document";
        } else if (c == '"') {
            w->in_string = 1;
        } else if (c == '{' || c == '[') {
            w->opened = 1;
            if (++w->depth > CJSON_NESTING_LIMIT)
                w->stop = "nesting deeper than cJSON's limit of " CP_JSON_READ_STR(
                    CJSON_NESTING_LIMIT) " levels";
        } else if ((c == '}' || c == ']') && w->depth > 0) {
            w->closed = --w->depth == 0 && w->opened;
        }
        if (w->stop) {
            w->stop_at = i;
            w->stop_line = 1;
            for (size_t j = 0; j < i; j++)
                w->stop_line += text[j] == '\n';
            return 1;
        }
    }
    return 0;
}

/* The line (from 1) of byte at in text. */
static size_t cp_json_read_line(const char *text, size_t at)
{
    size_t line = 1;
    for (size_t i = 0; i < at && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

/* The way from the root to an item, for messages. */
typedef struct cp_json_way {
    const struct cp_json_way *up;
    const cJSON *item;
    int index; /* in an array parent: the item's index */
} cp_json_way;

static void cp_json_read_way(cp_strbuf *b, const cp_json_way *w)
{
    if (!w || !w->up) {
        return;
    }
    cp_json_read_way(b, w->up);
    if (cJSON_IsArray(w->up->item))
        cp_strbuf_printf(b, "[%d]", w->index);
    else {
        if (b->len)
            cp_strbuf_str(b, ".");
        cp_strbuf_printable(b, w->item->string ? w->item->string : "?");
    }
}

/* Walking the tree beside the text, whose number tokens come in the tree's order. */
typedef struct cp_json_walk {
    const char *path, *text;
    size_t at; /* where the next number token is looked for */
    int keep_numbers;
    cp_status *st;
} cp_json_walk;

/* The next number token of the text: its start, its length in *n. */
static const char *cp_json_next_number(cp_json_walk *k, size_t *n)
{
    const char *s = k->text + k->at;
    while (*s && *s != '-' && !isdigit((unsigned char)*s)) {
        if (*s == '"') /* a string: skipped whole */
            for (s++; *s && *s != '"'; s++)
                if (*s == '\\' && s[1])
                    s++;
        if (*s)
            s++;
    }
    *n = strspn(s, "0123456789+-.eE");
    k->at = (size_t)(s - k->text) + *n;
    return s;
}

static int cp_json_key_order(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The key twice in object o, or NULL (memory running out finds none). */
static const char *cp_json_read_twice(const cJSON *o)
{
    size_t n = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        n++;
    if (n <= 16) { /* few keys: each pair */
        for (const cJSON *a = o->child; a; a = a->next)
            for (const cJSON *b = a->next; b; b = b->next)
                if (a->string && b->string && strcmp(a->string, b->string) == 0)
                    return a->string;
        return NULL;
    }
    const cJSON **keys = malloc(n * sizeof *keys);
    const char *twice = NULL;
    if (!keys)
        return NULL;
    size_t k = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        if (c->string)
            keys[k++] = c;
    qsort(keys, k, sizeof *keys, cp_json_key_order);
    for (size_t i = 1; i < k && !twice; i++)
        if (strcmp(keys[i - 1]->string, keys[i]->string) == 0)
            twice = keys[i]->string;
    free(keys);
    return twice;
}

static int cp_json_read_refuse(const cp_json_walk *k, const cp_json_way *w, const char *what,
                               size_t at, cp_status *st)
{
    cp_strbuf where = {0};
    cp_json_read_way(&where, w);
    char line[40] = "";
    if (at != SIZE_MAX)
        snprintf(line, sizeof line, "line %zu, ", cp_json_read_line(k->text, at));
    cp_status_set(st, CP_EXIT_USAGE, "'%s' is refused: %s (%sin %s%s)", k->path, what, line,
                  where.len ? "" : "the top-level ",
                  where.len && !where.failed ? where.data : "object");
    cp_status_hint(st, "%s", CP_JSON_READ_HINT);
    cp_strbuf_free(&where);
    return CP_EXIT_USAGE;
}

/* Checks w->item and what it holds, depth first in document order. */
static int cp_json_read_check(cp_json_walk *k, const cp_json_way *w)
{
    const cJSON *item = w->item;
    if (cJSON_IsNumber(item)) {
        size_t n;
        const char *tok = cp_json_next_number(k, &n);
        if (!isfinite(item->valuedouble)) {
            char what[160];
            snprintf(what, sizeof what, "the number %.*s is beyond the range of a double",
                     n > 60 ? 60 : (int)n, tok);
            return cp_json_read_refuse(k, w, what, (size_t)(tok - k->text), k->st);
        }
        if (k->keep_numbers) {
            char *copy = strndup(tok, n);
            if (!copy)
                return cp_status_set(k->st, CP_EXIT_RUNTIME, "cannot read '%s': out of memory",
                                     k->path);
            ((cJSON *)item)->valuestring = copy;
        }
        return CP_EXIT_OK;
    }
    if (cJSON_IsObject(item)) {
        const char *twice = cp_json_read_twice(item);
        if (twice) {
            cp_strbuf what = {0};
            cp_strbuf_str(&what, "the key \"");
            cp_strbuf_printable(&what, twice);
            cp_strbuf_str(&what, "\" appears twice");
            int rc = cp_json_read_refuse(k, w, what.failed ? "a key appears twice" : what.data,
                                         SIZE_MAX, k->st);
            cp_strbuf_free(&what);
            return rc;
        }
    }
    int index = 0;
    for (const cJSON *c = item->child; c; c = c->next) {
        cp_json_way down = {w, c, index++};
        CP_TRY(cp_json_read_check(k, &down));
    }
    return CP_EXIT_OK;
}

int cp_json_read(const char *path, int keep_numbers, cp_json_read_result *r, cp_status *st)
{
    memset(r, 0, sizeof *r);
    cp_json_watch w = {0};
    size_t limit = cp_text_read_limit_or(CP_JSON_READ_LIMIT);
    r->text = cp_text_read_watched(path, &r->len, limit, cp_json_watch_text, &w);
    int is_stdin = strcmp(path, "-") == 0;
    if (is_stdin && w.stop)
        cp_json_stdin_watch = w;
    else if (is_stdin)
        w = cp_json_stdin_watch;
    if (!r->text && errno == ECANCELED && w.stop) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is refused: %s (line %zu, byte %zu)", path, w.stop,
                      w.stop_line, w.stop_at);
        cp_status_hint(st, "%s", CP_JSON_READ_HINT);
        return CP_EXIT_USAGE;
    }
    if (!r->text)
        return cp_text_read_failed_limit(path, errno, limit, st);
    const char *end = NULL;
    r->root = cJSON_ParseWithLengthOpts(r->text, r->len, &end, 0);
    if (!r->root) {
        const char *e = cJSON_GetErrorPtr();
        r->error = e && e >= r->text && e <= r->text + r->len ? (size_t)(e - r->text) : r->len;
        return CP_EXIT_OK;
    }
    cp_json_walk k = {path, r->text, 0, keep_numbers, st};
    size_t after = end ? (size_t)(end - r->text) : r->len;
    while (after < r->len && isspace((unsigned char)r->text[after]))
        after++;
    if (after < r->len) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' is refused: text after the end of the JSON document (line %zu, "
                      "byte %zu)",
                      path, cp_json_read_line(r->text, after), after);
        cp_status_hint(st, "%s", CP_JSON_READ_HINT);
        return CP_EXIT_USAGE;
    }
    cp_json_way top = {NULL, r->root, 0};
    return cp_json_read_check(&k, &top);
}

void cp_json_read_free(cp_json_read_result *r)
{
    cJSON_Delete(r->root);
    free(r->text);
    memset(r, 0, sizeof *r);
}

/* A JSON number's value as sign, significant digits and a power of ten: digits[0..*n) times
 * 10^*exp, no leading or trailing zero (zero: *n == 0). 0 when s is no JSON number. */
static int cp_json_read_decimal(const char *s, int *neg, char *digits, size_t *n, long *exp)
{
    *neg = *s == '-';
    s += *neg;
    *n = 0;
    long frac = 0;
    if (!isdigit((unsigned char)*s))
        return 0;
    for (; isdigit((unsigned char)*s); s++)
        if (*n || *s != '0')
            digits[(*n)++] = *s;
    if (*s == '.') {
        if (!isdigit((unsigned char)*++s))
            return 0;
        for (; isdigit((unsigned char)*s); s++, frac++)
            if (*n || *s != '0')
                digits[(*n)++] = *s;
    }
    long e = 0;
    if (*s == 'e' || *s == 'E') {
        int eneg = *++s == '-';
        s += *s == '-' || *s == '+';
        if (!isdigit((unsigned char)*s))
            return 0;
        for (; isdigit((unsigned char)*s); s++)
            e = e > 100000000L ? e : e * 10 + (*s - '0'); /* far past any double: clamped */
        e = eneg ? -e : e;
    }
    if (*s)
        return 0;
    size_t zeros = 0;
    while (*n > 0 && digits[*n - 1] == '0') {
        (*n)--;
        zeros++;
    }
    *exp = e - frac + (long)zeros;
    return 1;
}

int cp_json_read_same_number(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), na, nb;
    char *da = malloc(la + 1), *db = malloc(lb + 1);
    int nega, negb, same = -1;
    long ea, eb;
    if (da && db && cp_json_read_decimal(a, &nega, da, &na, &ea) &&
        cp_json_read_decimal(b, &negb, db, &nb, &eb))
        same = na == 0 && nb == 0 ? 1
                                  : na == nb && nega == negb && ea == eb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}
