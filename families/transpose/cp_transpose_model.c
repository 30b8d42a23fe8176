/* cp_transpose_model.c: the model's view of the transpose family (cp_transpose.h):
 * the global read of in, the tile's shared store and load (tiled and padded variants), the
 * global write of out. Warps of blocks that lie wholly inside the matrix cost the same (their
 * addresses differ by multiples of 128 bytes), as do those of the partial last block column,
 * row and corner: one warp per (kind of block, warp in block) stands for all. */
#include "cp_model_family.h"
#include "cp_transpose.h"
#include "cp_transpose_config.h"

enum { CP_TR_IN, CP_TR_TILE_STORE, CP_TR_TILE_LOAD, CP_TR_OUT };

static uint64_t cp_tr_blocks(uint64_t dim)
{
    return (dim + CP_TRANSPOSE_TILE - 1) / CP_TRANSPOSE_TILE;
}

/* The kind of access that access index a is (the naive variant has no tile accesses: its
 * accesses 0 and 1 are in and out). */
static int cp_tr_kind(const cp_config *c, size_t a)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    if (cfg->variant == CP_TRANSPOSE_NAIVE)
        return a == 0 ? CP_TR_IN : CP_TR_OUT;
    return (int)a;
}

static void cp_tr_set(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                      uint64_t bytes, int strided)
{
    cp_model_access(ap, name, op, space, 4, 1, CP_TRANSPOSE_STEPS, bytes, strided);
}

static void cp_model_transpose_describe(const cp_config *c, cp_prediction *out)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    uint64_t bytes = cfg->m * cfg->n * 4;
    int padded = cfg->variant == CP_TRANSPOSE_PADDED;
    uint64_t tile_bytes = (uint64_t)CP_TRANSPOSE_TILE * cp_transpose_pitch(padded) * 4;
    out->threads =
        cp_tr_blocks(cfg->m) * cp_tr_blocks(cfg->n) * CP_TRANSPOSE_TILE * CP_TRANSPOSE_ROWS;
    out->warps = out->threads / CP_WARP_SIZE;
    if (cfg->variant == CP_TRANSPOSE_NAIVE) {
        out->naccesses = 2;
        cp_tr_set(&out->accesses[0], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, bytes, 0);
        cp_tr_set(&out->accesses[1], "out", CP_OP_STORE, CP_SPACE_GLOBAL, bytes, 1);
        return;
    }
    out->naccesses = 4;
    cp_tr_set(&out->accesses[CP_TR_IN], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, bytes, 0);
    cp_tr_set(&out->accesses[CP_TR_TILE_STORE], "tile", CP_OP_STORE, CP_SPACE_SHARED, tile_bytes,
              0);
    cp_tr_set(&out->accesses[CP_TR_TILE_LOAD], "tile", CP_OP_LOAD, CP_SPACE_SHARED, tile_bytes, 1);
    cp_tr_set(&out->accesses[CP_TR_OUT], "out", CP_OP_STORE, CP_SPACE_GLOBAL, bytes, 0);
}

/* The byte address of element (row, col) of a rows x cols matrix of 4-byte words, row-major, in
 * *addr; 0 when the element lies outside the matrix (the kernel's bounds check: no access). */
static int cp_tr_element(uint64_t row, uint64_t col, uint64_t rows, uint64_t cols, uint64_t *addr)
{
    if (row >= rows || col >= cols)
        return 0;
    *addr = (row * cols + col) * 4;
    return 1;
}

