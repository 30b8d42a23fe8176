/* cp_family.c: the table of pattern families, one descriptor each (cp_family.h). A new family
 * is one entry here, next to its own pattern, kernel, model and measure files. One file over 800
 * lines because the table is one initializer: each family's entry, its help included, in one
 * place. */
#include "cp_family.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cp_config.h"
#include "cp_model_family.h"
#include "cp_smem.h"

static const char *const cp_param_options[] = {
    "--stride", "--offset",  "--width", "--op",     "--layout", "--fields",
    "--field",  "--variant", "--m",     "--n",      "--k",      "--run",
    "--seed",   "--table",   "--index", "--stages", "--work",
};

_Static_assert(CP_COUNT_OF(cp_param_options) == CP_PARAM_COUNT, "one option per parameter");

static const char *const cp_param_args[] = {
    "S", "O", "W", "OP", "L", "F", "F", "V", "M", "N", "K", "R", "S", "BYTES", "I", "S", "W",
};

_Static_assert(CP_COUNT_OF(cp_param_args) == CP_PARAM_COUNT, "one value name per parameter");

const char *cp_param_option(cp_param p)
{
    return p < CP_PARAM_COUNT ? cp_param_options[p] : "?";
}

const char *cp_param_arg(cp_param p)
{
    return p < CP_PARAM_COUNT ? cp_param_args[p] : "?";
}

/* --- setters and getters of the configuration's fields ------------------------------------- */

#define CP_ACCESSORS(field, type)                                                                  \
    static void cp_family_set_##field(cp_config *c, uint64_t v)                                    \
    {                                                                                              \
        c->field = (type)v;                                                                        \
    }                                                                                              \
    static uint64_t cp_family_get_##field(const cp_config *c)                                      \
    {                                                                                              \
        return (uint64_t)c->field;                                                                 \
    }

CP_ACCESSORS(stride, uint64_t)
CP_ACCESSORS(offset, uint64_t)
CP_ACCESSORS(width_bytes, uint32_t)
CP_ACCESSORS(op, cp_op)
CP_ACCESSORS(layout, cp_layout)
CP_ACCESSORS(fields, uint32_t)
CP_ACCESSORS(field, uint32_t)
CP_ACCESSORS(variant, cp_gemm_variant)
CP_ACCESSORS(transpose, cp_transpose_variant)
CP_ACCESSORS(m, uint64_t)
CP_ACCESSORS(n, uint64_t)
CP_ACCESSORS(k, uint64_t)
CP_ACCESSORS(run, uint64_t)
CP_ACCESSORS(seed, uint64_t)
CP_ACCESSORS(readonly, cp_readonly_variant)
CP_ACCESSORS(lookup, cp_lookup)
CP_ACCESSORS(table_bytes, uint64_t)
CP_ACCESSORS(async, cp_async_variant)
CP_ACCESSORS(stages, uint32_t)
CP_ACCESSORS(work, uint32_t)

static uint64_t cp_family_get_elements(const cp_config *c)
{
    return c->elements;
}

static uint64_t cp_family_get_iterations(const cp_config *c)
{
    return c->iterations;
}

static uint64_t cp_family_get_offset_bytes(const cp_config *c)
{
    return c->offset * c->width_bytes;
}

/* --- checks of the command line's values --------------------------------------------------- */

/* Access widths of global memory: 4, 8, 16 or 32 bytes. */
static int cp_family_check_width(const cp_sweep *w, cp_status *st)
{
    for (size_t i = 0; i < w->count; i++) {
        uint64_t v = w->values[i];
        if (v != 4 && v != 8 && v != 16 && v != 32) {
            cp_status_set(st, CP_EXIT_USAGE, "--width: '%llu' is not an access width",
                          (unsigned long long)v);
            cp_status_hint(st, "widths are 4, 8, 16 or 32 bytes, e.g. --width 4,8,16,32");
            return CP_EXIT_USAGE;
        }
    }
    return CP_EXIT_OK;
}

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

/* layout: the field read exists in every record. */
static int cp_family_check_layout(const cp_sweep params[CP_PARAM_COUNT], cp_status *st)
{
    const cp_sweep *fields = &params[CP_PARAM_FIELDS], *field = &params[CP_PARAM_FIELD];
    for (size_t i = 0; i < fields->count; i++)
        for (size_t j = 0; j < field->count; j++)
            if (field->values[j] >= fields->values[i]) {
                cp_status_set(
                    st, CP_EXIT_USAGE, "--field %llu does not exist in a record of --fields %llu",
                    (unsigned long long)field->values[j], (unsigned long long)fields->values[i]);
                cp_status_hint(st, "fields are numbered from 0 to fields-1");
                return CP_EXIT_USAGE;
            }
    return CP_EXIT_OK;
}

