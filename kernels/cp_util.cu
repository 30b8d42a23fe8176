// cp_util.cu: the helper kernels of a measurement: filling inputs, flushing L2, poisoning what an
// output check reads.
#include "cp_fill.h"
#include "cp_kernels.h"

namespace
{

const unsigned cp_util_block = 256;

__global__ void cp_fill_kernel(float *buf, uint64_t words, uint32_t seed)
{
    for (uint64_t w = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; w < words;
         w += (uint64_t)gridDim.x * blockDim.x)
        buf[w] = cp_fill_value(w, seed);
}

__global__ void cp_flush_kernel(const float4 *buf, uint64_t vectors, float *sink)
{
    float acc = 0.0f;
    for (uint64_t v = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; v < vectors;
         v += (uint64_t)gridDim.x * blockDim.x) {
        float4 x = buf[v];
        acc += x.x + x.y + x.z + x.w;
    }
    if (acc == -1.0f) // never true for the non-negative fill values: keeps the loads alive
        *sink = acc;
}

__global__ void cp_diff_norm_kernel(const float *c, const float *ref, uint64_t n, double *sums)
{
    double d2 = 0.0, r2 = 0.0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        double d = (double)c[i] - (double)ref[i];
        d2 += d * d;
        r2 += (double)ref[i] * (double)ref[i];
    }
    for (int o = 16; o > 0; o /= 2) {
        d2 += __shfl_down_sync(0xffffffffu, d2, o);
        r2 += __shfl_down_sync(0xffffffffu, r2, o);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&sums[0], d2);
        atomicAdd(&sums[1], r2);
    }
}

// One row of blocks (blockIdx.y) per range; its blocks stride over the range's words.
__global__ void cp_chunks_poison_kernel(uint32_t *buf, cp_kernels_chunks ch)
{
    int k = blockIdx.y;
    for (uint64_t j = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; j < ch.words[k];
         j += (uint64_t)gridDim.x * blockDim.x)
        buf[ch.first[k] + j] = 0xFFFFFFFFu;
}

unsigned cp_util_grid(uint64_t items)
{
    uint64_t blocks = (items + cp_util_block - 1) / cp_util_block;
    return blocks > 65536 ? 65536u : (unsigned)(blocks ? blocks : 1);
}

// The grid of a chunks kernel: a row of blocks per range, enough for the longest (at most 64).
dim3 cp_chunks_grid(const cp_kernels_chunks *ch)
{
    uint64_t longest = 1;
    for (int k = 0; k < ch->count; k++)
        longest = ch->words[k] > longest ? ch->words[k] : longest;
    unsigned x = cp_util_grid(longest);
    return dim3(x > 64 ? 64 : x, (unsigned)ch->count);
}

} // namespace

extern "C" cudaError_t cp_kernels_fill_launch(void *buf, uint64_t bytes, uint32_t seed,
                                              cudaStream_t stream)
{
    if (bytes % 4)
        return cudaErrorInvalidValue;
    cp_fill_kernel<<<cp_util_grid(bytes / 4), cp_util_block, 0, stream>>>(static_cast<float *>(buf),
                                                                          bytes / 4, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_flush_launch(const void *buf, uint64_t bytes, float *sink,
                                               cudaStream_t stream)
{
    if (bytes % 16)
        return cudaErrorInvalidValue;
    cp_flush_kernel<<<cp_util_grid(bytes / 16), cp_util_block, 0, stream>>>(
        static_cast<const float4 *>(buf), bytes / 16, sink);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_chunks_poison_launch(void *buf, const cp_kernels_chunks *ch,
                                                       cudaStream_t stream)
{
    if (ch->count <= 0 || ch->count > CP_KERNELS_MAX_CHUNKS)
        return cudaErrorInvalidValue;
    cp_chunks_poison_kernel<<<cp_chunks_grid(ch), cp_util_block, 0, stream>>>(
        static_cast<uint32_t *>(buf), *ch);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_diff_norm_launch(const float *c, const float *ref, uint64_t n,
                                                   double *sums, cudaStream_t stream)
{
    unsigned grid = cp_util_grid(n);
    if (grid > 4096)
        grid = 4096;
    cp_diff_norm_kernel<<<grid, cp_util_block, 0, stream>>>(c, ref, n, sums);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_alone_bytes(const void *kernel, size_t static_bytes,
                                              size_t dynamic_bytes, int alone, size_t *bytes)
{
    *bytes = dynamic_bytes;
    if (!alone)
        return cudaSuccess;
    int device, per_sm, per_block;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e != cudaSuccess)
        return e;
    size_t want = (size_t)per_sm / 2 + 1024; // two blocks cannot fit
    if (want < static_bytes + dynamic_bytes)
        want = static_bytes + dynamic_bytes;
    if (want > (size_t)per_block)
        return cudaErrorInvalidValue;
    *bytes = want - static_bytes;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*bytes);
}

extern "C" cudaError_t cp_kernels_image(int *binary_version, int *ptx_version)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, cp_fill_kernel);
    if (e == cudaSuccess) {
        *binary_version = a.binaryVersion;
        *ptx_version = a.ptxVersion;
    }
    return e;
}

extern "C" cudaError_t cp_kernels_resources(const void *kernel, int threads, size_t dynamic_bytes,
                                            cp_kernel_resources *r)
{
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, kernel);
    if (e != cudaSuccess)
        return e;
    int device = 0, sm_threads = 0, blocks = 0;
    if ((e = cudaGetDevice(&device)) != cudaSuccess)
        return e;
    if ((e = cudaDeviceGetAttribute(&sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device)) !=
        cudaSuccess)
        return e;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads,
                                                           dynamic_bytes)) != cudaSuccess)
        return e;
    r->registers = fa.numRegs;
    r->static_shared_bytes = fa.sharedSizeBytes;
    r->dynamic_shared_bytes = dynamic_bytes;
    r->threads_per_block = threads;
    r->blocks_per_sm = blocks;
    int warps = (threads + 31) / 32, sm_warps = sm_threads / 32;
    r->theoretical_occupancy = sm_warps > 0 ? (double)(blocks * warps) / sm_warps : 0.0;
    return cudaSuccess;
}
