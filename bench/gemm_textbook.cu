// gemm_textbook.cu: the first three kernels of the SGEMM worklog as a textbook writes them (naive
// with 2-D 32x32 blocks, global-memory coalescing with a 1-D block of 1024 threads, shared-memory
// cache blocking with 32x32 tiles), timed as coalprobe times its GEMM rungs (cp_bench.cuh:
// coalprobe's own flush and timing) and checked against cuBLAS, so that bench/gemm_textbook.sh can
// set coalprobe's ladder beside them in one run. Also two other forms of kernel 2 (the row from
// blockIdx.y; 64-bit indices) and cuBLAS itself. usage: gemm_textbook [N]   (C = A B, N x N x N
// FP32, row-major; default 4096)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cstdint>
#include <cuda_runtime.h>
#include <vector>

#include "cp_bench.cuh" // coalprobe's flush and timing

#define CHECK CP_BENCH_CHECK

// kernel 1: naive; x walks down the rows of C, so a warp reads a column of A (uncoalesced)
__global__ void tb_naive(int M, int N, int K, const float *A, const float *B, float *C)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[x * K + i] * B[i * N + y];
        C[x * N + y] = tmp;
    }
}

// kernel 2's element C[cRow][cCol] (when inside C), its arithmetic in Index: the dot product of a
// row of A and a column of B, k in order
template <typename Index>
__device__ void tb_coalesced_element(Index cRow, Index cCol, int M, int N, int K, const float *A,
                                     const float *B, float *C)
{
    if (cRow < (Index)M && cCol < (Index)N) {
        float tmp = 0.0f;
        for (Index i = 0; i < (Index)K; ++i)
            tmp += A[cRow * K + i] * B[i * N + cCol];
        C[cRow * N + cCol] = tmp;
    }
}

// kernel 2: global memory coalescing; a 1-D block of 1024 threads, a warp walks along a row of C
__global__ void tb_coalesced(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int cRow = blockIdx.x * 32 + threadIdx.x / 32;
    const int cCol = blockIdx.y * 32 + threadIdx.x % 32;
    tb_coalesced_element(cRow, cCol, M, N, K, A, B, C);
}

// kernel 2 with its row taken from blockIdx.y (the form the issue timed): the blocks the GPU
// runs together then share one strip of A's rows and walk along B's columns
__global__ void tb_coalesced_rowy(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int cRow = blockIdx.y * 32 + threadIdx.x / 32;
    const int cCol = blockIdx.x * 32 + threadIdx.x % 32;
    tb_coalesced_element(cRow, cCol, M, N, K, A, B, C);
}

// kernel 2 with 64-bit indices (the arithmetic of an earlier form of coalprobe's rung)
__global__ void tb_coalesced_u64(int M, int N, int K, const float *A, const float *B, float *C)
{
    const uint64_t cRow = blockIdx.x * 32ull + threadIdx.x / 32;
    const uint64_t cCol = blockIdx.y * 32ull + threadIdx.x % 32;
    tb_coalesced_element(cRow, cCol, M, N, K, A, B, C);
}

// kernel 3: shared-memory cache blocking, 32x32 tiles, a 1-D block of 1024 threads (N % 32 == 0)
__global__ void tb_smem(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float As[32 * 32];
    __shared__ float Bs[32 * 32];
    const int cRow = blockIdx.x, cCol = blockIdx.y;
    const int threadCol = threadIdx.x % 32, threadRow = threadIdx.x / 32;
    A += cRow * 32 * K;
    B += cCol * 32;
    C += cRow * 32 * N + cCol * 32;
    float tmp = 0.0f;
    for (int bk = 0; bk < K; bk += 32) {
        As[threadRow * 32 + threadCol] = A[threadRow * K + threadCol];
        Bs[threadRow * 32 + threadCol] = B[threadRow * N + threadCol];
        __syncthreads();
        A += 32;
        B += 32 * N;
        for (int d = 0; d < 32; ++d)
            tmp += As[threadRow * 32 + d] * Bs[d * 32 + threadCol];
        __syncthreads();
    }
    C[threadRow * N + threadCol] = tmp;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 4096;
    if (n <= 0 || n % 32) {
        fprintf(stderr, "gemm_textbook: N must be a positive multiple of 32\n");
        return 2;
    }
    const size_t elems = (size_t)n * n;
    std::vector<float> h(elems);
    srand(1);
    for (auto &v : h)
        v = (float)(rand() % 2001 - 1000) / 1000.0f;
    float *A, *B, *C, *R;
    CHECK(cudaMalloc(&A, elems * 4));
    CHECK(cudaMalloc(&B, elems * 4));
    CHECK(cudaMalloc(&C, elems * 4));
    CHECK(cudaMalloc(&R, elems * 4));
    CHECK(cudaMemcpy(A, h.data(), elems * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, h.data(), elems * 4, cudaMemcpyHostToDevice));
    const cp_bench_flush flush = cp_bench_flush_make();

    // the reference: cuBLAS on row-major data (C^T = B^T A^T in its column-major view)
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return 1;
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, R, n);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ref(elems), got(elems);
    CHECK(cudaMemcpy(ref.data(), R, elems * 4, cudaMemcpyDeviceToHost));

    const char *names[] = {"naive",          "coalesced",     "smem",
                           "coalesced_rowy", "coalesced_u64", "cublas"};
    printf("rung,median_s,min_s,max_s,gflops,rel_error\n");
    for (int k = 0; k < 6; k++) {
        auto launch = [&]() -> cudaError_t {
            if (k == 0)
                tb_naive<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(n, n, n, A, B, C);
            else if (k == 1)
                tb_coalesced<<<dim3(n / 32, n / 32), 1024>>>(n, n, n, A, B, C);
            else if (k == 2)
                tb_smem<<<dim3(n / 32, n / 32), 1024>>>(n, n, n, A, B, C);
            else if (k == 3)
                tb_coalesced_rowy<<<dim3(n / 32, n / 32), 1024>>>(n, n, n, A, B, C);
            else if (k == 4)
                tb_coalesced_u64<<<dim3(n / 32, n / 32), 1024>>>(n, n, n, A, B, C);
            else if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero,
                                 C, n) != CUBLAS_STATUS_SUCCESS)
                return cudaErrorUnknown;
            return cudaGetLastError();
        };
        CHECK(cudaMemset(C, 0xff, elems * 4)); // poison: NaN everywhere
        const cp_bench_times t = cp_bench_time(flush, launch);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), C, elems * 4, cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (size_t i = 0; i < elems; i++) {
            double d = (double)got[i] - ref[i];
            num += d * d;
            den += (double)ref[i] * ref[i];
        }
        double rel = std::sqrt(num / den);
        printf("%s,%.6e,%.6e,%.6e,%.1f,%.3e\n", names[k], t.median_s, t.min_s, t.max_s,
               2.0 * n * (double)n * n / t.median_s * 1e-9, rel);
        if (!(rel < 1e-4)) {
            fprintf(stderr, "gemm_textbook: %s differs from cuBLAS (relative error %g)\n", names[k],
                    rel);
            return 1;
        }
    }
    cublasDestroy(handle);
    return 0;
}
