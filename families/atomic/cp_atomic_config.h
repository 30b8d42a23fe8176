/* cp_atomic_config.h: the atomic family's own configuration, held in cp_config's data and read
 * through cp_atomic_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_ATOMIC_CONFIG_H
#define CP_ATOMIC_CONFIG_H

#include <stdint.h>

typedef enum {
    CP_ATOMIC_VARIANT_OWN,        /* every lane its own address */
    CP_ATOMIC_VARIANT_CONTENTION, /* the lanes of a warp share `addresses` addresses */
    CP_ATOMIC_VARIANT_STRIDED,    /* lane i at i * stride */
    CP_ATOMIC_VARIANT_AGGREGATED, /* one atomic a warp after a shuffle reduction */
    CP_ATOMIC_VARIANT_COUNT
} cp_atomic_variant;

typedef enum {
    CP_ATOMIC_OP_ATOM, /* atomicAdd whose old value is stored: ATOM */
    CP_ATOMIC_OP_RED,  /* atomicAdd whose result is unused: RED */
    CP_ATOMIC_OP_COUNT
} cp_atomic_op;

typedef enum { CP_ATOMIC_TYPE_U32, CP_ATOMIC_TYPE_F32, CP_ATOMIC_TYPE_COUNT } cp_atomic_type;

/* The names of its enumerations (cp_atomic_family.c). */
extern const char *const cp_atomic_variant_names[CP_ATOMIC_VARIANT_COUNT];
extern const char *const cp_atomic_op_names[CP_ATOMIC_OP_COUNT];
extern const char *const cp_atomic_type_names[CP_ATOMIC_TYPE_COUNT];

#define CP_ATOMIC_SIZE_DEFAULT (4ull << 20) /* bytes of out: 1M threads */
#define CP_ATOMIC_ADDRESSES_MAX 32ull       /* a warp's lanes */
#define CP_ATOMIC_LANE_WORDS_MAX 64ull      /* words between lanes: 8 KB a warp */
/* What the variants other than contention and strided have of those parameters: the plan keeps
 * them at these values alone (own and strided: 32 addresses; aggregated: 1; stride 1). */
#define CP_ATOMIC_OWN_ADDRESSES 32ull

/* thread i adds 1 to accumulator cp_atomic_slot(i, variant, addresses, lane_words) */
typedef struct cp_atomic_config {
    cp_atomic_variant variant;
    cp_atomic_op op;
    cp_atomic_type type;
    uint64_t addresses;  /* distinct addresses a warp's lanes share (contention) */
    uint64_t lane_words; /* strided: words between consecutive lanes' accumulators (--stride) */
} cp_atomic_config;

CP_CONFIG_OWN(cp_atomic_config);
#define cp_atomic_config_of(c) CP_CONFIG_OF(cp_atomic_config, c)

#endif
