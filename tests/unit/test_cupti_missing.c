/* test_cupti_missing.c: without a loadable CUPTI (simulated with COALPROBE_CUPTI_LIBRARY naming
 * a file that does not exist), opening a session is a refusal that says why and how to fix it,
 * before any CUDA call, so timings can still run. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "measure/cp_cupti.h"
#include "cp_test.h"

int main(void)
{
    setenv("COALPROBE_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13", 1);
    cp_status st;
    cp_status_clear(&st);
    cp_cupti_plan plan;
    plan.passes = 7;
    CHECK(cp_cupti_plan_for_chip("GH100", CP_CUPTI_GROUP_ALL, &plan, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cannot load /nonexistent/libcupti.so.13");
    CHECK(plan.passes == 0);
    /* what doctor and --version ask: an answer, not a crash */
    CHECK(cp_cupti_version() == 0);
    CHECK(cp_cupti_has_sass_metrics() == 0);
    char path[64];
    cp_status_clear(&st);
    CHECK(cp_cupti_load(path, sizeof path, &st) == CP_EXIT_RUNTIME);
    CHECK(path[0] == '\0');
    CHECK_STR_CONTAINS(st.hint, "COALPROBE_CUPTI_LIBRARY");
    const char *const *chips = (const char *const *)&st;
    size_t nchips = 5;
    CHECK(cp_cupti_supported_chips(&chips, &nchips, &st) == CP_EXIT_RUNTIME);
    CHECK(chips == NULL && nchips == 0);

    cp_cupti_session *s = (cp_cupti_session *)&st; /* must be reset to NULL */
    int refused = 0;
    cp_status_clear(&st);
    CHECK(cp_cupti_open(0, 4, CP_CUPTI_GROUP_ALL, NULL, 0, &s, &refused, &st) == CP_EXIT_RUNTIME);
    CHECK(s == NULL);
    CHECK(refused == 1);
    CHECK_STR_CONTAINS(st.message, "CUPTI refused: cannot load");
    CHECK_STR_CONTAINS(st.hint, "--no-counters");
    return cp_test_finish();
}
