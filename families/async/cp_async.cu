// cp_async.cu: the asynchronous-copy family's kernels (cp_async.h): a stream of 16 KB
// tiles, each loaded into the SM and computed, by plain loads, through shared memory, by
// cp.async (LDGSTS) and by the TMA unit (cp.async.bulk, 1-D and through a 2-D tensor map), with
// 1 to 4 tiles in flight. Each block walks the tiles blockIdx.x, blockIdx.x + gridDim.x, ...;
// the grid is as many blocks as fit on the GPU at once.
#include <cuda.h>         // CUtensorMap and its enumerations (no driver call is linked)
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled

#include "cp_async.h"
#include "cp_kernels.h"
#include "cp_async_kernels.h"

namespace
{

// The tiles of this block: blockIdx.x, blockIdx.x + gridDim.x, ...; how many.
__device__ __forceinline__ uint64_t cp_async_block_tiles(uint64_t tiles)
{
    return tiles > blockIdx.x ? (tiles - blockIdx.x - 1) / gridDim.x + 1 : 0;
}

// The tile of this block's j-th step.
__device__ __forceinline__ uint64_t cp_async_tile_of(uint64_t j)
{
    return blockIdx.x + j * gridDim.x;
}

// Computes tile `tile` (its floats at src: shared or global memory) into out: this thread's
// elements cp_async_element(threadIdx.x, 0 .. CP_ASYNC_PER_THREAD - 1), written as a loop with a
// step (the textbook's form) rather than over e: with e the compiler unrolls all 16 computes,
// and that code ran the smem and TMA rungs 25-33% slower at --work 64 on the H100 (the same
// loop, the same instructions per element;
// docs/results/2026-11-25-h100-readonly-async/experiments).
__device__ __forceinline__ void cp_async_compute(const float *src, float *__restrict__ out,
                                                 uint64_t tile, uint32_t work)
{
    float *dst = out + tile * CP_ASYNC_TILE;
    for (uint32_t k = cp_async_element(threadIdx.x, 0); k < CP_ASYNC_TILE; k += CP_ASYNC_BLOCK)
        dst[k] = cp_async_work(src[k], work);
}

extern __shared__ __align__(128) float cp_async_buffers[]; // `stages` tiles

// plain (STAGED false): every thread loads its own elements (LDG) and computes them; smem
// (STAGED true): the tile staged in shared memory by the block (LDG, STS), then computed from
// there.
template <bool STAGED>
__global__ void __launch_bounds__(CP_ASYNC_BLOCK)
    cp_async_sync_kernel(const float *__restrict__ in, float *__restrict__ out, uint64_t tiles,
                         uint32_t work)
{
    uint64_t n = cp_async_block_tiles(tiles);
    for (uint64_t j = 0; j < n; j++) {
        uint64_t t = cp_async_tile_of(j);
        const float *src = in + t * CP_ASYNC_TILE;
        if (STAGED) {
#pragma unroll
            for (uint32_t e = 0; e < CP_ASYNC_PER_THREAD; e++) {
                uint32_t k = cp_async_element(threadIdx.x, e);
                cp_async_buffers[k] = src[k];
            }
            __syncthreads();
            src = cp_async_buffers;
        }
        cp_async_compute(src, out, t, work);
        if (STAGED)
            __syncthreads(); // the tile is read before the next one overwrites it
    }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CP_ASYNC_HAS_CP_ASYNC 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CP_ASYNC_HAS_TMA 1
#endif

#ifdef CP_ASYNC_HAS_CP_ASYNC
__device__ __forceinline__ uint32_t cp_async_shared_address(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}
#endif

// cp-async: step j's tile copied 16 bytes a lane (LDGSTS.E.BYPASS.128) into buffer j % S, then
// one commit group (empty past the block's last tile, so that every step commits one).
template <int S>
__device__ __forceinline__ void cp_async_issue_lanes(const float *__restrict__ in, uint64_t j,
                                                     uint64_t n)
{
#ifdef CP_ASYNC_HAS_CP_ASYNC
    if (j < n) {
        const char *src = reinterpret_cast<const char *>(in + cp_async_tile_of(j) * CP_ASYNC_TILE);
        char *dst = reinterpret_cast<char *>(cp_async_buffers + (j % S) * CP_ASYNC_TILE);
#pragma unroll
        for (uint32_t c = 0; c < CP_ASYNC_CHUNKS_PER_THREAD; c++) {
            uint32_t off = (c * CP_ASYNC_BLOCK + threadIdx.x) * CP_ASYNC_CHUNK;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                             cp_async_shared_address(dst + off)),
                         "l"(src + off)
                         : "memory");
        }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int S>
__global__ void __launch_bounds__(CP_ASYNC_BLOCK)
    cp_async_lanes_kernel(const float *__restrict__ in, float *__restrict__ out, uint64_t tiles,
                          uint32_t work)
{
#ifdef CP_ASYNC_HAS_CP_ASYNC
    uint64_t n = cp_async_block_tiles(tiles);
    for (uint64_t j = 0; j < (uint64_t)S; j++)
        cp_async_issue_lanes<S>(in, j, n);
    for (uint64_t j = 0; j < n; j++) {
        // the groups of steps j + 1 .. j + S - 1 may still be in flight; step j's has landed
        asm volatile("cp.async.wait_group %0;\n" ::"n"(S - 1) : "memory");
        __syncthreads(); // every lane's chunks of the tile are visible to the block
        cp_async_compute(cp_async_buffers + (j % S) * CP_ASYNC_TILE, out, cp_async_tile_of(j),
                         work);
        __syncthreads(); // the buffer is read before step j + S overwrites it
        cp_async_issue_lanes<S>(in, j + S, n);
    }
#else
    __trap(); // the launcher refuses devices below sm_80
#endif
}

// TMA: one mbarrier per buffer, completed by the copy's bytes; thread 0 issues the copies.
#ifdef CP_ASYNC_HAS_TMA
__device__ __forceinline__ void cp_async_barrier_expect(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                     cp_async_shared_address(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void cp_async_barrier_wait(uint64_t *bar, uint32_t parity)
{
    uint32_t done = 0;
    do {
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(cp_async_shared_address(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}
#endif

// Issues step j's copy into buffer j % S (thread 0, past the last tile nothing): a 1-D bulk copy
// of the tile's 16 KB, or (map not NULL) the box of rows tile * 16 .. tile * 16 + 15.
template <int S>
__device__ __forceinline__ void cp_async_issue_tma(const float *in, const CUtensorMap *map,
                                                   uint64_t *bars, uint64_t j, uint64_t n)
{
#ifdef CP_ASYNC_HAS_TMA
    if (threadIdx.x != 0 || j >= n)
        return;
    uint64_t t = cp_async_tile_of(j);
    uint64_t *bar = &bars[j % S];
    uint32_t dst = cp_async_shared_address(cp_async_buffers + (j % S) * CP_ASYNC_TILE);
    cp_async_barrier_expect(bar, CP_ASYNC_TILE * 4u);
    if (map)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint64_t>(map)), "r"(0),
                     "r"((uint32_t)(t * CP_ASYNC_BOX_ROWS)), "r"(cp_async_shared_address(bar))
                     : "memory");
    else
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1], %2, [%3];\n" ::"r"(dst),
                     "l"(in + t * CP_ASYNC_TILE), "r"(CP_ASYNC_TILE * 4u),
                     "r"(cp_async_shared_address(bar))
                     : "memory");
#endif
}

template <int S>
__device__ __forceinline__ void cp_async_tma_body(const float *in, const CUtensorMap *map,
                                                  float *__restrict__ out, uint64_t tiles,
                                                  uint32_t work)
{
#ifdef CP_ASYNC_HAS_TMA
    __shared__ __align__(8) uint64_t bars[S];
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++)
            asm volatile(
                "mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(cp_async_shared_address(&bars[s]))
                : "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); // visible to the TMA
    }
    __syncthreads();
    uint64_t n = cp_async_block_tiles(tiles);
    for (uint64_t j = 0; j < (uint64_t)S; j++)
        cp_async_issue_tma<S>(in, map, bars, j, n);
    for (uint64_t j = 0; j < n; j++) {
        cp_async_barrier_wait(&bars[j % S], (uint32_t)((j / S) & 1));
        cp_async_compute(cp_async_buffers + (j % S) * CP_ASYNC_TILE, out, cp_async_tile_of(j),
                         work);
        __syncthreads(); // the buffer is read before step j + S overwrites it
        cp_async_issue_tma<S>(in, map, bars, j + S, n);
    }
#else
    __trap(); // the launcher refuses devices below sm_90
#endif
}

template <int S>
__global__ void __launch_bounds__(CP_ASYNC_BLOCK)
    cp_async_bulk_kernel(const float *__restrict__ in, float *__restrict__ out, uint64_t tiles,
                         uint32_t work)
{
    cp_async_tma_body<S>(in, nullptr, out, tiles, work);
}

template <int S>
__global__ void __launch_bounds__(CP_ASYNC_BLOCK)
    cp_async_tensor_kernel(const __grid_constant__ CUtensorMap map, float *__restrict__ out,
                           uint64_t tiles, uint32_t work)
{
    cp_async_tma_body<S>(nullptr, &map, out, tiles, work);
}

typedef void (*cp_async_kernel_fn)(const float *, float *, uint64_t, uint32_t);
typedef void (*cp_async_tensor_fn)(const CUtensorMap, float *, uint64_t, uint32_t);

// By stages - 1.
const cp_async_kernel_fn cp_async_lanes_kernels[CP_ASYNC_STAGES_MAX] = {
    cp_async_lanes_kernel<1>, cp_async_lanes_kernel<2>, cp_async_lanes_kernel<3>,
    cp_async_lanes_kernel<4>};
const cp_async_kernel_fn cp_async_bulk_kernels[CP_ASYNC_STAGES_MAX] = {
    cp_async_bulk_kernel<1>, cp_async_bulk_kernel<2>, cp_async_bulk_kernel<3>,
    cp_async_bulk_kernel<4>};
const cp_async_tensor_fn cp_async_tensor_kernels[CP_ASYNC_STAGES_MAX] = {
    cp_async_tensor_kernel<1>, cp_async_tensor_kernel<2>, cp_async_tensor_kernel<3>,
    cp_async_tensor_kernel<4>};

// The kernel of (variant, stages) as a function address, NULL for arguments out of range.
const void *cp_async_kernel_for(int variant, int stages)
{
    if (stages < 1 || stages > (int)CP_ASYNC_STAGES_MAX)
        return nullptr;
    switch (variant) {
    case CP_ASYNC_PLAIN:
        return (const void *)cp_async_sync_kernel<false>;
    case CP_ASYNC_SMEM:
        return (const void *)cp_async_sync_kernel<true>;
    case CP_ASYNC_CP_ASYNC:
        return (const void *)cp_async_lanes_kernels[stages - 1];
    case CP_ASYNC_TMA_BULK:
        return (const void *)cp_async_bulk_kernels[stages - 1];
    case CP_ASYNC_TMA_TENSOR:
        return (const void *)cp_async_tensor_kernels[stages - 1];
    default:
        return nullptr;
    }
}

// Dynamic shared memory of (variant, stages): the tile buffers.
size_t cp_async_dynamic_bytes(int variant, int stages)
{
    if (variant == CP_ASYNC_PLAIN)
        return 0;
    return (size_t)(variant == CP_ASYNC_SMEM ? 1 : stages) * CP_ASYNC_TILE * sizeof(float);
}

// The compute capability (major * 10 + minor) a variant needs: cp.async sm_80, TMA sm_90.
int cp_async_needs(int variant)
{
    return variant == CP_ASYNC_CP_ASYNC ? 80 : variant >= CP_ASYNC_TMA_BULK ? 90 : 0;
}

// What a launch of (variant, stages) on the current device needs, computed once each: the
// kernel's shared-memory limit raised, and the grid (every block that fits at once), after the
// device's architecture was checked. A launch between timing events then makes one call
// (cudaGetDevice, host only) before the kernel's.
struct cp_async_plan {
    int device_plus_one; // 0: not computed
    unsigned blocks;
};
cp_async_plan cp_async_plans[5][CP_ASYNC_STAGES_MAX] = {};

cudaError_t cp_async_plan_for(int variant, int stages, unsigned *blocks)
{
    int device;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess)
        return e;
    cp_async_plan *p = &cp_async_plans[variant][stages - 1];
    if (p->device_plus_one == device + 1) { // every launch but the first: one call
        *blocks = p->blocks;
        return cudaSuccess;
    }
    int major, minor, sms, per_sm = 0;
    if ((e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) !=
            cudaSuccess ||
        (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device)) !=
            cudaSuccess)
        return e;
    if (major * 10 + minor < cp_async_needs(variant))
        return cudaErrorNotSupported;
    const void *k = cp_async_kernel_for(variant, stages);
    size_t dyn = cp_async_dynamic_bytes(variant, stages);
    if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn)) !=
            cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
        (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, CP_ASYNC_BLOCK, dyn)) !=
            cudaSuccess)
        return e;
    if (per_sm < 1)
        return cudaErrorInvalidConfiguration;
    p->device_plus_one = device + 1;
    p->blocks = (unsigned)(sms * per_sm);
    *blocks = p->blocks;
    return cudaSuccess;
}

