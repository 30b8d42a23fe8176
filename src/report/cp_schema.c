/* cp_schema.c: a JSON Schema validator for the keywords that docs/schema/ uses (type, const,
 * enum, numeric and string bounds, pattern, properties, required, additionalProperties,
 * unevaluatedProperties, items, the combinators, if/then/else, $ref), over cJSON, against the
 * schemas built into the binary. A keyword it does not know is an error, never skipped. One
 * file of about 900 lines: every keyword is checked by one recursive walk over one validation
 * state, which splitting it by keyword would have to expose. */
#include "cp_schema.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_schema_source.h"

#define CP_SCHEMA_MAX_DEPTH 64 /* the deepest key path a schema can describe */
#define CP_SCHEMA_MAX_NEST 512 /* schemas inside schemas: $ref chains, combinators */
#define CP_SCHEMA_MAX_REGEX 32 /* compiled patterns kept for the whole check */
#define CP_SCHEMA_SHOW 60      /* characters of a string shown in a message */
#define CP_SCHEMA_SMALL_OBJECT 64

/* ---- the state of one check ----------------------------------------------------------------- */

/* One step of the key path: an object's key, or (key NULL) an array's index. */
typedef struct cp_schema_step {
    const char *key;
    size_t index;
} cp_schema_step;

/* The error kept so far, and how deep its key is. */
typedef struct cp_schema_found {
    int has;
    size_t depth;
    cp_schema_error e;
} cp_schema_found;

typedef struct cp_schema_ctx {
    const cJSON *root; /* the schema, for $ref */
    const cJSON *doc;
    cp_schema_step path[CP_SCHEMA_MAX_DEPTH];
    size_t depth;
    unsigned nest;
    int quiet; /* inside "if" or "not": failing is an answer, not an error */
    int fatal; /* the check cannot go on: fatal_message says why */
    char fatal_message[200];
    cp_schema_found found;
    struct {
        const cJSON *node;
        regex_t re;
        int ok;
    } regex[CP_SCHEMA_MAX_REGEX];
    size_t nregex;
} cp_schema_ctx;

static void cp_schema_fatal(cp_schema_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void cp_schema_fatal(cp_schema_ctx *c, const char *fmt, ...)
{
    if (c->fatal)
        return;
    c->fatal = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->fatal_message, sizeof c->fatal_message, fmt, ap);
    va_end(ap);
}

static void cp_schema_found_free(cp_schema_found *f)
{
    cp_schema_error_free(&f->e);
    f->has = 0;
}

/* What the document holds at a place, for "found ...". */
static void cp_schema_describe_value(cp_strbuf *b, const cJSON *v)
{
    if (!v) {
        cp_strbuf_str(b, "nothing");
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        size_t len = strlen(s);
        cp_strbuf_str(b, "the string \"");
        if (len <= CP_SCHEMA_SHOW) {
            cp_strbuf_printable(b, s);
            cp_strbuf_str(b, "\"");
        } else {
            /* cut visibly, at a character's start */
            size_t cut = CP_SCHEMA_SHOW;
            while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
                cut--;
            char *head = malloc(cut + 1);
            if (!head) {
                b->failed = 1;
                return;
            }
            memcpy(head, s, cut);
            head[cut] = '\0';
            cp_strbuf_printable(b, head);
            free(head);
            cp_strbuf_printf(b, "...\" (%zu bytes)", len);
        }
    } else if (cJSON_IsNumber(v)) {
        cp_strbuf_str(b, "the number ");
        cp_strbuf_number(b, v->valuedouble);
    } else if (cJSON_IsTrue(v)) {
        cp_strbuf_str(b, "true");
    } else if (cJSON_IsFalse(v)) {
        cp_strbuf_str(b, "false");
    } else if (cJSON_IsNull(v)) {
        cp_strbuf_str(b, "null");
    } else if (cJSON_IsObject(v)) {
        cp_strbuf_str(b, "an object");
    } else if (cJSON_IsArray(v)) {
        cp_strbuf_str(b, "an array");
    } else {
        cp_strbuf_str(b, "something else");
    }
}

/* Records that the document fails here (at path + extra_key when extra_key is not NULL): the
 * message is fmt's text, then ", found " and what is there. The first error is kept (within a
 * combinator, cp_schema_combine keeps the deepest of its forms'). */
