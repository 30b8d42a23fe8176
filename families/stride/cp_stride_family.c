/* cp_stride_family.c: the stride family's descriptor (thread i accesses element i*stride+offset):
 * its help, the parameters it sweeps, the values its configurations show in reports, and its model
 * (cp_stride_model.c). */
#include "cp_family_def.h"
#include "cp_stride_config.h"

CP_FAMILY_ACCESSORS(cp_stride_config_of, stride, uint64_t)
CP_FAMILY_ACCESSORS(cp_stride_config_of, offset, uint64_t)
CP_FAMILY_ACCESSORS(cp_stride_config_of, width_bytes, uint32_t)
CP_FAMILY_ACCESSORS(cp_stride_config_of, op, cp_op)

static uint64_t cp_family_get_offset_bytes(const cp_config *c)
{
    const cp_stride_config *cfg = cp_stride_config_of(c);
    return cfg->offset * cfg->width_bytes;
}

/* One thread per element of the access width. */
static void cp_stride_init(cp_config *c, uint64_t size_bytes)
{
    c->elements = cp_config_elements_for_size(size_bytes, cp_stride_config_of(c)->width_bytes);
}

static const cp_family_param cp_stride_params[] = {
    CP_P_OP("the strided side: load (strided read, dense write), store (dense read, strided "
            "write)"),
    CP_P_WIDTH("bytes per element", cp_family_check_width),
    {.option = "--offset",
     .arg = "O",
     .doc = "elements of the access width skipped at the start",
     .default_spec = "0",
     .max = CP_STRIDE_OFFSET_MAX,
     .set = cp_family_set_offset},
    {.option = "--stride",
     .arg = "S",
     .doc = "elements between neighbouring threads",
     .default_spec = "1",
     .min = 1,
     .max = CP_STRIDE_MAX,
     .set = cp_family_set_stride},
};
static const cp_family_field cp_stride_fields[] = {
    CP_F_U64_TITLED("stride", stride, "stride (elements)", NULL),
    CP_F_U64_TITLED("offset", offset, "offset (elements)", NULL),
    {"offset_bytes", NULL, NULL, CP_FIELD_U64, cp_family_get_offset_bytes, NULL, 0, NULL, NULL,
     NULL},
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_ELEMENTS,
};

const cp_family_desc cp_stride_family = {
    .name = "stride",
    .summary = "thread i accesses element i*stride+offset",
    .teaches = "How the order of a warp's addresses decides the traffic. With stride 1 the "
               "32 lanes' 4-byte loads fill four 32-byte sectors; each step of the stride "
               "adds sectors to a request until every lane has a sector of its own "
               "(stride 8), and the useful bandwidth falls in step while DRAM stays busy. "
               "--offset shows what a misaligned start costs, --width scalar against "
               "vector accesses (float2, float4), --op the same for stores.",
    .size_doc = "useful bytes per buffer",
    .examples = {{"coalprobe --stride 1..32", "sectors per request against stride"},
                 {"coalprobe --offset 0..31 --width 4,16", "misaligned starts, scalar "
                                                           "and float4"}},
    .list = "in: load of width bytes, out: store of width bytes; op picks the strided "
            "side\n",
    .list_front = "",
    CP_PARAMS(cp_stride_params),
    .help_order = {"--stride", "--offset", "--width", "--op"},
    .size_default = CP_SIZE_DEFAULT,
    .init = cp_stride_init,
    CP_FIELDS(cp_stride_fields),
    .describe = {"stride", "offset", "width_bytes", "op"},
    .table = {"stride", "offset", "width_bytes", "op"},
    .chart = {"stride", "offset", "width_bytes", "op"},
    .table_counts = CP_COUNTS_SIDES,
    .requests_are_instructions = 1,
    .model = &cp_stride_model,
};
