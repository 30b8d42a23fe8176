/* test_measure.c: measurement records without a GPU: resetting them, and reading the driver
 * release from /proc/driver/nvidia/version lines. */
#include <math.h>

#include "measure/cp_measure.h"
#include "cp_test.h"

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
    return cp_test_finish();
}
