/* test_compare.c: coalprobe compare on hand-made reports (tests/golden/compare/): verdicts, exit
 * codes, errors, tolerance parsing, golden text and JSON. CP_UPDATE_GOLDEN=1 rewrites goldens. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "report/cp_compare.h"
#include "cp_test.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DIR CP_TEST_DATA_DIR "/golden/compare/"

/* What one comparison produced. */
typedef struct result {
    int rc;
    cp_status st;
    char *text; /* what was written to out */
} result;

static result compare(const char *base, const char *now, double tolerance, int json)
{
    result r = {0};
    cp_status_clear(&r.st);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) {
        r.rc = -1;
        return r;
    }
    r.rc = cp_compare_files(base, now, tolerance, json, f, &r.st);
    rewind(f);
    r.text = cp_test_read_stream(f);
    fclose(f);
    return r;
}

static void result_free(result *r)
{
    free(r->text);
    r->text = NULL;
}

/* The JSON document of a comparison of base and now, parsed; NULL when it does not parse. */
static cJSON *compare_json(const char *base, const char *now, double tolerance, int want_rc)
{
    result r = compare(base, now, tolerance, 1);
    CHECK_EQ_U64(r.rc, want_rc);
    cJSON *doc = r.text ? cJSON_Parse(r.text) : NULL;
    CHECK(doc != NULL);
    result_free(&r);
    return doc;
}

static double summary(const cJSON *doc, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* The row of doc whose config has the given member value, or NULL. */
static const cJSON *find_row(const cJSON *doc, const char *key, double number, const char *str)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(doc, "rows"))
    {
        const cJSON *v =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row, "config"), key);
        if ((str && cJSON_IsString(v) && strcmp(v->valuestring, str) == 0) ||
            (!str && cJSON_IsNumber(v) && v->valuedouble == number))
            return row;
    }
    return NULL;
}

static const char *row_status(const cJSON *row)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(row, "status");
    return cJSON_IsString(s) ? s->valuestring : "(none)";
}

/* The verdict of the named metric of row, or "(none)". */
static const char *metric_verdict(const cJSON *row, const char *name)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(row, "metrics"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return cJSON_GetObjectItemCaseSensitive(m, "verdict")->valuestring;
    }
    return "(none)";
}

/* The text comparison of base and now: its exit code, and each of needles (NULL-terminated) in
 * its text. */
static void check_text(const char *base, const char *now, double tolerance, int want_rc,
                       const char *const *needles)
{
    result r = compare(base, now, tolerance, 0);
    CHECK_EQ_U64(r.rc, want_rc);
    for (; *needles; needles++)
        CHECK_STR_CONTAINS(r.text, *needles);
    result_free(&r);
}

/* check_text, then the JSON comparison of the same files, which exits with the same code,
 * parsed (the caller deletes it). */
static cJSON *check_text_and_json(const char *base, const char *now, double tolerance, int want_rc,
                                  const char *const *needles)
{
    check_text(base, now, tolerance, want_rc, needles);
    return compare_json(base, now, tolerance, want_rc);
}

static void test_identical(void)
{
    check_text(
        DIR "base.json", DIR "base.json", 0.05, CP_EXIT_OK,
        (const char *const[]){"all 6 matched rows the same within 5%",
                              "compare: 0 regressed, 0 improved, 6 same, 0 only in base, 0 only "
                              "in new (tolerance 5%)\n",
                              NULL});

    cJSON *doc = compare_json(DIR "base.json", DIR "base.json", 0, CP_EXIT_OK);
    CHECK(summary(doc, "same") == 6);
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(doc, "regressed")));
    /* a measured stride row has 10 counts, a time and a rate (flop_per_s is null) */
    const cJSON *row = find_row(doc, "stride", 2, NULL);
    CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row, "metrics")), 12);
    /* cuBLAS is not modelled: its counters, time and flop rate only */
    row = find_row(doc, "variant", 0, "cublas");
    CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row, "metrics")), 6);
    CHECK(strcmp(metric_verdict(row, "flop_per_s"), "same") == 0);
    cJSON_Delete(doc);

    /* a model-only report of the repository's goldens against itself */
    check_text(CP_TEST_DATA_DIR "/golden/cli_gemm.json", CP_TEST_DATA_DIR "/golden/cli_gemm.json",
               0.05, CP_EXIT_OK, (const char *const[]){"all 4 matched rows the same", NULL});
}

