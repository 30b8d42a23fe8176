/* test_model.c: the coalescing model against values derived by hand, and the fast path
 * against enumeration of every warp on small sizes. */
#include <stdlib.h>
#include <string.h>

#include "cp_gather.h"
#include "cp_gemm.h"
#include "model/cp_model_family.h"
#include "cp_test_model.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Hand derivation, full warps, offset 0: lane l of a request touches bytes
 * [l*s*w + 16*ins, +lb) with lb = min(w, 16). When s*w >= 32 every lane has a sector of its
 * own (32 per request); otherwise the lanes cover every sector of their 32*s*w-byte span,
 * s*w sectors. Lines likewise: 32 when s*w >= 128, else s*w/4. For w = 32 each 16-byte half
 * is its own request (two per warp) and lands in a sector of its own. */
static void test_stride_all_widths(void)
{
    const uint32_t widths[] = {4, 8, 16, 32};
    const uint64_t n = 32 * 1000;
    for (size_t wi = 0; wi < 4; wi++) {
        uint32_t w = widths[wi];
        uint64_t lb = min_u64(w, 16), ins = w / lb;
        for (uint64_t s = 1; s <= 32; s++) {
            for (int op = 0; op < 2; op++) {
                cp_config c = stride_cfg(s, 0, w, (cp_op)op, n);
                cp_prediction p = predict(&c);
                const cp_counts *strided = op == CP_OP_LOAD ? &p.load : &p.store;
                const cp_counts *dense = op == CP_OP_LOAD ? &p.store : &p.load;
                uint64_t spr = min_u64(32, s * w);
                uint64_t lpr = s * w >= 128 ? 32 : s * w / 4;
                if (w == 32)
                    spr = 32, lpr = s * w >= 128 ? 32 : 8 * s;
                CHECK_EQ_U64(strided->requests, (n / 32) * ins);
                CHECK_EQ_U64(strided->sectors, (n / 32) * ins * spr);
                CHECK_EQ_U64(strided->lines, (n / 32) * ins * lpr);
                CHECK_EQ_U64(strided->bytes_requested, n * w);
                CHECK_EQ_U64(strided->ideal_sectors, (n / 32) * ins * lb);
                /* footprint: elements at most 32 bytes apart leave no sector untouched
                 * between the first and the last; farther apart, each element has its own
                 * (aligned, at most 32-byte) sector */
                uint64_t fp = s * w <= 32 ? ((n - 1) * s * w + w + 31) / 32 : n;
                CHECK_EQ_U64(strided->footprint_sectors, fp);
                /* the dense side: w sectors per request (32 for the split 32-byte element) */
                CHECK_EQ_U64(dense->requests, (n / 32) * ins);
                CHECK_EQ_U64(dense->sectors, (n / 32) * ins * (w == 32 ? 32 : w));
                CHECK_EQ_U64(dense->footprint_sectors, n * w / 32);
            }
        }
    }
}

/* Per request on the strided side (a negative value is not checked). */
typedef struct named_stride {
    uint64_t stride, offset;
    uint32_t width;
    cp_op op;
    double sectors, lines, efficiency, ideal_sectors, tolerance;
} named_stride;

