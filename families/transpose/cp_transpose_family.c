/* cp_transpose_family.c: the transpose family's descriptor (the transpose ladder, naive, tiled and
 * padded): its help, the parameters it sweeps, the values its configurations show in reports, and
 * its model (cp_transpose_model.c). */
#include "cp_family_def.h"
#include "cp_transpose_config.h"

CP_FAMILY_ACCESSORS(cp_transpose_config_of, variant, cp_transpose_variant)
CP_FAMILY_ACCESSORS(cp_transpose_config_of, m, uint64_t)
CP_FAMILY_ACCESSORS(cp_transpose_config_of, n, uint64_t)

const char *const cp_transpose_variant_names[CP_TRANSPOSE_COUNT] = {"naive", "tiled", "padded"};

static int cp_family_transpose_shared(const cp_config *c)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    return cfg->variant != CP_TRANSPOSE_NAIVE;
}

static const cp_family_param cp_transpose_params[] = {
    CP_P_ALL("--variant", "V",
             "naive, tiled (a 32x32 tile in shared memory), padded (tile rows of 33)",
             cp_transpose_variant_names, cp_family_set_variant),
    CP_P_DIM("--m", "M", "rows of in", "8192", CP_TRANSPOSE_DIM_MAX, cp_family_set_m),
    CP_P_DIM("--n", "N", "columns of in", "8192", CP_TRANSPOSE_DIM_MAX, cp_family_set_n),
};
static const cp_family_field cp_transpose_fields[] = {
    CP_F_NAME("variant", variant, cp_transpose_variant_names),
    CP_F_U64_TITLED("m", m, "m (rows)", NULL),
    CP_F_U64_TITLED("n", n, "n (columns)", NULL),
};

const cp_family_desc cp_transpose_family = {
    .name = "transpose",
    .summary = "out (n x m) = in^T (m x n), 32 x 32 tiles",
    .teaches = "The transpose ladder. The naive kernel reads rows and writes columns: 32 "
               "sectors per store request. Staging a 32x32 tile in shared memory (tiled) "
               "makes both sides coalesced but reads the tile down a column, a 32-way "
               "bank conflict; rows of 33 (padded) remove it.",
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
    .model = &cp_transpose_model,
};
