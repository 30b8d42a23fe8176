/* test_schema.c: the JSON Schemas built into coalprobe (exactly docs/schema/'s files) and the
 * validator compare checks its inputs with: valid reports pass; each kind of failure names the
 * place, what was expected and what was found. */
#include "report/cp_report.h"
#include "cp_test.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#define ROOT CP_TEST_DATA_DIR "/../"

static cJSON *load(const char *path)
{
    size_t len = 0;
    char *text = cp_text_read_file(path, &len);
    CHECK(text != NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    CHECK(doc != NULL);
    free(text);
    return doc;
}

/* The error of doc against kind's schema; *rc the validator's answer. */
static cp_schema_error validate(cp_schema_kind kind, const cJSON *doc, int *rc)
{
    cp_schema_error err;
    cp_status st;
    cp_status_clear(&st);
    *rc = cp_schema_validate(kind, doc, &err, &st);
    if (*rc == CP_EXIT_RUNTIME)
        fprintf(stderr, "validator: %s\n", st.message);
    return err;
}

static void check_valid(cp_schema_kind kind, const char *path)
{
    cJSON *doc = load(path);
    int rc;
    cp_schema_error err = validate(kind, doc, &rc);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "%s: %s: %s\n", path, err.where ? err.where : "",
                err.message ? err.message : "");
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    cp_schema_error_free(&err);
    cJSON_Delete(doc);
}

/* doc (owned, deleted) fails at where, in array[index] (array NULL: outside the arrays), with a
 * message holding message. */
static void check_fails(cp_schema_kind kind, cJSON *doc, const char *where, const char *array,
                        size_t index, const char *rest, const char *message)
{
    int rc;
    cp_schema_error err = validate(kind, doc, &rc);
    CHECK_EQ_U64(rc, CP_EXIT_USAGE);
    CHECK(err.where && strcmp(err.where, where) == 0);
    if (err.where && strcmp(err.where, where) != 0)
        fprintf(stderr, "  where: '%s', expected '%s'\n", err.where, where);
    CHECK(array ? err.array && strcmp(err.array, array) == 0 : err.array == NULL);
    if (array) {
        CHECK_EQ_U64(err.index, index);
        CHECK(err.rest && strcmp(err.rest, rest) == 0);
    }
    CHECK_STR_CONTAINS(err.message, message);
    cp_schema_error_free(&err);
    cJSON_Delete(doc);
}

static void test_embedded_is_the_file(void)
{
    const struct {
        cp_schema_kind kind;
        const char *path;
    } files[] = {{CP_SCHEMA_REPORT, ROOT "docs/schema/coalprobe-report.schema.json"},
                 {CP_SCHEMA_TRACE, ROOT "docs/schema/coalprobe-trace.schema.json"}};
    for (size_t i = 0; i < 2; i++) {
        size_t len = 0;
        char *text = cp_text_read_file(files[i].path, &len);
        CHECK(text != NULL);
        CHECK(text && strcmp(text, cp_schema_text(files[i].kind)) == 0);
        free(text);
    }
    CHECK(strcmp(cp_schema_name(CP_SCHEMA_TRACE), "coalprobe-trace.schema.json") == 0);
}

static void test_valid_reports(void)
{
    static const char *const reports[] = {
        "golden/compare/base.json",      "golden/compare/mixed.json",
        "golden/compare/model.json",     "golden/compare/shared_base.json",
        "golden/cli_stride_widths.json", "golden/cli_gemm.json",
        "golden/cli_transpose.json",     "golden/report_measured.json",
        "golden/compare/huge.json",      "golden/compare/escape.json"};
    for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CP_TEST_DATA_DIR, reports[i]);
        check_valid(CP_SCHEMA_REPORT, path);
    }
    check_valid(CP_SCHEMA_TRACE, CP_TEST_DATA_DIR "/golden/trace/handmade-transpose.json");
    check_valid(CP_SCHEMA_TRACE, CP_TEST_DATA_DIR "/golden/trace/h100-sample.json");
    check_valid(CP_SCHEMA_TRACE, CP_TEST_DATA_DIR "/golden/compare/trace_escape.json");
    /* the error document of a failed run is a document of the report schema too */
    check_valid(CP_SCHEMA_REPORT, CP_TEST_DATA_DIR "/golden/error.json");
}

static cJSON *base(void)
{
    return load(CP_TEST_DATA_DIR "/golden/compare/base.json");
}

static cJSON *row_member(cJSON *doc, int row, const char *a, const char *b)
{
    cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "rows"), row);
    cJSON *x = cJSON_GetObjectItemCaseSensitive(r, a);
    return b ? cJSON_GetObjectItemCaseSensitive(x, b) : x;
}