static void cp_schema_fail(cp_schema_ctx *c, const char *extra_key, const cJSON *found,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void cp_schema_fail(cp_schema_ctx *c, const char *extra_key, const cJSON *found,
                           const char *fmt, ...)
{
    if (c->quiet || c->fatal)
        return;
    size_t depth = c->depth + (extra_key != NULL);
    if (c->found.has)
        return;
    cp_strbuf where = {0}, message = {0};
    const char *array = NULL;
    size_t index = 0, rest_at = 0;
    for (size_t i = 0; i < depth; i++) {
        const cp_schema_step *s = i < c->depth ? &c->path[i] : NULL;
        const char *key = s ? s->key : extra_key;
        if (key) {
            if (where.len > 0)
                cp_strbuf_str(&where, ".");
            cp_strbuf_printable(&where, key);
        } else {
            cp_strbuf_printf(&where, "[%zu]", s->index);
        }
        if (i == 1 && !key && c->path[0].key) {
            array = c->path[0].key;
            index = s->index;
            rest_at = where.len;
        }
    }
    va_list ap;
    va_start(ap, fmt);
    cp_strbuf_vprintf(&message, fmt, ap);
    va_end(ap);
    cp_strbuf_str(&message, ", found ");
    cp_schema_describe_value(&message, found);
    char *where_text = cp_strbuf_steal(&where), *message_text = cp_strbuf_steal(&message);
    if (!where_text || !message_text) {
        free(where_text);
        free(message_text);
        cp_schema_fatal(c, "out of memory");
        return;
    }
    cp_schema_found_free(&c->found);
    c->found.has = 1;
    c->found.depth = depth;
    c->found.e.where = where_text;
    c->found.e.message = message_text;
    c->found.e.array = array;
    c->found.e.index = index;
    const char *rest = where_text + rest_at;
    c->found.e.rest = array ? rest + (*rest == '.') : where_text;
}

static int cp_schema_push(cp_schema_ctx *c, const char *key, size_t index)
{
    if (c->depth >= CP_SCHEMA_MAX_DEPTH) {
        cp_schema_fatal(c, "the schema describes keys deeper than %d levels", CP_SCHEMA_MAX_DEPTH);
        return 0;
    }
    c->path[c->depth++] = (cp_schema_step){key, index};
    return 1;
}

/* ---- schema helpers ---------------------------------------------------------------------------
 */

/* The schema a "$ref" names: "#" or a JSON pointer "#/a/b" into the root. */
static const cJSON *cp_schema_resolve(cp_schema_ctx *c, const char *ref)
{
    if (ref[0] != '#') {
        cp_schema_fatal(c, "the schema refers to '%s', outside itself", ref);
        return NULL;
    }
    const cJSON *node = c->root;
    const char *p = ref + 1;
    while (node && *p == '/') {
        p++;
        size_t n = strcspn(p, "/");
        char key[128];
        size_t k = 0;
        for (size_t i = 0; i < n && k + 1 < sizeof key; i++) {
            if (p[i] == '~' && i + 1 < n && (p[i + 1] == '0' || p[i + 1] == '1'))
                key[k++] = p[++i] == '0' ? '~' : '/';
            else
                key[k++] = p[i];
        }
        key[k] = '\0';
        node = cJSON_GetObjectItemCaseSensitive(node, key);
        p += n;
    }
    if (!node || *p)
        cp_schema_fatal(c, "the schema's reference '%s' leads nowhere", ref);
    return node;
}

static int cp_schema_is_type(const cJSON *v, const char *type)
{
    if (strcmp(type, "object") == 0)
        return cJSON_IsObject(v);
    if (strcmp(type, "array") == 0)
        return cJSON_IsArray(v);
    if (strcmp(type, "string") == 0)
        return cJSON_IsString(v);
    if (strcmp(type, "number") == 0)
        return cJSON_IsNumber(v);
    if (strcmp(type, "integer") == 0)
        return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
               v->valuedouble == floor(v->valuedouble);
    if (strcmp(type, "boolean") == 0)
        return cJSON_IsBool(v);
    if (strcmp(type, "null") == 0)
        return cJSON_IsNull(v);
    return -1;
}

static const char *cp_schema_type_words(const char *type)
{
    static const char *const words[][2] = {{"object", "an object"},   {"array", "an array"},
                                           {"string", "a string"},    {"number", "a number"},
                                           {"integer", "an integer"}, {"boolean", "true or false"},
                                           {"null", "null"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(type, words[i][0]) == 0)
            return words[i][1];
    return type;
}

/* A JSON value of the schema (a const, an enum's member), as JSON. */
static void cp_schema_buf_json(cp_strbuf *b, const cJSON *v)
{
    char *text = cJSON_PrintUnformatted(v);
    if (!text) {
        b->failed = 1;
        return;
    }
    cp_strbuf_printable(b, text);
    cJSON_free(text);
}

/* What a schema expects, in words, for a message on a value that fits none of several forms. */
static void cp_schema_describe_schema(cp_schema_ctx *c, cp_strbuf *b, const cJSON *s, unsigned nest)
{
    for (unsigned hops = 0; s && hops < 16; hops++) {
        const cJSON *ref = cJSON_GetObjectItemCaseSensitive(s, "$ref");
        if (!cJSON_IsString(ref))
            break;
        s = cp_schema_resolve(c, ref->valuestring);
    }
    const cJSON *v;
    if (!s || nest > 4) {
        cp_strbuf_str(b, "a value of another form");
    } else if ((v = cJSON_GetObjectItemCaseSensitive(s, "const")) != NULL) {
        cp_schema_buf_json(b, v);
    } else if (cJSON_IsArray(v = cJSON_GetObjectItemCaseSensitive(s, "enum"))) {
        cp_strbuf_str(b, "one of ");
        for (const cJSON *m = v->child; m; m = m->next) {
            cp_schema_buf_json(b, m);
            if (m->next)
                cp_strbuf_str(b, ", ");
        }
    } else if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(s, "type"))) {
        cp_strbuf_str(b, cp_schema_type_words(v->valuestring));
    } else if (cJSON_IsArray(v)) {
        for (const cJSON *m = v->child; m; m = m->next) {
            if (cJSON_IsString(m))
                cp_strbuf_str(b, cp_schema_type_words(m->valuestring));
            if (m->next)
                cp_strbuf_str(b, " or ");
        }
    } else if (cJSON_IsArray(v = cJSON_GetObjectItemCaseSensitive(s, "oneOf")) ||
               cJSON_IsArray(v = cJSON_GetObjectItemCaseSensitive(s, "anyOf"))) {
        for (const cJSON *m = v->child; m; m = m->next) {
            cp_schema_describe_schema(c, b, m, nest + 1);
            if (m->next)
                cp_strbuf_str(b, " or ");
        }
    } else {
        cp_strbuf_str(b, "a value of another form");
    }
}

