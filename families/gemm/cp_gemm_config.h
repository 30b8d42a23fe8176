/* cp_gemm_config.h: the gemm family's own configuration, held in cp_config's data and read through
 * cp_gemm_config_of(c), with its enumerations and the limits of its parameters; for its model and
 * measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_GEMM_CONFIG_H
#define CP_GEMM_CONFIG_H

#include <stdint.h>

typedef enum {
    CP_GEMM_NAIVE,
    CP_GEMM_COALESCED,
    CP_GEMM_SMEM,
    CP_GEMM_CUBLAS, /* the reference: measured, not modelled */
    CP_GEMM_COUNT
} cp_gemm_variant;

/* The names of cp_gemm_variant (cp_gemm_family.c). */
extern const char *const cp_gemm_variant_names[CP_GEMM_COUNT];

#define CP_GEMM_DIM_MAX 65536u

/* m x n times n x k: the dimensions name no element count (cp_config.elements stays 0). */
typedef struct cp_gemm_config {
    cp_gemm_variant variant;
    uint64_t m, n, k;
} cp_gemm_config;

CP_CONFIG_OWN(cp_gemm_config);
#define cp_gemm_config_of(c) CP_CONFIG_OF(cp_gemm_config, c)

#endif
