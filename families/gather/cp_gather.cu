// cp_gather.cu: the gather family's kernels: filling the index array (cp_gather.h,
// the same function the model evaluates) and reading through it.
#include "cp_gather.h"
#include "cp_kernels.h"
#include "cp_gather_kernels.h"
#include "cp_linear.h"

namespace
{

__global__ void cp_gather_index_kernel(uint32_t *idx, uint64_t n, uint64_t run, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        idx[i] = (uint32_t)cp_gather_index(i, n, run, seed);
}

__global__ void __launch_bounds__(CP_LINEAR_BLOCK)
    cp_gather_kernel(const uint32_t *idx, const float *in, float *out, uint64_t n)
{
    uint64_t i = cp_linear_thread(blockIdx.x, threadIdx.x);
    if (i < n)
        out[i] = in[idx[i]];
}

} // namespace

extern "C" cudaError_t cp_kernels_gather_index_launch(uint32_t *idx, uint64_t n, uint64_t run,
                                                      uint64_t seed, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    if (run == 0 || n > (1ull << 32))
        return cudaErrorInvalidValue;
    uint64_t blocks = (n + 255) / 256;
    unsigned grid = blocks > 65536 ? 65536u : (unsigned)blocks;
    cp_gather_index_kernel<<<grid, 256, 0, stream>>>(idx, n, run, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_gather_launch(const uint32_t *idx, const float *in, float *out,
                                                uint64_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uint64_t blocks = (n + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    if (blocks > 0x7fffffffull)
        return cudaErrorInvalidValue;
    cp_gather_kernel<<<(unsigned)blocks, CP_LINEAR_BLOCK, 0, stream>>>(idx, in, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_gather_resources(cp_kernel_resources *r)
{
    return cp_kernels_resources((const void *)cp_gather_kernel, CP_LINEAR_BLOCK, 0, r);
}
