/* cp_gather_config.h: the gather family's own configuration, held in cp_config's data and read
 * through cp_gather_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_GATHER_CONFIG_H
#define CP_GATHER_CONFIG_H

#include <stdint.h>

#define CP_GATHER_SIZE_DEFAULT (64ull << 20) /* bytes: the gather model counts every warp */

typedef struct cp_gather_config {
    uint64_t run;  /* contiguous elements kept together by the index array (1: random) */
    uint64_t seed; /* of the permutation */
} cp_gather_config;

CP_CONFIG_OWN(cp_gather_config);
#define cp_gather_config_of(c) CP_CONFIG_OF(cp_gather_config, c)

#endif
