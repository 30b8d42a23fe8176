// cp_gemm.cu: the FP32 GEMM kernels (naive, coalesced, shared-memory tiled): kernels 1-3 of the
// SGEMM worklog, indexed through cp_gemm.h; 32-bit int indices when the matrices fit
// (the worklog's code), a separate 64-bit path (the *_i64 kernels) when they do not.
#include "cp_gemm.h"
#include "cp_kernels.h"
#include "cp_gemm_kernels.h"

namespace
{

// --- 32-bit path: the worklog's kernels, with bounds checks on every side ---

// C[row][col] of kernels 1 and 2 (when inside C): a plain dot product over k, A and B read in
// step with each other, k in order.
__device__ __forceinline__ void cp_gemm_dot_i32(int M, int N, int K, const float *A, const float *B,
                                                float *C, int row, int col)
{
    if (row < M && col < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[cp_gemm_a_index_i32(row, i, K)] * B[cp_gemm_b_index_i32(i, col, N)];
        C[cp_gemm_c_index_i32(row, col, N)] = tmp;
    }
}

// Kernel 1 (naive): 32 x 32 blocks, x = the row of C, so a warp walks down a column of C and
// of A (uncoalesced); a plain dot product over k.
__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_naive_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
    int x, y;
    cp_gemm_naive_coords_i32(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, &x, &y);
    cp_gemm_dot_i32(M, N, K, A, B, C, x, y);
}

// Kernel 2 (global memory coalescing): 1-D blocks of 1024 threads, cRow = blockIdx.x * 32 +
// threadIdx.x / 32, cCol = blockIdx.y * 32 + threadIdx.x % 32: a warp walks along a row of C.
__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_coalesced_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
    int cRow, cCol;
    cp_gemm_coalesced_coords_i32(blockIdx.x, blockIdx.y, threadIdx.x, &cRow, &cCol);
    cp_gemm_dot_i32(M, N, K, A, B, C, cRow, cCol);
}

// Kernel 3 (shared-memory cache blocking): 32 x 32 tiles of A and B in shared memory; each
// thread loads one element of each tile (zero outside the matrices), the pointers advance by
// one tile per step, and the block reads the tiles from shared memory between two barriers.
// Threads outside C still load and synchronise.
__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_smem_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float As[CP_GEMM_TILE * CP_GEMM_TILE];
    __shared__ float Bs[CP_GEMM_TILE * CP_GEMM_TILE];
    const int tid = threadIdx.x;
    const int threadCol = tid % CP_GEMM_TILE, threadRow = tid / CP_GEMM_TILE;
    int cRow, cCol;
    cp_gemm_coalesced_coords_i32(blockIdx.x, blockIdx.y, tid, &cRow, &cCol);
    A += cp_gemm_smem_a_base_i32(cRow, tid, K);
    B += cp_gemm_smem_b_base_i32(cCol, tid, N);
    float tmp = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += CP_GEMM_TILE) {
        As[threadRow * CP_GEMM_TILE + threadCol] =
            cRow < M && cp_gemm_smem_a_kk_i32(bkIdx, tid) < K ? *A : 0.0f;
        Bs[threadRow * CP_GEMM_TILE + threadCol] =
            cp_gemm_smem_b_kk_i32(bkIdx, tid) < K && cCol < N ? *B : 0.0f;
        __syncthreads();
        A += cp_gemm_smem_a_step_i32();
        B += cp_gemm_smem_b_step_i32(N);
        for (int dotIdx = 0; dotIdx < (int)CP_GEMM_TILE; ++dotIdx)
            tmp += As[threadRow * CP_GEMM_TILE + dotIdx] * Bs[dotIdx * CP_GEMM_TILE + threadCol];
        __syncthreads();
    }
    if (cRow < M && cCol < N)
        C[cp_gemm_c_index_i32(cRow, cCol, N)] = tmp;
}

// --- 64-bit path: the same thread order and elements, uint64_t indices, for matrices whose
// indices do not fit an int (cp_gemm_fits_i32) ---

