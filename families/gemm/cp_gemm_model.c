/* cp_gemm_model.c: the model's view of the GEMM family: accesses A and B (loaded once per step
 * of k, or once per 32-wide tile of k for smem) and C (stored once), each lane's address (from
 * cp_gemm.h), warp classes and footprints. Every variant uses 1024-thread blocks, so
 * a block holds 32 warps. cuBLAS is measured, not modelled: its accesses are listed (for the
 * buffers) with no instructions. */
#include "cp_gemm.h"
#include "cp_model_family.h"
#include "cp_gemm_config.h"

enum { CP_GEMM_A, CP_GEMM_B, CP_GEMM_C };
#define CP_GEMM_WARPS_PER_BLOCK (CP_GEMM_TILE * CP_GEMM_TILE / CP_WARP_SIZE)

static uint64_t cp_gemm_blocks(uint64_t extent)
{
    return (extent + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
}

/* Loop iterations of the A and B loads: steps of k, or tiles of k for smem. */
static uint64_t cp_gemm_steps(const cp_config *c)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    return cfg->variant == CP_GEMM_SMEM ? cp_gemm_tiles(cfg->k) : cfg->k;
}

static void cp_gemm_access(cp_access_prediction *ap, const char *name, cp_op op,
                           uint64_t iterations, uint64_t elements, int strided, int modelled)
{
    cp_model_access(ap, name, op, CP_SPACE_GLOBAL, 4, modelled ? 1 : 0, modelled ? iterations : 0,
                    elements * 4, strided);
}

static void cp_model_gemm_describe(const cp_config *c, cp_prediction *out)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    int naive = cfg->variant == CP_GEMM_NAIVE, modelled = cfg->variant != CP_GEMM_CUBLAS;
    out->modelled = modelled;
    /* the smem variant's tile loads and stores are not described (the compiler chooses their
     * width); the other variants use no shared memory, which the model does predict */
    out->shared_modelled = modelled && cfg->variant != CP_GEMM_SMEM;
    out->threads = cfg->m * cfg->n;
    out->warps =
        modelled ? cp_gemm_blocks(cfg->m) * cp_gemm_blocks(cfg->n) * CP_GEMM_WARPS_PER_BLOCK : 0;
    out->naccesses = 3;
    /* "strided": the operand whose lanes are spread by the variant's thread order */
    uint64_t steps = cp_gemm_steps(c);
    cp_gemm_access(&out->accesses[CP_GEMM_A], "A", CP_OP_LOAD, steps, cfg->m * cfg->k, naive,
                   modelled);
    cp_gemm_access(&out->accesses[CP_GEMM_B], "B", CP_OP_LOAD, steps, cfg->k * cfg->n, 0, modelled);
    cp_gemm_access(&out->accesses[CP_GEMM_C], "C", CP_OP_STORE, 1, cfg->m * cfg->n, naive,
                   modelled);
}

/* Element of access a that lane (bx, by, tid) touches at step t of the 32-bit kernels: the
 * functions the kernels call, with the smem tiles reached by advancing pointers. */
static int cp_gemm_element_i32(const cp_config *c, size_t a, uint64_t t, int bx, int by, int tx,
                               int ty, uint64_t *e)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    const int m = (int)cfg->m, n = (int)cfg->n, k = (int)cfg->k, tid = ty * (int)CP_GEMM_TILE + tx;
    int row, col;
    if (cfg->variant == CP_GEMM_NAIVE)
        cp_gemm_naive_coords_i32(bx, by, tx, ty, &row, &col);
    else
        cp_gemm_coalesced_coords_i32(bx, by, tid, &row, &col);
    if (cfg->variant == CP_GEMM_SMEM && a != CP_GEMM_C) {
        int k0 = (int)(t * CP_GEMM_TILE);
        if (a == CP_GEMM_A) {
            *e = (uint64_t)cp_gemm_smem_a_base_i32(row, tid, k) +
                 t * (uint64_t)cp_gemm_smem_a_step_i32();
            return row < m && cp_gemm_smem_a_kk_i32(k0, tid) < k;
        }
        *e = (uint64_t)cp_gemm_smem_b_base_i32(col, tid, n) +
             t * (uint64_t)cp_gemm_smem_b_step_i32(n);
        return cp_gemm_smem_b_kk_i32(k0, tid) < k && col < n;
    }
    *e = a == CP_GEMM_A   ? (uint64_t)cp_gemm_a_index_i32(row, (int)t, k)
         : a == CP_GEMM_B ? (uint64_t)cp_gemm_b_index_i32((int)t, col, n)
                          : (uint64_t)cp_gemm_c_index_i32(row, col, n);
    return row < m && col < n;
}

/* The same for the 64-bit kernels. */
static int cp_gemm_element_i64(const cp_config *c, size_t a, uint64_t t, uint64_t bx, uint64_t by,
                               uint64_t tx, uint64_t ty, uint64_t *e)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    uint64_t tid = ty * CP_GEMM_TILE + tx, row, col;
    if (cfg->variant == CP_GEMM_NAIVE)
        cp_gemm_naive_coords(bx, by, tx, ty, &row, &col);
    else
        cp_gemm_coalesced_coords(bx, by, tid, &row, &col);
    if (cfg->variant == CP_GEMM_SMEM && a != CP_GEMM_C) {
        /* tile loads: every thread of the block loads, inside A or B */
        uint64_t kk = a == CP_GEMM_A ? cp_gemm_smem_a_kk(t, tid) : cp_gemm_smem_b_kk(t, tid);
        *e = a == CP_GEMM_A ? cp_gemm_a_index(row, kk, cfg->k) : cp_gemm_b_index(kk, col, cfg->n);
        return a == CP_GEMM_A ? row < cfg->m && kk < cfg->k : kk < cfg->k && col < cfg->n;
    }
    *e = a == CP_GEMM_A   ? cp_gemm_a_index(row, t, cfg->k)
         : a == CP_GEMM_B ? cp_gemm_b_index(t, col, cfg->n)
                          : cp_gemm_c_index(row, col, cfg->n);
    return row < cfg->m && col < cfg->n;
}