static const regex_t *cp_schema_regex(cp_schema_ctx *c, const cJSON *pattern, regex_t *own,
                                      int *free_own)
{
    *free_own = 0;
    for (size_t i = 0; i < c->nregex; i++)
        if (c->regex[i].node == pattern)
            return c->regex[i].ok ? &c->regex[i].re : NULL;
    regex_t *re = c->nregex < CP_SCHEMA_MAX_REGEX ? &c->regex[c->nregex].re : own;
    int ok = regcomp(re, pattern->valuestring, REG_EXTENDED | REG_NOSUB) == 0;
    if (re != own) {
        c->regex[c->nregex].node = pattern;
        c->regex[c->nregex].ok = ok;
        c->nregex++;
    } else {
        *free_own = ok;
    }
    if (!ok)
        cp_schema_fatal(c, "the schema's pattern '%s' is not a regular expression",
                        pattern->valuestring);
    return ok ? re : NULL;
}

static size_t cp_schema_utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* ---- validation ------------------------------------------------------------------------------ */

static int cp_schema_check(cp_schema_ctx *c, const cJSON *s, const cJSON *v, unsigned char *eval);

/* Per member of an object instance: evaluated by some keyword (for unevaluatedProperties). */
static unsigned char *cp_schema_marks(cp_schema_ctx *c, size_t n, unsigned char *small)
{
    if (n <= CP_SCHEMA_SMALL_OBJECT) {
        memset(small, 0, CP_SCHEMA_SMALL_OBJECT);
        return small;
    }
    unsigned char *m = calloc(n, 1);
    if (!m)
        cp_schema_fatal(c, "out of memory");
    return m;
}

static void cp_schema_marks_free(unsigned char *m, unsigned char *small)
{
    if (m != small)
        free(m);
}

