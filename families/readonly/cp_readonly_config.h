/* cp_readonly_config.h: the readonly family's own configuration, held in cp_config's data and read
 * through cp_readonly_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_READONLY_CONFIG_H
#define CP_READONLY_CONFIG_H

#include <stdint.h>

typedef enum {
    CP_READONLY_VARIANT_PLAIN,    /* const float *: LDG.E */
    CP_READONLY_VARIANT_RESTRICT, /* const float *__restrict__: the read-only path */
    CP_READONLY_VARIANT_LDG,      /* __ldg() */
    CP_READONLY_VARIANT_CONSTANT, /* __constant__ memory: LDC, tables up to 64 KB */
    CP_READONLY_VARIANT_COUNT
} cp_readonly_variant;

typedef enum {
    CP_LOOKUP_MOD,       /* table[i % entries] */
    CP_LOOKUP_RANDOM,    /* table[hash(i) % entries] */
    CP_LOOKUP_BROADCAST, /* table[(i / 32) % entries]: one entry per warp */
    CP_LOOKUP_COUNT
} cp_lookup;

/* The names of its enumerations (cp_readonly_family.c). */
extern const char *const cp_readonly_variant_names[CP_READONLY_VARIANT_COUNT];
extern const char *const cp_readonly_lookup_names[CP_LOOKUP_COUNT];

#define CP_READONLY_SIZE_DEFAULT (64ull << 20) /* bytes of out: 16M lookups */
#define CP_TABLE_MIN 128ull                    /* bytes: one 128-byte line */
#define CP_TABLE_MAX (4ull << 30)              /* bytes: 2^30 entries */
#define CP_TABLE_CONSTANT_MAX 65536ull         /* bytes of __constant__ memory */

/* a lookup out[i] = table[entry(i)] from a table of table_bytes */
typedef struct cp_readonly_config {
    cp_readonly_variant variant;
    cp_lookup lookup;
    uint64_t table_bytes;
} cp_readonly_config;

CP_CONFIG_OWN(cp_readonly_config);
#define cp_readonly_config_of(c) CP_CONFIG_OF(cp_readonly_config, c)

#endif
