/* cp_explain.h: --explain: draws, within 80 columns, which lanes of one warp land on which
 * 128-byte line and 32-byte sector, and how many fetched bytes each line wastes. */
#ifndef CP_EXPLAIN_H
#define CP_EXPLAIN_H

#include <stdint.h>
#include <stdio.h>

#include "model/cp_model.h"
#include "base/cp_base.h"

/* Draws warp `warp` of configuration c, every access, first loop iteration. */
int cp_explain_write(FILE *out, const cp_config *c, uint64_t warp, cp_status *st);

#endif