static void test_failures(void)
{
    /* a string where a number belongs */
    cJSON *doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 1, "predicted", "load"), "sectors",
                              cJSON_CreateString("123"));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[1].predicted.load.sectors", "rows", 1,
                "predicted.load.sectors", "expected an integer, found the string \"123\"");
    /* a fraction where a count belongs; a negative count */
    doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 0, "predicted", "load"), "requests",
                              cJSON_CreateNumber(2.5));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[0].predicted.load.requests", "rows", 0,
                "predicted.load.requests", "expected an integer, found the number 2.5");
    doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 0, "predicted", "load"), "requests",
                              cJSON_CreateNumber(-1));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[0].predicted.load.requests", "rows", 0,
                "predicted.load.requests", "expected a number >= 0, found the number -1");
    /* a required key missing: the path names it */
    doc = base();
    cJSON_DeleteItemFromObject(row_member(doc, 2, "predicted", "load"), "requests");
    check_fails(CP_SCHEMA_REPORT, doc, "rows[2].predicted.load.requests", "rows", 2,
                "predicted.load.requests", "expected a value (the key is required), found nothing");
    doc = base();
    cJSON_DeleteItemFromObject(doc, "command");
    check_fails(CP_SCHEMA_REPORT, doc, "command", NULL, 0, NULL,
                "expected a value (the key is required), found nothing");
    /* a key the schema does not list (additionalProperties, unevaluatedProperties) */
    doc = base();
    cJSON_AddNumberToObject(doc, "extra", 1);
    check_fails(CP_SCHEMA_REPORT, doc, "extra", NULL, 0, NULL, "expected no such key");
    doc = base();
    cJSON_AddNumberToObject(row_member(doc, 0, "predicted", "load"), "extra", 1);
    check_fails(CP_SCHEMA_REPORT, doc, "rows[0].predicted.load.extra", "rows", 0,
                "predicted.load.extra", "expected no such key");
    /* a size bound: a string too short */
    doc = base();
    cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(doc, "device"), "driver_release",
                              cJSON_CreateString(""));
    check_fails(CP_SCHEMA_REPORT, doc, "device.driver_release", NULL, 0, NULL,
                "expected a string of at least 1 characters");
    /* none of oneOf's forms: what each expects */
    doc = base();
    cJSON_ReplaceItemInObject(doc, "device", cJSON_CreateString("x"));
    check_fails(CP_SCHEMA_REPORT, doc, "device", NULL, 0, NULL,
                "expected null or an object, found the string \"x\"");
    /* const, enum, pattern */
    doc = base();
    cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(2));
    check_fails(CP_SCHEMA_REPORT, doc, "schema_version", NULL, 0, NULL,
                "expected 1, found the number 2");
    doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 0, "config", NULL), "op", cJSON_CreateString("lod"));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[0].config.op", "rows", 0, "config.op",
                "found the string \"lod\"");
    doc = base();
    cJSON_ReplaceItemInObject(doc, "command", cJSON_CreateString("\x1b[2Jnot coalprobe"));
    check_fails(CP_SCHEMA_REPORT, doc, "command", NULL, 0, NULL,
                "expected a string matching ^coalprobe( |$), found the string \"\\e[2Jnot "
                "coalprobe\"");
    /* a whole row of the wrong type; the whole document */
    doc = base();
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(doc, "rows"), 3,
                             cJSON_CreateString("row"));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[3]", "rows", 3, "", "expected an object");
    check_fails(CP_SCHEMA_REPORT, cJSON_CreateArray(), "", NULL, 0, NULL,
                "expected an object, found an array");
    /* a long string is cut visibly in the message */
    char long_text[200];
    memset(long_text, 'y', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 1, "predicted", "load"), "sectors",
                              cJSON_CreateString(long_text));
    check_fails(CP_SCHEMA_REPORT, doc, "rows[1].predicted.load.sectors", "rows", 1,
                "predicted.load.sectors", "...\" (199 bytes)");
    /* a trace report */
    doc = load(CP_TEST_DATA_DIR "/golden/trace/handmade-transpose.json");
    cJSON *instr = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "instructions"), 1);
    cJSON_ReplaceItemInObject(instr, "excess_bytes", cJSON_CreateString("9"));
    check_fails(CP_SCHEMA_TRACE, doc, "instructions[1].excess_bytes", "instructions", 1,
                "excess_bytes", "expected an integer or null, found the string \"9\"");
}

/* The message compare prints, from an error. */
static void test_status(void)
{
    cJSON *doc = base();
    cJSON_ReplaceItemInObject(row_member(doc, 1, "predicted", "load"), "sectors",
                              cJSON_CreateString("123"));
    int rc;
    cp_schema_error err = validate(CP_SCHEMA_REPORT, doc, &rc);
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_schema_status(&st, "r.json", CP_SCHEMA_REPORT, &err, "stride stride=2"),
                 CP_EXIT_USAGE);
    CHECK(strcmp(st.message, "'r.json' fails its schema (coalprobe-report.schema.json): rows[1] "
                             "(stride stride=2), key predicted.load.sectors: expected an "
                             "integer, found the string \"123\"") == 0);
    CHECK_STR_CONTAINS(st.hint, "is not compared");
    cp_schema_error_free(&err);
    cJSON_Delete(doc);
}

int main(void)
{
    test_embedded_is_the_file();
    test_valid_reports();
    test_failures();
    test_status();
    return cp_test_finish();
}