static void test_slower(void)
{
    /* stride=2 is 10% slower (and its useful bandwidth 9.1% lower) */
    result r = compare(DIR "base.json", DIR "slower.json", 0.05, 0);
    CHECK_EQ_U64(r.rc, CP_EXIT_MISMATCH);
    CHECK_EQ_U64(r.st.code, CP_EXIT_MISMATCH);
    CHECK_STR_CONTAINS(r.st.message, "1 of 6 matched rows regressed (tolerance 5%)");
    CHECK_STR_CONTAINS(r.text, "stride stride=2 offset=0 offset_bytes=0 width_bytes=4 op=load "
                               "elements=67108864\n");
    CHECK_STR_CONTAINS(r.text, "time_s.median       285.1 us -> 313.6 us (+10.0%)  REGRESSED\n");
    CHECK_STR_CONTAINS(r.text, "useful_bytes_per_s  1.883 TB/s -> 1.712 TB/s (-9.1%)  REGRESSED");
    CHECK_STR_CONTAINS(r.text, "5 other matched rows the same within 5%");
    CHECK_STR_CONTAINS(r.text, "compare: 1 regressed, 0 improved, 5 same");
    result_free(&r);

    cJSON *doc = compare_json(DIR "base.json", DIR "slower.json", 0.05, CP_EXIT_MISMATCH);
    const cJSON *row = find_row(doc, "stride", 2, NULL);
    CHECK(strcmp(row_status(row), "regressed") == 0);
    CHECK(strcmp(metric_verdict(row, "time_s.median"), "regressed") == 0);
    CHECK(strcmp(metric_verdict(row, "predicted.load.sectors"), "same") == 0);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "regressed")));
    CHECK(summary(doc, "regressed") == 1);
    cJSON_Delete(doc);

    /* within 20% it is the same */
    check_text(DIR "base.json", DIR "slower.json", 0.20, CP_EXIT_OK,
               (const char *const[]){"all 6 matched rows the same within 20%", NULL});

    /* the other way round it is an improvement */
    check_text(DIR "slower.json", DIR "base.json", 0.05, CP_EXIT_OK,
               (const char *const[]){"(-9.1%)  improved", NULL});
}

static void test_bandwidth_drop(void)
{
    /* stride=4: useful bandwidth 12% lower at the same time */
    cJSON *doc = compare_json(DIR "base.json", DIR "bandwidth.json", 0.05, CP_EXIT_MISMATCH);
    const cJSON *row = find_row(doc, "stride", 4, NULL);
    CHECK(strcmp(row_status(row), "regressed") == 0);
    CHECK(strcmp(metric_verdict(row, "useful_bytes_per_s"), "regressed") == 0);
    CHECK(strcmp(metric_verdict(row, "time_s.median"), "same") == 0);
    cJSON_Delete(doc);
    doc = compare_json(DIR "base.json", DIR "bandwidth.json", 0.15, CP_EXIT_OK);
    CHECK(summary(doc, "same") == 6);
    cJSON_Delete(doc);
}

static void test_count_change(void)
{
    /* 32 more measured load sectors in stride=8: a regression at any tolerance */
    cJSON *doc = check_text_and_json(
        DIR "base.json", DIR "counts.json", 1.0, CP_EXIT_MISMATCH,
        (const char *const[]){
            "counters.load.sectors  67108864 -> 67108896 (+32, +4.8e-05%)  changed",
            "compare: 1 regressed, 0 improved, 5 same", "(tolerance 100%)", NULL});
    const cJSON *row = find_row(doc, "stride", 8, NULL);
    CHECK(strcmp(row_status(row), "changed") == 0);
    CHECK(strcmp(metric_verdict(row, "counters.load.sectors"), "changed") == 0);
    cJSON_Delete(doc);
}

static void test_improvement(void)
{
    cJSON *doc = check_text_and_json(
        DIR "base.json", DIR "faster.json", 0.05, CP_EXIT_OK,
        (const char *const[]){"time_s.median       285.1 us -> 228.1 us (-20.0%)  improved",
                              "compare: 0 regressed, 1 improved, 5 same", NULL});
    CHECK(strcmp(row_status(find_row(doc, "stride", 2, NULL)), "improved") == 0);
    CHECK(summary(doc, "improved") == 1);
    cJSON_Delete(doc);
}

static void test_only_in_one(void)
{
    /* only.json lacks gemm cublas and adds stride=16: listed, not a regression */
    cJSON *doc =
        check_text_and_json(DIR "base.json", DIR "only.json", 0.05, CP_EXIT_OK,
                            (const char *const[]){"only in base (missing in new): 1 row\n"
                                                  "  gemm variant=cublas m=4096 n=4096 k=4096\n",
                                                  "only in new: 1 row\n  stride stride=16 offset=0",
                                                  "5 same, 1 only in base, 1 only in new", NULL});
    CHECK(summary(doc, "only_in_base") == 1);
    CHECK(summary(doc, "only_in_new") == 1);
    const cJSON *only = cJSON_GetObjectItemCaseSensitive(doc, "only_in_new");
    CHECK_EQ_U64(cJSON_GetArraySize(only), 1);
    const cJSON *stride = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(only, 0), "config"), "stride");
    CHECK(cJSON_IsNumber(stride) && stride->valuedouble == 16);
    cJSON_Delete(doc);
}

