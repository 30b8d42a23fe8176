/* cp_gemm_family.c: the gemm family's descriptor (C = A*B, naive, coalesced, tiled in shared memory
 * and cuBLAS): its help, the parameters it sweeps, the values its configurations show in reports,
 * and its model (cp_gemm_model.c). */
#include "cp_family_def.h"
#include "cp_gemm_config.h"

CP_FAMILY_ACCESSORS(cp_gemm_config_of, variant, cp_gemm_variant)
CP_FAMILY_ACCESSORS(cp_gemm_config_of, m, uint64_t)
CP_FAMILY_ACCESSORS(cp_gemm_config_of, n, uint64_t)
CP_FAMILY_ACCESSORS(cp_gemm_config_of, k, uint64_t)

const char *const cp_gemm_variant_names[CP_GEMM_COUNT] = {"naive", "coalesced", "smem", "cublas"};

static int cp_family_gemm_shared(const cp_config *c)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    return cfg->variant == CP_GEMM_SMEM;
}

static const cp_family_param cp_gemm_params[] = {
    CP_P_ALL("--variant", "V",
             "the kernel: naive, coalesced (threads relabelled along rows), smem (32x32 tiles in "
             "shared memory), cublas",
             cp_gemm_variant_names, cp_family_set_variant),
    CP_P_DIM("--m", "M", "rows of A and C", "4096", CP_GEMM_DIM_MAX, cp_family_set_m),
    CP_P_DIM("--n", "N", "columns of B and C", "4096", CP_GEMM_DIM_MAX, cp_family_set_n),
    CP_P_DIM("--k", "K", "columns of A, rows of B", "4096", CP_GEMM_DIM_MAX, cp_family_set_k),
};
static const cp_family_field cp_gemm_fields[] = {
    CP_F_NAME("variant", variant, cp_gemm_variant_names),
    CP_F_U64_TITLED("m", m, "m (rows)", NULL),
    CP_F_U64_TITLED("n", n, "n (columns)", NULL),
    CP_F_U64_TITLED("k", k, "k (inner dimension)", NULL),
};

const cp_family_desc cp_gemm_family = {
    .name = "gemm",
    .summary = "FP32 C = A*B, row-major, one thread per element of C",
    .teaches = "The GEMM ladder. The naive kernel maps a warp down a column of C, so its "
               "loads of A cost 32 sectors per request; relabelling the threads "
               "(coalesced) so that a warp walks along a row makes them a broadcast, with "
               "the same arithmetic and several times faster; 32x32 tiles in shared "
               "memory (smem) cut the global traffic again; cuBLAS is the reference. The "
               "table shows per operand (A, B, C) the sectors per request, and the time, "
               "GFLOP/s against cuBLAS, registers and occupancy.",
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
    .model = &cp_gemm_model,
};