static void cp_schema_marks_or(unsigned char *into, const unsigned char *from, size_t n)
{
    for (size_t i = 0; into && from && i < n; i++)
        into[i] |= from[i];
}

/* The error kept so far is set aside while the forms of a combinator are tried. */
static cp_schema_found cp_schema_set_aside(cp_schema_ctx *c)
{
    cp_schema_found saved = c->found;
    c->found = (cp_schema_found){0};
    return saved;
}

/* Back from a combinator: on success its forms' errors are dropped; on failure an error found
 * before it stays the first. */
static void cp_schema_take_back(cp_schema_ctx *c, cp_schema_found saved, int ok)
{
    if (ok || saved.has) {
        cp_schema_found_free(&c->found);
        c->found = saved;
    } else {
        cp_schema_found_free(&saved);
    }
}

/* allOf, anyOf, oneOf: the forms tried on v; a form that holds adds its marks. */
static int cp_schema_combine(cp_schema_ctx *c, const char *word, const cJSON *forms, const cJSON *v,
                             unsigned char *marks, size_t n)
{
    if (!cJSON_IsArray(forms)) {
        cp_schema_fatal(c, "the schema's %s is not an array", word);
        return 0;
    }
    int all = word[0] == 'a' && word[1] == 'l';
    int one = word[0] == 'o';
    cp_schema_found saved = all ? (cp_schema_found){0} : cp_schema_set_aside(c);
    size_t held = 0, tried = 0;
    /* of the forms that fail, the one that got deepest into v says best what is wrong */
    cp_schema_found best = {0};
    for (const cJSON *f = forms->child; f && !c->fatal; f = f->next) {
        unsigned char small[CP_SCHEMA_SMALL_OBJECT];
        unsigned char *m = marks ? cp_schema_marks(c, n, small) : NULL;
        int ok = cp_schema_check(c, f, v, m);
        if (ok)
            cp_schema_marks_or(marks, m, n);
        if (m)
            cp_schema_marks_free(m, small);
        held += ok != 0;
        tried++;
        if (!all) {
            if (!ok && c->found.has && (!best.has || c->found.depth > best.depth)) {
                cp_schema_found_free(&best);
                best = c->found;
            } else {
                cp_schema_found_free(&c->found);
            }
            c->found = (cp_schema_found){0};
        }
    }
    if (!all)
        c->found = best;
    int ok = all ? held == tried : one ? held == 1 : held >= 1;
    if (all)
        return ok;
    if (!ok && held > 1) {
        cp_schema_found_free(&c->found);
        cp_schema_fail(c, NULL, v, "expected exactly one of its forms (%zu fit)", held);
    } else if (!ok && (!c->found.has || c->found.depth <= c->depth)) {
        /* no form got past v itself: say what each form expects */
        cp_schema_found_free(&c->found);
        cp_strbuf b = {0};
        for (const cJSON *f = forms->child; f; f = f->next) {
            cp_schema_describe_schema(c, &b, f, 0);
            if (f->next)
                cp_strbuf_str(&b, " or ");
        }
        if (b.failed)
            cp_schema_fatal(c, "out of memory");
        else
            cp_schema_fail(c, NULL, v, "expected %s", cp_strbuf_text(&b, ""));
        cp_strbuf_free(&b);
    }
    cp_schema_take_back(c, saved, ok);
    return ok;
}

static int cp_schema_type(cp_schema_ctx *c, const cJSON *type, const cJSON *v)
{
    if (cJSON_IsString(type)) {
        int is = cp_schema_is_type(v, type->valuestring);
        if (is < 0)
            cp_schema_fatal(c, "the schema names an unknown type '%s'", type->valuestring);
        if (is == 0)
            cp_schema_fail(c, NULL, v, "expected %s", cp_schema_type_words(type->valuestring));
        return is == 1;
    }
    if (!cJSON_IsArray(type)) {
        cp_schema_fatal(c, "the schema has a \"type\" that is neither a name nor a list");
        return 0;
    }
    cp_strbuf b = {0};
    for (const cJSON *t = type->child; t; t = t->next) {
        int is = cJSON_IsString(t) ? cp_schema_is_type(v, t->valuestring) : -1;
        if (is < 0) {
            cp_schema_fatal(c, "the schema has a \"type\" list with an unknown type");
            break;
        }
        if (is) {
            cp_strbuf_free(&b);
            return 1;
        }
        cp_strbuf_str(&b, cp_schema_type_words(t->valuestring));
        if (t->next)
            cp_strbuf_str(&b, " or ");
    }
    if (!c->fatal)
        cp_schema_fail(c, NULL, v, "expected %s", cp_strbuf_text(&b, "another type"));
    cp_strbuf_free(&b);
    return 0;
}

