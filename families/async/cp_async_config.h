/* cp_async_config.h: the async family's own configuration, held in cp_config's data and read
 * through cp_async_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_ASYNC_CONFIG_H
#define CP_ASYNC_CONFIG_H

#include <stdint.h>

typedef enum {
    CP_ASYNC_VARIANT_PLAIN,      /* each thread loads its elements (LDG) */
    CP_ASYNC_VARIANT_SMEM,       /* staged in shared memory synchronously (LDG, STS, LDS) */
    CP_ASYNC_VARIANT_CP_ASYNC,   /* cp.async into shared memory (LDGSTS), stages in flight */
    CP_ASYNC_VARIANT_TMA_BULK,   /* cp.async.bulk of the whole tile (TMA), mbarriers */
    CP_ASYNC_VARIANT_TMA_TENSOR, /* cp.async.bulk.tensor.2d through a tensor map */
    CP_ASYNC_VARIANT_COUNT
} cp_async_variant;

/* The names of cp_async_variant (cp_async_family.c). */
extern const char *const cp_async_variant_names[CP_ASYNC_VARIANT_COUNT];

#define CP_ASYNC_TILE_FLOATS 4096u /* a tile: 16 KB (cp_async.h) */
#define CP_ASYNC_STAGES_LIMIT 4u
#define CP_ASYNC_WORK_LIMIT 4096u

/* tiles of 16 KB loaded by `variant`, `stages` in flight, `work` FMAs per element; elements =
 * 4096 per tile */
typedef struct cp_async_config {
    cp_async_variant variant;
    uint32_t stages;
    uint32_t work;
} cp_async_config;

CP_CONFIG_OWN(cp_async_config);
#define cp_async_config_of(c) CP_CONFIG_OF(cp_async_config, c)

#endif
