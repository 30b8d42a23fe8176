/* test_html.c: the page (cp_html.c): the report's JSON embedded so that no string can end its
 * script, text escaped for HTML, which documents make a page, the tables' values; and the lane
 * maps of the JSON report against the model they come from. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_test.h"
#include "cp_test_model.h"
#include "report/cp_report.h"
#include "trace/cp_trace.h" /* a trace page's columns */

/* What f(out) writes, as a string the caller frees. */
static char *capture_json(const char *json, size_t len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    cp_html_put_json(m, json, len);
    fclose(m);
    return text;
}

static void test_json_escape(void)
{
    const char *evil =
        "{\"k\":\"</script><script>x()</script><!-- & \xe2\x80\xa8 \xe2\x80\xa9 >\"}";
    char *got = capture_json(evil, strlen(evil));
    CHECK(strchr(got, '<') == NULL);
    CHECK(strchr(got, '>') == NULL);
    CHECK(strchr(got, '&') == NULL);
    CHECK(strstr(got, "\xe2\x80\xa8") == NULL && strstr(got, "\xe2\x80\xa9") == NULL);
    CHECK_STR_CONTAINS(got, "\\u003c/script\\u003e");
    CHECK_STR_CONTAINS(got, "\\u2028 \\u2029");
    /* still the same JSON */
    cJSON *a = cJSON_Parse(evil), *b = cJSON_Parse(got);
    CHECK(a && b && cJSON_Compare(a, b, 1));
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(got);
}

static void test_text_escape(void)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    cp_html_put_text(m, "a<b>&\"'c");
    fclose(m);
    CHECK(strcmp(text, "a&lt;b&gt;&amp;&quot;&#39;c") == 0);
    free(text);
}

/* The page of JSON text json written with options o (NULL: the defaults), as a string; *rc its
 * code. */
static char *page_with(const char *json, const cp_html_options *o, int *rc)
{
    char *text = NULL;
    size_t n = 0;
    cp_status st;
    cp_status_clear(&st);
    FILE *m = open_memstream(&text, &n);
    *rc = cp_html_write_text(m, json, strlen(json), o, &st);
    fclose(m);
    return text;
}

/* The page of JSON text json, as coalprobe writes it (a trace page with the trace report's
 * columns), as a string; *rc its code. */
static char *page_of(const char *json, int *rc)
{
    cJSON *columns = cp_trace_columns_describe();
    cp_html_options o = {.columns = columns};
    char *text = page_with(json, &o, rc);
    cJSON_Delete(columns);
    return text;
}

/* A trace page takes its tables' columns from the trace report's columns described, and embeds
 * them for its script; asked for without them, it is refused, never written without tables. */
static void test_trace_columns(void)
{
    static const char json[] =
        "{\"kind\":\"trace\",\"command\":\"t\",\"kernels\":[{\"index\":3,\"name\":\"k\","
        "\"requests\":8}],\"instructions\":[{\"rank\":1,\"kernel_index\":3,\"pc\":16,"
        "\"sectors_per_request\":4.5}]}";
    int rc;
    char *p = page_with(json, NULL, &rc);
    CHECK(rc == CP_EXIT_RUNTIME);
    free(p);
    p = page_of(json, &rc);
    CHECK(rc == CP_EXIT_OK);
    CHECK_STR_CONTAINS(p, "<script type=\"application/json\" id=\"cp-columns\">[{\"key\":\"rank\"");
    /* the kernels table: #, kernel, ... from each column's place and kernel_path */
    CHECK_STR_CONTAINS(p, "<th scope=\"col\" data-path=\"index\" data-scale=\"1\" "
                          "data-decimals=\"0\">#</th><th scope=\"col\" data-path=\"name\"");
    CHECK_STR_CONTAINS(p, "<td data-v=\"3\">3</td><td data-v=\"k\" class=\"t\">k</td>");
    /* the instructions table: its ratios with the column's 2 decimals */
    CHECK_STR_CONTAINS(p, "data-path=\"sectors_per_request\" data-scale=\"1\" "
                          "data-decimals=\"2\">sec/req</th>");
    CHECK_STR_CONTAINS(p, "<td data-v=\"4.5\">4.50</td>");
    free(p);
}

static void test_page_kinds(void)
{
    int rc;
    char *p = page_of("{\"schema_version\":1,\"command\":\"coalprobe x\",\"rows\":[]}", &rc);
    CHECK(rc == CP_EXIT_OK);
    CHECK_STR_CONTAINS(p, "data-kind=\"sweep\"");
    free(p);
    p = page_of("{\"kind\":\"trace\",\"command\":\"t\",\"kernels\":[{\"index\":0,\"name\":"
                "\"k</script>\\\"'\"}],\"instructions\":[]}",
                &rc);
    CHECK(rc == CP_EXIT_OK);
    CHECK_STR_CONTAINS(p, "data-kind=\"trace\"");
    CHECK_STR_CONTAINS(p, ">k&lt;/script&gt;&quot;&#39;</td>");
    /* the only "</script>" are the page's own: report, page facts, columns, the script */
    int closes = 0;
    for (const char *q = p; (q = strstr(q, "</script>")) != NULL; q++)
        closes++;
    CHECK(closes == 4);
    free(p);
    p = page_of("{\"base\":\"a\",\"new\":\"b\",\"rows\":[]}", &rc);
    CHECK(rc == CP_EXIT_OK);
    CHECK_STR_CONTAINS(p, "data-kind=\"compare\"");
    free(p);
    p = page_of("{\"schema_version\":1,\"command\":\"x\",\"error\":{},\"rows\":[]}", &rc);
    CHECK(rc == CP_EXIT_RUNTIME);
    free(p);
}

