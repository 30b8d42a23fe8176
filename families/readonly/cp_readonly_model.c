/* cp_readonly_model.c: the model's view of the readonly family (cp_readonly.h): a load
 * of the table at each thread's entry (global memory, or constant memory for the constant
 * variant) and a dense store of out. The mod lookup over a table of whole 128-byte lines
 * repeats one warp's cost; random and broadcast lookups are counted warp by warp. */
#include "cp_model_family.h"
#include "cp_readonly.h"
#include "cp_readonly_config.h"

_Static_assert((int)CP_READONLY_VARIANT_CONSTANT == CP_READONLY_CONSTANT &&
                   (int)CP_LOOKUP_BROADCAST == CP_READONLY_INDEX_BROADCAST &&
                   (int)CP_LOOKUP_RANDOM == CP_READONLY_INDEX_RANDOM,
               "the readonly enumerations of cp_readonly_config.h follow cp_readonly.h");

enum { CP_READONLY_TABLE, CP_READONLY_OUT };

static uint64_t cp_readonly_entries(const cp_config *c)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    return cfg->table_bytes / 4;
}

/* The bytes of the table the lookups read: every entry of a table no larger than the lookups,
 * else the entries the lookups reach (mod: the first n; broadcast: one per warp; random: at most
 * n, an upper bound). */
static uint64_t cp_readonly_working_set(const cp_config *c)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    uint64_t entries = cp_readonly_entries(c), n = c->elements;
    uint64_t reached =
        cfg->lookup == CP_LOOKUP_BROADCAST ? (n + CP_WARP_SIZE - 1) / CP_WARP_SIZE : n;
    return 4 * (reached < entries ? reached : entries);
}

static void cp_model_readonly_describe(const cp_config *c, cp_prediction *out)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    uint64_t n = c->elements;
    cp_model_linear_grid(out, n, 2);
    cp_space space =
        cfg->variant == CP_READONLY_VARIANT_CONSTANT ? CP_SPACE_CONSTANT : CP_SPACE_GLOBAL;
    cp_model_element_access(&out->accesses[CP_READONLY_TABLE], "table", CP_OP_LOAD, space, 4,
                            cfg->table_bytes, 1);
    cp_model_element_access(&out->accesses[CP_READONLY_OUT], "out", CP_OP_STORE, CP_SPACE_GLOBAL, 4,
                            n * 4, 0);
    out->working_set_bytes = cp_readonly_working_set(c);
    out->working_set_constant = space == CP_SPACE_CONSTANT;
}

/* The element thread i accesses through access a: the table at its entry, out at i. */
static uint64_t cp_readonly_element(const cp_config *c, size_t a, uint64_t i)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    if (a != CP_READONLY_TABLE)
        return i;
    return cp_readonly_entry((uint32_t)i, (uint32_t)cp_readonly_entries(c), (int)cfg->lookup);
}

static CP_MODEL_LINEAR_LANES_HOOK(cp_model_readonly_lanes, cp_readonly_element, 4)

    /* 1 when every full warp of the table's access costs the same: the mod lookup over whole
     * 128-byte lines, where warp w reads line (w mod entries/32) of the table. */
    static int cp_readonly_table_regular(const cp_config *c)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    return cfg->lookup == CP_LOOKUP_MOD && cp_readonly_entries(c) % CP_WARP_SIZE == 0;
}

static size_t cp_model_readonly_classes(const cp_config *c, size_t a,
                                        cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    if (a == CP_READONLY_TABLE && !cp_readonly_table_regular(c))
        return CP_MODEL_EVERY_WARP;
    return cp_model_linear_classes(c->elements, classes);
}

static uint64_t cp_model_readonly_footprint(const cp_config *c, size_t a)
{
    const cp_readonly_config *cfg = cp_readonly_config_of(c);
    if (a == CP_READONLY_OUT)
        return cp_model_monotone_footprint(c->elements, 4, 0, 4);
    if (cfg->variant == CP_READONLY_VARIANT_CONSTANT)
        return 0; /* no global traffic */
    if (!cp_readonly_table_regular(c))
        return CP_MODEL_FOOTPRINT_FROM_LANES;
    uint64_t entries = cp_readonly_entries(c);
    uint64_t read = c->elements < entries ? c->elements : entries;
    return cp_model_monotone_footprint(read, 4, 0, 4);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_readonly_model = {
    .describe = cp_model_readonly_describe,
    .lanes = cp_model_readonly_lanes,
    .classes = cp_model_readonly_classes,
    .iteration_step = cp_model_no_iteration_step,
    .footprint = cp_model_readonly_footprint,
    .thread_by_thread = 1,
};
