/* cp_expr_config.h: the expr family's own configuration, held in cp_config's data and read through
 * cp_expr_config_of(c), with its enumerations and the limits of its parameters; for its model and
 * measure parts, after their layer's headers (which define cp_config). */
#ifndef CP_EXPR_CONFIG_H
#define CP_EXPR_CONFIG_H

#include <stdint.h>

#define CP_EXPR_SIZE_DEFAULT (64ull << 20) /* bytes: the expr model evaluates every thread */

/* Its expression and the expression's parameters are cp_config's (expr, expr_params): the
 * command line parses them for every family that takes an index. op picks the side the
 * expression indexes. */
typedef struct cp_expr_config {
    uint32_t width_bytes;
    cp_op op;
} cp_expr_config;

CP_CONFIG_OWN(cp_expr_config);
#define cp_expr_config_of(c) CP_CONFIG_OF(cp_expr_config, c)

#endif
