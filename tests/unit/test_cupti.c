/* test_cupti.c: host-only checks of the CUPTI module: metric names and groups, the plan (names,
 * passes, reasons) on GH100, GB202 and GA10B, the library's version. */
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

    /* Every metric belongs to one group, and tries at least one name. */
    for (int m = 0; m < CP_CUPTI_M_COUNT; m++) {
        unsigned g = cp_cupti_metric_group(m);
        CHECK(g == CP_CUPTI_GROUP_GLOBAL || g == CP_CUPTI_GROUP_SHARED ||
              g == CP_CUPTI_GROUP_OCCUPANCY || g == CP_CUPTI_GROUP_PATH);
        const char *const *names = cp_cupti_metric_candidates(m);
        CHECK(names && names[0] && strcmp(names[0], cp_cupti_metric_name(m)) == 0);
    }
    CHECK(cp_cupti_metric_candidates(CP_CUPTI_M_COUNT) == NULL);
    CHECK_EQ_U64(cp_cupti_metric_group(-1), 0);

    /* The plan on GH100 (H100, H200); the host API needs no GPU and no driver. */
    cp_status st;
    cp_status_clear(&st);
    cp_cupti_plan all, global;
    int rc = cp_cupti_plan_for_chip("GH100", CP_CUPTI_GROUP_ALL, &all, &st);
    if (rc != CP_EXIT_OK && !strstr(st.message, "libnvperf") && !strstr(st.message, "load")) {
        printf("SKIP: the CUPTI host API cannot be initialised here: %s\n", st.message);
        return 77;
    }
    if (rc != CP_EXIT_OK) /* a link problem (RPATH), not the machine: fail */
        fprintf(stderr, "cp_cupti_plan_for_chip: %s\nhint: %s\n", st.message, st.hint);
    CHECK_EQ_U64(rc, CP_EXIT_OK);
    /* every metric is read on GH100, under its first name */
    CHECK_EQ_U64(all.nread, CP_CUPTI_M_COUNT);
    for (int m = 0; m < CP_CUPTI_M_COUNT; m++) {
        CHECK(all.state[m] == CP_CUPTI_READ);
        CHECK(all.names[m] && strcmp(all.names[m], cp_cupti_metric_name(m)) == 0);
    }
    CHECK(strcmp(all.chip, "GH100") == 0);
    /* 3 for L1's request and sector counters (they share no pass), 1 for the instrumented
     * bytes requested, 1 for the shared-memory counters, and the memory path's (L1 hits share
     * no pass with L1's sectors); occupancy fits in them */
    CHECK(all.passes >= 1 && all.passes <= 8);
    printf("GH100, every group: %zu pass(es)\n", all.passes);

    /* Without the shared-memory group: those six are not asked, with a reason, and fewer
     * passes are needed (the point of choosing metrics per family). */
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_plan_for_chip("GH100", CP_CUPTI_GROUP_GLOBAL | CP_CUPTI_GROUP_OCCUPANCY,
                                        &global, &st),
                 CP_EXIT_OK);
    CHECK_EQ_U64(global.nread, CP_CUPTI_M_COUNT - 6 - 7); /* no shared, no path counters */
    CHECK(global.passes < all.passes);
    char why[200];
    CHECK(global.state[CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS] == CP_CUPTI_NOT_ASKED);
    CHECK(global.names[CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS] == NULL);
    cp_cupti_plan_reason(&global, CP_CUPTI_M_SHARED_LOAD_WAVEFRONTS, why, sizeof why);
    CHECK_STR_CONTAINS(why, "no shared memory");
    cp_cupti_plan_reason(&global, CP_CUPTI_M_LOAD_SECTORS, why, sizeof why);
    CHECK(why[0] == '\0'); /* read: no reason */
    printf("GH100, no shared-memory counters: %zu pass(es)\n", global.passes);

    /* A chip without some metric: the plan leaves it out and says why; GB202 (RTX 50) names
     * its DRAM counters differently, an integrated GA10B (Orin) has none. */
    cp_cupti_plan gb202, ga10b;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_plan_for_chip("GB202", CP_CUPTI_GROUP_ALL, &gb202, &st), CP_EXIT_OK);
    CHECK(gb202.state[CP_CUPTI_M_DRAM_READ_BYTES] == CP_CUPTI_READ);
    CHECK(gb202.names[CP_CUPTI_M_DRAM_READ_BYTES] &&
          strcmp(gb202.names[CP_CUPTI_M_DRAM_READ_BYTES], "dram__bytes_op_read.sum") == 0);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_plan_for_chip("GA10B", CP_CUPTI_GROUP_ALL, &ga10b, &st), CP_EXIT_OK);
    CHECK(ga10b.state[CP_CUPTI_M_DRAM_WRITE_BYTES] == CP_CUPTI_NOT_ON_CHIP);
    CHECK(ga10b.state[CP_CUPTI_M_LOAD_SECTORS] == CP_CUPTI_READ);
    CHECK(ga10b.passes > 0);
    cp_cupti_plan_reason(&ga10b, CP_CUPTI_M_DRAM_WRITE_BYTES, why, sizeof why);
    CHECK_STR_CONTAINS(why, "no dram__bytes_write.sum or dram__bytes_op_write.sum on chip GA10B");
    printf("GA10B: %s\n", why);

    /* Extra metrics (a family's own counters): the atomic and reduction counters of global
     * memory are known on GH100 and read in passes of their own; a name the chip does not know
     * is left out (NOT_ON_CHIP), not an error. */
    static const char *const extra[] = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    };
    static const char *const bogus[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                        "coalprobe__not_a_metric.sum"};
    cp_cupti_plan with;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_plan_for_chip_extra("GH100",
                                              CP_CUPTI_GROUP_GLOBAL | CP_CUPTI_GROUP_OCCUPANCY,
                                              extra, CP_COUNT_OF(extra), &with, &st),
                 CP_EXIT_OK);
    CHECK_EQ_U64(with.nextra, 4);
    for (size_t i = 0; i < CP_COUNT_OF(extra); i++) {
        CHECK(with.extra_state[i] == CP_CUPTI_READ);
        CHECK(with.extra[i] && strcmp(with.extra[i], extra[i]) == 0);
    }
    CHECK_EQ_U64(with.nread, global.nread + 4);
    CHECK(with.passes > global.passes);
    printf("GH100, global counters and the four atomic ones: %zu pass(es)\n", with.passes);
    cp_status_clear(&st);
    CHECK_EQ_U64(
        cp_cupti_plan_for_chip_extra("GH100", CP_CUPTI_GROUP_GLOBAL, bogus + 1, 1, &with, &st),
        CP_EXIT_OK);
    CHECK_EQ_U64(with.nextra, 1);
    CHECK(with.extra_state[0] == CP_CUPTI_NOT_ON_CHIP);

    /* A bogus chip name is an error with a message, not a crash. */
    cp_status_clear(&st);
    rc = cp_cupti_plan_for_chip("NOT_A_CHIP", CP_CUPTI_GROUP_ALL, &all, &st);
    CHECK_EQ_U64(rc, CP_EXIT_RUNTIME);
    CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "cuptiProfilerHostInitialize");
    CHECK_EQ_U64(all.passes, 0);

    /* Missing arguments are errors too. */
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_cupti_plan_for_chip(NULL, CP_CUPTI_GROUP_ALL, &all, &st), CP_EXIT_RUNTIME);
    CHECK_EQ_U64(cp_cupti_plan_for_chip("GH100", CP_CUPTI_GROUP_ALL, NULL, &st), CP_EXIT_RUNTIME);

    /* The library's version and the trace path's API (CUDA 13.0: CUPTI API 130001 or newer). */
    CHECK(cp_cupti_version() >= 130001);
    CHECK(cp_cupti_has_sass_metrics() == 1);
    char path[512];
    CHECK_EQ_U64(cp_cupti_load(path, sizeof path, &st), CP_EXIT_OK);
    CHECK_STR_CONTAINS(path, "libcupti");
    printf("CUPTI API %u from %s\n", cp_cupti_version(), path);

    /* The NULL session is handled. */
    CHECK_EQ_U64(cp_cupti_passes(NULL), 0);
    CHECK(cp_cupti_session_plan(NULL) == NULL);
    cp_cupti_close(NULL);

    return cp_test_finish();
}
