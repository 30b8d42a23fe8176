/* cp_async_family.c: the async family's descriptor (the copy ladder, tiles loaded into the SM): its
 * help, the parameters it sweeps, the values its configurations show in reports, and its model
 * (cp_async_model.c). */
#include "cp_family_def.h"
#include "cp_async_model.h" /* cp_model_async_schedule */
#include "cp_async_config.h"

CP_FAMILY_ACCESSORS(cp_async_config_of, variant, cp_async_variant)
CP_FAMILY_ACCESSORS(cp_async_config_of, stages, uint32_t)
CP_FAMILY_ACCESSORS(cp_async_config_of, work, uint32_t)

const char *const cp_async_variant_names[CP_ASYNC_VARIANT_COUNT] = {"plain", "smem", "cp-async",
                                                                    "tma-bulk", "tma-tensor"};

/* async: plain and smem load each tile before computing it, one at a time. */
static const char *cp_family_async_absent(const cp_config *c)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    if ((cfg->variant == CP_ASYNC_VARIANT_PLAIN || cfg->variant == CP_ASYNC_VARIANT_SMEM) &&
        cfg->stages > 1)
        return "plain and smem have one stage (the tile loaded, then computed): --stages 1";
    return NULL;
}

/* async: cp.async (LDGSTS) came with sm_80, the TMA unit with sm_90. */
static int cp_family_async_needs_cc(const cp_config *c)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    switch (cfg->variant) {
    case CP_ASYNC_VARIANT_CP_ASYNC:
        return 80;
    case CP_ASYNC_VARIANT_TMA_BULK:
    case CP_ASYNC_VARIANT_TMA_TENSOR:
        return 90;
    default:
        return 0;
    }
}

static int cp_family_async_shared(const cp_config *c)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    return cfg->variant != CP_ASYNC_VARIANT_PLAIN;
}

/* async: whole 16 KB tiles of 4-byte elements, at least one. */
static void cp_family_init_tiles(cp_config *c, uint64_t size_bytes)
{
    uint64_t tiles = size_bytes / (CP_ASYNC_TILE_FLOATS * 4);
    c->elements = (tiles ? tiles : 1) * CP_ASYNC_TILE_FLOATS;
}

static const cp_family_param cp_async_params[] = {
    CP_P_ALL("--variant", "V",
             "plain (LDG), smem (LDG, STS, LDS), cp-async (LDGSTS), tma-bulk (cp.async.bulk), "
             "tma-tensor (a 2-D tensor map)",
             cp_async_variant_names, cp_family_set_variant),
    {.option = "--stages",
     .arg = "S",
     .doc = "tiles in flight (plain and smem: 1)",
     .default_spec = "1,2",
     .min = 1,
     .max = CP_ASYNC_STAGES_LIMIT,
     .set = cp_family_set_stages},
    {.option = "--work",
     .arg = "W",
     .doc = "FMAs per element (0: memory bound)",
     .default_spec = "0",
     .max = CP_ASYNC_WORK_LIMIT,
     .set = cp_family_set_work},
};
static const cp_family_field cp_async_fields[] = {
    CP_F_NAME("variant", variant, cp_async_variant_names),
    CP_F_U64_TITLED("stages", stages, "stages (tiles in flight)", NULL),
    CP_F_U64_TITLED("work", work, "work (FMAs per element)", NULL),
    CP_F_ELEMENTS,
};

const cp_family_desc cp_async_family = {
    .name = "async",
    .summary = "16 KB tiles loaded into the SM, then computed (the copy ladder)",
    .teaches = "Asynchronous copies. Each block loads 16 KB tiles and computes on them: "
               "plain loads into registers, smem stages them through shared memory, "
               "cp-async (LDGSTS, sm_80) copies global to shared memory without "
               "registers, tma-bulk and tma-tensor hand the copy to the TMA unit (sm_90). "
               "With more stages the copy of the next tile overlaps the work on this one; "
               "--work sets how much arithmetic hides it.",
    .size_doc = "bytes of in, in whole 16 KB tiles",
    .examples = {{"coalprobe async", "the copy ladder, 1 and 2 stages"},
                 {"coalprobe async --variant cp-async --stages 1..4 --work 0..64:16",
                  "overlap of copy and compute"}},
    .list = "in: load of each tile (LSU, cp.async or TMA), tile: shared store and "
            "load,\nout: store; cp-async needs sm_80, tma-* sm_90\n",
    .list_front = "",
    CP_PARAMS(cp_async_params),
    .size_default = CP_SIZE_DEFAULT,
    .init = cp_family_init_tiles,
    CP_FIELDS(cp_async_fields),
    .describe = {"variant", "stages", "work"},
    .table = {"variant", "stages", "work"},
    .chart = {"work", "variant", "stages"},
    .table_counts = CP_COUNTS_COPIES,
    .uses_shared = cp_family_async_shared,
    .path_counters = 1,
    .model = &cp_async_model,
    .absent = cp_family_async_absent,
    .needs_cc = cp_family_async_needs_cc,
    .schedule = cp_model_async_schedule,
};
