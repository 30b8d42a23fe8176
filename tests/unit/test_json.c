/* test_json.c: unit tests of cp_json: the one number encoding of every JSON report (whole
 * numbers as digits, never in exponent form, up to 1e19; null for NAN and infinities), the
 * first failure recorded, objects that may be null and fields of a struct by table. */
#include "cp_test.h"
#include "report/cp_report.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What {"v": v} prints as, unformatted, the braces and key left out. */
static void check_number(double v, const char *want, int line)
{
    cp_json j = {0};
    cJSON *o = cJSON_CreateObject();
    cp_json_number(&j, o, "v", v);
    char *text = cJSON_PrintUnformatted(o);
    const char *got = text && strlen(text) > 6 ? text + 5 : "?";
    char trimmed[64];
    snprintf(trimmed, sizeof trimmed, "%.*s", (int)strlen(got) - 1, got);
    if (!j.failed && strcmp(trimmed, want) == 0) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: number: got '%s', wanted '%s'\n", __FILE__, line, trimmed, want);
    }
    cJSON_free(text);
    cJSON_Delete(o);
}

static void test_numbers(void)
{
    check_number(0, "0", __LINE__);
    check_number(-0.0, "0", __LINE__);
    check_number(42, "42", __LINE__);
    check_number(0.25, "0.25", __LINE__);
    check_number(999999999999999.0, "999999999999999", __LINE__);
    check_number(1e15, "1000000000000000", __LINE__);
    check_number(2e16, "20000000000000000", __LINE__);
    check_number(-2e16, "-20000000000000000", __LINE__);
    check_number(9007199254740993.0, "9007199254740992", __LINE__); /* the double's own digits */
    check_number(1e19, "1e+19", __LINE__);
    check_number(1e300, "1e+300", __LINE__);
    check_number(NAN, "null", __LINE__);
    check_number(INFINITY, "null", __LINE__);
}

static void test_u64(void)
{
    cp_json j = {0};
    cJSON *o = cJSON_CreateObject();
    cp_json_u64(&j, o, "small", 7);
    cp_json_u64(&j, o, "big", UINT64_MAX);
    cp_json_u64(&j, o, "odd", (uint64_t)9007199254740993u); /* beyond 2^53: exact digits */
    char *text = cJSON_PrintUnformatted(o);
    CHECK(!j.failed && text &&
          strcmp(text, "{\"small\":7,\"big\":18446744073709551615,\"odd\":9007199254740993}") == 0);
    cJSON_free(text);
    cJSON_Delete(o);
}

/* What went wrong first: a key added to an object that is not there names the key; a failure
 * with no key says memory. */
static void test_why(void)
{
    cp_json j = {0};
    CHECK(strstr(cp_json_why(&j), "out of memory") != NULL);
    cJSON *root = cJSON_CreateObject();
    cp_json_number(&j, cp_json_object_if(&j, root, "absent", 0), "inner", 1);
    CHECK(j.failed && strcmp(cp_json_why(&j), "'inner' added to a missing object") == 0);
    cp_json_string(&j, NULL, "later", "x"); /* the first failure is kept */
    CHECK(strcmp(cp_json_why(&j), "'inner' added to a missing object") == 0);
    cJSON_Delete(root);
    cp_json k = {0};
    cp_json_append_u64(&k, NULL, 1);
    CHECK(k.failed && strcmp(cp_json_why(&k), "'[]' added to a missing object") == 0);
}

/* A document of every kind of number, keys referred to (static_keys) or copied. */
static cJSON *freeze_sample(int static_keys)
{
    cp_json j = {.static_keys = static_keys};
    cJSON *root = cJSON_CreateObject();
    static const double values[] = {0,
                                    1,
                                    -1,
                                    42,
                                    2147483647.0,
                                    2147483648.0,
                                    -3e9,
                                    999999999999999.0,
                                    0.1,
                                    1.0 / 3,
                                    1e-7,
                                    123456.789,
                                    0.30000000000000004,
                                    5e-324,
                                    1.7976931348623157e308,
                                    2.5e15,
                                    -0.0};
    cJSON *list = cp_json_array(&j, root, "list");
    for (size_t i = 0; i < CP_COUNT_OF(values); i++) {
        cJSON *o = cp_json_append(&j, list);
        cp_json_number(&j, o, "v", values[i]);
        cp_json_u64(&j, o, "u", (uint64_t)i * 1000000007u);
    }
    cJSON *nested = cp_json_object(&j, root, "nested");
    cp_json_number(&j, cp_json_object(&j, nested, "deeper"), "x", 6.02214076e23);
    cp_json_string(&j, nested, "s", "text 12");
    cp_json_null(&j, nested, "n");
    cJSON_AddItemToArray(list, cJSON_CreateNumber(7)); /* a number straight in an array */
    CHECK(!j.failed);
    return root;
}