static void test_stride_named_values(void)
{
    static const named_stride rows[] = {
        /* stride 1, width 4: 4 sectors, 1 line, 100% */
        {1, 0, 4, CP_OP_LOAD, 4.0, 1.0, 1.0, 4.0, 0},
        /* offset 1 at width 4: bytes 4..131 of each warp's 128-byte window: 5 sectors, 2 lines */
        {1, 1, 4, CP_OP_LOAD, 5.0, 2.0, 0.8, -1, 1e-12},
        /* offset 8 at width 4 is 32 bytes: still 4 sectors but 2 lines */
        {1, 8, 4, CP_OP_LOAD, 4.0, 2.0, -1, -1, 0},
        /* offset 3 at width 16 (48 bytes): lanes cover bytes 48..559: sectors 1..17 = 17 */
        {1, 3, 16, CP_OP_LOAD, 17.0, -1, -1, -1, 0},
        /* stride 2 at width 4: 8 sectors, 50% */
        {2, 0, 4, CP_OP_LOAD, 8.0, -1, 0.5, -1, 0},
        /* stride 32 at width 4: one sector and one line per lane, 12.5% */
        {32, 0, 4, CP_OP_STORE, 32.0, 32.0, 0.125, -1, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const named_stride *r = &rows[i];
        cp_config c = stride_cfg(r->stride, r->offset, r->width, r->op, 64);
        cp_prediction p = predict(&c);
        const cp_counts *k = r->op == CP_OP_LOAD ? &p.load : &p.store;
        CHECK_NEAR(cp_counts_sectors_per_request(k), r->sectors, r->tolerance);
        if (r->lines >= 0)
            CHECK_NEAR(cp_counts_lines_per_request(k), r->lines, r->tolerance);
        if (r->efficiency >= 0)
            CHECK_NEAR(cp_counts_efficiency(k), r->efficiency, r->tolerance);
        if (r->ideal_sectors >= 0)
            CHECK_NEAR(cp_counts_ideal_sectors_per_request(k), r->ideal_sectors, r->tolerance);
    }
    /* a partial last warp: 40 threads = one full warp (4 sectors) + 8 lanes (1 sector) */
    cp_config c = stride_cfg(1, 0, 4, CP_OP_LOAD, 40);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 2);
    CHECK_EQ_U64(p.load.sectors, 5);
    CHECK_EQ_U64(p.load.bytes_requested, 160);
    CHECK_EQ_U64(p.warps, 8); /* one block of 256 threads */
    /* accesses: in (load, strided), out (store) with 32-byte elements split in two */
    c = stride_cfg(3, 0, 32, CP_OP_LOAD, 64);
    p = predict(&c);
    CHECK(p.naccesses == 2);
    CHECK(strcmp(p.accesses[0].name, "in") == 0 && p.accesses[0].strided == 1);
    CHECK(p.accesses[0].instructions == 2 && p.accesses[0].lane_bytes == 16);
    CHECK_EQ_U64(p.accesses[0].buffer_bytes, (63 * 3 + 1) * 32);
    CHECK_EQ_U64(p.accesses[1].buffer_bytes, 64 * 32);
}

static void test_layout(void)
{
    const uint64_t n = 32 * 64;
    for (uint32_t F = 1; F <= 16; F++) {
        for (uint32_t f = 0; f < F; f++) {
            /* AoS: lanes 4F bytes apart, starting at 4f: sectors as for stride F offset f */
            cp_config c = layout_cfg(CP_LAYOUT_AOS, F, f, n);
            cp_prediction p = predict(&c);
            uint64_t spr = 0;
            if (4 * F >= 32) {
                spr = 32;
            } else {
                /* full warp 0 at offset 4f: bytes 4f .. 4f + 31*4F + 3 */
                spr = (4 * f + 31 * 4 * F + 3) / 32 - (4 * f) / 32 + 1;
            }
            /* later warps start at 128*F*w + 4f: same sector phase as warp 0 */
            CHECK_EQ_U64(p.load.sectors, (n / 32) * spr);
            CHECK_EQ_U64(p.store.sectors, (n / 32) * 4);
            /* SoA: lanes contiguous; field f starts at 4*f*n, a multiple of 32 here */
            c = layout_cfg(CP_LAYOUT_SOA, F, f, n);
            p = predict(&c);
            CHECK_EQ_U64(p.load.sectors, (n / 32) * 4);
            CHECK_EQ_U64(p.load.footprint_sectors, n * 4 / 32);
        }
    }
    /* SoA with n = 33 and field 1: the field starts at byte 132, so each warp's 128 bytes
     * straddle 5 sectors (warp 0: bytes 132..259) */
    cp_config c = layout_cfg(CP_LAYOUT_SOA, 2, 1, 33);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 2);
    CHECK_EQ_U64(p.load.sectors, 5 + 1);
}