// The tensor map of the input as rows of CP_ASYNC_ROW floats, boxes of CP_ASYNC_BOX_ROWS rows,
// kept for the last (in, tiles): the map is encoded before the first launch, not between the
// timing events of the next ones.
struct cp_async_map {
    const float *in;
    uint64_t tiles;
    CUtensorMap map;
};
cp_async_map cp_async_last_map = {};

cudaError_t cp_async_map_for(const float *in, uint64_t tiles, const CUtensorMap **map)
{
    cp_async_map *m = &cp_async_last_map;
    if (m->in == in && m->tiles == tiles) {
        *map = &m->map;
        return cudaSuccess;
    }
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
        void *fn = nullptr;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                         cudaEnableDefault, &found);
        if (e != cudaSuccess)
            return e;
        if (found != cudaDriverEntryPointSuccess || !fn)
            return cudaErrorNotSupported;
        encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }
    cuuint64_t dims[2] = {CP_ASYNC_ROW, tiles * CP_ASYNC_BOX_ROWS};
    cuuint64_t strides[1] = {CP_ASYNC_ROW * sizeof(float)};
    cuuint32_t box[2] = {CP_ASYNC_ROW, CP_ASYNC_BOX_ROWS};
    cuuint32_t steps[2] = {1, 1};
    CUresult r =
        encode(&m->map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float *>(in), dims, strides,
               box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        m->in = nullptr;
        return cudaErrorInvalidValue;
    }
    m->in = in;
    m->tiles = tiles;
    *map = &m->map;
    return cudaSuccess;
}

} // namespace