static int cp_schema_number_bound(cp_schema_ctx *c, const char *word, const cJSON *bound,
                                  const cJSON *v)
{
    if (!cJSON_IsNumber(bound)) {
        cp_schema_fatal(c, "the schema's %s is not a number", word);
        return 0;
    }
    if (!cJSON_IsNumber(v))
        return 1;
    double x = v->valuedouble, b = bound->valuedouble;
    int ok;
    const char *rel;
    if (strcmp(word, "minimum") == 0)
        ok = x >= b, rel = ">=";
    else if (strcmp(word, "maximum") == 0)
        ok = x <= b, rel = "<=";
    else if (strcmp(word, "exclusiveMinimum") == 0)
        ok = x > b, rel = ">";
    else if (strcmp(word, "exclusiveMaximum") == 0)
        ok = x < b, rel = "<";
    else { /* multipleOf */
        double q = b > 0 ? x / b : NAN;
        ok = isfinite(q) && q == floor(q);
        rel = "a multiple of";
    }
    if (!ok) {
        char nb[40];
        cp_strbuf_format_number(nb, sizeof nb, b);
        cp_schema_fail(c, NULL, v, "expected a number %s %s", rel, nb);
    }
    return ok;
}

/* Member m of an object against its schema sub; the schema false refuses the key. */
static int cp_schema_member(cp_schema_ctx *c, const cJSON *sub, const cJSON *m)
{
    if (cJSON_IsFalse(sub)) {
        cp_schema_fail(c, m->string, m, "expected no such key (%s)", "the schema does not list it");
        return 0;
    }
    if (!cp_schema_push(c, m->string, 0))
        return 0;
    int ok = cp_schema_check(c, sub, m, NULL);
    c->depth--;
    return ok;
}

/* properties, additionalProperties: each member of the object v against its schema. */
static int cp_schema_members(cp_schema_ctx *c, const cJSON *s, const cJSON *v, unsigned char *marks)
{
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
    if (props && !cJSON_IsObject(props)) {
        cp_schema_fatal(c, "the schema's properties is not an object");
        return 0;
    }
    int ok = 1;
    size_t i = 0;
    for (const cJSON *m = v->child; m && !c->fatal; m = m->next, i++) {
        const cJSON *sub = props ? cJSON_GetObjectItemCaseSensitive(props, m->string) : NULL;
        if (!sub)
            sub = extra;
        if (!sub)
            continue;
        marks[i] = 1;
        ok &= cp_schema_member(c, sub, m);
    }
    return ok;
}

/* A bound on n, v's size: minProperties and maxProperties, minItems and maxItems, minLength and
 * maxLength. what and unit name v and its size in the failure: "expected WHAT of at most K
 * UNIT". */
static int cp_schema_size_keyword(cp_schema_ctx *c, const char *word, const cJSON *k,
                                  const cJSON *v, size_t n, const char *what, const char *unit)
{
    if (!cJSON_IsNumber(k)) {
        cp_schema_fatal(c, "the schema's %s is not a number", word);
        return 0;
    }
    int max = strncmp(word, "max", 3) == 0;
    if (max ? (double)n <= k->valuedouble : (double)n >= k->valuedouble)
        return 1;
    cp_schema_fail(c, NULL, v, "expected %s of %s %.0f %s", what, max ? "at most" : "at least",
                   k->valuedouble, unit);
    return 0;
}