static void test_model_vs_measured(void)
{
    check_text(DIR "base.json", DIR "model.json", 0.05, CP_EXIT_OK,
               (const char *const[]){"not comparable: measured in base only (new is model only)",
                                     "0 same, 6 not comparable, 0 only in base", NULL});
    cJSON *doc = compare_json(DIR "model.json", DIR "base.json", 0.05, CP_EXIT_OK);
    const cJSON *row = find_row(doc, "stride", 1, NULL);
    CHECK(strcmp(row_status(row), "not_comparable") == 0);
    CHECK_STR_CONTAINS(cJSON_GetObjectItemCaseSensitive(row, "note")->valuestring,
                       "measured in new only");
    CHECK(summary(doc, "not_comparable") == 6);
    cJSON_Delete(doc);
}

static void check_tolerance(const char *spec, double want)
{
    cp_status st;
    cp_status_clear(&st);
    double got = -1;
    int rc = cp_compare_parse_tolerance(spec, &got, &st);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    CHECK_NEAR(got, want, 1e-12);
}

static void check_bad_tolerance(const char *spec, const char *message)
{
    cp_status st;
    cp_status_clear(&st);
    double got = -1;
    CHECK_USAGE_ERROR(cp_compare_parse_tolerance(spec, &got, &st), st, message);
    CHECK(got == -1);
}

static void test_tolerance(void)
{
    check_tolerance("5%", 0.05);
    check_tolerance("5 %", 0.05);
    check_tolerance("0.05", 0.05);
    check_tolerance("2.5%", 0.025);
    check_tolerance("0", 0);
    check_tolerance("100%", 1);
    check_tolerance("1", 1);
    check_bad_tolerance("5", "--tolerance: '5' is above 100%");
    check_bad_tolerance("101%", "'101%' is above 100%");
    check_bad_tolerance("-5%", "'-5%' is negative");
    check_bad_tolerance("-0.1", "'-0.1' is negative");
    check_bad_tolerance("five", "'five' is not a tolerance");
    check_bad_tolerance("", "'' is not a tolerance");
    check_bad_tolerance("%", "'%' is not a tolerance");
    check_bad_tolerance("5%%", "'5%%' is not a tolerance");
    check_bad_tolerance("5% ", "'5% ' is not a tolerance");
    check_bad_tolerance("1e-2", "'1e-2' is not a tolerance");
    check_bad_tolerance("nan", "'nan' is not a tolerance");
    check_bad_tolerance("0x1", "'0x1' is not a tolerance");
    check_bad_tolerance(".", "'.' is not a tolerance");
    check_bad_tolerance(NULL, "is not a tolerance");
}

/* A failing comparison: its code, a message containing `message`, and nothing written. */
static void check_error(const char *base, const char *now, int code, const char *message)
{
    for (int json = 0; json <= 1; json++) {
        result r = compare(base, now, 0.05, json);
        CHECK_EQ_U64(r.rc, code);
        CHECK_EQ_U64(r.st.code, code);
        CHECK_STR_CONTAINS(r.st.message, message);
        CHECK(r.text && r.text[0] == '\0');
        if (code == CP_EXIT_USAGE)
            CHECK(r.st.hint[0] != '\0');
        result_free(&r);
    }
}

static void test_errors(void)
{
    check_error(DIR "missing.json", DIR "base.json", CP_EXIT_RUNTIME,
                "cannot read '" DIR "missing.json': No such file or directory");
    check_error(DIR "base.json", DIR "missing.json", CP_EXIT_RUNTIME, "missing.json'");
    check_error(DIR "base.json", DIR, CP_EXIT_RUNTIME, "cannot read '" DIR "': Is a directory");
    check_error(DIR "not_json.txt", DIR "base.json", CP_EXIT_USAGE,
                "not_json.txt' is not JSON (error near byte ");
    check_error(DIR "base.json", DIR "not_report.json", CP_EXIT_USAGE,
                "not_report.json' is not a coalprobe report: it has no \"schema_version\"");
    check_error(DIR "base.json", DIR "schema2.json", CP_EXIT_USAGE,
                "schema2.json' has schema_version 2, and this coalprobe (" CP_VERSION ") reads "
                "schema_version 1");
    check_error(CP_TEST_DATA_DIR "/golden/error.json", DIR "base.json", CP_EXIT_USAGE,
                "error.json' is the error document of a failed run (--stride: '32..1' is an "
                "empty range");
    check_error(DIR "empty.json", DIR "base.json", CP_EXIT_USAGE,
                "empty.json' is not JSON (it is empty)");
}

