/* cp_counts.c: ratios derived from the model's counts (sectors per request, efficiency). */
#include "cp_model.h"

#include <math.h>

static double cp_counts_ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : NAN;
}

double cp_counts_sectors_per_request(const cp_counts *c)
{
    return cp_counts_ratio(c->sectors, c->requests);
}

double cp_counts_ideal_sectors_per_request(const cp_counts *c)
{
    return cp_counts_ratio(c->ideal_sectors, c->requests);
}

double cp_counts_lines_per_request(const cp_counts *c)
{
    return cp_counts_ratio(c->lines, c->requests);
}

double cp_counts_efficiency(const cp_counts *c)
{
    return cp_counts_ratio(c->bytes_requested, c->sectors * (uint64_t)CP_SECTOR_BYTES);
}

double cp_counts_wavefronts_per_request(const cp_counts *c)
{
    return cp_counts_ratio(c->wavefronts, c->requests);
}

double cp_counts_conflicts_per_request(const cp_counts *c)
{
    return cp_counts_ratio(c->bank_conflicts, c->requests);
}
