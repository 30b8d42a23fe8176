/* cp_async_model.c: the model's view of the async family (cp_async.h). Every tile costs
 * the same whichever block computes it, so the model counts the tiles as if each had its own
 * block of CP_ASYNC_BLOCK threads: warp w works on tile w / 8 as warp w % 8 of its block. The
 * accesses, by variant:
 *   plain       in (LDG, 16 per thread), out (STG, 16 per thread)
 *   smem        in (LDG), tile (STS), tile (LDS), out
 *   cp-async    in (LDGSTS of 16 bytes, 4 per thread), tile (LDS), out
 *   tma-*       in (one TMA copy of the whole tile, by lane 0 of warp 0), tile (LDS), out
 * A tile's bytes and every thread's shared-memory offsets repeat from one tile to the next, so
 * every warp costs the same (the copies: every leading warp). */
#include <stdio.h>

#include "cp_async.h"
#include "cp_async_model.h"
#include "cp_model_family.h"
#include "cp_async_config.h"

_Static_assert((int)CP_ASYNC_VARIANT_TMA_TENSOR == CP_ASYNC_TMA_TENSOR &&
                   CP_ASYNC_TILE_FLOATS == CP_ASYNC_TILE &&
                   (int)CP_ASYNC_VARIANT_CP_ASYNC == CP_ASYNC_CP_ASYNC &&
                   (int)CP_ASYNC_VARIANT_SMEM == CP_ASYNC_SMEM,
               "the async variants of cp_async_config.h follow cp_async.h");

#define CP_ASYNC_WARPS_PER_TILE (CP_ASYNC_BLOCK / CP_WARP_SIZE)

/* What an access reads or writes, for lanes() and classes(). */
typedef enum {
    CP_ASYNC_IN_LANES,
    CP_ASYNC_IN_CHUNKS,
    CP_ASYNC_IN_TMA,
    CP_ASYNC_TILE_SHARED,
    CP_ASYNC_OUT
} cp_async_role;

static uint64_t cp_async_tiles(const cp_config *c)
{
    return c->elements / CP_ASYNC_TILE;
}

/* The role of access a of c's kernel (the order of describe()). */
static cp_async_role cp_async_role_of(const cp_config *c, size_t a)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    switch (cfg->variant) {
    case CP_ASYNC_VARIANT_PLAIN:
        return a == 0 ? CP_ASYNC_IN_LANES : CP_ASYNC_OUT;
    case CP_ASYNC_VARIANT_SMEM:
        return a == 0 ? CP_ASYNC_IN_LANES : a == 3 ? CP_ASYNC_OUT : CP_ASYNC_TILE_SHARED;
    case CP_ASYNC_VARIANT_CP_ASYNC:
        return a == 0 ? CP_ASYNC_IN_CHUNKS : a == 1 ? CP_ASYNC_TILE_SHARED : CP_ASYNC_OUT;
    default:
        return a == 0 ? CP_ASYNC_IN_TMA : a == 1 ? CP_ASYNC_TILE_SHARED : CP_ASYNC_OUT;
    }
}

static void cp_async_access(cp_access_prediction *ap, const char *name, cp_op op, cp_space space,
                            uint32_t lane_bytes, uint64_t iterations, uint64_t bytes)
{
    cp_model_access(ap, name, op, space, lane_bytes, 1, iterations, bytes, 0);
}

