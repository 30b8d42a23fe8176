/* test_trace_timeline.c: the launches' host times without a GPU: the reader pairing each
 * kernel_time record with the kernel record just before it (or before its kernel_at; anything
 * else malformed, counted and skipped), and the chrome-trace writer's events of
 * handmade-timeline: one per timed launch, the kernel's excess apportioned by sectors, --kernel
 * honoured and the launches without a time counted. */
#define _POSIX_C_SOURCE 200809L
#include "cp_test.h"
#include "trace/cp_trace_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURES CP_TEST_DATA_DIR "/golden/trace"

#define HEAD                                                                                       \
    "coalprobe-trace-raw\t2\n"                                                                     \
    "process\t10\t1\t./app\n"                                                                      \
    "device\t0\tGH100\tH100\t9.0\n"                                                                \
    "kernel_metrics\tl1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\tgpu__time_duration.sum\n"

static int load_one(cp_trace *t, const char *text)
{
    memset(t, 0, sizeof *t);
    cp_status st;
    cp_status_clear(&st);
    return cp_trace_load_text(t, "raw-10.tsv", text, strlen(text), &st);
}

static void test_pairing(void)
{
    cp_trace t;
    const char *text = HEAD "site\t1\t0\tk\t-\t0\n"
                            "kernel_time\t5\n" /* no kernel record before it */
                            "kernel\t0\tk\t8\t1000\n"
                            "kernel_time\t100\n" /* paired, no site */
                            "kernel_time\t101\n" /* a second one: not after a kernel record */
                            "kernel\t0\tk\t16\t-\n"
                            "kernel_at\t1\n"
                            "kernel_time\t200\n" /* paired, after its kernel_at */
                            "kernel\t0\tk\t8\t1000\n"
                            "launch\t0\tk\t3\n"
                            "kernel_time\t300\n" /* a launch record between */
                            "kernel\t0\tk\t8\t1000\n"
                            "kernel_time\tx\n" /* a bad number */
                            "kernel\t0\tk\t8\t1000\n"
                            "kernel_time\t400\t1\n" /* a field too many */
                            "kernel\t0\tk\t8\t-\n"
                            "kernel_time\t18446744073709551615\n"; /* the largest */
    CHECK(load_one(&t, text) == CP_EXIT_OK);
    const cp_trace_process *p = &t.procs[0];
    CHECK_EQ_U64(p->malformed, 5);
    CHECK_EQ_U64(p->ntimed, 3);
    CHECK_EQ_U64(p->nkernels, 1);
    const cp_trace_timed_launch *l = p->timed;
    CHECK_EQ_U64(l[0].host_ns, 100);
    CHECK(l[0].site == SIZE_MAX);
    CHECK_NEAR(l[0].duration_ns, 1000, 0);
    CHECK_NEAR(l[0].sectors, 8, 0);
    CHECK_EQ_U64(l[1].host_ns, 200);
    CHECK(l[1].site == 0);
    CHECK(isnan(l[1].duration_ns));
    CHECK_NEAR(l[1].sectors, 16, 0);
    CHECK_EQ_U64(l[2].host_ns, UINT64_MAX);
    for (size_t i = 0; i < 3; i++)
        CHECK(l[i].function == p->kernels[0].function && l[i].device == 0);
    cp_trace_free(&t);
}

/* A number under key of o, NAN when it is absent or not a number. */
static double number(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* handmade-timeline written as a timeline (kernel_regex NULL: every kernel), parsed back. */
static cJSON *timeline(const char *kernel_regex)
{
    cp_trace t;
    cp_status st = {0};
    CHECK(cp_trace_load_dir(FIXTURES "/handmade-timeline", &t, NULL, &st) == CP_EXIT_OK);
    cp_trace_options o = {5, kernel_regex, 0, NAN, NAN, NAN, CP_TRACE_GROUP_KERNEL, 0.25};
    cp_trace_run run = {0};
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, &run, &o, &r, &st) == CP_EXIT_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK(cp_trace_write_chrome(f, &r, &st) == CP_EXIT_OK);
    fclose(f);
    cJSON *doc = cJSON_Parse(buf);
    CHECK(doc != NULL);
    free(buf);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    return doc;
}

/* Every launch of both ranks drawn at its host time from the earliest (rank 1's 25 us later),
 * the gather's 2752512 excess bytes split 1:2 by its launches' sectors; the copy's launch has no
 * kernel_time. */
static void test_writer(void)
{
    cJSON *doc = timeline(NULL);
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(doc, "otherData");
    CHECK_NEAR(number(other, "launches_drawn"), 6, 0);
    CHECK_NEAR(number(other, "launches_without_time"), 2, 0);
    CHECK_NEAR(number(other, "launches_not_selected"), 0, 0);
    const cJSON *e;
    double ts[6], excess = 0;
    size_t n = 0, meta = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "traceEvents"))
    {
        const char *ph = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "ph"));
        if (ph && strcmp(ph, "M") == 0) {
            meta++;
            continue;
        }
        if (n < 6)
            ts[n] = number(e, "ts");
        n++;
        double x = number(cJSON_GetObjectItemCaseSensitive(e, "args"), "excess_bytes_apportioned");
        if (!isnan(x) && number(e, "pid") == 3300)
            excess += x;
    }
    CHECK_EQ_U64(n, 6);
    CHECK_EQ_U64(meta, 6); /* 2 process names, 2 devices each */
    CHECK_NEAR(ts[0], 0, 0);
    CHECK_NEAR(ts[1], 52.5, 1e-9);
    CHECK_NEAR(ts[2], 61.25, 1e-9);
    CHECK_NEAR(ts[3], 25, 1e-9);
    CHECK_NEAR(excess, 2752512, 1e-6);
    cJSON_Delete(doc);
}

/* --kernel: the timed launches of the kernels it leaves out are counted, not drawn. */
static void test_writer_selected(void)
{
    cJSON *doc = timeline("layernorm") /* names not demangled here */;
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(doc, "otherData");
    CHECK_NEAR(number(other, "launches_drawn"), 2, 0);
    CHECK_NEAR(number(other, "launches_not_selected"), 4, 0);
    CHECK_NEAR(number(other, "launches_without_time"), 2, 0);
    cJSON_Delete(doc);
}

int main(void)
{
    test_pairing();
    test_writer();
    test_writer_selected();
    return cp_test_finish();
}
