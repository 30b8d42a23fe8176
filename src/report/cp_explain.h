/* cp_explain.h: --explain: draws, within 80 columns, which lanes of one warp land on which
 * 128-byte line and 32-byte sector, and how many fetched bytes each line wastes. */
#ifndef CP_EXPLAIN_H
#define CP_EXPLAIN_H

#include <stdint.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "measure/cp_measure.h"
#include "base/cp_base.h"

/* Whether warp `warp` of configuration c can be drawn: its expression (expr) holds for every
 * thread and the grid has that warp; CP_EXIT_USAGE with a message otherwise. Nothing is
 * written, so that every configuration of a run can be checked before the first picture. */
int cp_explain_check(const cp_config *c, uint64_t warp, cp_status *st);

/* Draws warp `warp` of configuration c, every access, first loop iteration (cp_explain_check
 * first). */
int cp_explain_write(FILE *out, const cp_config *c, uint64_t warp, cp_status *st);

/* cp_explain_write of a configuration that has passed cp_explain_check with this warp (an
 * expression is not evaluated for every thread a second time). */
int cp_explain_write_checked(FILE *out, const cp_config *c, uint64_t warp, cp_status *st);

/* The lines on what the configuration's kernel needs of an SM (r: threads, registers, shared
 * memory), the blocks per SM each of the SM's limits allows, and the occupancy with the limit
 * that holds it (cp_occupancy_compute); r not known: its reason. Within 80 columns. */
int cp_explain_write_resources(FILE *out, const cp_resources *r, cp_status *st);

#endif