static void test_gemm_hand(void)
{
    /* 64^3 naive: 2x2 blocks of 32 warps = 128 warps, each k = 64 steps.
     * A: lanes on 32 rows 256 B apart: 32 sectors and lines per request.
     * B: all lanes read B[t][col]: 1 sector. C: 32 rows: 32 sectors. */
    cp_config c = gemm_cfg(CP_GEMM_NAIVE, 64, 64, 64);
    cp_prediction p = predict(&c);
    CHECK(p.naccesses == 3);
    CHECK_EQ_U64(p.accesses[0].counts.requests, 128 * 64);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 128 * 64 * 32);
    CHECK_EQ_U64(p.accesses[0].counts.lines, 128 * 64 * 32);
    CHECK_EQ_U64(p.accesses[1].counts.requests, 128 * 64);
    CHECK_EQ_U64(p.accesses[1].counts.sectors, 128 * 64);
    CHECK_EQ_U64(p.accesses[1].counts.bytes_requested, 128 * 64 * 4); /* a broadcast: once */
    CHECK_EQ_U64(p.accesses[1].counts.ideal_sectors, 128 * 64);
    CHECK_EQ_U64(p.accesses[2].counts.requests, 128);
    CHECK_EQ_U64(p.accesses[2].counts.sectors, 128 * 32);
    CHECK_EQ_U64(p.load.sectors, 128 * 64 * 33);
    CHECK_EQ_U64(p.load.footprint_sectors, 2 * 64 * 64 * 4 / 32);
    /* coalesced: A broadcast (1 sector), B and C 32 consecutive floats (4 sectors, 1 line) */
    c = gemm_cfg(CP_GEMM_COALESCED, 64, 64, 64);
    p = predict(&c);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 128 * 64);
    CHECK_EQ_U64(p.accesses[1].counts.sectors, 128 * 64 * 4);
    CHECK_EQ_U64(p.accesses[1].counts.lines, 128 * 64);
    CHECK_EQ_U64(p.accesses[2].counts.sectors, 128 * 4);
    CHECK_EQ_U64(p.store.requests, 128);
    /* smem 64^3: 2 tiles of k; a warp's tile load of A is 32 consecutive floats of one row
     * (row*256 + t*128 bytes: 4 sectors, 1 line), of B 32 consecutive floats of one tile row */
    c = gemm_cfg(CP_GEMM_SMEM, 64, 64, 64);
    p = predict(&c);
    CHECK(p.accesses[0].iterations == 2);
    CHECK_EQ_U64(p.accesses[0].counts.requests, 128 * 2);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 128 * 2 * 4);
    CHECK_EQ_U64(p.accesses[0].counts.lines, 128 * 2);
    CHECK_EQ_U64(p.accesses[1].counts.sectors, 128 * 2 * 4);
    CHECK_EQ_U64(p.accesses[2].counts.sectors, 128 * 4);
    CHECK_NEAR(cp_counts_efficiency(&p.load), 1.0, 0);
    /* smem 64 x 64 x 40: the second tile holds 8 columns of A (lanes 0-7: 1 sector) and 8 rows
     * of B (warps 0-7 of each block); warps 8-31 load no B in it */
    c = gemm_cfg(CP_GEMM_SMEM, 64, 64, 40);
    p = predict(&c);
    CHECK_EQ_U64(p.accesses[0].counts.requests, 128 * 2);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 128 * (4 + 1));
    CHECK_EQ_U64(p.accesses[1].counts.requests, 128 + 4 * 8);
    CHECK_EQ_U64(p.accesses[1].counts.sectors, 4 * (128 + 4 * 8));
    /* cuBLAS: listed for its buffers, not modelled */
    c = gemm_cfg(CP_GEMM_CUBLAS, 64, 64, 64);
    p = predict(&c);
    CHECK(!p.modelled && p.naccesses == 3 && p.load.requests == 0);
    CHECK_EQ_U64(p.accesses[2].buffer_bytes, 64 * 64 * 4);
    /* 40^3 naive: warps with a column < 40: 40 per block row; block row 0 has 32 active
     * lanes (rows 0..31), block row 1 has 8 (rows 32..39). Rows are 160 B apart. */
    c = gemm_cfg(CP_GEMM_NAIVE, 40, 40, 40);
    p = predict(&c);
    CHECK_EQ_U64(p.accesses[0].counts.requests, 80 * 40);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 40 * (40 * 32 + 40 * 8));
    CHECK_EQ_U64(p.accesses[2].counts.requests, 80);
    CHECK_EQ_U64(p.accesses[2].counts.sectors, 40 * 32 + 40 * 8);
    CHECK_EQ_U64(p.accesses[2].counts.bytes_requested, 40 * 40 * 4);
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static void check_fast_equals_exact(const cp_config *c)
{
    cp_prediction fast, exact;
    if (!cp_test_fast_and_exact(c, 200000000ull, &fast, &exact))
        return;
    int ok = same_counts(&fast.load, &exact.load) && same_counts(&fast.store, &exact.store);
    for (size_t a = 0; a < fast.naccesses; a++)
        ok = ok && same_counts(&fast.accesses[a].counts, &exact.accesses[a].counts);
    CHECK(ok);
    if (!ok) {
        char d[128];
        cp_config_describe(c, d, sizeof d);
        fprintf(stderr, "  fast path differs from enumeration for %s elements=%" PRIu64 "\n", d,
                c->elements);
        for (size_t a = 0; a < fast.naccesses; a++) {
            const cp_counts *f = &fast.accesses[a].counts, *e = &exact.accesses[a].counts;
            fprintf(stderr,
                    "  %s: req %" PRIu64 "/%" PRIu64 " sec %" PRIu64 "/%" PRIu64 " lines %" PRIu64
                    "/%" PRIu64 " fp %" PRIu64 "/%" PRIu64 "\n",
                    fast.accesses[a].name, f->requests, e->requests, f->sectors, e->sectors,
                    f->lines, e->lines, f->footprint_sectors, e->footprint_sectors);
        }
    }
}