/* Frozen, a document prints the very text it printed before, formatted or not, and is deleted
 * cleanly whatever its keys (ASan would tell a key or text freed that is not the heap's). */
static void test_freeze(void)
{
    for (int keys = 0; keys < 2; keys++) {
        cJSON *a = freeze_sample(keys), *b = freeze_sample(keys);
        char *want = cJSON_Print(a), *want_compact = cJSON_PrintUnformatted(a);
        cp_json_texts *t = cp_json_freeze(b);
        CHECK(t != NULL);
        char *got = cJSON_Print(b), *got_compact = cJSON_PrintUnformatted(b);
        CHECK(want && got && strcmp(want, got) == 0);
        CHECK(want_compact && got_compact && strcmp(want_compact, got_compact) == 0);
        if (want && got && strcmp(want, got) != 0)
            fprintf(stderr, "before:\n%s\nafter:\n%s\n", want, got);
        cp_json_free_texts(t); /* before the tree: cJSON_Delete does not read them */
        cJSON_Delete(b);
        cJSON_Delete(a);
        cJSON_free(want);
        cJSON_free(got);
        cJSON_free(want_compact);
        cJSON_free(got_compact);
    }
    CHECK(cp_json_freeze(NULL) == NULL);
    cp_json_free_texts(NULL);
    /* a report's size, spread over 4 threads (each row a unit, blocks chained): the same text;
     * the blocks of every worker freed (ASan would tell a lost one) */
    cp_parallel_set_threads(4);
    cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();
    cJSON *ra = cJSON_AddArrayToObject(a, "rows"), *rb = cJSON_AddArrayToObject(b, "rows");
    cJSON_AddNumberToObject(a, "schema_version", 3);
    cJSON_AddNumberToObject(b, "schema_version", 3);
    for (int i = 0; i < 3000; i++) {
        for (int side = 0; side < 2; side++) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddNumberToObject(row, "i", i);
            cJSON_AddNumberToObject(row, "third", i / 3.0);
            cJSON_AddNumberToObject(row, "big", 1e14 + i);
            cJSON *inner = cJSON_AddArrayToObject(row, "v");
            for (int k = 0; k < 40; k++) /* 40 x 16 bytes a row: several blocks a worker */
                cJSON_AddItemToArray(inner, cJSON_CreateNumber(i * 1000003.0 + k / 7.0));
            cJSON_AddItemToArray(side ? rb : ra, row);
        }
    }
    char *want = cJSON_PrintUnformatted(a);
    cp_json_texts *t = cp_json_freeze(b);
    char *got = cJSON_PrintUnformatted(b);
    CHECK(t != NULL && want && got && strcmp(want, got) == 0);
    cp_json_free_texts(t);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_free(want);
    cJSON_free(got);
    cp_parallel_set_threads(0);
}

/* cp_json_put_fn collecting the parts into a cp_strbuf-like growing string. */
typedef struct {
    char *text;
    size_t len, cap, parts;
} collected;

static void collect(void *arg, const char *text, size_t len)
{
    collected *c = arg;
    if (c->len + len + 1 > c->cap) {
        c->cap = 2 * (c->len + len + 1);
        c->text = realloc(c->text, c->cap);
    }
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->parts++;
}

/* The parts, joined, are cJSON_PrintUnformatted's text; the document is as it was after; a big
 * last array is printed in parts over the threads, anything else whole. */
static void check_parts(cJSON *doc, int parted, int line)
{
    char *want = cJSON_PrintUnformatted(doc);
    collected c = {0};
    int ok = cp_json_print_parts(doc, collect, &c);
    char *again = cJSON_PrintUnformatted(doc);
    if (ok && want && c.text && strcmp(want, c.text) == 0 && again && strcmp(want, again) == 0 &&
        (c.parts > 1) == parted) {
        cp_test_passed++;
    } else {
        cp_test_failed++;
        fprintf(stderr, "%s:%d: print_parts: ok %d, %zu parts, same text %d, restored %d\n",
                __FILE__, line, ok, c.parts, want && c.text && !strcmp(want, c.text),
                want && again && !strcmp(want, again));
    }
    free(c.text);
    cJSON_free(want);
    cJSON_free(again);
}

static void test_print_parts(void)
{
    cp_parallel_set_threads(3);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "kind", "sweep \"quoted\" [x]}");
    cJSON *rows = cJSON_AddArrayToObject(doc, "rows");
    for (int i = 0; i < 1000; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "i", i / 3.0);
        cJSON_AddItemToObject(row, "rows", cJSON_CreateArray()); /* the same key, inside */
        cJSON_AddItemToArray(rows, row);
    }
    check_parts(doc, 1, __LINE__);
    cJSON *first = cJSON_DetachItemFromObject(doc, "kind"); /* the array alone */
    check_parts(doc, 1, __LINE__);
    cJSON_AddItemToObject(doc, "kind", first); /* the last member not an array: whole */
    check_parts(doc, 0, __LINE__);
    cJSON_Delete(doc);
    cJSON *small = cJSON_CreateObject(); /* a few elements: whole */
    cJSON *list = cJSON_AddArrayToObject(small, "rows");
    cJSON_AddItemToArray(list, cJSON_CreateNumber(1));
    check_parts(small, 0, __LINE__);
    cJSON_Delete(small);
    cp_parallel_set_threads(0);
}