static int cp_schema_object_keyword(cp_schema_ctx *c, const char *word, const cJSON *k,
                                    const cJSON *v)
{
    size_t n = (size_t)cJSON_GetArraySize(v);
    if (strcmp(word, "required") == 0) {
        int ok = 1;
        for (const cJSON *r = cJSON_IsArray(k) ? k->child : NULL; r; r = r->next) {
            if (!cJSON_IsString(r))
                continue;
            if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring)) {
                cp_schema_fail(c, r->valuestring, NULL, "expected a value (the key is required)");
                ok = 0;
            }
        }
        return ok;
    }
    if (strcmp(word, "propertyNames") == 0) {
        int ok = 1;
        for (const cJSON *m = v->child; m && !c->fatal; m = m->next) {
            cJSON *name = cJSON_CreateString(m->string);
            if (!name) {
                cp_schema_fatal(c, "out of memory");
                return 0;
            }
            if (!cp_schema_push(c, m->string, 0)) {
                cJSON_Delete(name);
                return 0;
            }
            ok &= cp_schema_check(c, k, name, NULL);
            c->depth--;
            cJSON_Delete(name);
        }
        return ok;
    }
    return cp_schema_size_keyword(c, word, k, v, n, "an object", "keys");
}

static int cp_schema_array_keyword(cp_schema_ctx *c, const char *word, const cJSON *k,
                                   const cJSON *v)
{
    size_t n = (size_t)cJSON_GetArraySize(v);
    if (strcmp(word, "items") == 0) {
        int ok = 1;
        size_t i = 0;
        for (const cJSON *e = v->child; e && !c->fatal; e = e->next, i++) {
            if (!cp_schema_push(c, NULL, i))
                return 0;
            ok &= cp_schema_check(c, k, e, NULL);
            c->depth--;
        }
        return ok;
    }
    if (strcmp(word, "uniqueItems") == 0) {
        if (!cJSON_IsTrue(k))
            return 1;
        for (const cJSON *a = v->child; a; a = a->next)
            for (const cJSON *b = a->next; b; b = b->next)
                if (cJSON_Compare(a, b, 1)) {
                    cp_schema_fail(c, NULL, v, "expected an array without repeated items");
                    return 0;
                }
        return 1;
    }
    return cp_schema_size_keyword(c, word, k, v, n, "an array", "items");
}

static int cp_schema_string_keyword(cp_schema_ctx *c, const char *word, const cJSON *k,
                                    const cJSON *v)
{
    if (strcmp(word, "pattern") == 0) {
        if (!cJSON_IsString(k)) {
            cp_schema_fatal(c, "the schema's pattern is not a string");
            return 0;
        }
        regex_t own;
        int free_own;
        const regex_t *re = cp_schema_regex(c, k, &own, &free_own);
        if (!re)
            return 0;
        int ok = regexec(re, v->valuestring, 0, NULL, 0) == 0;
        if (free_own)
            regfree(&own);
        if (!ok)
            cp_schema_fail(c, NULL, v, "expected a string matching %s", k->valuestring);
        return ok;
    }
    return cp_schema_size_keyword(c, word, k, v, cp_schema_utf8_length(v->valuestring), "a string",
                                  "characters");
}

/* Keywords that say nothing about the document. */
static int cp_schema_is_annotation(const char *word)
{
    static const char *const words[] = {"$schema",     "$id",     "$comment", "$defs", "title",
                                        "description", "default", "examples", "then",  "else"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word, words[i]) == 0)
            return 1;
    return 0;
}

