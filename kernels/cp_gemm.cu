// cp_gemm.cu: the FP32 GEMM kernels (naive, coalesced, shared-memory tiled), indexed through
// patterns/cp_gemm.h.
#include "cp_gemm.h"
#include "cp_kernels.h"

namespace
{

// One element of C by a dot product over k straight from global memory: the naive and the
// coalesced kernels differ only in which thread owns which (row, col).
__device__ __forceinline__ void cp_gemm_dot(const float *A, const float *B, float *C, uint64_t row,
                                            uint64_t col, uint64_t m, uint64_t n, uint64_t k)
{
    if (row < m && col < n) {
        float acc = 0.0f;
        for (uint64_t kk = 0; kk < k; kk++)
            acc += A[cp_gemm_a_index(row, kk, k)] * B[cp_gemm_b_index(kk, col, n)];
        C[cp_gemm_c_index(row, col, n)] = acc;
    }
}

__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_naive_kernel(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                         uint64_t k)
{
    uint64_t row, col;
    cp_gemm_naive_coords(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, &row, &col);
    cp_gemm_dot(A, B, C, row, col, m, n, k);
}

__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_coalesced_kernel(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                             uint64_t k)
{
    uint64_t row, col;
    cp_gemm_coalesced_coords(blockIdx.x, blockIdx.y, threadIdx.x, &row, &col);
    cp_gemm_dot(A, B, C, row, col, m, n, k);
}

// Tiles of A and B staged in shared memory (the next rung of the ladder): per tile of k, each
// thread loads one element of each tile (zero outside the matrices), then the block reads
// them from shared memory. Threads outside C still load and synchronise.
__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_smem_kernel(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                        uint64_t k)
{
    __shared__ float As[CP_GEMM_TILE * CP_GEMM_TILE];
    __shared__ float Bs[CP_GEMM_TILE * CP_GEMM_TILE];
    const unsigned tid = threadIdx.x, tr = tid / CP_GEMM_TILE, tc = tid % CP_GEMM_TILE;
    uint64_t row, col;
    cp_gemm_coalesced_coords(blockIdx.x, blockIdx.y, tid, &row, &col);
    float acc = 0.0f;
    for (uint64_t t = 0; t < cp_gemm_tiles(k); t++) {
        uint64_t a_kk = cp_gemm_smem_a_kk(t, tid), b_kk = cp_gemm_smem_b_kk(t, tid);
        float a = 0.0f, b = 0.0f;
        if (row < m && a_kk < k)
            a = A[cp_gemm_a_index(row, a_kk, k)];
        if (b_kk < k && col < n)
            b = B[cp_gemm_b_index(b_kk, col, n)];
        As[tid] = a;
        Bs[tid] = b;
        __syncthreads();
#pragma unroll 8
        for (unsigned i = 0; i < CP_GEMM_TILE; i++)
            acc += As[tr * CP_GEMM_TILE + i] * Bs[i * CP_GEMM_TILE + tc];
        __syncthreads();
    }
    if (row < m && col < n)
        C[cp_gemm_c_index(row, col, n)] = acc;
}

} // namespace

extern "C" cudaError_t cp_kernels_gemm_launch(int variant, const float *A, const float *B, float *C,
                                              uint64_t m, uint64_t n, uint64_t k,
                                              cudaStream_t stream)
{
    uint64_t gx = (m + CP_GEMM_TILE - 1) / CP_GEMM_TILE, gy = (n + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
    if (m == 0 || n == 0 || gx > 0x7fffffffull || gy > 65535)
        return cudaErrorInvalidValue;
    dim3 grid((unsigned)gx, (unsigned)gy);
    if (variant == 0)
        cp_gemm_naive_kernel<<<grid, dim3(CP_GEMM_TILE, CP_GEMM_TILE), 0, stream>>>(A, B, C, m, n,
                                                                                    k);
    else if (variant == 1)
        cp_gemm_coalesced_kernel<<<grid, CP_GEMM_TILE * CP_GEMM_TILE, 0, stream>>>(A, B, C, m, n,
                                                                                   k);
    else if (variant == 2)
        cp_gemm_smem_kernel<<<grid, CP_GEMM_TILE * CP_GEMM_TILE, 0, stream>>>(A, B, C, m, n, k);
    else
        return cudaErrorInvalidValue;
    return cudaGetLastError();
}