/* readonly: a table of whole 4-byte entries. */
static int cp_family_check_table(const cp_sweep *t, cp_status *st)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->values[i] % 4) {
            cp_status_set(st, CP_EXIT_USAGE,
                          "--table: %llu bytes is not a whole number of 4-byte "
                          "entries",
                          (unsigned long long)t->values[i]);
            cp_status_hint(st, "give a multiple of 4 bytes, e.g. --table 4K..64M:x4");
            return CP_EXIT_USAGE;
        }
    return CP_EXIT_OK;
}

/* readonly: __constant__ memory holds 64 KB. */
static const char *cp_family_readonly_absent(const cp_config *c)
{
    if (c->readonly == CP_READONLY_VARIANT_CONSTANT && c->table_bytes > CP_TABLE_CONSTANT_MAX)
        return "the constant variant's table must fit the 64 KB of __constant__ memory";
    return NULL;
}

/* async: plain and smem load each tile before computing it, one at a time. */
static const char *cp_family_async_absent(const cp_config *c)
{
    if ((c->async == CP_ASYNC_VARIANT_PLAIN || c->async == CP_ASYNC_VARIANT_SMEM) && c->stages > 1)
        return "plain and smem have one stage (the tile loaded, then computed): --stages 1";
    return NULL;
}