/* One keyword of the schema s on v; marks: v's members evaluated (v an object), or NULL. */
static int cp_schema_keyword(cp_schema_ctx *c, const cJSON *s, const cJSON *k, const cJSON *v,
                             unsigned char *marks, size_t n)
{
    const char *word = k->string;
    if (cp_schema_is_annotation(word) || strcmp(word, "unevaluatedProperties") == 0)
        return 1;
    if (strcmp(word, "type") == 0)
        return cp_schema_type(c, k, v);
    if (strcmp(word, "$ref") == 0) {
        const cJSON *target = cJSON_IsString(k) ? cp_schema_resolve(c, k->valuestring) : NULL;
        if (!target)
            cp_schema_fatal(c, "the schema has a \"$ref\" that is not a reference");
        return target && cp_schema_check(c, target, v, marks);
    }
    if (strcmp(word, "const") == 0 || strcmp(word, "enum") == 0) {
        int is_enum = word[0] == 'e';
        if (is_enum && !cJSON_IsArray(k)) {
            cp_schema_fatal(c, "the schema's enum is not an array");
            return 0;
        }
        for (const cJSON *m = is_enum ? k->child : k; m; m = is_enum ? m->next : NULL)
            if (cJSON_Compare(m, v, 1))
                return 1;
        cp_strbuf b = {0};
        cp_strbuf_str(&b, is_enum ? "one of " : "");
        for (const cJSON *m = is_enum ? k->child : k; m; m = is_enum ? m->next : NULL) {
            cp_schema_buf_json(&b, m);
            if (is_enum && m->next)
                cp_strbuf_str(&b, ", ");
        }
        cp_schema_fail(c, NULL, v, "expected %s", cp_strbuf_text(&b, "another value"));
        cp_strbuf_free(&b);
        return 0;
    }
    if (strcmp(word, "minimum") == 0 || strcmp(word, "maximum") == 0 ||
        strcmp(word, "exclusiveMinimum") == 0 || strcmp(word, "exclusiveMaximum") == 0 ||
        strcmp(word, "multipleOf") == 0)
        return cp_schema_number_bound(c, word, k, v);
    if (strcmp(word, "minLength") == 0 || strcmp(word, "maxLength") == 0 ||
        strcmp(word, "pattern") == 0)
        return cJSON_IsString(v) ? cp_schema_string_keyword(c, word, k, v) : 1;
    if (strcmp(word, "properties") == 0 || strcmp(word, "additionalProperties") == 0) {
        /* both at once, when the first of them comes */
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
        if (!cJSON_IsObject(v) || (word[0] == 'a' && props))
            return 1;
        return cp_schema_members(c, s, v, marks);
    }
    if (strcmp(word, "required") == 0 || strcmp(word, "propertyNames") == 0 ||
        strcmp(word, "minProperties") == 0 || strcmp(word, "maxProperties") == 0)
        return cJSON_IsObject(v) ? cp_schema_object_keyword(c, word, k, v) : 1;
    if (strcmp(word, "items") == 0 || strcmp(word, "minItems") == 0 ||
        strcmp(word, "maxItems") == 0 || strcmp(word, "uniqueItems") == 0)
        return cJSON_IsArray(v) ? cp_schema_array_keyword(c, word, k, v) : 1;
    if (strcmp(word, "allOf") == 0 || strcmp(word, "anyOf") == 0 || strcmp(word, "oneOf") == 0)
        return cp_schema_combine(c, word, k, v, marks, n);
    if (strcmp(word, "if") == 0 || strcmp(word, "not") == 0) {
        unsigned char small[CP_SCHEMA_SMALL_OBJECT];
        unsigned char *m = marks ? cp_schema_marks(c, n, small) : NULL;
        c->quiet++;
        int holds = cp_schema_check(c, k, v, m);
        c->quiet--;
        int ok;
        if (word[0] == 'n') {
            ok = !holds;
            if (!ok)
                cp_schema_fail(c, NULL, v, "expected a value of another form");
        } else {
            if (holds)
                cp_schema_marks_or(marks, m, n);
            const cJSON *branch = cJSON_GetObjectItemCaseSensitive(s, holds ? "then" : "else");
            ok = !branch || cp_schema_check(c, branch, v, marks);
        }
        if (m)
            cp_schema_marks_free(m, small);
        return ok;
    }
    cp_schema_fatal(c, "the schema uses the keyword '%s', which this check does not know", word);
    return 0;
}

/* Checks v against the schema s. marks: when v is an object, one byte per member, set for each
 * member that a keyword evaluated (what unevaluatedProperties leaves alone); may be NULL. */
static int cp_schema_check(cp_schema_ctx *c, const cJSON *s, const cJSON *v, unsigned char *marks)
{
    if (c->fatal)
        return 0;
    if (cJSON_IsTrue(s))
        return 1;
    if (cJSON_IsFalse(s)) {
        cp_schema_fail(c, NULL, v, "expected nothing here");
        return 0;
    }
    if (!cJSON_IsObject(s)) {
        cp_schema_fatal(c, "a part of the schema is not a schema");
        return 0;
    }
    if (++c->nest > CP_SCHEMA_MAX_NEST) {
        cp_schema_fatal(c, "the schema nests deeper than the check goes");
        c->nest--;
        return 0;
    }
    size_t n = cJSON_IsObject(v) ? (size_t)cJSON_GetArraySize(v) : 0;
    unsigned char small[CP_SCHEMA_SMALL_OBJECT];
    unsigned char *own = cJSON_IsObject(v) ? cp_schema_marks(c, n, small) : NULL;
    int ok = 1;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(s, "type");
    if (type && !cp_schema_type(c, type, v)) {
        ok = 0; /* the other keywords would only say the same less clearly */
    } else {
        for (const cJSON *k = s->child; k && !c->fatal; k = k->next)
            if (strcmp(k->string, "type") != 0)
                ok &= cp_schema_keyword(c, s, k, v, own, n);
        const cJSON *rest = cJSON_GetObjectItemCaseSensitive(s, "unevaluatedProperties");
        if (rest && own) {
            size_t i = 0;
            for (const cJSON *m = v->child; m && !c->fatal; m = m->next, i++) {
                if (own[i])
                    continue;
                own[i] = 1;
                ok &= cp_schema_member(c, rest, m);
            }
        }
    }
    if (ok)
        cp_schema_marks_or(marks, own, n);
    if (own)
        cp_schema_marks_free(own, small);
    c->nest--;
    return ok && !c->fatal;
}