static uint32_t cp_model_transpose_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                         uint64_t t, uint64_t addr[CP_WARP_SIZE])
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    (void)ins;
    const uint64_t warps_per_block = CP_TRANSPOSE_ROWS; /* a warp is one value of threadIdx.y */
    uint64_t gx = cp_tr_blocks(cfg->n), block = w / warps_per_block;
    uint64_t bx = block % gx, by = block / gx; /* blocks are numbered x fastest */
    uint32_t ty = (uint32_t)(w % warps_per_block), step = (uint32_t)t;
    int padded = cfg->variant == CP_TRANSPOSE_PADDED, kind = cp_tr_kind(c, a);
    uint32_t mask = 0;
    for (uint32_t tx = 0; tx < CP_WARP_SIZE; tx++) {
        uint64_t row, col;
        switch (kind) {
        case CP_TR_IN:
            row = cp_transpose_in_row(by, ty, step);
            col = cp_transpose_in_col(bx, tx);
            if (!cp_tr_element(row, col, cfg->m, cfg->n, &addr[tx]))
                continue;
            break;
        case CP_TR_TILE_STORE:
            addr[tx] = (uint64_t)cp_transpose_tile_store(tx, ty, step, padded) * 4;
            break;
        case CP_TR_TILE_LOAD:
            addr[tx] = (uint64_t)cp_transpose_tile_load(tx, ty, step, padded) * 4;
            break;
        default:                                      /* out: n x m */
            if (cfg->variant == CP_TRANSPOSE_NAIVE) { /* out[col][row] of what it read */
                row = cp_transpose_in_col(bx, tx);
                col = cp_transpose_in_row(by, ty, step);
            } else {
                row = cp_transpose_out_row(bx, ty, step);
                col = cp_transpose_out_col(by, tx);
            }
            if (!cp_tr_element(row, col, cfg->n, cfg->m, &addr[tx]))
                continue;
            break;
        }
        mask |= 1u << tx;
    }
    return mask;
}

/* Blocks fall into up to four kinds (whole, last column, last row, corner); within a kind
 * every address moves by a multiple of 128 bytes from block to block (32 floats along a row,
 * 32 rows of 4n or 4m bytes), so warp ty of one block of the kind stands for all of them. */
static size_t cp_model_transpose_classes(const cp_config *c, size_t a,
                                         cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    (void)a;
    uint64_t gx = cp_tr_blocks(cfg->n), gy = cp_tr_blocks(cfg->m);
    uint64_t full_x = cfg->n / CP_TRANSPOSE_TILE, full_y = cfg->m / CP_TRANSPOSE_TILE;
    /* representative bx, by and block count along each axis for each kind */
    uint64_t xs[2][2] = {{0, full_x}, {gx - 1, gx - full_x}};
    uint64_t ys[2][2] = {{0, full_y}, {gy - 1, gy - full_y}};
    size_t k = 0;
    for (int kx = 0; kx < 2; kx++)
        for (int ky = 0; ky < 2; ky++) {
            uint64_t count = xs[kx][1] * ys[ky][1];
            if (!count)
                continue;
            uint64_t block = ys[ky][0] * gx + xs[kx][0];
            for (uint32_t ty = 0; ty < CP_TRANSPOSE_ROWS; ty++)
                classes[k++] = (cp_warp_class){block * CP_TRANSPOSE_ROWS + ty, count};
        }
    return k;
}

static uint64_t cp_model_transpose_iteration_step(const cp_config *c, size_t a)
{
    (void)c;
    (void)a;
    return 0; /* unused: every iteration is counted (cp_model_transpose_regular_iterations) */
}

static uint64_t cp_model_transpose_regular_iterations(const cp_config *c, size_t a)
{
    (void)c;
    (void)a;
    return 0;
}

/* Each global buffer is read or written whole, once. */
static uint64_t cp_model_transpose_footprint(const cp_config *c, size_t a)
{
    const cp_transpose_config *cfg = cp_transpose_config_of(c);
    int kind = cp_tr_kind(c, a);
    if (kind == CP_TR_TILE_STORE || kind == CP_TR_TILE_LOAD)
        return 0;
    return cp_model_monotone_footprint(cfg->m * cfg->n, 4, 0, 4);
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_transpose_model = {
    .describe = cp_model_transpose_describe,
    .lanes = cp_model_transpose_lanes,
    .classes = cp_model_transpose_classes,
    .iteration_step = cp_model_transpose_iteration_step,
    .footprint = cp_model_transpose_footprint,
    .regular_iterations = cp_model_transpose_regular_iterations,
};
