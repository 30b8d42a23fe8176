/* cp_json.c: building a JSON document with cJSON, its failure reported once, and the one
 * number encoding of coalprobe's JSON. */
#include "cp_json.h"

#include "base/cp_base.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cJSON_Print writes whole numbers from 1e15 up in exponent form ("%1.15g"): those are added as
 * raw digits, up to where a double's digits stop meaning anything. */
#define CP_JSON_RAW_FROM 1e15
#define CP_JSON_RAW_TO 1e19

cJSON *cp_json_check(cp_json *j, cJSON *item)
{
    if (!item)
        j->failed = 1;
    return item;
}

const char *cp_json_why(const cp_json *j)
{
    return j->why[0] ? j->why : "out of memory (or its text would pass cJSON's 2 GiB)";
}

/* Records the first key that had no object (or no name) to go into. Returns 1 when o and key are
 * there. */
static int cp_json_parent(cp_json *j, const cJSON *o, const char *key)
{
    if (o && key)
        return 1;
    if (!j->failed)
        snprintf(j->why, sizeof j->why, "'%s' added to a missing object", key ? key : "(no name)");
    j->failed = 1;
    return 0;
}

/* item (NULL: memory ran out) added to o under key: the key copied, or, for a document whose
 * keys outlive it (j->static_keys), referred to. Returns item, or NULL (it is deleted). */
static cJSON *cp_json_put(cp_json *j, cJSON *o, const char *key, cJSON *item)
{
    if (!cp_json_parent(j, o, key) || !item) {
        cJSON_Delete(item);
        j->failed = 1;
        return NULL;
    }
    if (!(j->static_keys ? cJSON_AddItemToObjectCS(o, key, item)
                         : cJSON_AddItemToObject(o, key, item))) {
        cJSON_Delete(item);
        j->failed = 1;
        return NULL;
    }
    return item;
}

void cp_json_null(cp_json *j, cJSON *o, const char *key)
{
    cp_json_put(j, o, key, cJSON_CreateNull());
}

void cp_json_bool(cp_json *j, cJSON *o, const char *key, int v)
{
    cp_json_put(j, o, key, cJSON_CreateBool(v != 0));
}

const char *cp_json_digits(char *buf, size_t size, uint64_t v)
{
    char *p = buf + size - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void cp_json_number(cp_json *j, cJSON *o, const char *key, double v)
{
    if (!isfinite(v)) {
        cp_json_null(j, o, key);
    } else if (v == floor(v) && fabs(v) >= CP_JSON_RAW_FROM && fabs(v) < CP_JSON_RAW_TO) {
        char digits[32];
        snprintf(digits, sizeof digits, "%.0f", v);
        cp_json_put(j, o, key, cJSON_CreateRaw(digits));
    } else { /* -0 as 0: cJSON would write "-0" */
        cp_json_put(j, o, key, cJSON_CreateNumber(v == 0 ? 0.0 : v));
    }
}

/* A whole number as cJSON would hold it: a number below 1e15, its raw digits from there (which
 * cJSON would print in exponent form). */
static cJSON *cp_json_create_u64(uint64_t v)
{
    char digits[24];
    return (double)v < CP_JSON_RAW_FROM ? cJSON_CreateNumber((double)v)
                                        : cJSON_CreateRaw(cp_json_digits(digits, sizeof digits, v));
}

void cp_json_u64(cp_json *j, cJSON *o, const char *key, uint64_t v)
{
    cp_json_put(j, o, key, cp_json_create_u64(v));
}

void cp_json_string(cp_json *j, cJSON *o, const char *key, const char *s)
{
    if (s)
        cp_json_put(j, o, key, cJSON_CreateString(s));
    else
        cp_json_null(j, o, key);
}

cJSON *cp_json_object(cp_json *j, cJSON *o, const char *key)
{
    return cp_json_put(j, o, key, cJSON_CreateObject());
}

cJSON *cp_json_array(cp_json *j, cJSON *o, const char *key)
{
    return cp_json_put(j, o, key, cJSON_CreateArray());
}

cJSON *cp_json_object_if(cp_json *j, cJSON *o, const char *key, int present)
{
    if (present)
        return cp_json_object(j, o, key);
    cp_json_null(j, o, key);
    return NULL;
}

void cp_json_doubles(cp_json *j, cJSON *o, const void *s, const cp_json_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, (const char *)s + fields[i].offset, sizeof v);
        cp_json_number(j, o, fields[i].key, v);
    }
}