/* ---- the face
 * ------------------------------------------------------------------------------------ */

const char *cp_schema_name(cp_schema_kind kind)
{
    return kind == CP_SCHEMA_TRACE ? "coalprobe-trace.schema.json" : "coalprobe-report.schema.json";
}

const char *cp_schema_text(cp_schema_kind kind)
{
    return kind == CP_SCHEMA_TRACE ? cp_schema_trace_text : cp_schema_report_text;
}

void cp_schema_error_free(cp_schema_error *err)
{
    if (!err)
        return;
    free(err->where);
    free(err->message);
    *err = (cp_schema_error){0};
}

int cp_schema_validate(cp_schema_kind kind, const cJSON *doc, cp_schema_error *err, cp_status *st)
{
    *err = (cp_schema_error){0};
    cJSON *schema = cJSON_Parse(cp_schema_text(kind));
    if (!schema)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot read the built-in %s (out of memory?)",
                             cp_schema_name(kind));
    cp_schema_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        cJSON_Delete(schema);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory checking a report");
    }
    c->root = schema;
    c->doc = doc;
    int ok = cp_schema_check(c, schema, doc, NULL);
    int rc = CP_EXIT_OK;
    if (c->fatal) {
        rc = cp_status_set(st, CP_EXIT_RUNTIME, "cannot check a report against %s: %s",
                           cp_schema_name(kind), c->fatal_message);
    } else if (!ok) {
        if (!c->found.has) /* cannot be: every failure records one, unless out of memory */
            cp_schema_fail(c, NULL, doc, "expected a document of this schema");
        if (c->found.has) {
            *err = c->found.e;
            c->found = (cp_schema_found){0};
            rc = CP_EXIT_USAGE;
        } else {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory checking a report");
        }
    }
    cp_schema_found_free(&c->found);
    for (size_t i = 0; i < c->nregex; i++)
        if (c->regex[i].ok)
            regfree(&c->regex[i].re);
    free(c);
    cJSON_Delete(schema);
    return rc;
}

int cp_schema_status(cp_status *st, const char *path, cp_schema_kind kind,
                     const cp_schema_error *err, const char *row_label)
{
    const char *where = err->where ? err->where : "";
    if (err->array && *err->rest)
        cp_status_set(st, CP_EXIT_USAGE, "'%s' fails its schema (%s): %s[%zu]%s%s%s, key %s: %s",
                      path, cp_schema_name(kind), err->array, err->index, row_label ? " (" : "",
                      row_label ? row_label : "", row_label ? ")" : "", err->rest, err->message);
    else if (err->array)
        cp_status_set(st, CP_EXIT_USAGE, "'%s' fails its schema (%s): %s%s%s%s: %s", path,
                      cp_schema_name(kind), where, row_label ? " (" : "",
                      row_label ? row_label : "", row_label ? ")" : "", err->message);
    else if (*where)
        cp_status_set(st, CP_EXIT_USAGE, "'%s' fails its schema (%s): key %s: %s", path,
                      cp_schema_name(kind), where, err->message);
    else
        cp_status_set(st, CP_EXIT_USAGE, "'%s' fails its schema (%s): %s", path,
                      cp_schema_name(kind), err->message);
    cp_status_hint(st,
                   "a report that fails its schema (docs/schema/%s) is not compared: compare "
                   "reports as coalprobe wrote them",
                   cp_schema_name(kind));
    return CP_EXIT_USAGE;
}
