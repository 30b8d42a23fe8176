/* cp_explain.h: --explain: draws, within 80 columns, which lanes of one warp land on which
 * 128-byte line and 32-byte sector, and how many fetched bytes each line wastes. */
#ifndef CP_EXPLAIN_H
#define CP_EXPLAIN_H

#include <stdint.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "measure/cp_measure.h"
#include "base/cp_base.h"

/* Draws warp `warp` of configuration c, every access, first loop iteration. */
int cp_explain_write(FILE *out, const cp_config *c, uint64_t warp, cp_status *st);

/* The lines on what the configuration's kernel needs of an SM (r: threads, registers, shared
 * memory), the blocks per SM each of the SM's limits allows, and the occupancy with the limit
 * that holds it (cp_occupancy_compute); r not known: its reason. Within 80 columns. */
int cp_explain_write_resources(FILE *out, const cp_resources *r, cp_status *st);

#endif
