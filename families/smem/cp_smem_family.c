/* cp_smem_family.c: the smem family's descriptor (bank conflicts of a strided shared-memory
 * access): its help, the parameters it sweeps, the values its configurations show in reports, and
 * its model (cp_smem_model.c). */
#include "cp_family_def.h"
#include "cp_smem.h" /* CP_SMEM_BLOCKS, CP_SMEM_BLOCK, CP_SMEM_ITERATIONS */
#include "cp_smem_config.h"

CP_FAMILY_ACCESSORS(cp_smem_config_of, stride, uint64_t)
CP_FAMILY_ACCESSORS(cp_smem_config_of, width_bytes, uint32_t)
CP_FAMILY_ACCESSORS(cp_smem_config_of, op, cp_op)
CP_FAMILY_ACCESSORS(cp_smem_config_of, iterations, uint64_t)

/* Access widths of shared memory: up to 16 bytes, one shared-memory instruction per lane. */
static int cp_family_check_shared_width(const cp_sweep *w, cp_status *st)
{
    for (size_t i = 0; i < w->count; i++) {
        uint64_t v = w->values[i];
        if (v != 4 && v != 8 && v != 16) {
            cp_status_set(st, CP_EXIT_USAGE,
                          "--width: '%llu' is not an access width of shared memory",
                          (unsigned long long)v);
            cp_status_hint(st, "shared memory widths are 4, 8 or 16 bytes (LDS, LDS.64, "
                               "LDS.128), e.g. --width 4,8,16");
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}

/* smem: a fixed grid, each thread making CP_SMEM_ITERATIONS accesses. */
static void cp_family_init_smem(cp_config *c, uint64_t size_bytes)
{
    cp_smem_config *cfg = cp_smem_config_of(c);
    (void)size_bytes;
    c->elements = (uint64_t)CP_SMEM_BLOCKS * CP_SMEM_BLOCK;
    cfg->iterations = CP_SMEM_ITERATIONS;
}

static int cp_family_always(const cp_config *c)
{
    (void)c;
    return 1;
}

static const cp_family_param cp_smem_params[] = {
    CP_P_OP("shared load or store"),
    CP_P_WIDTH("bytes per element (LDS, LDS.64, LDS.128)", cp_family_check_shared_width),
    {.option = "--stride",
     .arg = "S",
     .doc = "elements between lanes",
     .default_spec = "1..33",
     .min = 1,
     .max = CP_SMEM_STEP_MAX,
     .set = cp_family_set_stride},
};
static const cp_family_field cp_smem_fields[] = {
    CP_F_U64_TITLED("stride", stride, "stride (elements)", NULL),
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_U64("iterations", iterations),
    {"threads", "elements", NULL, CP_FIELD_U64, cp_family_get_elements, NULL, 0,
     cp_family_set_elements, NULL, NULL},
};

const cp_family_desc cp_smem_family = {
    .name = "smem",
    .summary = "shared memory, lane l at element l*stride: bank conflicts",
    .teaches = "Bank conflicts. Shared memory has 32 banks of 4 bytes: a warp's access "
               "takes one wavefront when its lanes hit different banks (or the same "
               "word), and one more for each further word on the busiest bank. Even "
               "strides collide (2: 2-way, 32: 32-way), odd ones do not; 8- and 16-byte "
               "accesses are served by half and quarter warps.",
    .examples = {{"coalprobe smem", "bank conflicts against stride 1..33"},
                 {"coalprobe smem --stride 2 --width 16 --explain", "which lane waits on "
                                                                    "which bank"}},
    .list = "smem: shared load (or store) of lane l at element l*stride, 2048 times;\n"
            "fill (or drain): the shared array around it; out: one word per thread\n",
    .list_front = "",
    CP_PARAMS(cp_smem_params),
    .help_order = {"--stride", "--width", "--op"},
    .size_hint = "the shared-memory array is 32 x stride elements; the grid is fixed",
    .init = cp_family_init_smem,
    CP_FIELDS(cp_smem_fields),
    .describe = {"stride", "width_bytes", "op"},
    .table = {"stride", "width_bytes", "op"},
    .chart = {"stride", "width_bytes", "op"},
    .table_counts = CP_COUNTS_SHARED,
    .uses_shared = cp_family_always,
    .model = &cp_smem_model,
};