/* An output stream that cannot be written: a runtime error. */
static void test_unwritable_output(void)
{
    FILE *f = fopen(DIR "base.json", "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int json = 0; json <= 1; json++) {
        cp_status st;
        cp_status_clear(&st);
        clearerr(f);
        int rc = cp_compare_files(DIR "base.json", DIR "slower.json", 0.05, json, f, &st);
        CHECK_EQ_U64(rc, CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(st.message, "cannot write the comparison");
    }
    fclose(f);
}

static void test_bad_tolerance_argument(void)
{
    result r = compare(DIR "base.json", DIR "base.json", -0.1, 0);
    CHECK_EQ_U64(r.rc, CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(r.st.message, "tolerance");
    result_free(&r);
}

/* got with every CP_TEST_DATA_DIR replaced by "tests", so that goldens do not name this
 * checkout's directory. */
static char *without_data_dir(const char *got)
{
    const char *dir = CP_TEST_DATA_DIR;
    size_t dl = strlen(dir);
    char *out = malloc(strlen(got) + 1);
    if (!out)
        return NULL;
    char *o = out;
    while (*got) {
        if (strncmp(got, dir, dl) == 0) {
            memcpy(o, "tests", 5);
            o += 5;
            got += dl;
        } else {
            *o++ = *got++;
        }
    }
    *o = '\0';
    return out;
}

static void check_golden(const char *name, const char *raw)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", DIR, name);
    char *got = raw ? without_data_dir(raw) : NULL;
    CHECK(got != NULL);
    if (got)
        cp_test_check_golden(path, name, got);
    free(got);
}

/* mixed.json: incomplete, rows in another order (and stride 1.0 for 1, config members
 * reordered), one row per case: same, slower, faster, a count changed, not measured, missing,
 * added. */
static void test_golden_mixed(void)
{
    result r = compare(DIR "base.json", DIR "mixed.json", 0.05, 0);
    CHECK_EQ_U64(r.rc, CP_EXIT_MISMATCH);
    CHECK_STR_CONTAINS(r.st.message, "2 of 5 matched rows regressed");
    check_golden("mixed.txt", r.text);
    if (getenv("CP_TEST_VERBOSE") && r.text)
        fputs(r.text, stdout);
    result_free(&r);

    r = compare(DIR "base.json", DIR "mixed.json", 0.05, 1);
    CHECK_EQ_U64(r.rc, CP_EXIT_MISMATCH);
    check_golden("mixed.json.golden", r.text);
    cJSON *doc = r.text ? cJSON_Parse(r.text) : NULL;
    CHECK(doc != NULL);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "new_incomplete")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(doc, "base_incomplete")));
    CHECK(summary(doc, "regressed") == 2);
    CHECK(summary(doc, "improved") == 1);
    CHECK(summary(doc, "same") == 1);
    CHECK(summary(doc, "not_comparable") == 1);
    CHECK(summary(doc, "only_in_base") == 1);
    CHECK(summary(doc, "only_in_new") == 1);
    CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "rows")), 5);
    cJSON_Delete(doc);
    result_free(&r);
}

/* The comparison's JSON writes a whole number as its digits, as the reports themselves do,
 * never in exponent form: base.json with one count raised to 2e16. */
static void test_json_whole_digits(void)
{
    FILE *in = fopen(DIR "base.json", "rb");
    CHECK(in != NULL);
    char *text = in ? cp_test_read_stream(in) : NULL;
    if (in)
        fclose(in);
    char *at = text ? strstr(text, "\"requests\": 2097152,") : NULL;
    CHECK(at != NULL);
    char path[] = "/tmp/coalprobe_test_compare_XXXXXX";
    int fd = at ? mkstemp(path) : -1;
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(out != NULL);
    if (!out) {
        free(text);
        return;
    }
    fwrite(text, 1, (size_t)(at - text), out);
    fputs("\"requests\": 20000000000000000,", out);
    fputs(at + strlen("\"requests\": 2097152,"), out);
    fclose(out);
    result r = compare(DIR "base.json", path, 0.05, 1);
    CHECK_EQ_U64(r.rc, CP_EXIT_MISMATCH);
    CHECK_STR_CONTAINS(r.text, "\"new\":\t20000000000000000,");
    CHECK(r.text && !strstr(r.text, "e+16"));
    result_free(&r);
    remove(path);
    free(text);
}

int main(void)
{
    test_identical();
    test_slower();
    test_bandwidth_drop();
    test_count_change();
    test_improvement();
    test_only_in_one();
    test_model_vs_measured();
    test_tolerance();
    test_errors();
    test_bad_tolerance_argument();
    test_unwritable_output();
    test_golden_mixed();
    test_json_whole_digits();
    return cp_test_finish();
}
