/* cp_smem_config.h: the smem family's own configuration, held in cp_config's data and read through
 * cp_smem_config_of(c), with its enumerations and the limits of its parameters; for its model and
 * measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_SMEM_CONFIG_H
#define CP_SMEM_CONFIG_H

#include <stdint.h>

#define CP_SMEM_STEP_MAX 64u /* elements between lanes: 32 * 64 * 16 bytes of shared memory */

/* stride, width_bytes and op of a shared-memory array; each thread makes `iterations`
 * accesses. */
typedef struct cp_smem_config {
    uint64_t stride;
    uint32_t width_bytes;
    cp_op op;
    uint64_t iterations;
} cp_smem_config;

CP_CONFIG_OWN(cp_smem_config);
#define cp_smem_config_of(c) CP_CONFIG_OF(cp_smem_config, c)

#endif