static void test_table_cells(void)
{
    int rc;
    char *p =
        page_of("{\"command\":\"c\",\"rows\":[{\"pattern\":\"stride\",\"config\":{\"stride\":2,"
                "\"offset\":0,\"width_bytes\":4,\"op\":\"load\"},\"predicted\":{\"load\":{"
                "\"sectors_per_request\":8,\"efficiency\":0.5}},\"measured\":null}]}",
                &rc);
    CHECK(rc == CP_EXIT_OK);
    CHECK_STR_CONTAINS(p, "<td data-v=\"8\">8.00</td>");
    CHECK_STR_CONTAINS(p, "<td data-v=\"0.5\">50.0%</td>");
    CHECK(strstr(p, "measured</span>") == NULL); /* model only: no measured columns */
    free(p);
}

/* The lane map of access a of configuration c in its JSON row, against the model. */
static void check_lane_map(const cp_config *c, size_t a)
{
    cp_prediction pred = predict(c);
    cp_row row = {.config = *c, .predicted = pred, .measured = NULL};
    cp_report r = {.tool_version = "t", .command = "c", .rows = &row, .nrows = 1};
    char *text = NULL;
    size_t n = 0;
    cp_status st;
    cp_status_clear(&st);
    FILE *m = open_memstream(&text, &n);
    CHECK(cp_report_write_json(m, &r, &st) == CP_EXIT_OK);
    fclose(m);
    cJSON *doc = cJSON_Parse(text);
    cJSON *acc = cJSON_GetArrayItem(
        cJSON_GetObjectItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "rows"), 0),
                                "predicted"),
            "accesses"),
        (int)a);
    cJSON *req = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(acc, "lane_map"), "requests"), 0);
    CHECK(req != NULL);
    cp_warp_lanes w;
    CHECK(cp_model_warp_lanes(c, a, 0, 0, 0, &w, &st) == CP_EXIT_OK);
    cJSON *addr = cJSON_GetObjectItem(req, "addresses");
    CHECK(cJSON_GetArraySize(addr) == 32);
    for (int l = 0; l < 32; l++) {
        cJSON *v = cJSON_GetArrayItem(addr, l);
        if (w.active_mask & (1u << l))
            CHECK(cJSON_IsNumber(v) && (uint64_t)v->valuedouble == w.addr[l]);
        else
            CHECK(cJSON_IsNull(v));
    }
    cp_counts k;
    memset(&k, 0, sizeof k);
    cJSON *counts = cJSON_GetObjectItem(req, "counts");
    if (pred.accesses[a].space == CP_SPACE_SHARED) {
        cp_model_count_shared_request(&w, &k);
        uint64_t most = 0;
        cJSON *word;
        cJSON_ArrayForEach(word, cJSON_GetObjectItem(req, "words"))
        {
            uint64_t wave = (uint64_t)cJSON_GetArrayItem(word, 2)->valuedouble;
            most = wave > most ? wave : most;
        }
        CHECK_EQ_U64(most, k.wavefronts);
        CHECK_EQ_U64(cJSON_GetObjectItem(counts, "wavefronts")->valuedouble, k.wavefronts);
    } else {
        cp_model_count_request(&w, &k);
        uint64_t used = 0;
        cJSON *u;
        cJSON_ArrayForEach(u, cJSON_GetObjectItem(req, "used_bytes")) used +=
            (uint64_t)u->valuedouble;
        CHECK_EQ_U64(used, k.bytes_requested);
        CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItem(req, "touched_sectors")), k.sectors);
        CHECK_EQ_U64(cJSON_GetObjectItem(counts, "sectors")->valuedouble, k.sectors);
    }
    cJSON_Delete(doc);
    free(text);
}

static void test_lane_maps(void)
{
    cp_config c = stride_cfg(2, 1, 4, CP_OP_LOAD, 1u << 16); /* the --explain golden's */
    check_lane_map(&c, 0);
    c = stride_cfg(3, 0, 16, CP_OP_LOAD, 1u << 16);
    check_lane_map(&c, 0);
    c = smem_cfg(2, 8, CP_OP_LOAD, 1024, 4);
    check_lane_map(&c, 1);
    c = smem_cfg(32, 4, CP_OP_STORE, 1024, 4);
    check_lane_map(&c, 1);
    c = gemm_cfg(CP_GEMM_NAIVE, 40, 40, 8);
    check_lane_map(&c, 0);
}

int main(void)
{
    test_json_escape();
    test_text_escape();
    test_page_kinds();
    test_trace_columns();
    test_table_cells();
    test_lane_maps();
    return cp_test_finish();
}
