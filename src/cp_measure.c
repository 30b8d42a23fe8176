/* cp_measure.c: resetting measurement records. */
#include "cp_measure.h"

#include <math.h>
#include <string.h>

void cp_counter_values_clear(cp_counter_values *v)
{
    v->load_requests = v->load_sectors = NAN;
    v->store_requests = v->store_sectors = NAN;
    v->l2_read_sectors = v->l2_write_sectors = NAN;
    v->dram_read_bytes = v->dram_write_bytes = NAN;
    v->dram_throughput_pct = NAN;
}

void cp_measurement_clear(cp_measurement *m)
{
    memset(m, 0, sizeof *m);
    m->time_median_s = m->time_min_s = m->time_max_s = NAN;
    m->useful_bytes = m->useful_bytes_per_s = m->dram_bytes_per_s = m->pct_of_peak = NAN;
    m->counters_status = CP_COUNTERS_NOT_RUN;
    m->counts_match = -1;
    cp_counter_values_clear(&m->counters);
}