static void test_fast_vs_exact(void)
{
    const uint32_t widths[] = {4, 8, 16, 32};
    for (uint64_t s = 1; s <= 33; s++)
        for (size_t wi = 0; wi < 4; wi++)
            for (int op = 0; op < 2; op++) {
                cp_config c = stride_cfg(s, (s * 7) % 13, widths[wi], (cp_op)op, 1000 + s);
                check_fast_equals_exact(&c);
            }
    unsigned seed = 12345;
    for (int i = 0; i < 300; i++) {
        cp_config c = stride_cfg(1 + rnd(&seed) % 64, rnd(&seed) % 100, widths[rnd(&seed) % 4],
                                 (cp_op)(rnd(&seed) % 2), 1 + rnd(&seed) % 3000);
        check_fast_equals_exact(&c);
        uint32_t F = 1 + rnd(&seed) % 40;
        c = layout_cfg((cp_layout)(rnd(&seed) % 2), F, rnd(&seed) % F, 1 + rnd(&seed) % 3000);
        check_fast_equals_exact(&c);
    }
    for (int i = 0; i < 180; i++) {
        cp_config c = gemm_cfg((cp_gemm_variant)(i % 3), 1 + rnd(&seed) % 100, 1 + rnd(&seed) % 100,
                               1 + rnd(&seed) % 70);
        check_fast_equals_exact(&c);
    }
    cp_config c = gemm_cfg(CP_GEMM_NAIVE, 1, 1, 1);
    check_fast_equals_exact(&c);
    c = gemm_cfg(CP_GEMM_COALESCED, 33, 65, 9);
    check_fast_equals_exact(&c);
    c = gemm_cfg(CP_GEMM_SMEM, 33, 65, 70);
    check_fast_equals_exact(&c);
    c = gemm_cfg(CP_GEMM_SMEM, 100, 31, 64);
    check_fast_equals_exact(&c);
}

/* gather: the index array is a permutation; runs of 8 floats are whole aligned sectors, so a
 * warp reads 4 sectors; the dense idx and out cost 4; every sector of in is read once. */
