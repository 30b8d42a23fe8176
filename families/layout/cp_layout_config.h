/* cp_layout_config.h: the layout family's own configuration, held in cp_config's data and read
 * through cp_layout_config_of(c), with its enumerations and the limits of its parameters; for its
 * model and measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_LAYOUT_CONFIG_H
#define CP_LAYOUT_CONFIG_H

#include <stdint.h>

typedef enum { CP_LAYOUT_AOS, CP_LAYOUT_SOA, CP_LAYOUT_COUNT } cp_layout;

/* The names of cp_layout (cp_layout_family.c). */
extern const char *const cp_layout_names[CP_LAYOUT_COUNT];

#define CP_LAYOUT_FIELDS_MAX 64u

typedef struct cp_layout_config {
    cp_layout layout;
    uint32_t fields; /* 4-byte fields per record, >= 1 */
    uint32_t field;  /* field read, < fields */
} cp_layout_config;

CP_CONFIG_OWN(cp_layout_config);
#define cp_layout_config_of(c) CP_CONFIG_OF(cp_layout_config, c)

#endif
