/* cp_stride_config.h: the stride family's own configuration, held in cp_config's data and read
 * through cp_stride_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_STRIDE_CONFIG_H
#define CP_STRIDE_CONFIG_H

#include <stdint.h>

/* Limits of its parameters (the CLI refuses values outside them). */
#define CP_STRIDE_MAX 4096u
#define CP_STRIDE_OFFSET_MAX 4096u

typedef struct cp_stride_config {
    uint64_t stride;      /* elements between neighbouring threads, >= 1 */
    uint64_t offset;      /* elements of width_bytes skipped at the start */
    uint32_t width_bytes; /* 4, 8, 16 or 32 */
    cp_op op;             /* which side is strided */
} cp_stride_config;

CP_CONFIG_OWN(cp_stride_config);
#define cp_stride_config_of(c) CP_CONFIG_OF(cp_stride_config, c)

#endif
