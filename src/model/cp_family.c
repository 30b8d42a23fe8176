/* cp_family.c: the table of pattern families, one descriptor each (cp_family.h). A new family
 * is one entry here, next to its own pattern, kernel, model and measure files. */
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

const char *cp_param_option(cp_param p)
{
    return p < CP_PARAM_COUNT ? cp_param_options[p] : "?";
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
    {"table_bytes", NULL, "table", CP_FIELD_U64, cp_family_get_table_bytes, NULL, 0},
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

#define CP_PARAMS(p) .params = p, .nparams = CP_COUNT_OF(p)
#define CP_FIELDS(f) .fields = f, .nfields = CP_COUNT_OF(f)

/* The families, in the order of cp_family; the first is the default. */
static const cp_family_desc cp_families[CP_FAMILY_COUNT] = {
    [CP_FAMILY_STRIDE] =
        {
            .name = "stride",
            .help = "stride (the default): thread i accesses element i*stride+offset\n"
                    "  --stride S        elements between neighbouring threads (1..4096; "
                    "default 1)\n"
                    "  --offset O        elements of the access width skipped at the start "
                    "(0..4096; 0)\n"
                    "  --width W         bytes per element: 4, 8, 16 or 32 (default 4)\n"
                    "  --op OP           load (strided read), store (strided write) or all "
                    "(default load)\n"
                    "  --size BYTES      useful bytes per buffer, K/M/G suffixes (default "
                    "256M)\n",
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
            .help = "layout: thread i reads field f of record i, as AoS or SoA\n"
                    "  --layout L        aos, soa or all (default all)\n"
                    "  --fields F        4-byte fields per record (1..64; default 4)\n"
                    "  --field F         field read (default 0)\n"
                    "  --size BYTES      bytes of the field read over all records (default "
                    "256M)\n",
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
            .help = "gemm: FP32 C = A*B, row-major, one thread per element of C\n"
                    "  --variant V       naive, coalesced, smem (tiled), cublas or all "
                    "(default all)\n"
                    "  --m M, --n N, --k K  matrix sizes (1..65536; default 4096)\n",
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
            .help = "gather: out[i] = in[idx[i]], idx a seeded permutation of runs of "
                    "elements\n"
                    "  --run R           contiguous elements kept together (default 1: "
                    "random)\n"
                    "  --seed S          the permutation's seed (default 1)\n"
                    "  --size BYTES      bytes of in (default 64M)\n",
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
            .help = "smem: shared memory, lane l at element l*stride: bank conflicts\n"
                    "  --stride S        elements between lanes (1..64; default 1..33)\n"
                    "  --width W         bytes per element: 4, 8 or 16 (default 4)\n"
                    "  --op OP           load, store or all (default load)\n",
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
            .help = "transpose: out (n x m) = in^T (m x n), 32 x 32 tiles\n"
                    "  --variant V       naive, tiled (shared memory), padded (tile rows of "
                    "33) or all\n"
                    "  --m M, --n N      rows and columns of in (1..65536; default 8192)\n",
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
            .help = "expr: thread i accesses element EXPR of a buffer of n elements\n"
                    "  --index EXPR      a C integer expression in i, n and parameters, e.g.\n"
                    "                    '(i % 32) * 1024 + i / 32' (grammar: docs/expr.md)\n"
                    "  --param NAME=V    a parameter of EXPR and its values (a sweep; up to 8)\n"
                    "  --width W, --op OP, --size BYTES  as for stride (default size 64M)\n",
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
                    .thread_by_thread = 1,
                },
        },
    [CP_FAMILY_READONLY] =
        {
            .name = "readonly",
            .help = "readonly: the read-only path, out[i] = table[j(i)]\n"
                    "  --variant V       plain (const float *), restrict (const __restrict__), "
                    "ldg\n"
                    "                    (__ldg), constant (__constant__, up to 64K) or all "
                    "(default all)\n"
                    "  --index I         mod (j = i % entries), random (a hash of i) or "
                    "broadcast\n"
                    "                    (one entry per warp); default mod\n"
                    "  --table BYTES     table sizes, K/M/G suffixes, e.g. 4K..64M:x4; default\n"
                    "                    4K..256M:x4, on a GPU up to 4x its L2 if that is more\n"
                    "  --size BYTES      bytes of out: one lookup per 4 bytes (default 64M)\n",
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
            .help = "async: 16 KB tiles loaded into the SM, then computed (the copy ladder)\n"
                    "  --variant V       plain (LDG), smem (LDG, STS, LDS), cp-async (LDGSTS),\n"
                    "                    tma-bulk (cp.async.bulk), tma-tensor (a 2-D tensor "
                    "map) or all\n"
                    "  --stages S        tiles in flight, 1..4 (default 1,2; plain and smem: "
                    "1)\n"
                    "  --work W          FMAs per element, 0..4096 (default 0: memory bound)\n"
                    "  --size BYTES      bytes of in, whole 16 KB tiles (default 256M)\n",
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