extern "C" int cp_kernels_async_needs(int variant)
{
    return cp_async_needs(variant);
}

extern "C" cudaError_t cp_kernels_async_launch(int variant, int stages, const float *in, float *out,
                                               uint64_t tiles, uint32_t work, cudaStream_t stream)
{
    if (!cp_async_kernel_for(variant, stages) || tiles > (1ull << 40))
        return cudaErrorInvalidValue;
    if (tiles == 0)
        return cudaSuccess;
    unsigned blocks;
    cudaError_t e = cp_async_plan_for(variant, stages, &blocks);
    if (e != cudaSuccess)
        return e;
    if (blocks > tiles)
        blocks = (unsigned)tiles;
    size_t dyn = cp_async_dynamic_bytes(variant, stages);
    if (variant == CP_ASYNC_TMA_TENSOR) {
        const CUtensorMap *map;
        if ((e = cp_async_map_for(in, tiles, &map)) != cudaSuccess)
            return e;
        cp_async_tensor_kernels[stages - 1]<<<blocks, CP_ASYNC_BLOCK, dyn, stream>>>(*map, out,
                                                                                     tiles, work);
    } else {
        auto k = (cp_async_kernel_fn)cp_async_kernel_for(variant, stages);
        k<<<blocks, CP_ASYNC_BLOCK, dyn, stream>>>(in, out, tiles, work);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_async_resources(int variant, int stages, cp_kernel_resources *r)
{
    const void *k = cp_async_kernel_for(variant, stages);
    if (!k)
        return cudaErrorInvalidValue;
    unsigned blocks;
    cudaError_t e = cp_async_plan_for(variant, stages, &blocks); // the shared-memory limit
    if (e != cudaSuccess)
        return e;
    return cp_kernels_resources(k, CP_ASYNC_BLOCK, cp_async_dynamic_bytes(variant, stages), r);
}