/* async: cp.async (LDGSTS) came with sm_80, the TMA unit with sm_90. */
static int cp_family_async_needs_cc(const cp_config *c)
{
    switch (c->async) {
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
    return c->async != CP_ASYNC_VARIANT_PLAIN;
}

/* --- what the swept parameters leave --------------------------------------------------------- */

/* One thread per element of the access width. */
static void cp_family_init_width(cp_config *c, uint64_t size_bytes)
{
    c->elements = cp_config_elements_for_size(size_bytes, c->width_bytes);
}

/* One thread per 4-byte element. */
static void cp_family_init_words(cp_config *c, uint64_t size_bytes)
{
    c->elements = cp_config_elements_for_size(size_bytes, 4);
}

/* smem: a fixed grid, each thread making CP_SMEM_ITERATIONS accesses. */
static void cp_family_init_smem(cp_config *c, uint64_t size_bytes)
{
    (void)size_bytes;
    c->elements = (uint64_t)CP_SMEM_BLOCKS * CP_SMEM_BLOCK;
    c->iterations = CP_SMEM_ITERATIONS;
}

/* async: whole 16 KB tiles of 4-byte elements, at least one. */
static void cp_family_init_tiles(cp_config *c, uint64_t size_bytes)
{
    uint64_t tiles = size_bytes / (CP_ASYNC_TILE_FLOATS * 4);
    c->elements = (tiles ? tiles : 1) * CP_ASYNC_TILE_FLOATS;
}

static int cp_family_always(const cp_config *c)
{
    (void)c;
    return 1;
}

static int cp_family_transpose_shared(const cp_config *c)
{
    return c->transpose != CP_TRANSPOSE_NAIVE;
}

static int cp_family_gemm_shared(const cp_config *c)
{
    return c->variant == CP_GEMM_SMEM;
}

/* --- parameters and fields ---------------------------------------------------------------- */

#define CP_NAMES(t) t, CP_COUNT_OF(t)

#define CP_P_STRIDE(def, max)                                                                      \
    {                                                                                              \
        CP_PARAM_STRIDE, def, 1, max, NULL, 0, cp_family_set_stride, NULL, 0                       \
    }
#define CP_P_OFFSET                                                                                \
    {                                                                                              \
        CP_PARAM_OFFSET, "0", 0, CP_OFFSET_MAX, NULL, 0, cp_family_set_offset, NULL, 0             \
    }
#define CP_P_WIDTH(check)                                                                          \
    {                                                                                              \
        CP_PARAM_WIDTH, "4", 4, 32, NULL, 0, cp_family_set_width_bytes, check, 0                   \
    }
#define CP_P_OP                                                                                    \
    {                                                                                              \
        CP_PARAM_OP, "load", 0, 0, CP_NAMES(cp_config_op_names), cp_family_set_op, NULL, 0         \
    }
#define CP_P_DIM(p, def, max, set)                                                                 \
    {                                                                                              \
        p, def, 1, max, NULL, 0, set, NULL, 0                                                      \
    }

#define CP_F_U64(key, get)                                                                         \
    {                                                                                              \
        key, NULL, NULL, CP_FIELD_U64, get, NULL, 0                                                \
    }
#define CP_F_NAME(key, get, names)                                                                 \
    {                                                                                              \
        key, NULL, NULL, CP_FIELD_NAME, get, CP_NAMES(names)                                       \
    }
#define CP_F_STRIDE CP_F_U64("stride", cp_family_get_stride)
#define CP_F_WIDTH                                                                                 \
    {                                                                                              \
        "width_bytes", NULL, "width", CP_FIELD_U64, cp_family_get_width_bytes, NULL, 0             \
    }
#define CP_F_OP CP_F_NAME("op", cp_family_get_op, cp_config_op_names)
#define CP_F_ELEMENTS CP_F_U64("elements", cp_family_get_elements)

static const cp_family_param cp_stride_params[] = {CP_P_OP, CP_P_WIDTH(cp_family_check_width),
                                                   CP_P_OFFSET, CP_P_STRIDE("1", CP_STRIDE_MAX)};
static const cp_family_field cp_stride_fields[] = {
    CP_F_STRIDE,
    CP_F_U64("offset", cp_family_get_offset),
    CP_F_U64("offset_bytes", cp_family_get_offset_bytes),
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_ELEMENTS,
};

static const cp_family_param cp_layout_params[] = {
    {CP_PARAM_LAYOUT, "all", 0, 0, CP_NAMES(cp_config_layout_names), cp_family_set_layout, NULL, 0},
    {CP_PARAM_FIELDS, "4", 1, CP_FIELDS_MAX, NULL, 0, cp_family_set_fields, NULL, 0},
    {CP_PARAM_FIELD, "0", 0, CP_FIELDS_MAX - 1, NULL, 0, cp_family_set_field, NULL, 0},
};
static const cp_family_field cp_layout_fields[] = {
    CP_F_NAME("layout", cp_family_get_layout, cp_config_layout_names),
    CP_F_U64("fields", cp_family_get_fields),
    CP_F_U64("field", cp_family_get_field),
    CP_F_ELEMENTS,
};

static const cp_family_param cp_gemm_params[] = {
    {CP_PARAM_VARIANT, "all", 0, 0, CP_NAMES(cp_config_variant_names), cp_family_set_variant, NULL,
     0},
    CP_P_DIM(CP_PARAM_M, "4096", CP_GEMM_DIM_MAX, cp_family_set_m),
    CP_P_DIM(CP_PARAM_N, "4096", CP_GEMM_DIM_MAX, cp_family_set_n),
    CP_P_DIM(CP_PARAM_K, "4096", CP_GEMM_DIM_MAX, cp_family_set_k),
};
static const cp_family_field cp_gemm_fields[] = {
    CP_F_NAME("variant", cp_family_get_variant, cp_config_variant_names),
    CP_F_U64("m", cp_family_get_m),
    CP_F_U64("n", cp_family_get_n),
    CP_F_U64("k", cp_family_get_k),
};

static const cp_family_param cp_gather_params[] = {
    {CP_PARAM_SEED, "1", 0, UINT32_MAX, NULL, 0, cp_family_set_seed, NULL, 0},
    {CP_PARAM_RUN, "1", 1, 1ull << 32, NULL, 0, cp_family_set_run, NULL, 0},
};
static const cp_family_field cp_gather_fields[] = {
    CP_F_U64("run", cp_family_get_run),
    CP_F_U64("seed", cp_family_get_seed),
    CP_F_ELEMENTS,
};

static const cp_family_param cp_smem_params[] = {CP_P_OP, CP_P_WIDTH(cp_family_check_shared_width),
                                                 CP_P_STRIDE("1..33", CP_SMEM_STRIDE_MAX)};
static const cp_family_field cp_smem_fields[] = {
    CP_F_STRIDE,
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_U64("iterations", cp_family_get_iterations),
    {"threads", "elements", NULL, CP_FIELD_U64, cp_family_get_elements, NULL, 0},
};

static const cp_family_param cp_transpose_params[] = {
    {CP_PARAM_VARIANT, "all", 0, 0, CP_NAMES(cp_config_transpose_names), cp_family_set_transpose,
     NULL, 0},
    CP_P_DIM(CP_PARAM_M, "8192", CP_TRANSPOSE_DIM_MAX, cp_family_set_m),
    CP_P_DIM(CP_PARAM_N, "8192", CP_TRANSPOSE_DIM_MAX, cp_family_set_n),
};
static const cp_family_field cp_transpose_fields[] = {
    CP_F_NAME("variant", cp_family_get_transpose, cp_config_transpose_names),
    CP_F_U64("m", cp_family_get_m),
    CP_F_U64("n", cp_family_get_n),
};

static const cp_family_param cp_expr_params[] = {CP_P_OP, CP_P_WIDTH(cp_family_check_width)};
static const cp_family_field cp_expr_fields[] = {
    {"index", NULL, NULL, CP_FIELD_INDEX, NULL, NULL, 0},
    {"params", NULL, NULL, CP_FIELD_PARAMS, NULL, NULL, 0},
    CP_F_WIDTH,
    CP_F_OP,
    CP_F_ELEMENTS,
};

/* readonly's tables on a device: from 4 KB (far below any L1) by factors of 4 up to the first
 * size at least 4 times the device's L2 (far beyond it), 256 MB at the least. */
static int cp_family_table_on_device(cp_param p, uint64_t l2_bytes, char *spec, size_t len)
{
    if (p != CP_PARAM_TABLE)
        return 0;
    uint64_t top = 4096;
    while (top < 4 * l2_bytes && top < CP_TABLE_MAX / 4)
        top *= 4;
    if (top <= (256ull << 20))
        return 0;
    snprintf(spec, len, "4K..%" PRIu64 "M:x4", top >> 20);
    return 1;
}

static const cp_family_param cp_readonly_params[] = {
    {CP_PARAM_VARIANT, "all", 0, 0, CP_NAMES(cp_config_readonly_names), cp_family_set_readonly,
     NULL, 0},
    {CP_PARAM_LOOKUP, "mod", 0, 0, CP_NAMES(cp_config_lookup_names), cp_family_set_lookup, NULL, 0},
    {CP_PARAM_TABLE, "4K..256M:x4", CP_TABLE_MIN, CP_TABLE_MAX, NULL, 0, cp_family_set_table_bytes,
     cp_family_check_table, 1},
};
static const cp_family_field cp_readonly_fields[] = {
    CP_F_NAME("variant", cp_family_get_readonly, cp_config_readonly_names),
    CP_F_NAME("index", cp_family_get_lookup, cp_config_lookup_names),
    {"table_bytes", NULL, "table", CP_FIELD_BYTES, cp_family_get_table_bytes, NULL, 0},
    CP_F_ELEMENTS,
};

static const cp_family_param cp_async_params[] = {
    {CP_PARAM_VARIANT, "all", 0, 0, CP_NAMES(cp_config_async_names), cp_family_set_async, NULL, 0},
    {CP_PARAM_STAGES, "1,2", 1, CP_ASYNC_STAGES_LIMIT, NULL, 0, cp_family_set_stages, NULL, 0},
    {CP_PARAM_WORK, "0", 0, CP_ASYNC_WORK_LIMIT, NULL, 0, cp_family_set_work, NULL, 0},
};
static const cp_family_field cp_async_fields[] = {
    CP_F_NAME("variant", cp_family_get_async, cp_config_async_names),
    CP_F_U64("stages", cp_family_get_stages),
    CP_F_U64("work", cp_family_get_work),
    CP_F_ELEMENTS,
};

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

#define CP_PARAMS(p) .params = p, .nparams = CP_COUNT_OF(p)
#define CP_FIELDS(f) .fields = f, .nfields = CP_COUNT_OF(f)

/* The families, in the order of cp_family; the first is the default. */
static const cp_family_desc cp_families[CP_FAMILY_COUNT] = {
    [CP_FAMILY_STRIDE] =
        {
            .name = "stride",
            .summary = "thread i accesses element i*stride+offset",
            .teaches = "How the order of a warp's addresses decides the traffic. With stride 1 the "
                       "32 lanes' 4-byte loads fill four 32-byte sectors; each step of the stride "
                       "adds sectors to a request until every lane has a sector of its own "
                       "(stride 8), and the useful bandwidth falls in step while DRAM stays busy. "
                       "--offset shows what a misaligned start costs, --width scalar against "
                       "vector accesses (float2, float4), --op the same for stores.",
            .param_docs =
                {
                    [CP_PARAM_STRIDE] = "elements between neighbouring threads",
                    [CP_PARAM_OFFSET] = "elements of the access width skipped at the start",
                    [CP_PARAM_WIDTH] = "bytes per element",
                    [CP_PARAM_OP] = "the strided side: load (strided read, dense write), store "
                                    "(dense read, strided write)",
                },
            .size_doc = "useful bytes per buffer",
            .examples = {{"coalprobe --stride 1..32", "sectors per request against stride"},
                         {"coalprobe --offset 0..31 --width 4,16", "misaligned starts, scalar "
                                                                   "and float4"}},
            .list = "in: load of width bytes, out: store of width bytes; op picks the strided "
                    "side\n",
            .list_front = "",
            CP_PARAMS(cp_stride_params),
            .size_default = CP_SIZE_DEFAULT,
            .init = cp_family_init_width,
            CP_FIELDS(cp_stride_fields),
            .describe = {"stride", "offset", "width_bytes", "op"},
            .table = {"stride", "offset", "width_bytes", "op"},
            .chart = {"stride", "offset", "width_bytes", "op"},
            .table_counts = CP_COUNTS_SIDES,
            .requests_are_instructions = 1,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_stride_describe,
                    .lanes = cp_model_stride_lanes,
                    .classes = cp_model_stride_classes,
                    .iteration_step = cp_model_no_iteration_step,
                    .footprint = cp_model_stride_footprint,
                },
        },
    [CP_FAMILY_LAYOUT] =
        {
            .name = "layout",
            .summary = "thread i reads field f of record i, as AoS or SoA",
            .teaches = "Array of structs against struct of arrays. In AoS the lanes of a warp read "
                       "one field of neighbouring records, a record's width apart, so a request "
                       "moves more sectors the wider the record (up to 32); in SoA that field of "
                       "every record lies together and a request moves 4 sectors whatever the "
                       "record.",
            .param_docs =
                {
                    [CP_PARAM_LAYOUT] = "aos (array of structs), soa (struct of arrays)",
                    [CP_PARAM_FIELDS] = "4-byte fields per record",
                    [CP_PARAM_FIELD] = "the field read, below --fields",
                },
            .size_doc = "bytes of the field read over all records",
            .examples = {{"coalprobe layout --fields 1..16", "AoS against SoA as records grow"},
                         {"coalprobe layout --layout aos --explain", "the lanes over sectors"}},
            .list = "in: load of one 4-byte field (AoS i*fields+field, SoA field*n+i), out: "
                    "store\n",
            .list_front = "",
            CP_PARAMS(cp_layout_params),
            .size_default = CP_SIZE_DEFAULT,
            .check = cp_family_check_layout,
            .init = cp_family_init_words,
            CP_FIELDS(cp_layout_fields),
            .describe = {"layout", "fields", "field"},
            .table = {"layout", "fields", "field"},
            .chart = {"fields", "field", "layout"},
            .table_counts = CP_COUNTS_SIDES,
            .requests_are_instructions = 1,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_layout_describe,
                    .lanes = cp_model_layout_lanes,
                    .classes = cp_model_layout_classes,
                    .iteration_step = cp_model_no_iteration_step,
                    .footprint = cp_model_layout_footprint,
                },
        },
    [CP_FAMILY_GEMM] =
        {
            .name = "gemm",
            .summary = "FP32 C = A*B, row-major, one thread per element of C",
            .teaches = "The GEMM ladder. The naive kernel maps a warp down a column of C, so its "
                       "loads of A cost 32 sectors per request; relabelling the threads "
                       "(coalesced) so that a warp walks along a row makes them a broadcast, with "
                       "the same arithmetic and several times faster; 32x32 tiles in shared "
                       "memory (smem) cut the global traffic again; cuBLAS is the reference. The "
                       "table shows per operand (A, B, C) the sectors per request, and the time, "
                       "GFLOP/s against cuBLAS, registers and occupancy.",
            .param_docs =
                {
                    [CP_PARAM_VARIANT] = "the kernel: naive, coalesced (threads relabelled along "
                                         "rows), smem (32x32 tiles in shared memory), cublas",
                    [CP_PARAM_M] = "rows of A and C",
                    [CP_PARAM_N] = "columns of B and C",
                    [CP_PARAM_K] = "columns of A, rows of B",
                },
            .examples = {{"coalprobe gemm", "the ladder at 4096^3, naive to cuBLAS"},
                         {"coalprobe gemm --m 40 --n 40 --k 8 --explain --warp 32",
                          "the lane maps of A, B and C"}},
            .list = "variants naive, coalesced, smem (32x32 tiles in shared memory), cublas\n"
                    "A, B: loads once per step (per tile for smem) of k; C: one store\n",
            .list_front = "",
            CP_PARAMS(cp_gemm_params),
            .size_hint = "GEMM sizes are --m, --n and --k",
            CP_FIELDS(cp_gemm_fields),
            .describe = {"variant", "m", "n", "k"},
            .table = {"variant", "m", "n", "k"},
            .chart = {"m", "n", "k", "variant"},
            .table_counts = CP_COUNTS_OPERANDS,
            .uses_shared = cp_family_gemm_shared,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_gemm_describe,
                    .lanes = cp_model_gemm_lanes,
                    .classes = cp_model_gemm_classes,
                    .iteration_step = cp_model_gemm_iteration_step,
                    .footprint = cp_model_gemm_footprint,
                    .regular_iterations = cp_model_gemm_regular_iterations,
                },
        },
    [CP_FAMILY_GATHER] =
        {
            .name = "gather",
            .summary = "out[i] = in[idx[i]], idx a seeded permutation of runs of elements",
            .teaches = "Reading through an index array. With runs of 1 every lane's element lies "
                       "in a sector of its own: 32 sectors per request, 12.5% efficiency; as the "
                       "runs that stay together grow to a sector (8 elements) and a warp (32) the "
                       "gather coalesces back to 4 sectors per request.",
            .param_docs =
                {
                    [CP_PARAM_RUN] = "contiguous elements kept together (1: random)",
                    [CP_PARAM_SEED] = "the permutation's seed",
                },
            .size_doc = "bytes of in",
            .examples = {{"coalprobe gather --run 1,2,4,8,32", "random to runs"},
                         {"coalprobe gather --run 4 --size 64K --explain", "the sectors of one "
                                                                           "warp"}},
            .list = "idx: dense load, in: load at idx[i] (runs of `run` in random order), out\n",
            .list_front = "",
            CP_PARAMS(cp_gather_params),
            .size_default = CP_GATHER_SIZE_DEFAULT,
            .init = cp_family_init_words,
            CP_FIELDS(cp_gather_fields),
            .describe = {"run", "seed"},
            .table = {"run", "seed"},
            .chart = {"run", "seed"},
            .table_counts = CP_COUNTS_ACCESSES,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_gather_describe,
                    .lanes = cp_model_gather_lanes,
                    .classes = cp_model_gather_classes,
                    .iteration_step = cp_model_no_iteration_step,
                    .footprint = cp_model_gather_footprint,
                    .thread_by_thread = 1,
                },
        },
    [CP_FAMILY_SMEM] =
        {
            .name = "smem",
            .summary = "shared memory, lane l at element l*stride: bank conflicts",
            .teaches = "Bank conflicts. Shared memory has 32 banks of 4 bytes: a warp's access "
                       "takes one wavefront when its lanes hit different banks (or the same "
                       "word), and one more for each further word on the busiest bank. Even "
                       "strides collide (2: 2-way, 32: 32-way), odd ones do not; 8- and 16-byte "
                       "accesses are served by half and quarter warps.",
            .param_docs =
                {
                    [CP_PARAM_STRIDE] = "elements between lanes",
                    [CP_PARAM_WIDTH] = "bytes per element (LDS, LDS.64, LDS.128)",
                    [CP_PARAM_OP] = "shared load or store",
                },
            .examples = {{"coalprobe smem", "bank conflicts against stride 1..33"},
                         {"coalprobe smem --stride 2 --width 16 --explain", "which lane waits on "
                                                                            "which bank"}},
            .list = "smem: shared load (or store) of lane l at element l*stride, 2048 times;\n"
                    "fill (or drain): the shared array around it; out: one word per thread\n",
            .list_front = "",
            CP_PARAMS(cp_smem_params),
            .size_hint = "the shared-memory array is 32 x stride elements; the grid is fixed",
            .init = cp_family_init_smem,
            CP_FIELDS(cp_smem_fields),
            .describe = {"stride", "width_bytes", "op"},
            .table = {"stride", "width_bytes", "op"},
            .chart = {"stride", "width_bytes", "op"},
            .table_counts = CP_COUNTS_SHARED,
            .uses_shared = cp_family_always,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_smem_describe,
                    .lanes = cp_model_smem_lanes,
                    .classes = cp_model_smem_classes,
                    .iteration_step = cp_model_smem_iteration_step,
                    .footprint = cp_model_smem_footprint,
                },
        },
    [CP_FAMILY_TRANSPOSE] =
        {
            .name = "transpose",
            .summary = "out (n x m) = in^T (m x n), 32 x 32 tiles",
            .teaches = "The transpose ladder. The naive kernel reads rows and writes columns: 32 "
                       "sectors per store request. Staging a 32x32 tile in shared memory (tiled) "
                       "makes both sides coalesced but reads the tile down a column, a 32-way "
                       "bank conflict; rows of 33 (padded) remove it.",
            .param_docs =
                {
                    [CP_PARAM_VARIANT] = "naive, tiled (a 32x32 tile in shared memory), padded "
                                         "(tile rows of 33)",
                    [CP_PARAM_M] = "rows of in",
                    [CP_PARAM_N] = "columns of in",
                },
            .examples = {{"coalprobe transpose", "naive, tiled and padded, 8192 x 8192"},
                         {"coalprobe transpose --variant padded --m 64 --n 64 --explain",
                          "the padded tile's banks"}},
            .list = "variants naive, tiled (32x32 tile in shared memory), padded (rows of 33)\n"
                    "in: load, tile: shared store and load (tiled, padded), out: store\n",
            .list_front = "",
            CP_PARAMS(cp_transpose_params),
            .size_hint = "the matrix is --m rows by --n columns",
            CP_FIELDS(cp_transpose_fields),
            .describe = {"variant", "m", "n"},
            .table = {"variant", "m", "n"},
            .chart = {"m", "n", "variant"},
            .table_counts = CP_COUNTS_SIDES_SHARED,
            .uses_shared = cp_family_transpose_shared,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_transpose_describe,
                    .lanes = cp_model_transpose_lanes,
                    .classes = cp_model_transpose_classes,
                    .iteration_step = cp_model_transpose_iteration_step,
                    .footprint = cp_model_transpose_footprint,
                    .regular_iterations = cp_model_transpose_regular_iterations,
                },
        },
    [CP_FAMILY_EXPR] =
        {
            .name = "expr",
            .summary = "thread i accesses element EXPR of a buffer of n elements",
            .teaches = "Your own indexing. Write the index a thread computes as a C integer "
                       "expression in i (the thread), n (the elements) and parameters you sweep: "
                       "coalprobe predicts its sectors, lines and efficiency and, on a GPU, "
                       "compiles it with NVRTC into the same kernel and measures it. The grammar "
                       "is in docs/expr.md.",
            .param_docs =
                {
                    [CP_PARAM_WIDTH] = "bytes per element",
                    [CP_PARAM_OP] = "the side EXPR indexes: load (the other is i), store",
                },
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
            .size_default = CP_EXPR_SIZE_DEFAULT,
            .takes_index = 1,
            .init = cp_family_init_width,
            CP_FIELDS(cp_expr_fields),
            .describe = {"index", "width_bytes", "op", "params"},
            .table = {"index", "params", "width_bytes", "op"},
            .chart = {"params", "width_bytes", "op"},
            .table_counts = CP_COUNTS_SIDES,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_expr_describe,
                    .lanes = cp_model_expr_lanes,
                    .classes = cp_model_expr_classes,
                    .iteration_step = cp_model_no_iteration_step,
                    .footprint = cp_model_expr_footprint,
                    .validate = cp_model_expr_validate,
                    .prove = cp_model_expr_prove,
                    .thread_by_thread = 1,
                },
        },
    [CP_FAMILY_READONLY] =
        {
            .name = "readonly",
            .summary = "the read-only path, out[i] = table[j(i)]",
            .teaches = "The read-only data path: one lookup through a plain const float *, a "
                       "const __restrict__ pointer, __ldg and __constant__ memory, with tables "
                       "from 4 KB (in L1) to far beyond L2. The table shows the L1 and L2 hit "
                       "rates and the instruction each variant compiled to (LDG.E, "
                       "LDG.E.CONSTANT, LDC): __constant__ is as fast as global memory for a "
                       "broadcast and serializes lanes that look up different entries.",
            .param_docs =
                {
                    [CP_PARAM_VARIANT] = "plain (const float *), restrict (const __restrict__), "
                                         "ldg (__ldg), constant (__constant__, tables up to 64K)",
                    [CP_PARAM_LOOKUP] = "the lookup j(i): mod (i % entries), random (a hash of "
                                        "i), broadcast (one entry per warp)",
                    [CP_PARAM_TABLE] = "table sizes in bytes, whole 4-byte entries, K/M/G "
                                       "suffixes; on a GPU the default goes up to 4x its L2 if "
                                       "that is more",
                },
            .size_doc = "bytes of out: one lookup per 4 bytes",
            .examples = {{"coalprobe readonly", "every variant, tables 4K up to 4x the L2"},
                         {"coalprobe readonly --index random,broadcast --table 4K..64M:x4",
                          "gathers and broadcasts"}},
            .list = "table: load at entry j(i) (global, or __constant__ memory), out: store at i\n",
            .list_front = "",
            CP_PARAMS(cp_readonly_params),
            .size_default = CP_READONLY_SIZE_DEFAULT,
            .init = cp_family_init_words,
            CP_FIELDS(cp_readonly_fields),
            .describe = {"variant", "index", "table_bytes"},
            .table = {"variant", "index", "table_bytes"},
            .chart = {"table_bytes", "variant", "index"},
            .table_counts = CP_COUNTS_READONLY,
            .requests_are_instructions = 1,
            .path_counters = 1,
            .device_default = cp_family_table_on_device,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_readonly_describe,
                    .lanes = cp_model_readonly_lanes,
                    .classes = cp_model_readonly_classes,
                    .iteration_step = cp_model_no_iteration_step,
                    .footprint = cp_model_readonly_footprint,
                    .thread_by_thread = 1,
                },
            .absent = cp_family_readonly_absent,
        },
    [CP_FAMILY_ASYNC] =
        {
            .name = "async",
            .summary = "16 KB tiles loaded into the SM, then computed (the copy ladder)",
            .teaches = "Asynchronous copies. Each block loads 16 KB tiles and computes on them: "
                       "plain loads into registers, smem stages them through shared memory, "
                       "cp-async (LDGSTS, sm_80) copies global to shared memory without "
                       "registers, tma-bulk and tma-tensor hand the copy to the TMA unit (sm_90). "
                       "With more stages the copy of the next tile overlaps the work on this one; "
                       "--work sets how much arithmetic hides it.",
            .param_docs =
                {
                    [CP_PARAM_VARIANT] = "plain (LDG), smem (LDG, STS, LDS), cp-async (LDGSTS), "
                                         "tma-bulk (cp.async.bulk), tma-tensor (a 2-D tensor "
                                         "map)",
                    [CP_PARAM_STAGES] = "tiles in flight (plain and smem: 1)",
                    [CP_PARAM_WORK] = "FMAs per element (0: memory bound)",
                },
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
            .table_counts = CP_COUNTS_ASYNC,
            .uses_shared = cp_family_async_shared,
            .path_counters = 1,
            .model =
                &(const cp_family_model){
                    .describe = cp_model_async_describe,
                    .lanes = cp_model_async_lanes,
                    .classes = cp_model_async_classes,
                    .iteration_step = cp_model_async_iteration_step,
                    .footprint = cp_model_async_footprint,
                },
            .absent = cp_family_async_absent,
            .needs_cc = cp_family_async_needs_cc,
            .schedule = cp_model_async_schedule,
        },
};

