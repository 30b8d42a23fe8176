/* cp_atomic_family.c: the atomic family's descriptor (global atomics and reductions over a warp's
 * addresses): its help, the parameters it sweeps, the values its configurations show in reports,
 * its own counters (cp_atomic_model.c) and its model. */
#include "cp_family_def.h"
#include "cp_atomic_config.h"
#include "cp_atomic_model.h"

CP_FAMILY_ACCESSORS(cp_atomic_config_of, variant, cp_atomic_variant)
CP_FAMILY_ACCESSORS(cp_atomic_config_of, op, cp_atomic_op)
CP_FAMILY_ACCESSORS(cp_atomic_config_of, type, cp_atomic_type)
CP_FAMILY_ACCESSORS(cp_atomic_config_of, addresses, uint64_t)
CP_FAMILY_ACCESSORS(cp_atomic_config_of, lane_words, uint64_t)

const char *const cp_atomic_variant_names[CP_ATOMIC_VARIANT_COUNT] = {"own", "contention",
                                                                      "strided", "aggregated"};
const char *const cp_atomic_op_names[CP_ATOMIC_OP_COUNT] = {"atom", "red"};
const char *const cp_atomic_type_names[CP_ATOMIC_TYPE_COUNT] = {"u32", "f32"};

/* --addresses belongs to contention and --stride to strided: the other variants have theirs
 * (own and strided 32 addresses a warp, aggregated 1; stride 1) and exist at those alone. */
static const char *cp_family_atomic_absent(const cp_config *c)
{
    const cp_atomic_config *cfg = cp_atomic_config_of(c);
    uint64_t addresses = cfg->variant == CP_ATOMIC_VARIANT_AGGREGATED ? 1 : CP_ATOMIC_OWN_ADDRESSES;
    if ((cfg->variant != CP_ATOMIC_VARIANT_CONTENTION && cfg->addresses != addresses) ||
        (cfg->variant != CP_ATOMIC_VARIANT_STRIDED && cfg->lane_words != 1))
        return "--addresses applies to contention and --stride to strided (own and strided "
               "have 32 addresses a warp, aggregated 1, the others stride 1)";
    return NULL;
}

static const cp_family_param cp_atomic_params[] = {
    CP_P_ALL("--variant", "V",
             "own (every lane its own address), contention (a warp's lanes share --addresses "
             "addresses), strided (lane i at i * --stride), aggregated (one atomic a warp after "
             "a __shfl_xor_sync reduction)",
             cp_atomic_variant_names, cp_family_set_variant),
    CP_P_ALL("--op", "OP",
             "atom (atomicAdd whose old value is stored: ATOM), red (its result unused: RED)",
             cp_atomic_op_names, cp_family_set_op),
    CP_P_ALL("--type", "T", "the accumulators' type: u32 (unsigned int), f32 (float)",
             cp_atomic_type_names, cp_family_set_type),
    {.option = "--addresses",
     .arg = "A",
     .doc = "contention: the distinct addresses a warp's 32 lanes share (32 / A lanes on each)",
     .default_spec = "1,2,4,8,32",
     .min = 1,
     .max = CP_ATOMIC_ADDRESSES_MAX,
     .set = cp_family_set_addresses},
    {.option = "--stride",
     .arg = "S",
     .doc = "strided: the accumulators (4-byte words) between consecutive lanes' addresses",
     .default_spec = "1,2,8,32",
     .min = 1,
     .max = CP_ATOMIC_LANE_WORDS_MAX,
     .set = cp_family_set_lane_words},
};
static const cp_family_field cp_atomic_fields[] = {
    CP_F_NAME("variant", variant, cp_atomic_variant_names),
    CP_F_NAME("op", op, cp_atomic_op_names),
    CP_F_NAME("type", type, cp_atomic_type_names),
    CP_F_U64_TITLED("addresses", addresses, "addresses a warp", NULL),
    CP_F_U64_TITLED("stride_words", lane_words, "stride_words (4-byte words between lanes)", NULL),
    CP_F_ELEMENTS,
};

const cp_family_desc cp_atomic_family = {
    .name = "atomic",
    .summary = "atomicAdd(&acc[slot(i)], 1): global atomics and reductions",
    .teaches = "Global atomics over a warp's addresses: every lane its own, lanes sharing a "
               "few (contention), strided, and one atomic a warp after a shuffle reduction. "
               "An atomic's request costs the distinct 32-byte sectors its lanes touch, as a "
               "load's: 4 for a warp's 32 consecutive words, 32 strided by a sector, 1 when "
               "every lane hits one word; the lanes on one address are serialized in L2, which "
               "the time shows. atom keeps the old value (ATOM), red drops it (RED): each is "
               "counted by its own CUPTI counters.",
    .size_doc = "bytes of out: one thread per 4 bytes",
    .examples = {{"coalprobe atomic", "every variant, op and type"},
                 {"coalprobe atomic --variant contention --addresses 1,2,4,8,16,32 --op red",
                  "how contention costs"}},
    .list = "acc: atomicAdd at slot(i) (atom: ATOM, red: RED), out: the old value (atom)\n",
    .list_front = "",
    CP_PARAMS(cp_atomic_params),
    .size_default = CP_ATOMIC_SIZE_DEFAULT,
    .init = cp_family_init_words,
    CP_FIELDS(cp_atomic_fields),
    .describe = {"variant", "op", "type", "addresses", "stride_words"},
    .table = {"variant", "op", "type", "addresses", "stride_words"},
    .chart = {"addresses", "stride_words", "variant", "op", "type"},
    .table_counts = CP_COUNTS_FAMILY,
    CP_COUNTERS(cp_atomic_counters),
    .model = &cp_atomic_model,
    .absent = cp_family_atomic_absent,
};
