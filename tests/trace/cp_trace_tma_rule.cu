// cp_trace_tma_rule.cu: the tests' probe of TMA's sector rule (issue 45): one 2-D tensor-map copy
// kernel launched once per configuration, each launch copying every box of a byte (or float)
// matrix through its own map (cuTensorMapEncodeTiled, UTMALDG.2D), so that tests/gpu/tma_rule.py
// can set each launch's TMA sectors, as Nsight Compute counts them, beside the sectors its boxes'
// rows touch. A configuration varies what the rule may depend on: the box row's bytes, where the
// boxes start (a shift of every box's first column), the global address's alignment, the row
// pitch, boxes reaching past the matrix's edge, the element size and L2 promotion.
// Each block sums its box (zeros where TMA filled past the edge); the host checks every sum.
// Boxes start at multiples of 16 bytes only. This probe's first run on the H100 (2026-12-07) also
// had boxes shifted by 1 to 100 bytes and died with an illegal instruction; Triton's and
// TileLang's developers report that for any innermost coordinate not 16-byte aligned
// (triton-lang/triton#9112, tile-ai/tilelang#2681), so no real copy starts elsewhere.
// Usage: cp_trace_tma_rule            (every configuration, one launch each, a line each on stdout)
// Needs sm_90 or later; elsewhere it says so and exits 0 without launching.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h> // CUtensorMap (a type only: the encoder comes from the runtime's entry point)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "../cp_sample.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("cp_trace_tma_rule", call))                                         \
            return 1;                                                                              \
    } while (0)

#define kMaxBoxBytes 256 // the largest box row of the configurations, and its rows
#define kMaxBoxRows 8
static const int kThreads = 256;

// One configuration: a matrix of width_bytes x height bytes (rows pitch_bytes apart, starting
// addr_offset bytes past a 256-byte-aligned allocation) of elem-byte elements; boxes of box_bytes
// x box_rows, the box at (tx, ty) starting at byte column tx * box_bytes + shift, row ty *
// box_rows.
struct rule_config {
    int box_bytes, box_rows, width_bytes, height, pitch_bytes, addr_offset, shift, elem, promotion;
};

static const rule_config kConfigs[] = {
    // the box row's bytes: 16 to 256, aligned boxes, no edge
    {16, 8, 4096, 256, 4096, 0, 0, 1, 0},
    {32, 8, 4096, 256, 4096, 0, 0, 1, 0},
    {48, 8, 4080, 256, 4096, 0, 0, 1, 0},
    {64, 8, 4096, 256, 4096, 0, 0, 1, 0},
    {80, 8, 4080, 256, 4096, 0, 0, 1, 0},
    {96, 8, 4032, 256, 4096, 0, 0, 1, 0},
    {112, 8, 4032, 256, 4096, 0, 0, 1, 0},
    {128, 8, 4096, 256, 4096, 0, 0, 1, 0},
    {144, 8, 4032, 256, 4096, 0, 0, 1, 0},
    {160, 8, 4000, 256, 4096, 0, 0, 1, 0},
    {192, 8, 4032, 256, 4096, 0, 0, 1, 0},
    {208, 8, 4160, 256, 4224, 0, 0, 1, 0},
    {240, 8, 4080, 256, 4096, 0, 0, 1, 0},
    {256, 8, 4096, 256, 4096, 0, 0, 1, 0},
    // boxes that start 16 bytes into a sector: a shift of every box's first column
    {32, 8, 4096, 256, 4096, 0, 16, 1, 0},
    {64, 8, 4096, 256, 4096, 0, 16, 1, 0},
    {48, 8, 4080, 256, 4096, 0, 16, 1, 0},
    {128, 8, 4096, 256, 4096, 0, 16, 1, 0},
    // the global address 16 bytes off a sector, and an odd multiple of 16 as the pitch
    {32, 8, 4096, 256, 4096, 16, 0, 1, 0},
    {64, 8, 4096, 256, 4096, 16, 0, 1, 0},
    {128, 8, 4096, 256, 4096, 16, 0, 1, 0},
    {64, 8, 4096, 256, 4112, 0, 0, 1, 0},
    {128, 8, 4096, 256, 4112, 0, 0, 1, 0},
    {48, 8, 4080, 256, 4112, 0, 0, 1, 0},
    // boxes past the matrix's edge: a width no multiple of the box, a height no multiple
    {64, 8, 1000, 256, 1024, 0, 0, 1, 0},
    {128, 8, 1000, 250, 1024, 0, 0, 1, 0},
    {48, 8, 1000, 256, 1024, 0, 0, 1, 0},
    // one row a box
    {48, 1, 4080, 64, 4096, 0, 0, 1, 0},
    {64, 1, 4096, 64, 4096, 0, 16, 1, 0},
    // float32 elements: the test sample's narrow map (12 floats, 48-byte rows) and a wide one
    {48, 8, 4096, 256, 4096, 0, 0, 4, 0},
    {128, 8, 4096, 256, 4096, 0, 0, 4, 0},
    {64, 8, 4096, 256, 4096, 0, 16, 4, 0},
    // L2 promotion 64, 128 and 256 bytes
    {48, 8, 4080, 256, 4096, 0, 0, 1, 1},
    {48, 8, 4080, 256, 4096, 0, 0, 1, 2},
    {48, 8, 4080, 256, 4096, 0, 0, 1, 3},
    {16, 8, 4096, 256, 4096, 0, 0, 1, 3},
    {64, 8, 4096, 256, 4096, 0, 16, 1, 2},
};
static const int kNConfigs = (int)(sizeof kConfigs / sizeof kConfigs[0]);

static int boxes_x(const rule_config &c)
{
    return (c.width_bytes - c.shift + c.box_bytes - 1) / c.box_bytes;
}

