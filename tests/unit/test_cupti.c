/* test_cupti.c: host-only checks of the CUPTI module: metric names and the pass count on GH100. */
#include "measure/cp_cupti.h"
#include "cp_test.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    /* Every metric has a CUPTI name, and no two are the same. */
    for (int m = 0; m < CP_CUPTI_M_COUNT; m++) {
        const char *a = cp_cupti_metric_name(m);
        CHECK(a != NULL);
        CHECK(a && strchr(a, '.') != NULL); /* a rollup or submetric is given */
        for (int k = 0; a && k < m; k++) {
            const char *b = cp_cupti_metric_name(k);
            CHECK(b && strcmp(a, b) != 0);
        }
    }
    CHECK(cp_cupti_metric_name(-1) == NULL);
    CHECK(cp_cupti_metric_name(CP_CUPTI_M_COUNT) == NULL);

    /* The pass count on GH100 (H100, H200); the host API needs no GPU and no driver. */
    cp_status st;
    cp_status_clear(&st);
    size_t passes = 0;
    int rc = cp_cupti_count_passes_for_chip("GH100", &passes, &st);
    if (rc != CP_EXIT_OK && !strstr(st.message, "libnvperf") && !strstr(st.message, "load")) {
        printf("SKIP: the CUPTI host API cannot be initialised here: %s\n", st.message);
        return 77;
    }
    if (rc != CP_EXIT_OK) /* a link problem (RPATH), not the machine: fail */
        fprintf(stderr, "cp_cupti_count_passes_for_chip: %s\nhint: %s\n", st.message, st.hint);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    /* 3 for L1's request and sector counters (they share no pass), 1 for the instrumented
     * bytes requested, 1 for the shared-memory counters; more would mean a metric list that
     * replays needlessly */
    CHECK(passes >= 1 && passes <= 5);
    if (rc == CP_EXIT_OK) {
        printf("GH100: %zu pass(es) for", passes);
        for (int m = 0; m < CP_CUPTI_M_COUNT; m++)
            printf(" %s", cp_cupti_metric_name(m));
        printf("\n");
    }

    /* A bogus chip name is an error with a message, not a crash. */
    cp_status_clear(&st);
    passes = 99;
    rc = cp_cupti_count_passes_for_chip("NOT_A_CHIP", &passes, &st);
    CHECK_EQ_U64(rc, CP_EXIT_RUNTIME);
    CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cuptiProfilerHostInitialize");
    CHECK_EQ_U64(passes, 0);

    /* Missing arguments are errors too. */
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_count_passes_for_chip(NULL, &passes, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_cupti_count_passes_for_chip("GH100", NULL, &st), CP_EXIT_RUNTIME);

    /* The NULL session is handled. */
    CHECK_EQ_U64(cp_cupti_passes(NULL), 0);
    cp_cupti_close(NULL);

    return cp_test_finish();
}