const cp_family_desc *cp_family_get(cp_family f)
{
    return (unsigned)f < CP_FAMILY_COUNT ? &cp_families[f] : NULL;
}

int cp_family_needs_cc(const cp_config *c)
{
    const cp_family_desc *fd = cp_family_get(c->family);
    return fd && fd->needs_cc ? fd->needs_cc(c) : 0;
}

int cp_family_find(const char *name, cp_family *f)
{
    for (int i = 0; i < CP_FAMILY_COUNT; i++)
        if (strcmp(name, cp_families[i].name) == 0) {
            *f = (cp_family)i;
            return 1;
        }
    return 0;
}

const cp_family_param *cp_family_param_of(const cp_family_desc *d, cp_param p)
{
    for (size_t i = 0; i < d->nparams; i++)
        if (d->params[i].param == p)
            return &d->params[i];
    return NULL;
}

const cp_family_field *cp_family_field_of(const cp_family_desc *d, const char *key)
{
    for (size_t i = 0; key && i < d->nfields; i++)
        if (strcmp(d->fields[i].key, key) == 0)
            return &d->fields[i];
    return NULL;
}

const char *cp_family_field_name(const cp_family_field *f, const cp_config *c)
{
    uint64_t v = f->get(c);
    return v < f->nnames ? f->names[v] : "?";
}

const char *cp_family_field_label(const cp_family_field *f)
{
    return f->label ? f->label : f->key;
}

int cp_family_field_number(const cp_family_field *f)
{
    return f && (f->kind == CP_FIELD_U64 || f->kind == CP_FIELD_BYTES);
}

void cp_family_field_format(const cp_family_field *f, const cp_config *c, char *buf, size_t len)
{
    if (f->kind == CP_FIELD_BYTES)
        cp_sweep_format_bytes(f->get(c), buf, len);
    else
        snprintf(buf, len, "%" PRIu64, f->get(c));
}