cJSON *cp_json_append(cp_json *j, cJSON *array)
{
    if (!cp_json_parent(j, array, "[]"))
        return NULL;
    cJSON *item = cJSON_CreateObject();
    if (item && !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        item = NULL;
    }
    return cp_json_check(j, item);
}

/* item appended to array; item deleted (and the failure recorded) when that fails. */
static void cp_json_append_item(cp_json *j, cJSON *array, cJSON *item)
{
    if (!item || !cp_json_parent(j, array, "[]") || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        j->failed = 1;
    }
}

void cp_json_append_u64(cp_json *j, cJSON *array, uint64_t v)
{
    cp_json_append_item(j, array, cp_json_create_u64(v));
}

/* Appends n bytes to a's text (always NUL-ended), recording a failure. */
static void cp_json_ints_put(cp_json_ints *a, const char *s, size_t n)
{
    if (a->failed)
        return;
    if (a->len + n + 1 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 256;
        while (cap < a->len + n + 1)
            cap *= 2;
        char *t = realloc(a->text, cap);
        if (!t) {
            a->failed = 1;
            return;
        }
        a->text = t;
        a->cap = cap;
    }
    memcpy(a->text + a->len, s, n);
    a->len += n;
    a->text[a->len] = '\0';
}

/* The separator before an element of the array open now. */
static void cp_json_ints_element(cp_json_ints *a)
{
    if (a->depth == 0) {
        a->failed = 1; /* an element outside every array */
        return;
    }
    if (!a->first[a->depth - 1])
        cp_json_ints_put(a, ", ", 2);
    a->first[a->depth - 1] = 0;
}

void cp_json_ints_open(cp_json_ints *a)
{
    if (a->depth > 0)
        cp_json_ints_element(a);
    if (a->depth == CP_JSON_INTS_DEPTH) {
        a->failed = 1;
        return;
    }
    a->first[a->depth++] = 1;
    cp_json_ints_put(a, "[", 1);
}

void cp_json_ints_u64(cp_json_ints *a, uint64_t v)
{
    char buf[24];
    const char *d = cp_json_digits(buf, sizeof buf, v);
    cp_json_ints_element(a);
    cp_json_ints_put(a, d, (size_t)(buf + sizeof buf - 1 - d));
}

void cp_json_ints_null(cp_json_ints *a)
{
    cp_json_ints_element(a);
    cp_json_ints_put(a, "null", 4);
}

void cp_json_ints_close(cp_json_ints *a)
{
    if (a->depth == 0) {
        a->failed = 1;
        return;
    }
    a->depth--;
    cp_json_ints_put(a, "]", 1);
}

void cp_json_ints_add(cp_json *j, cJSON *o, const char *key, cp_json_ints *a)
{
    if (a->failed || a->depth != 0 || !a->text) {
        if (!j->failed)
            snprintf(j->why, sizeof j->why,
                     "'%s' not written (out of memory, or its arrays "
                     "unbalanced)",
                     key ? key : "(no name)");
        j->failed = 1;
    } else {
        cp_json_put(j, o, key, cJSON_CreateRaw(a->text));
    }
    free(a->text);
    memset(a, 0, sizeof *a);
}

/* The text cJSON 1.7's print_number writes for the finite double v (its "%d" for values that
 * fit an int, "%1.15g" checked by reading it back, "%1.17g" otherwise), into buf[32]. */
static void cp_json_number_text(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < CP_JSON_RAW_FROM) {
        char digits[24];
        const char *d = cp_json_digits(digits, sizeof digits, (uint64_t)fabs(v));
        char *at = buf; /* size is 40: a sign and at most 15 digits */
        if (v < 0)
            *at++ = '-';
        memcpy(at, d, (size_t)(digits + sizeof digits - d));
        return;
    }
    snprintf(buf, size, "%1.15g", v);
    double back = strtod(buf, NULL);
    double most = fabs(back) > fabs(v) ? fabs(back) : fabs(v);
    if (!(fabs(back - v) <= most * DBL_EPSILON))
        snprintf(buf, size, "%1.17g", v);
}