// One element of C by a dot product over k straight from global memory.
__device__ __forceinline__ void cp_gemm_dot_i64(const float *A, const float *B, float *C,
                                                uint64_t row, uint64_t col, uint64_t m, uint64_t n,
                                                uint64_t k)
{
    if (row < m && col < n) {
        float acc = 0.0f;
        for (uint64_t kk = 0; kk < k; kk++)
            acc += A[cp_gemm_a_index(row, kk, k)] * B[cp_gemm_b_index(kk, col, n)];
        C[cp_gemm_c_index(row, col, n)] = acc;
    }
}

__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_naive_kernel_i64(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                             uint64_t k)
{
    uint64_t row, col;
    cp_gemm_naive_coords(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, &row, &col);
    cp_gemm_dot_i64(A, B, C, row, col, m, n, k);
}

__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_coalesced_kernel_i64(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                                 uint64_t k)
{
    uint64_t row, col;
    cp_gemm_coalesced_coords(blockIdx.x, blockIdx.y, threadIdx.x, &row, &col);
    cp_gemm_dot_i64(A, B, C, row, col, m, n, k);
}

__global__ void __launch_bounds__(CP_GEMM_TILE *CP_GEMM_TILE)
    cp_gemm_smem_kernel_i64(const float *A, const float *B, float *C, uint64_t m, uint64_t n,
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
        for (unsigned i = 0; i < CP_GEMM_TILE; i++)
            acc += As[tr * CP_GEMM_TILE + i] * Bs[i * CP_GEMM_TILE + tc];
        __syncthreads();
    }
    if (row < m && col < n)
        C[cp_gemm_c_index(row, col, n)] = acc;
}

// The kernel a variant launches for these sizes, with its block shape.
const void *cp_gemm_kernel_for(int variant, int i32, dim3 *block)
{
    *block = variant == 0 ? dim3(CP_GEMM_TILE, CP_GEMM_TILE) : dim3(CP_GEMM_TILE * CP_GEMM_TILE);
    switch (variant) {
    case 0:
        return i32 ? (const void *)cp_gemm_naive_kernel : (const void *)cp_gemm_naive_kernel_i64;
    case 1:
        return i32 ? (const void *)cp_gemm_coalesced_kernel
                   : (const void *)cp_gemm_coalesced_kernel_i64;
    case 2:
        return i32 ? (const void *)cp_gemm_smem_kernel : (const void *)cp_gemm_smem_kernel_i64;
    default:
        return nullptr;
    }
}

} // namespace

extern "C" cudaError_t cp_kernels_gemm_launch(int variant, const float *A, const float *B, float *C,
                                              uint64_t m, uint64_t n, uint64_t k,
                                              cudaStream_t stream)
{
    uint64_t gx = (m + CP_GEMM_TILE - 1) / CP_GEMM_TILE, gy = (n + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
    if (m == 0 || n == 0 || gx > 0x7fffffffull || gy > 65535)
        return cudaErrorInvalidValue;
    dim3 grid((unsigned)gx, (unsigned)gy), block;
    const int i32 = cp_gemm_fits_i32(m, n, k);
    const void *f = cp_gemm_kernel_for(variant, i32, &block);
    if (!f)
        return cudaErrorInvalidValue;
    // the arguments of the two signatures: int sizes first, or 64-bit sizes last
    int M = (int)m, N = (int)n, K = (int)k;
    void *args_i32[] = {&M, &N, &K, &A, &B, &C};
    void *args_i64[] = {&A, &B, &C, &m, &n, &k};
    // as after <<<>>>, cudaGetLastError gives the launch's error and clears it
    (void)cudaLaunchKernel(f, grid, block, i32 ? args_i32 : args_i64, 0, stream);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_gemm_resources(int variant, uint64_t m, uint64_t n, uint64_t k,
                                                 cp_kernel_resources *r)
{
    dim3 block;
    const void *f = cp_gemm_kernel_for(variant, cp_gemm_fits_i32(m, n, k), &block);
    if (!f)
        return cudaErrorInvalidValue;
    return cp_kernels_resources(f, block.x * block.y * block.z, 0, r);
}
