/* cp_plan.h: turns the parsed command line into the list of configurations to run. */
#ifndef CP_PLAN_H
#define CP_PLAN_H

#include <stddef.h>

#include "cp_cli.h"
#include "model/cp_model.h"
#include "base/cp_base.h"

/* Most configurations one run may hold, and the most with --allow-large-sweep. */
#define CP_PLAN_MAX_CONFIGS 100000u
#define CP_PLAN_MAX_CONFIGS_ALLOWED 1000000u /* about 2.3 KB of records each */

/* The configurations of a product that do not exist (cp_family_desc.absent), left out. */
typedef struct cp_plan_absent {
    size_t count;
    const char *reason; /* the first one's */
} cp_plan_absent;

/* Builds the cartesian product of o's sweeps for its family, in a stable order (the
 * innermost, fastest-changing parameter last in the family's list: stride for stride, field
 * for layout, k for gemm), leaving out the configurations that do not exist (counted in
 * *absent; CP_EXIT_USAGE when none is left). *configs is malloc'ed; the caller frees it. With
 * --explain, every configuration must be drawable (cp_explain_check: the warp exists, an
 * expression holds). */
int cp_plan_build(const cp_options *o, cp_config **configs, size_t *count, cp_plan_absent *absent,
                  cp_status *st);

#endif