static void test_gather(void)
{
    const uint64_t n = 1u << 16;
    for (uint64_t run = 1; run <= 64; run *= 2) {
        unsigned char *seen = calloc(n, 1);
        int perm = seen != NULL;
        for (uint64_t i = 0; i < n && perm; i++) {
            uint64_t x = cp_gather_index(i, n, run, 3);
            perm = x < n && !seen[x];
            if (perm)
                seen[x] = 1;
        }
        CHECK(perm);
        free(seen);
    }
    cp_config c = gather_cfg(8, 1, n);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.accesses[1].counts.requests, n / 32);
    CHECK_EQ_U64(p.accesses[1].counts.sectors, 4 * n / 32);
    CHECK_EQ_U64(p.accesses[0].counts.sectors, 4 * n / 32);
    CHECK_EQ_U64(p.accesses[2].counts.sectors, 4 * n / 32);
    CHECK_EQ_U64(p.accesses[1].counts.footprint_sectors, n * 4 / 32);
    CHECK_NEAR(cp_counts_efficiency(&p.load), 1.0, 0);
    /* run 1, a random permutation: direct count over the warps, and close to 32 per request */
    c = gather_cfg(1, 5, n);
    p = predict(&c);
    uint64_t sectors = 0;
    for (uint64_t w = 0; w < n / 32; w++) {
        uint64_t s[32];
        for (unsigned l = 0; l < 32; l++)
            s[l] = cp_gather_index(w * 32 + l, n, 1, 5) * 4 / 32;
        for (unsigned l = 0; l < 32; l++) {
            int first = 1;
            for (unsigned m = 0; m < l; m++)
                first = first && s[m] != s[l];
            sectors += first;
        }
    }
    CHECK_EQ_U64(p.accesses[1].counts.sectors, sectors);
    CHECK(cp_counts_sectors_per_request(&p.accesses[1].counts) > 31.0);
    /* the tail past the last whole run stays in place: n = 1000, run 64 leaves 40 */
    CHECK_EQ_U64(cp_gather_index(999, 1000, 64, 1), 999);
    CHECK_EQ_U64(cp_gather_index(960, 1000, 64, 1), 960);
    check_fast_equals_exact(&c);
    c = gather_cfg(3, 2, 1000);
    check_fast_equals_exact(&c);
}

static void test_warp_lanes(void)
{
    cp_config c = stride_cfg(2, 1, 8, CP_OP_LOAD, 100);
    cp_warp_lanes w;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_model_warp_lanes(&c, 0, 0, 1, 0, &w, &st) == CP_EXIT_OK);
    CHECK(w.active_mask == 0xffffffffu);
    CHECK_EQ_U64(w.addr[0], (32 * 2 + 1) * 8); /* thread 32 reads element 65 */
    CHECK(cp_model_warp_lanes(&c, 0, 0, 3, 0, &w, &st) == CP_EXIT_OK);
    CHECK(w.active_mask == 0xfu); /* threads 96..99 */
    CHECK(cp_model_warp_lanes(&c, 5, 0, 0, 0, &w, &st) == CP_EXIT_USAGE);
    CHECK(cp_model_warp_lanes(&c, 0, 0, 8, 0, &w, &st) == CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "warp 8 does not exist");
}

/* GEMM: the 32-bit functions (the worklog's kernels) name the same elements as the 64-bit ones
 * for every thread of the grid and every step, including threads past the edges, and
 * cp_gemm_fits_i32 draws its line where (m+32)(k+32) etc. stop fitting an int. */
