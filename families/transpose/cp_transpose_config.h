/* cp_transpose_config.h: the transpose family's own configuration, held in cp_config's data and
 * read through cp_transpose_config_of(c), with its enumerations and the limits of its parameters;
 * for its model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_TRANSPOSE_CONFIG_H
#define CP_TRANSPOSE_CONFIG_H

#include <stdint.h>

typedef enum {
    CP_TRANSPOSE_NAIVE,  /* coalesced read, strided write, no shared memory */
    CP_TRANSPOSE_TILED,  /* 32 x 32 tiles through shared memory: column reads conflict */
    CP_TRANSPOSE_PADDED, /* the same with one float of padding per tile row */
    CP_TRANSPOSE_COUNT
} cp_transpose_variant;

/* The names of cp_transpose_variant (cp_transpose_family.c). */
extern const char *const cp_transpose_variant_names[CP_TRANSPOSE_COUNT];

#define CP_TRANSPOSE_DIM_MAX 65536u

/* an m x n matrix (m rows) becomes n x m */
typedef struct cp_transpose_config {
    cp_transpose_variant variant;
    uint64_t m, n;
} cp_transpose_config;

CP_CONFIG_OWN(cp_transpose_config);
#define cp_transpose_config_of(c) CP_CONFIG_OF(cp_transpose_config, c)

#endif