static void cp_model_async_describe(const cp_config *c, cp_prediction *out)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    uint64_t tiles = cp_async_tiles(c), bytes = c->elements * 4, tile_bytes = CP_ASYNC_TILE * 4;
    out->threads = tiles * CP_ASYNC_BLOCK;
    out->warps = tiles * CP_ASYNC_WARPS_PER_TILE;
    size_t k = 0;
    cp_access_prediction *a = out->accesses;
    switch (cp_async_role_of(c, 0)) {
    case CP_ASYNC_IN_LANES:
        cp_async_access(&a[k++], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, 4, CP_ASYNC_PER_THREAD, bytes);
        break;
    case CP_ASYNC_IN_CHUNKS:
        cp_async_access(&a[k], "in", CP_OP_LOAD, CP_SPACE_GLOBAL, CP_ASYNC_CHUNK,
                        CP_ASYNC_CHUNKS_PER_THREAD, bytes);
        a[k++].async_copy = 1;
        break;
    default:
        cp_async_access(&a[k++], "in", CP_OP_LOAD, CP_SPACE_TMA, (uint32_t)tile_bytes, 1, bytes);
    }
    if (cfg->variant == CP_ASYNC_VARIANT_SMEM)
        cp_async_access(&a[k++], "tile", CP_OP_STORE, CP_SPACE_SHARED, 4, CP_ASYNC_PER_THREAD,
                        tile_bytes);
    if (cfg->variant != CP_ASYNC_VARIANT_PLAIN)
        cp_async_access(&a[k++], "tile", CP_OP_LOAD, CP_SPACE_SHARED, 4, CP_ASYNC_PER_THREAD,
                        tile_bytes);
    cp_async_access(&a[k++], "out", CP_OP_STORE, CP_SPACE_GLOBAL, 4, CP_ASYNC_PER_THREAD, bytes);
    out->naccesses = k;
    /* The counters are read with the SM's usual blocks (for SM active and occupancy, the
     * lesson's numbers), whose copies and loads meet in the same cycles and count as extra
     * wavefronts; cp.async's also see a never-executed LDS beside each LDGSTS: the shared
     * counts are shown, not judged (plain has none) */
    out->shared_exact = cfg->variant == CP_ASYNC_VARIANT_PLAIN;
}

static uint32_t cp_model_async_lanes(const cp_config *c, size_t a, uint32_t ins, uint64_t w,
                                     uint64_t t, uint64_t addr[CP_WARP_SIZE])
{
    (void)ins;
    uint64_t tile = w / CP_ASYNC_WARPS_PER_TILE;
    uint32_t first = (uint32_t)(w % CP_ASYNC_WARPS_PER_TILE) * CP_WARP_SIZE;
    uint64_t base = tile * CP_ASYNC_TILE * 4;
    switch (cp_async_role_of(c, a)) {
    case CP_ASYNC_IN_TMA: /* the whole tile, by thread 0 of the tile's block */
        addr[0] = base;
        return first == 0 ? 1u : 0u;
    case CP_ASYNC_IN_CHUNKS:
        for (unsigned l = 0; l < CP_WARP_SIZE; l++)
            addr[l] = base + ((uint64_t)t * CP_ASYNC_BLOCK + first + l) * CP_ASYNC_CHUNK;
        return 0xffffffffu;
    case CP_ASYNC_TILE_SHARED:
        base = 0; /* the same offsets in every tile's buffer */
        break;
    default:
        break;
    }
    for (unsigned l = 0; l < CP_WARP_SIZE; l++)
        addr[l] = base + (uint64_t)cp_async_element(first + l, (uint32_t)t) * 4;
    return 0xffffffffu;
}

static size_t cp_model_async_classes(const cp_config *c, size_t a,
                                     cp_warp_class classes[CP_MODEL_MAX_CLASSES])
{
    uint64_t tiles = cp_async_tiles(c);
    if (tiles == 0)
        return 0;
    if (cp_async_role_of(c, a) == CP_ASYNC_IN_TMA) /* the leading warps; the others copy nothing */
        classes[0] = (cp_warp_class){0, tiles};
    else
        classes[0] = (cp_warp_class){0, tiles * CP_ASYNC_WARPS_PER_TILE};
    return 1;
}

