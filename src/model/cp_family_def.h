/* cp_family_def.h: what a family's descriptor (families/<family>/cp_<family>_family.c, built into
 * the model layer) is written with: the setters and getters of the configuration's members, the
 * parameters and fields that several families share, and the checks and inits cp_family.c
 * defines for them. Private to the model layer and its family parts. */
#ifndef CP_FAMILY_DEF_H
#define CP_FAMILY_DEF_H

#include <stddef.h>
#include <stdint.h>

#include "cp_config.h"
#include "cp_family.h"
#include "cp_model_family.h"

/* Defines cp_family_set_<member> and cp_family_get_<member>, the member of the family's own
 * configuration (of: its cp_<family>_config_of) as a uint64_t (a parameter's set, a field's get
 * and set). Inline: a family defines those of its members. */
#define CP_FAMILY_ACCESSORS(of, member, type)                                                      \
    static inline void cp_family_set_##member(cp_config *c, uint64_t v)                            \
    {                                                                                              \
        of(c)->member = (type)v;                                                                   \
    }                                                                                              \
    static inline uint64_t cp_family_get_##member(const cp_config *c)                              \
    {                                                                                              \
        return (uint64_t)of(c)->member;                                                            \
    }

/* cp_config's elements, which every family has, as a uint64_t. */
static inline void cp_family_set_elements(cp_config *c, uint64_t v)
{
    c->elements = v;
}
static inline uint64_t cp_family_get_elements(const cp_config *c)
{
    return c->elements;
}

#define CP_NAMES(t) t, CP_COUNT_OF(t)

/* A parameter's names (an enumeration's name table). */
#define CP_P_NAMES(t) .names = t, .nnames = CP_COUNT_OF(t)

/* Parameters several families sweep, with the help the family gives them (their accessors
 * defined by the family). */
#define CP_P_WIDTH(doc_, check_)                                                                   \
    {                                                                                              \
        .option = "--width", .arg = "W", .doc = doc_, .default_spec = "4", .min = 4, .max = 32,    \
        .set = cp_family_set_width_bytes, .check = check_                                          \
    }
#define CP_P_OP(doc_)                                                                              \
    {                                                                                              \
        .option = "--op", .arg = "OP", .doc = doc_, .default_spec = "load",                        \
        CP_P_NAMES(cp_config_op_names), .set = cp_family_set_op                                    \
    }
/* A named parameter (--variant and the like) whose default is every name. */
#define CP_P_ALL(option_, arg_, doc_, names_, set_)                                                \
    {                                                                                              \
        .option = option_, .arg = arg_, .doc = doc_, .default_spec = "all", CP_P_NAMES(names_),    \
        .set = set_                                                                                \
    }
/* A number from 1 to max. */
#define CP_P_DIM(option_, arg_, doc_, def, max_, set_)                                             \
    {                                                                                              \
        .option = option_, .arg = arg_, .doc = doc_, .default_spec = def, .min = 1, .max = max_,   \
        .set = set_                                                                                \
    }

/* Fields: a number or a name, read and set through the member's accessors. */
#define CP_F_U64(key, member)                                                                      \
    {                                                                                              \
        key, NULL, NULL, CP_FIELD_U64, cp_family_get_##member, NULL, 0, cp_family_set_##member,    \
            NULL, NULL                                                                             \
    }
/* A number with the chart's axis title and the unit of its values (cp_family_field). */
#define CP_F_U64_TITLED(key, member, title, unit)                                                  \
    {                                                                                              \
        key, NULL, NULL, CP_FIELD_U64, cp_family_get_##member, NULL, 0, cp_family_set_##member,    \
            title, unit                                                                            \
    }
#define CP_F_NAME(key, member, names)                                                              \
    {                                                                                              \
        key, NULL, NULL, CP_FIELD_NAME, cp_family_get_##member, CP_NAMES(names),                   \
            cp_family_set_##member, NULL, NULL                                                     \
    }
#define CP_F_WIDTH                                                                                 \
    {                                                                                              \
        "width_bytes", NULL, "width", CP_FIELD_U64, cp_family_get_width_bytes, NULL, 0,            \
            cp_family_set_width_bytes, "width (bytes)", "B"                                        \
    }
#define CP_F_OP CP_F_NAME("op", op, cp_config_op_names)
#define CP_F_ELEMENTS CP_F_U64("elements", elements)

#define CP_PARAMS(p) .params = p, .nparams = CP_COUNT_OF(p)
#define CP_FIELDS(f) .fields = f, .nfields = CP_COUNT_OF(f)
#define CP_COUNTERS(k) .counters = k, .ncounters = CP_COUNT_OF(k)

/* Access widths of global memory: 4, 8, 16 or 32 bytes (a parameter's check). */
int cp_family_check_width(const cp_sweep *w, cp_status *st);

/* An init (cp_family_desc.init): one thread per 4-byte element. */
void cp_family_init_words(cp_config *c, uint64_t size_bytes);

#endif
