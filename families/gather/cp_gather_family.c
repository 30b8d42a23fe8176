/* cp_gather_family.c: the gather family's descriptor (reads through an index array of shuffled
 * runs): its help, the parameters it sweeps, the values its configurations show in reports, and its
 * model (cp_gather_model.c). */
#include "cp_family_def.h"
#include "cp_gather_config.h"

CP_FAMILY_ACCESSORS(cp_gather_config_of, run, uint64_t)
CP_FAMILY_ACCESSORS(cp_gather_config_of, seed, uint64_t)

static const cp_family_param cp_gather_params[] = {
    {.option = "--seed",
     .arg = "S",
     .doc = "the permutation's seed",
     .default_spec = "1",
     .max = UINT32_MAX,
     .set = cp_family_set_seed},
    {.option = "--run",
     .arg = "R",
     .doc = "contiguous elements kept together (1: random)",
     .default_spec = "1",
     .min = 1,
     .max = 1ull << 32,
     .set = cp_family_set_run},
};
static const cp_family_field cp_gather_fields[] = {
    CP_F_U64_TITLED("run", run, "run (contiguous elements)", NULL),
    CP_F_U64("seed", seed),
    CP_F_ELEMENTS,
};

const cp_family_desc cp_gather_family = {
    .name = "gather",
    .summary = "out[i] = in[idx[i]], idx a seeded permutation of runs of elements",
    .teaches = "Reading through an index array. With runs of 1 every lane's element lies "
               "in a sector of its own: 32 sectors per request, 12.5% efficiency; as the "
               "runs that stay together grow to a sector (8 elements) and a warp (32) the "
               "gather coalesces back to 4 sectors per request.",
    .size_doc = "bytes of in",
    .examples = {{"coalprobe gather --run 1,2,4,8,32", "random to runs"},
                 {"coalprobe gather --run 4 --size 64K --explain", "the sectors of one "
                                                                   "warp"}},
    .list = "idx: dense load, in: load at idx[i] (runs of `run` in random order), out\n",
    .list_front = "",
    CP_PARAMS(cp_gather_params),
    .help_order = {"--run", "--seed"},
    .size_default = CP_GATHER_SIZE_DEFAULT,
    .init = cp_family_init_words,
    CP_FIELDS(cp_gather_fields),
    .describe = {"run", "seed"},
    .table = {"run", "seed"},
    .chart = {"run", "seed"},
    .table_counts = CP_COUNTS_ACCESSES,
    .model = &cp_gather_model,
};