/* The numbers' texts of a frozen document: 64 KiB chunks, the newest first. */
#define CP_JSON_CHUNK_BYTES 65536
struct cp_json_texts {
    struct cp_json_texts *older;
    size_t used;
    char text[CP_JSON_CHUNK_BYTES];
};

/* Makes item (a finite number) raw text kept in *t (a new chunk when the newest is full): the
 * item refers to it (cJSON_IsReference: cJSON_Delete leaves the text alone). 0 when memory ran
 * out (it stays a number). */
static int cp_json_freeze_number(cJSON *item, cp_json_texts **t)
{
    char text[40];
    cp_json_number_text(text, sizeof text, item->valuedouble);
    size_t n = strlen(text) + 1; /* digits of at most 17, a sign, or "%1.17g": always fits */
    if (!*t || (*t)->used + n > CP_JSON_CHUNK_BYTES) {
        cp_json_texts *c = malloc(sizeof *c);
        if (!c)
            return 0;
        c->older = *t;
        c->used = 0;
        *t = c;
    }
    char *at = (*t)->text + (*t)->used;
    memcpy(at, text, n);
    (*t)->used += n;
    item->type = cJSON_Raw | cJSON_IsReference | (item->type & cJSON_StringIsConst);
    item->valuestring = at;
    return 1;
}

static void cp_json_freeze_tree(cJSON *item, cp_json_texts **t)
{
    if (cJSON_IsNumber(item)) {
        if (isfinite(item->valuedouble))
            cp_json_freeze_number(item, t); /* on failure it stays a number: prints the same */
        return;
    }
    for (cJSON *c = item->child; c; c = c->next)
        cp_json_freeze_tree(c, t);
}

/* A document's freezing spread over the CPUs: the units are root's members, and the elements
 * of a member that is an array (a report's rows); each worker keeps its texts in a chain. */
#define CP_JSON_PARALLEL_GRAIN 64
typedef struct cp_json_freeze_job {
    cJSON **units;
    cp_json_texts **chains; /* one a worker */
} cp_json_freeze_job;

static void cp_json_freeze_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    cp_json_freeze_job *job = arg;
    for (uint64_t i = begin; i < end; i++)
        cp_json_freeze_tree(job->units[i], &job->chains[worker]);
}

/* The chains of the workers as one (the first's oldest block leads to the second's newest). */
static cp_json_texts *cp_json_join_chains(cp_json_texts **chains, unsigned n)
{
    cp_json_texts *head = NULL, **tail = &head;
    for (unsigned w = 0; w < n; w++) {
        if (!chains[w])
            continue;
        *tail = chains[w];
        while (*tail)
            tail = &(*tail)->older;
    }
    return head;
}

cp_json_texts *cp_json_freeze(cJSON *root)
{
    cp_json_texts *t = NULL;
    if (!root)
        return NULL;
    size_t n = 0;
    for (cJSON *c = root->child; c; c = c->next)
        n += cJSON_IsArray(c) ? (size_t)cJSON_GetArraySize(c) : 1;
    unsigned workers = cp_parallel_workers(n, CP_JSON_PARALLEL_GRAIN);
    cp_json_freeze_job job = {NULL, NULL};
    if (workers > 1) {
        job.units = malloc(n * sizeof *job.units);
        job.chains = calloc(workers, sizeof *job.chains);
    }
    if (!job.units || !job.chains) { /* one CPU, few units, or no memory: here, in order */
        free(job.units);
        free(job.chains);
        cp_json_freeze_tree(root, &t);
        return t;
    }
    size_t k = 0;
    for (cJSON *c = root->child; c; c = c->next) {
        if (!cJSON_IsArray(c)) {
            job.units[k++] = c;
            continue;
        }
        for (cJSON *e = c->child; e; e = e->next)
            job.units[k++] = e;
    }
    /* cancelled part way (a signal), the items left stay numbers: they print the same */
    cp_parallel_for(workers, n, CP_JSON_PARALLEL_GRAIN, cp_json_freeze_chunk, &job);
    t = cp_json_join_chains(job.chains, workers);
    free(job.units);
    free(job.chains);
    return t;
}