static void test_gemm_i32_matches_i64(void)
{
    uint32_t seed = 7;
    for (int i = 0; i < 300; i++) {
        uint64_t m = 1 + rnd(&seed) % 5000, n = 1 + rnd(&seed) % 5000, k = 1 + rnd(&seed) % 5000;
        CHECK(cp_gemm_fits_i32(m, n, k));
        uint64_t bx = rnd(&seed) % ((m + 31) / 32), by = rnd(&seed) % ((n + 31) / 32);
        uint64_t tx = rnd(&seed) % 32, ty = rnd(&seed) % 32, tid = ty * 32 + tx;
        uint64_t t = rnd(&seed) % ((k + 31) / 32), kk = rnd(&seed) % k;
        uint64_t r64, c64;
        int r32, c32;
        cp_gemm_naive_coords(bx, by, tx, ty, &r64, &c64);
        cp_gemm_naive_coords_i32((int)bx, (int)by, (int)tx, (int)ty, &r32, &c32);
        CHECK_EQ_U64((uint64_t)r32, r64);
        CHECK_EQ_U64((uint64_t)c32, c64);
        CHECK_EQ_U64((uint64_t)cp_gemm_a_index_i32(r32, (int)kk, (int)k),
                     cp_gemm_a_index(r64, kk, k));
        CHECK_EQ_U64((uint64_t)cp_gemm_b_index_i32((int)kk, c32, (int)n),
                     cp_gemm_b_index(kk, c64, n));
        cp_gemm_coalesced_coords(bx, by, tid, &r64, &c64);
        cp_gemm_coalesced_coords_i32((int)bx, (int)by, (int)tid, &r32, &c32);
        CHECK_EQ_U64((uint64_t)r32, r64);
        CHECK_EQ_U64((uint64_t)c32, c64);
        CHECK_EQ_U64((uint64_t)cp_gemm_c_index_i32(r32, c32, (int)n), cp_gemm_c_index(r64, c64, n));
        /* smem: base + t * step (the kernel's advancing pointers) is the tile's element */
        int k0 = (int)(t * 32);
        CHECK_EQ_U64((uint64_t)cp_gemm_smem_a_kk_i32(k0, (int)tid), cp_gemm_smem_a_kk(t, tid));
        CHECK_EQ_U64((uint64_t)cp_gemm_smem_b_kk_i32(k0, (int)tid), cp_gemm_smem_b_kk(t, tid));
        CHECK_EQ_U64((uint64_t)cp_gemm_smem_a_base_i32(r32, (int)tid, (int)k) +
                         t * (uint64_t)cp_gemm_smem_a_step_i32(),
                     cp_gemm_a_index(r64, cp_gemm_smem_a_kk(t, tid), k));
        CHECK_EQ_U64((uint64_t)cp_gemm_smem_b_base_i32(c32, (int)tid, (int)n) +
                         t * (uint64_t)cp_gemm_smem_b_step_i32((int)n),
                     cp_gemm_b_index(cp_gemm_smem_b_kk(t, tid), c64, n));
    }
    CHECK(cp_gemm_fits_i32(4096, 4096, 4096));
    CHECK(cp_gemm_fits_i32(46308, 46308, 1)); /* 46340^2 = 2147395600 <= 2^31 - 1 */
    CHECK(!cp_gemm_fits_i32(46309, 46309, 1));
    CHECK(!cp_gemm_fits_i32(65536, 1, 65536));
    CHECK(!cp_gemm_fits_i32(1ull << 40, 1, 1));
}

static void test_monotone_footprint(void)
{
    /* hand values: 10 floats back to back = 40 bytes = 2 sectors */
    CHECK_EQ_U64(cp_model_monotone_footprint(10, 4, 0, 4), 2);
    /* 4 floats 32 bytes apart: 4 sectors; starting at byte 28: still 4 */
    CHECK_EQ_U64(cp_model_monotone_footprint(4, 32, 28, 4), 4);
    /* 3 elements of 32 bytes 48 bytes apart from byte 16: sectors 0-1, 2, 3-4 -> 5 */
    CHECK_EQ_U64(cp_model_monotone_footprint(3, 48, 16, 32), 5);
    CHECK_EQ_U64(cp_model_monotone_footprint(0, 4, 0, 4), 0);
}

/* The shared helpers of the one-element-per-thread families: an element wider than 16 bytes
 * is split into 16-byte instructions, one iteration; a grid of whole 256-thread blocks. */
static void test_element_access(void)
{
    cp_access_prediction ap;
    cp_model_element_access(&ap, "in", CP_OP_LOAD, CP_SPACE_GLOBAL, 32, 4096, 1);
    CHECK(ap.lane_bytes == 16 && ap.instructions == 2 && ap.iterations == 1);
    CHECK(ap.buffer_bytes == 4096 && ap.strided == 1 && ap.space == CP_SPACE_GLOBAL);
    cp_model_element_access(&ap, "table", CP_OP_LOAD, CP_SPACE_CONSTANT, 4, 64, 0);
    CHECK(ap.lane_bytes == 4 && ap.instructions == 1 && ap.space == CP_SPACE_CONSTANT);
    CHECK(cp_model_lane_bytes(8) == 8 && cp_model_lane_bytes(16) == 16);
    CHECK(cp_model_lane_bytes(32) == 16);
    cp_prediction p;
    memset(&p, 0, sizeof p);
    cp_model_linear_grid(&p, 257, 3);
    CHECK_EQ_U64(p.threads, 257);
    CHECK_EQ_U64(p.warps, 16); /* two blocks of 8 warps */
    CHECK(p.naccesses == 3);
}

int main(void)
{
    test_stride_all_widths();
    test_stride_named_values();
    test_layout();
    test_gemm_hand();
    test_fast_vs_exact();
    test_gemm_i32_matches_i64();
    test_gather();
    test_warp_lanes();
    test_monotone_footprint();
    test_element_access();
    return cp_test_finish();
}