/* Arrays of whole numbers as one raw value print as cJSON prints the same arrays formatted. */
static void test_ints(void)
{
    cp_json j = {0};
    cJSON *o = cJSON_CreateObject();
    cp_json_ints a = {0};
    cp_json_ints_open(&a);
    cp_json_ints_u64(&a, 0);
    cp_json_ints_null(&a);
    cp_json_ints_open(&a);
    cp_json_ints_u64(&a, 18446744073709551615u);
    cp_json_ints_close(&a);
    cp_json_ints_open(&a);
    cp_json_ints_close(&a);
    cp_json_ints_close(&a);
    cp_json_ints_add(&j, o, "a", &a);
    CHECK(a.text == NULL); /* given up */
    cJSON *same = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(same, "a");
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(0));
    cJSON_AddItemToArray(arr, cJSON_CreateNull());
    cJSON *inner = cJSON_CreateArray();
    cJSON_AddItemToArray(inner, cJSON_CreateRaw("18446744073709551615"));
    cJSON_AddItemToArray(arr, inner);
    cJSON_AddItemToArray(arr, cJSON_CreateArray());
    char *got = cJSON_Print(o), *want = cJSON_Print(same);
    CHECK(!j.failed && got && want && strcmp(got, want) == 0);
    cJSON_free(got);
    cJSON_free(want);
    cJSON_Delete(same);
    /* unbalanced: refused, with the key named */
    cp_json_ints b = {0};
    cp_json_ints_open(&b);
    cp_json_ints_u64(&b, 1);
    cp_json_ints_add(&j, o, "b", &b);
    CHECK(j.failed && strstr(cp_json_why(&j), "'b'") != NULL);
    cJSON_Delete(o);
}

/* A failed call is recorded, building goes on harmlessly, and finishing reports it. */
static void test_failure(void)
{
    cp_json j = {0};
    cJSON *root = cp_json_check(&j, cJSON_CreateObject());
    cJSON *rows = cp_json_array(&j, root, "rows");
    CHECK(cp_json_append(&j, rows) != NULL);
    CHECK(!j.failed);
    CHECK(cp_json_check(&j, NULL) == NULL);
    CHECK(j.failed);
    cp_json_string(&j, NULL, "ignored", "x"); /* to a NULL parent: nothing happens */
    cp_json_number(&j, cp_json_object(&j, NULL, "none"), "n", 1);
    CHECK(cp_json_finish(&j, root) == NULL); /* and root is freed (ASan would tell) */

    cp_json ok = {0};
    root = cp_json_check(&ok, cJSON_CreateObject());
    cp_json_string(&ok, root, "s", NULL);
    cp_json_bool(&ok, root, "b", 5);
    char *text = cp_json_finish(&ok, root);
    CHECK(text && strcmp(text, "{\n\t\"s\":\tnull,\n\t\"b\":\ttrue\n}") == 0);
    cJSON_free(text);
}

/* An object when present, null otherwise; the fields of a struct of doubles, in table order,
 * each in the one number encoding. */
static void test_object_if_and_doubles(void)
{
    typedef struct {
        double a, b, c;
    } three;
    static const cp_json_field fields[] = {
        CP_JSON_FIELD(three, c), CP_JSON_FIELD(three, a), {"bee", offsetof(three, b)}};
    three t = {1.5, NAN, 2e16};
    cp_json j = {0};
    cJSON *root = cp_json_check(&j, cJSON_CreateObject());
    CHECK(cp_json_object_if(&j, root, "none", 0) == NULL);
    cJSON *o = cp_json_object_if(&j, root, "some", 1);
    CHECK(o != NULL);
    cp_json_doubles(&j, o, &t, fields, CP_COUNT_OF(fields));
    char *text = cJSON_PrintUnformatted(root);
    CHECK(!j.failed && text &&
          strcmp(text, "{\"none\":null,\"some\":{\"c\":20000000000000000,\"a\":1.5,"
                       "\"bee\":null}}") == 0);
    cJSON_free(text);
    cJSON_Delete(root);
}

int main(void)
{
    test_numbers();
    test_u64();
    test_why();
    test_freeze();
    test_print_parts();
    test_ints();
    test_failure();
    test_object_if_and_doubles();
    return cp_test_finish();
}