static uint32_t cp_model_gemm_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                    uint64_t t, uint64_t addr[CP_WARP_SIZE])
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    (void)ins;
    uint64_t gx = cp_gemm_blocks(cfg->m);
    uint64_t block = w / CP_GEMM_WARPS_PER_BLOCK, wib = w % CP_GEMM_WARPS_PER_BLOCK;
    uint64_t bx = block % gx, by = block / gx;          /* blocks are numbered x fastest */
    int i32 = cp_gemm_fits_i32(cfg->m, cfg->n, cfg->k); /* the path the host launches */
    uint32_t mask = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        /* naive: threadIdx = (lane, warp in block); the others: threadIdx.x = wib * 32 + l,
         * which is tx + 32 * ty for tx = l, ty = wib */
        uint64_t e;
        int active = i32 ? cp_gemm_element_i32(c, a, t, (int)bx, (int)by, (int)l, (int)wib, &e)
                         : cp_gemm_element_i64(c, a, t, bx, by, l, wib, &e);
        if (!active)
            continue;
        addr[l] = e * 4;
        mask |= 1u << l;
    }
    return mask;
}

/* Warps whose lane addresses differ by multiples of 128 bytes and whose active masks agree.
 * naive:     a warp is (bx, by, ty); lanes run along rows. Its cost depends only on whether
 *            bx is the partial last block row and on col % 32 = ty (moving by 32 columns or
 *            32 rows moves every address by a multiple of 128 bytes).
 * coalesced, smem: a warp is (bx, by, row % 32); lanes run along columns: symmetric, with
 *            by's partial last block and row % 32. Warps of rows past m take part only in
 *            smem's loads of B tiles. */
static size_t cp_model_gemm_classes(const cp_config *c, size_t a,
                                    cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    if (cfg->variant == CP_GEMM_CUBLAS)
        return 0;
    int naive = cfg->variant == CP_GEMM_NAIVE;
    int all_rows = cfg->variant == CP_GEMM_SMEM && a == CP_GEMM_B;
    uint64_t gx = cp_gemm_blocks(cfg->m);
    uint64_t lane_extent = naive ? cfg->m : cfg->n; /* the dimension the lanes walk along */
    uint64_t warp_extent = naive ? cfg->n : cfg->m; /* the dimension the warps of a block cover */
    uint64_t lane_blocks[2] = {lane_extent / CP_GEMM_TILE, lane_extent % CP_GEMM_TILE ? 1 : 0};
    size_t k = 0;
    for (int edge = 0; edge < 2; edge++) {
        if (!lane_blocks[edge])
            continue;
        uint64_t lane_block = edge ? lane_extent / CP_GEMM_TILE : 0;
        for (uint64_t r = 0; r < CP_GEMM_TILE; r++) {
            /* warp positions p < warp_extent with p % 32 == r (every block row for smem B) */
            uint64_t positions = all_rows ? gx
                                 : r < warp_extent
                                     ? (warp_extent - r + CP_GEMM_TILE - 1) / CP_GEMM_TILE
                                     : 0;
            if (!positions)
                continue;
            uint64_t bx = naive ? lane_block : 0, by = naive ? 0 : lane_block;
            classes[k].rep_warp = (by * gx + bx) * CP_GEMM_WARPS_PER_BLOCK + r;
            classes[k].count = lane_blocks[edge] * positions;
            k++;
        }
    }
    return k;
}

static uint64_t cp_model_gemm_iteration_step(const cp_config *c, size_t a)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    uint64_t per_step = cfg->variant == CP_GEMM_SMEM ? CP_GEMM_TILE : 1;
    return a == CP_GEMM_A ? 4 * per_step : a == CP_GEMM_B ? cfg->n * 4 * per_step : 0;
}

/* smem: the last tile of k is partial when k is not a multiple of 32 (fewer active lanes). */
static uint64_t cp_model_gemm_regular_iterations(const cp_config *c, size_t a)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    if (a == CP_GEMM_C)
        return 1;
    return cfg->variant == CP_GEMM_SMEM ? cfg->k / CP_GEMM_TILE : cfg->k;
}

/* Every element of A, B and C is touched (all rows of A, all columns of B). */
static uint64_t cp_model_gemm_footprint(const cp_config *c, size_t a)
{
    const cp_gemm_config *cfg = cp_gemm_config_of(c);
    if (cfg->variant == CP_GEMM_CUBLAS)
        return 0;
    uint64_t elements = a == CP_GEMM_A   ? cfg->m * cfg->k
                        : a == CP_GEMM_B ? cfg->k * cfg->n
                                         : cfg->m * cfg->n;
    return (elements * 4 + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_gemm_model = {
    .describe = cp_model_gemm_describe,
    .lanes = cp_model_gemm_lanes,
    .classes = cp_model_gemm_classes,
    .iteration_step = cp_model_gemm_iteration_step,
    .footprint = cp_model_gemm_footprint,
    .regular_iterations = cp_model_gemm_regular_iterations,
};
