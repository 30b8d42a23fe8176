// cp_transpose.cu: the kernels of the transpose family (naive, tiled, padded), indexed through
// cp_transpose.h. The tile is `volatile` so that every thread's shared store and load
// is issued unpredicated (values outside the matrix are 0), as the model counts them.
#include "cp_kernels.h"
#include "cp_transpose_kernels.h"
#include "cp_transpose.h"

namespace
{

__global__ void __launch_bounds__(CP_TRANSPOSE_TILE *CP_TRANSPOSE_ROWS)
    cp_transpose_naive_kernel(const float *in, float *out, uint64_t m, uint64_t n)
{
    for (uint32_t t = 0; t < CP_TRANSPOSE_STEPS; t++) {
        uint64_t row = cp_transpose_in_row(blockIdx.y, threadIdx.y, t);
        uint64_t col = cp_transpose_in_col(blockIdx.x, threadIdx.x);
        if (row < m && col < n)
            out[col * m + row] = in[row * n + col];
    }
}

template <int PADDED>
__global__ void __launch_bounds__(CP_TRANSPOSE_TILE *CP_TRANSPOSE_ROWS)
    cp_transpose_tiled_kernel(const float *in, float *out, uint64_t m, uint64_t n)
{
    __shared__ float tile[CP_TRANSPOSE_TILE * (CP_TRANSPOSE_TILE + 1)];
    extern __shared__ float cp_transpose_unused[]; // `alone` launches size it, nothing uses it
    volatile float *vt = tile;
    for (uint32_t t = 0; t < CP_TRANSPOSE_STEPS; t++) {
        uint64_t row = cp_transpose_in_row(blockIdx.y, threadIdx.y, t);
        uint64_t col = cp_transpose_in_col(blockIdx.x, threadIdx.x);
        float v = row < m && col < n ? in[row * n + col] : 0.0f;
        vt[cp_transpose_tile_store(threadIdx.x, threadIdx.y, t, PADDED)] = v;
    }
    __syncthreads();
    for (uint32_t t = 0; t < CP_TRANSPOSE_STEPS; t++) {
        float v = vt[cp_transpose_tile_load(threadIdx.x, threadIdx.y, t, PADDED)];
        uint64_t row = cp_transpose_out_row(blockIdx.x, threadIdx.y, t);
        uint64_t col = cp_transpose_out_col(blockIdx.y, threadIdx.x);
        if (row < n && col < m)
            out[row * m + col] = v;
    }
}

typedef void (*cp_transpose_fn)(const float *, float *, uint64_t, uint64_t);

// The kernel of a variant: 0 naive, 1 tiled, 2 padded; nullptr for another.
cp_transpose_fn cp_transpose_kernel_for(int variant)
{
    switch (variant) {
    case 0:
        return cp_transpose_naive_kernel;
    case 1:
        return cp_transpose_tiled_kernel<0>;
    case 2:
        return cp_transpose_tiled_kernel<1>;
    default:
        return nullptr;
    }
}

} // namespace

extern "C" cudaError_t cp_kernels_transpose_launch(int variant, const float *in, float *out,
                                                   uint64_t m, uint64_t n, int alone,
                                                   cudaStream_t stream)
{
    uint64_t gx = (n + CP_TRANSPOSE_TILE - 1) / CP_TRANSPOSE_TILE;
    uint64_t gy = (m + CP_TRANSPOSE_TILE - 1) / CP_TRANSPOSE_TILE;
    if (gx == 0 || gy == 0 || gx > 0x7fffffffull || gy > 65535)
        return cudaErrorInvalidValue;
    dim3 grid((unsigned)gx, (unsigned)gy), block(CP_TRANSPOSE_TILE, CP_TRANSPOSE_ROWS);
    cp_transpose_fn kernel = cp_transpose_kernel_for(variant);
    if (!kernel)
        return cudaErrorInvalidValue;
    size_t bytes = 0;
    if (variant != 0) { // the naive kernel uses no shared memory
        cudaError_t e = cp_kernels_alone_bytes(
            (const void *)kernel, sizeof(float) * CP_TRANSPOSE_TILE * (CP_TRANSPOSE_TILE + 1), 0,
            alone, &bytes);
        if (e != cudaSuccess)
            return e;
    }
    kernel<<<grid, block, bytes, stream>>>(in, out, m, n);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_transpose_resources(int variant, cp_kernel_resources *r)
{
    cp_transpose_fn kernel = cp_transpose_kernel_for(variant);
    if (!kernel)
        return cudaErrorInvalidValue;
    return cp_kernels_resources((const void *)kernel, CP_TRANSPOSE_TILE * CP_TRANSPOSE_ROWS, 0, r);
}
