/* test_measure.c: measurement records without a GPU: resetting them, and reading the driver
 * release from /proc/driver/nvidia/version lines. */
#include <math.h>

#include "measure/cp_measure.h"
#include "cp_test.h"
/* a family that declares counters of its own (white-box: its configuration) */
#include "cp_atomic_config.h"

/* The metrics a sweep of the atomic family adds to the profiler's set: each configuration's own
 * (atom's op_atom counters, red's op_red), each once; a family without counters adds none. */
static void test_family_metrics(void)
{
    cp_backend_options o;
    memset(&o, 0, sizeof o);
    cp_config c;
    memset(&c, 0, sizeof c);
    CHECK(cp_family_find("atomic", &c.family));
    for (int rep = 0; rep < 2; rep++)
        for (int op = CP_ATOMIC_OP_ATOM; op <= CP_ATOMIC_OP_RED; op++) {
            cp_atomic_config_of(&c)->op = (cp_atomic_op)op;
            cp_backend_options_add_family(&o, &c);
        }
    CHECK_EQ_U64(o.nfamily_metrics, 4);
    CHECK(strcmp(o.family_metrics[0], "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") == 0);
    CHECK(strcmp(o.family_metrics[1], "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") == 0);
    CHECK(strcmp(o.family_metrics[2], "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") == 0);
    CHECK(strcmp(o.family_metrics[3], "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 0);
    c.family = (cp_family)0; /* the first family declares none */
    cp_backend_options_add_family(&o, &c);
    CHECK_EQ_U64(o.nfamily_metrics, 4);
}

static void check_release(const char *line, const char *want)
{
    char buf[64];
    cp_measure_parse_driver_release(line, buf, sizeof buf);
    CHECK(strcmp(buf, want) == 0);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "  got '%s' for '%s'\n", buf, line);
}

int main(void)
{
    /* the open kernel module (as on the H100 machine) and the proprietary one */
    check_release("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release "
                  "Build  (dvs-builder@U22-I3-AF03-09-1)  Thu Oct 30 2025\n",
                  "580.159.04");
    check_release("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
                  "01:15:15 UTC 2023\n",
                  "535.104.05");
    check_release("NVRM version: NVIDIA UNIX aarch64 Kernel Module  550.54\n", "550.54");
    check_release("no version here x86_64\n", "");
    check_release("", "");

    cp_measurement m;
    cp_measurement_clear(&m);
    CHECK(!m.timed && m.counters_status == CP_COUNTERS_NOT_RUN && m.counts_match == -1);
    CHECK(isnan(m.time_median_s) && isnan(m.counters.load_sectors));
    CHECK(isnan(m.counters.dram_throughput_pct));
    /* counts_match: shared counters not read (a sweep without shared memory) leave a kernel
     * without shared accesses judged by its global counts; one with shared accesses cannot be
     * judged (-1) unless its global counts already differ (0) */
    cp_prediction p;
    memset(&p, 0, sizeof p);
    p.modelled = 1;
    p.shared_modelled = 1;
    p.shared_exact = 1;
    p.load.requests = 4;
    p.load.sectors = 16;
    cp_counter_values v;
    cp_counter_values_clear(&v);
    v.load_requests = 4;
    v.load_sectors = 16;
    v.store_requests = v.store_sectors = 0;
    CHECK(cp_measure_counts_match(&p, &v) == 1);
    v.load_sectors = 17;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    v.load_sectors = 16;
    p.shared_load.requests = 2;
    p.shared_load.wavefronts = 2;
    CHECK(cp_measure_counts_match(&p, &v) == -1);
    v.load_sectors = 17;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    v.load_sectors = 16;
    v.shared_load_requests = v.shared_load_wavefronts = 2;
    v.shared_load_conflicts = v.shared_store_requests = 0;
    v.shared_store_wavefronts = v.shared_store_conflicts = 0;
    CHECK(cp_measure_counts_match(&p, &v) == 1);
    v.shared_load_wavefronts = 3;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    /* shared counters that also see instructions the model leaves out: judged by the global
     * counts alone */
    p.shared_exact = 0;
    CHECK(cp_measure_counts_match(&p, &v) == 1);
    v.load_sectors = 17;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    v.load_sectors = 16;
    p.shared_exact = 1;
    /* a family's own counters: those a metric measures are judged, the model's alone not */
    p.nfamily = 2;
    p.family[0] = 32;
    p.family[1] = 7; /* the model's own column: never compared */
    p.family_checked = 1u;
    v.shared_load_wavefronts = 2;
    CHECK(cp_measure_counts_match(&p, &v) == -1); /* its counter not read: NAN */
    v.load_sectors = 17;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    v.load_sectors = 16;
    v.family[0] = 32;
    CHECK(cp_measure_counts_match(&p, &v) == 1);
    v.family[0] = 33;
    CHECK(cp_measure_counts_match(&p, &v) == 0);
    p.nfamily = 0;
    p.family_checked = 0;
    /* a global counter the chip lacks: cannot judge */
    cp_counter_values_clear(&v);
    CHECK(isnan(v.family[0]) && isnan(v.family[CP_FAMILY_COUNTERS_MAX - 1]));
    v.load_requests = 4;
    CHECK(cp_measure_counts_match(&p, &v) == -1);
    p.modelled = 0;
    CHECK(cp_measure_counts_match(&p, &v) == -1);
    test_family_metrics();
    return cp_test_finish();
}