void cp_json_free_texts(cp_json_texts *t)
{
    while (t) {
        cp_json_texts *older = t->older;
        free(t);
        t = older;
    }
}

void cp_json_append_null(cp_json *j, cJSON *array)
{
    cp_json_append_item(j, array, cJSON_CreateNull());
}

void cp_json_append_string(cp_json *j, cJSON *array, const char *s)
{
    cp_json_append_item(j, array, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

char *cp_json_finish(const cp_json *j, cJSON *root)
{
    char *text = j->failed || !root ? NULL : cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

char *cp_json_finish_frozen(const cp_json *j, cJSON *root)
{
    if (j->failed || !root)
        return cp_json_finish(j, root);
    cp_json_texts *texts = cp_json_freeze(root);
    char *text = cJSON_Print(root);
    cp_json_free_texts(texts); /* before the tree: see cp_html_write_owned */
    cJSON_Delete(root);
    return text;
}

/* Printing a document's big last array over the CPUs: each element printed compact. */
typedef struct cp_json_print_job {
    cJSON **items;
    char **texts;
} cp_json_print_job;

static void cp_json_print_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    (void)worker;
    cp_json_print_job *job = arg;
    for (uint64_t i = begin; i < end; i++)
        job->texts[i] = cJSON_PrintUnformatted(job->items[i]);
}

/* put(arg, text) of root printed whole (cJSON_PrintUnformatted); 0 when memory ran out. */
static int cp_json_print_whole(const cJSON *root, cp_json_put_fn *put, void *arg)
{
    char *text = cJSON_PrintUnformatted(root);
    if (!text)
        return 0;
    put(arg, text, strlen(text));
    cJSON_free(text);
    return 1;
}

/* The elements of array printed over the CPUs and handed to put in order, "," between them;
 * 0 (nothing handed) when memory ran out. */
static int cp_json_print_elements(cJSON *array, size_t n, cp_json_put_fn *put, void *arg)
{
    cp_json_print_job job = {malloc(n * sizeof *job.items), calloc(n, sizeof *job.texts)};
    int ok = job.items && job.texts;
    size_t k = 0;
    for (cJSON *e = array->child; ok && e; e = e->next)
        job.items[k++] = e;
    if (ok)
        ok = cp_parallel_for(cp_parallel_workers(n, CP_JSON_PARALLEL_GRAIN), n,
                             CP_JSON_PARALLEL_GRAIN, cp_json_print_chunk, &job);
    for (size_t i = 0; ok && i < n; i++)
        ok = job.texts[i] != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        if (i)
            put(arg, ",", 1);
        put(arg, job.texts[i], strlen(job.texts[i]));
    }
    for (size_t i = 0; job.texts && i < n; i++)
        cJSON_free(job.texts[i]);
    free(job.items);
    free(job.texts);
    return ok;
}

int cp_json_print_parts(cJSON *root, cp_json_put_fn *put, void *arg)
{
    cJSON *last = root && cJSON_IsObject(root) && root->child ? root->child->prev : NULL;
    size_t n = cJSON_IsArray(last) ? (size_t)cJSON_GetArraySize(last) : 0;
    if (!last || !last->string || cp_parallel_workers(n, CP_JSON_PARALLEL_GRAIN) < 2)
        return cp_json_print_whole(root, put, arg);
    /* root printed with an empty array in the last one's place: "...,"KEY":[]}" */
    cJSON *empty = cJSON_CreateArray();
    if (!empty)
        return 0;
    cJSON_DetachItemViaPointer(root, last);
    char *text = NULL;
    if (cJSON_AddItemToObject(root, last->string, empty)) { /* the key copied */
        text = cJSON_PrintUnformatted(root);
        cJSON_ReplaceItemViaPointer(root, empty, last); /* last back, with its key; empty freed */
    } else {
        cJSON_Delete(empty);
        cJSON_AddItemToArray(root, last); /* back at the end of the members, its key kept */
    }
    size_t len = text ? strlen(text) : 0;
    int ok = len >= 3 && strcmp(text + len - 3, "[]}") == 0;
    if (ok) {
        put(arg, text, len - 2); /* up to the array's "[" */
        ok = cp_json_print_elements(last, n, put, arg);
        if (ok)
            put(arg, "]}", 2);
    }
    cJSON_free(text);
    return ok;
}
