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
    size_t passes = 7;
    CHECK(cp_cupti_count_passes_for_chip("GH100", &passes, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cannot load /nonexistent/libcupti.so.13");
    CHECK(passes == 0);

    cp_cupti_session *s = (cp_cupti_session *)&st; /* must be reset to NULL */
    int refused = 0;
    cp_status_clear(&st);
    CHECK(cp_cupti_open(0, 4, &s, &refused, &st) == CP_EXIT_RUNTIME);
    CHECK(s == NULL);
    CHECK(refused == 1);
    CHECK_STR_CONTAINS(st.message, "CUPTI refused: cannot load");
    CHECK_STR_CONTAINS(st.hint, "--no-counters");
    return cp_test_finish();
}
