/* cp_expr_family.c: the expr family's descriptor (the index expression a user writes): its help,
 * the parameters it sweeps, the values its configurations show in reports, and its model
 * (cp_expr_model.c). */
#include "cp_family_def.h"
#include "cp_expr_config.h"

CP_FAMILY_ACCESSORS(cp_expr_config_of, width_bytes, uint32_t)
CP_FAMILY_ACCESSORS(cp_expr_config_of, op, cp_op)

/* expr's options of its own, besides its parameters */
static const cp_help_option cp_expr_options[] = {
    {NULL, "index", 0, "EXPR",
     "the element thread i accesses: a C integer expression in i, n and the parameters, e.g. "
     "'(i % 32) * 1024 + i / 32' (grammar: docs/expr.md); required",
     CP_HELP_ANY, NULL},
    {NULL, "param", 0, "NAME=VALUES",
     "a parameter of EXPR and its values, a sweep (e.g. s=1..8); once per name, up to 8",
     CP_HELP_ANY, NULL},
};

/* One thread per element of the access width. */
static void cp_expr_init(cp_config *c, uint64_t size_bytes)
{
    c->elements = cp_config_elements_for_size(size_bytes, cp_expr_config_of(c)->width_bytes);
}

static const cp_family_param cp_expr_params[] = {
    CP_P_OP("the side EXPR indexes: load (the other is i), store"),
    CP_P_WIDTH("bytes per element", cp_family_check_width),
};
static const cp_family_field cp_expr_fields[] = {
    {"index", NULL, NULL, CP_FIELD_INDEX, NULL, NULL, 0, NULL, NULL, NULL},
    {"params", NULL, NULL, CP_FIELD_PARAMS, NULL, NULL, 0, NULL, NULL, NULL},
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_ELEMENTS,
};

const cp_family_desc cp_expr_family = {
    .name = "expr",
    .summary = "thread i accesses element EXPR of a buffer of n elements",
    .teaches = "Your own indexing. Write the index a thread computes as a C integer "
               "expression in i (the thread), n (the elements) and parameters you sweep: "
               "coalprobe predicts its sectors, lines and efficiency and, on a GPU, "
               "compiles it with NVRTC into the same kernel and measures it. The grammar "
               "is in docs/expr.md.",
    .options = cp_expr_options,
    .noptions = CP_COUNT_OF(cp_expr_options),
    .size_doc = "bytes of the buffer",
    .examples = {{"coalprobe expr --index '(i % 32) * 1024 + i / 32'", "a warp walking "
                                                                       "down a column"},
                 {"coalprobe expr --index '(i * s) % n' --param s=1..8", "swept over a "
                                                                         "parameter"}},
    .list = "in: load at element EXPR (op load) or i, out: store at i or EXPR\n",
    .list_front = "--index EXPR [--param NAME=VALUES]... ",
    CP_PARAMS(cp_expr_params),
    .help_order = {"--width", "--op"},
    .size_default = CP_EXPR_SIZE_DEFAULT,
    .takes_index = 1,
    .init = cp_expr_init,
    CP_FIELDS(cp_expr_fields),
    .describe = {"index", "width_bytes", "op", "params"},
    .table = {"index", "params", "width_bytes", "op"},
    .chart = {"params", "width_bytes", "op"},
    .table_counts = CP_COUNTS_SIDES,
    .model = &cp_expr_model,
};
