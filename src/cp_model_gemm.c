/* cp_model_gemm.c: the model's view of the GEMM family: accesses A, B (loaded once per step
 * of k) and C (stored once), each lane's address (from patterns/cp_gemm.h), warp classes and
 * footprints. Both variants use 1024-thread blocks, so a block holds 32 warps. */
#include "cp_gemm.h"
#include "cp_model_family.h"

enum { CP_GEMM_A, CP_GEMM_B, CP_GEMM_C };
#define CP_GEMM_WARPS_PER_BLOCK (CP_GEMM_TILE * CP_GEMM_TILE / CP_WARP_SIZE)

static uint64_t cp_gemm_blocks(uint64_t extent)
{
    return (extent + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
}

static void cp_gemm_access(cp_access_prediction *ap, const char *name, cp_op op,
                           uint64_t iterations, uint64_t elements, int strided)
{
    ap->name = name;
    ap->op = op;
    ap->lane_bytes = 4;
    ap->instructions = 1;
    ap->iterations = iterations;
    ap->buffer_bytes = elements * 4;
    ap->strided = strided;
}

static void cp_gemm_describe(const cp_config *c, cp_prediction *out)
{
    int naive = c->variant == CP_GEMM_NAIVE;
    out->threads = c->m * c->n;
    out->warps = cp_gemm_blocks(c->m) * cp_gemm_blocks(c->n) * CP_GEMM_WARPS_PER_BLOCK;
    out->naccesses = 3;
    /* "strided": the operand whose lanes are spread by the variant's thread order */
    cp_gemm_access(&out->accesses[CP_GEMM_A], "A", CP_OP_LOAD, c->k, c->m * c->k, naive);
    cp_gemm_access(&out->accesses[CP_GEMM_B], "B", CP_OP_LOAD, c->k, c->k * c->n, 0);
    cp_gemm_access(&out->accesses[CP_GEMM_C], "C", CP_OP_STORE, 1, c->m * c->n, naive);
}

/* Row and column of C owned by lane `lane` of warp w. Blocks are numbered x fastest. */
static void cp_gemm_lane_coords(const cp_config *c, uint64_t w, unsigned lane, uint64_t *row,
                                uint64_t *col)
{
    uint64_t gx = cp_gemm_blocks(c->m);
    uint64_t block = w / CP_GEMM_WARPS_PER_BLOCK, wib = w % CP_GEMM_WARPS_PER_BLOCK;
    uint64_t bx = block % gx, by = block / gx;
    if (c->variant == CP_GEMM_NAIVE) /* threadIdx = (lane, warp in block) */
        cp_gemm_naive_coords(bx, by, lane, wib, row, col);
    else
        cp_gemm_coalesced_coords(bx, by, wib * CP_WARP_SIZE + lane, row, col);
}

static uint32_t cp_gemm_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w, uint64_t t,
                              uint64_t addr[CP_WARP_SIZE])
{
    (void)ins;
    uint32_t mask = 0;
    for (unsigned l = 0; l < CP_WARP_SIZE; l++) {
        uint64_t row, col;
        cp_gemm_lane_coords(c, w, l, &row, &col);
        if (row >= c->m || col >= c->n)
            continue;
        uint64_t e = a == CP_GEMM_A   ? cp_gemm_a_index(row, t, c->k)
                     : a == CP_GEMM_B ? cp_gemm_b_index(t, col, c->n)
                                      : cp_gemm_c_index(row, col, c->n);
        addr[l] = e * 4;
        mask |= 1u << l;
    }
    return mask;
}

/* Warps whose lane addresses differ by multiples of 128 bytes and whose active masks agree.
 * naive:     a warp is (bx, by, ty); lanes run along rows. Its cost depends only on whether
 *            bx is the partial last block row and on col % 32 = ty (moving by 32 columns or
 *            32 rows moves every address by a multiple of 128 bytes).
 * coalesced: a warp is (bx, by, row % 32); lanes run along columns: symmetric, with by's
 *            partial last block and row % 32. */
static size_t cp_gemm_classes(const cp_config *c, size_t a,
                              cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    (void)a;
    int naive = c->variant == CP_GEMM_NAIVE;
    uint64_t gx = cp_gemm_blocks(c->m);
    uint64_t lane_extent = naive ? c->m : c->n; /* the dimension the lanes walk along */
    uint64_t warp_extent = naive ? c->n : c->m; /* the dimension the warps of a block cover */
    uint64_t lane_blocks[2] = {lane_extent / CP_GEMM_TILE, lane_extent % CP_GEMM_TILE ? 1 : 0};
    size_t k = 0;
    for (int edge = 0; edge < 2; edge++) {
        if (!lane_blocks[edge])
            continue;
        uint64_t lane_block = edge ? lane_extent / CP_GEMM_TILE : 0;
        for (uint64_t r = 0; r < CP_GEMM_TILE && r < warp_extent; r++) {
            /* warp positions p < warp_extent with p % 32 == r */
            uint64_t positions = (warp_extent - r + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
            uint64_t bx = naive ? lane_block : 0, by = naive ? 0 : lane_block;
            classes[k].rep_warp = (by * gx + bx) * CP_GEMM_WARPS_PER_BLOCK + r;
            classes[k].count = lane_blocks[edge] * positions;
            k++;
        }
    }
    return k;
}

static uint64_t cp_gemm_iteration_step(const cp_config *c, size_t a)
{
    return a == CP_GEMM_A ? 4 : a == CP_GEMM_B ? c->n * 4 : 0;
}

/* Every element of A, B and C is touched (all rows of A, all columns of B). */
static uint64_t cp_gemm_footprint(const cp_config *c, size_t a)
{
    uint64_t elements = a == CP_GEMM_A ? c->m * c->k : a == CP_GEMM_B ? c->k * c->n : c->m * c->n;
    return (elements * 4 + CP_SECTOR_BYTES - 1) / CP_SECTOR_BYTES;
}

const cp_family_model cp_model_gemm_family = {
    cp_gemm_describe, cp_gemm_lanes, cp_gemm_classes, cp_gemm_iteration_step, cp_gemm_footprint,
};