static int boxes_y(const rule_config &c)
{
    return (c.height + c.box_rows - 1) / c.box_rows;
}

// Block b copies box (b % nx, b / nx) into shared memory by TMA and writes the sum of its bytes.
__global__ void tma_rule_copy(const __grid_constant__ CUtensorMap map, int box_bytes, int box_rows,
                              int nx, int shift, int elem, unsigned *sums)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(128) unsigned char tile[kMaxBoxRows * kMaxBoxBytes];
    __shared__ alignas(8) unsigned long long bar;
    __shared__ unsigned sum;
    int tx = blockIdx.x % nx, ty = blockIdx.x / nx;
    if (threadIdx.x == 0)
        sum = 0;
    unsigned b = cp_sample_tma_arm(&bar, box_bytes * box_rows); /* synchronises the block */
    if (threadIdx.x == 0)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
            "[%0], [%1, {%2, %3}], [%4];\n" ::"r"((unsigned)__cvta_generic_to_shared(tile)),
            "l"((unsigned long long)&map), "r"((tx * box_bytes + shift) / elem), "r"(ty * box_rows),
            "r"(b)
            : "memory");
    cp_sample_tma_wait(b);
    unsigned part = 0;
    for (int i = threadIdx.x; i < box_bytes * box_rows; i += blockDim.x)
        part += tile[i];
    atomicAdd(&sum, part);
    __syncthreads();
    if (threadIdx.x == 0)
        sums[blockIdx.x] = sum;
#else
    (void)map, (void)box_bytes, (void)box_rows, (void)nx, (void)shift, (void)elem, (void)sums;
#endif
}

static unsigned char value_at(size_t i)
{
    return (unsigned char)(i * 7 + 3);
}

static cudaError_t encode(const rule_config &c, void *base, CUtensorMap *map)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                     cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)
        return e != cudaSuccess ? e : cudaErrorSymbolNotFound;
    cuuint64_t dims[2] = {(cuuint64_t)(c.width_bytes / c.elem), (cuuint64_t)c.height};
    cuuint64_t strides[1] = {(cuuint64_t)c.pitch_bytes};
    cuuint32_t box[2] = {(cuuint32_t)(c.box_bytes / c.elem), (cuuint32_t)c.box_rows},
               steps[2] = {1, 1};
    static const CUtensorMapL2promotion promotion[] = {
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
    CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
        map, c.elem == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_UINT8, 2,
        (char *)base + c.addr_offset, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_NONE, promotion[c.promotion], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cp_trace_tma_rule: cuTensorMapEncodeTiled failed: %d\n", (int)r);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

// The sum of box (tx, ty)'s bytes inside the matrix, as the kernel computes it.
static unsigned expected_sum(const rule_config &c, const unsigned char *host, int tx, int ty)
{
    unsigned s = 0;
    for (int r = ty * c.box_rows; r < (ty + 1) * c.box_rows && r < c.height; r++)
        for (int x = tx * c.box_bytes + c.shift; x < (tx + 1) * c.box_bytes + c.shift; x++)
            if (x >= 0 && x < c.width_bytes)
                s += host[c.addr_offset + (size_t)r * c.pitch_bytes + x];
    return s;
}

int main()
{
    int dev = 0, major = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9) {
        printf("cp_trace_tma_rule: sm_%d0 has no TMA: nothing launched\n", major);
        return 0;
    }
    size_t bytes = 0, most_sums = 0;
    for (int i = 0; i < kNConfigs; i++) {
        const rule_config &c = kConfigs[i];
        size_t need = (size_t)c.addr_offset + (size_t)c.pitch_bytes * c.height;
        bytes = need > bytes ? need : bytes;
        size_t n = (size_t)boxes_x(c) * boxes_y(c);
        most_sums = n > most_sums ? n : most_sums;
    }
    unsigned char *host = (unsigned char *)malloc(bytes);
    unsigned *sums_host = (unsigned *)malloc(most_sums * sizeof(unsigned));
    if (!host || !sums_host) {
        fprintf(stderr, "cp_trace_tma_rule: out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < bytes; i++)
        host[i] = value_at(i);
    void *in = nullptr;
    unsigned *sums = nullptr;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&sums, most_sums * sizeof(unsigned)));
    CHECK(cudaMemcpy(in, host, bytes, cudaMemcpyHostToDevice));
    printf("config box_bytes box_rows width_bytes height pitch_bytes addr_offset shift elem "
           "promotion boxes_x boxes_y\n");
    int bad = 0;
    for (int i = 0; i < kNConfigs; i++) {
        const rule_config &c = kConfigs[i];
        CUtensorMap map;
        CHECK(encode(c, in, &map));
        int nx = boxes_x(c), ny = boxes_y(c);
        // the configuration's line first, so that a launch that fails is known by it
        printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", i, c.box_bytes, c.box_rows, c.width_bytes,
               c.height, c.pitch_bytes, c.addr_offset, c.shift, c.elem, c.promotion, nx, ny);
        fflush(stdout);
        tma_rule_copy<<<nx * ny, kThreads>>>(map, c.box_bytes, c.box_rows, nx, c.shift, c.elem,
                                             sums);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(sums_host, sums, (size_t)nx * ny * sizeof(unsigned),
                         cudaMemcpyDeviceToHost));
        for (int b = 0; b < nx * ny; b++)
            if (sums_host[b] != expected_sum(c, host, b % nx, b / nx)) {
                fprintf(stderr, "cp_trace_tma_rule: config %d box %d: sum %u, expected %u\n", i, b,
                        sums_host[b], expected_sum(c, host, b % nx, b / nx));
                bad = 1;
                break;
            }
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(sums));
    free(host);
    free(sums_host);
    return bad;
}
