/* cp_config.h: one configuration of a sweep: what every family has, and the family's own
 * configuration (a struct of its folder) in its storage; the sides of an access and their
 * names, and what a configuration's family says of it. */
#ifndef CP_CONFIG_H
#define CP_CONFIG_H

#include <stdint.h>

#include "cp_expr.h"
#include "cp_family.h" /* cp_family: the pattern families */

typedef enum { CP_OP_LOAD, CP_OP_STORE, CP_OP_COUNT } cp_op;
/* Documented limits shared by every family (the CLI refuses values outside them); a family's
 * own limits are in its folder (families/<family>/cp_<family>_config.h). */
#define CP_SIZE_MIN 4096u              /* bytes */
#define CP_SIZE_MAX (16ull << 30)      /* bytes */
#define CP_SIZE_DEFAULT (256ull << 20) /* bytes: about 5x the 50 MB L2 of an H100 */

/* Bytes a family's own configuration may take in cp_config (checked by CP_CONFIG_OWN). */
#define CP_CONFIG_DATA_MAX 64

/* One configuration: what every family has, and the family's own configuration, a struct of its
 * folder (cp_<family>_config in families/<family>/cp_<family>_config.h) held in `data` and read
 * through that family's cp_<family>_config_of(c). A zeroed configuration is a zeroed one of
 * every family. */
typedef struct cp_config {
    cp_family family;
    /* elements (threads but for a family whose init says otherwise), 0 where the family sizes
     * itself by its own fields (a GEMM's m, n and k) */
    uint64_t elements;
    /* the index expression of a family that takes one (cp_family_desc.takes_index: --index and
     * --param; owned by the caller, shared by every configuration of a sweep), its parameters'
     * values in the order of its names */
    const struct cp_expr *expr;
    int64_t expr_params[CP_EXPR_MAX_PARAMS];
    uint32_t nexpr_params;
    /* the family's own configuration: only the family's accessor reads it */
    _Alignas(8) unsigned char data[CP_CONFIG_DATA_MAX];
} cp_config;

/* The family's own configuration of c as a `type` (const when c is): what a family's
 * cp_<family>_config_of is. CP_CONFIG_OWN(type) checks that the type fits. */
#define CP_CONFIG_OF(type, c)                                                                      \
    _Generic((c), const cp_config *: (const type *)(const void *)(c)->data,                       \
             default: (type *)(void *)(c)->data)
#define CP_CONFIG_OWN(type)                                                                        \
    _Static_assert(sizeof(type) <= CP_CONFIG_DATA_MAX && _Alignof(type) <= 8,                      \
                   #type " fits cp_config's data")

/* The names of the loads and stores, indexed by cp_op. */
extern const char *const cp_config_op_names[CP_OP_COUNT];

const char *cp_config_family_name(cp_family f);
const char *cp_config_op_name(cp_op op);

/* The side of c's pattern (its family's field "op"): CP_OP_LOAD when its family has none. */
cp_op cp_config_op(const cp_config *c);

/* Elements (threads) that a run of `size_bytes` useful bytes gives for this access width. */
uint64_t cp_config_elements_for_size(uint64_t size_bytes, uint32_t width_bytes);

/* Writes an expr configuration's parameters as name=value pairs joined by sep ("s=2 k=1"),
 * "" without parameters, into buf (len bytes, cut to fit). */
void cp_config_format_params(const cp_config *c, const char *sep, char *buf, unsigned long len);

/* 1 when c's kernel uses shared memory (its family's uses_shared): its sweep reads the
 * shared-memory counters too, which cost the profiler one more pass. */
int cp_config_uses_shared(const cp_config *c);

/* 1 when every global access of c's kernel is issued only by warps with an active lane (its
 * family's requests_are_instructions: one bounds check, and a warp past it exits before any
 * access), so that its warp-level global instructions are its requests: the profiler then
 * counts requests as instructions, in the pass of the sector counters (2 passes instead of 4). */
int cp_config_requests_are_instructions(const cp_config *c);

/* 1 when c's family reads the memory path's counters (L1 and L2 hits, SM active, constant,
 * cp.async and TMA loads; its family's path_counters), where they are its lesson. */
int cp_config_path_counters(const cp_config *c);

/* Writes a short human label such as "stride=2 offset=0 width=4 op=load" into buf. */
void cp_config_describe(const cp_config *c, char *buf, unsigned long len);

#endif