/* From one iteration to the next a lane moves by one row of the block (or of its chunks). */
static uint64_t cp_model_async_iteration_step(const cp_config *c, size_t a)
{
    cp_async_role role = cp_async_role_of(c, a);
    if (role == CP_ASYNC_IN_TMA)
        return 0;
    return role == CP_ASYNC_IN_CHUNKS ? CP_ASYNC_BLOCK * CP_ASYNC_CHUNK : CP_ASYNC_BLOCK * 4;
}

/* Every byte of in and out once; shared memory has no footprint. */
static uint64_t cp_model_async_footprint(const cp_config *c, size_t a)
{
    if (cp_async_role_of(c, a) == CP_ASYNC_TILE_SHARED)
        return 0;
    return cp_model_monotone_footprint(c->elements, 4, 0, 4);
}

/* How the variant fills and uses its buffers, one line per step of a block's loop (lines of at
 * most 78 characters). */
void cp_model_async_schedule(const cp_config *c, char *buf, size_t len)
{
    const cp_async_config *cfg = cp_async_config_of(c);
    unsigned s = cfg->stages;
    const char *head = "Schedule: block b takes tiles b, b + G, b + 2G, ... (G: the blocks that "
                       "fit\non the GPU at once); its step j computes its tile j (16 KB).\n";
    switch (cfg->variant) {
    case CP_ASYNC_VARIANT_PLAIN:
        snprintf(buf, len,
                 "%s  step j: each thread loads its 16 elements of tile j (LDG, 4 B),\n"
                 "          computes them and stores them to out (STG); no buffer\n",
                 head);
        break;
    case CP_ASYNC_VARIANT_SMEM:
        snprintf(buf, len,
                 "%s  step j: each thread copies its 16 elements of tile j into the buffer\n"
                 "          (LDG, STS); __syncthreads; computes them from the buffer (LDS),\n"
                 "          stores out (STG); __syncthreads. Copy and compute take turns.\n",
                 head);
        break;
    case CP_ASYNC_VARIANT_CP_ASYNC:
        snprintf(buf, len,
                 "%s  buffers: %u of 16 KB of shared memory; tile j goes to buffer j %% %u\n"
                 "  before : each thread issues cp.async (LDGSTS, 16 B a lane, 4 a thread)\n"
                 "           of tiles 0..%u, one commit group per tile\n"
                 "  step j : cp.async.wait_group %u (tile j has landed, %u in flight);\n"
                 "           __syncthreads; compute tile j from buffer j %% %u (LDS),\n"
                 "           store out (STG); __syncthreads;\n"
                 "           issue the cp.async of tile j + %u into buffer j %% %u\n",
                 head, s, s, s - 1, s - 1, s - 1, s, s, s);
        break;
    default:
        snprintf(buf, len,
                 "%s  buffers: %u of 16 KB of shared memory, each with an mbarrier;\n"
                 "           tile j goes to buffer j %% %u\n"
                 "  before : thread 0 issues %s\n"
                 "           of tiles 0..%u, arming each buffer's mbarrier with the\n"
                 "           copy's bytes (mbarrier.arrive.expect_tx)\n"
                 "  step j : every thread waits on buffer j %% %u's mbarrier (phase\n"
                 "           parity (j / %u) %% 2); computes tile j from it (LDS), stores\n"
                 "           out (STG); __syncthreads; thread 0 issues the copy of\n"
                 "           tile j + %u into buffer j %% %u\n",
                 head, s, s,
                 cfg->variant == CP_ASYNC_VARIANT_TMA_TENSOR
                     ? "cp.async.bulk.tensor.2d (boxes of 16 rows of 1 KB)"
                     : "cp.async.bulk (one copy of 16 KB a tile)",
                 s - 1, s, s, s, s);
    }
}

/* The hooks the model engine calls (cp_model_family.h), entered in the descriptor. */
const cp_family_model cp_async_model = {
    .describe = cp_model_async_describe,
    .lanes = cp_model_async_lanes,
    .classes = cp_model_async_classes,
    .iteration_step = cp_model_async_iteration_step,
    .footprint = cp_model_async_footprint,
};
