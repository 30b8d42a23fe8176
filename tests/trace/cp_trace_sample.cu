// cp_trace_sample.cu: the trace tests' own CUDA program, built with -lineinfo: kernels whose
// memory instructions have known counts on known lines (each marked "// TRACE: name"), so that
// coalprobe trace can be checked against them (tests/gpu/trace_sample.py).
// Usage: cp_trace_sample [LAUNCHES]  (each kernel is launched LAUNCHES times, default 3)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "../cp_sample.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("cp_trace_sample", call))                                           \
            return 1;                                                                              \
    } while (0)

static const int kN = 1 << 20;   // elements per buffer (4 MiB of floats)
static const int kThreads = 256; // threads per block
static const int kStride = 32;   // the strided kernel's stride, in elements

__global__ void sample_copy_coalesced(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i]; // TRACE: coalesced_load
        out[i] = v;      // TRACE: coalesced_store
    }
}

__global__ void sample_copy_strided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[(long long)i * stride % n]; // TRACE: strided_load
        out[i] = v;                              // TRACE: strided_store
    }
}

__global__ void sample_shared_conflict(const float *in, float *out, int n)
{
    __shared__ float tile[32 * 33];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    volatile float *t = tile;
    if (warp == 0) {
        t[lane * 32] = in[i % n]; // TRACE: conflict_store
    }
    __syncthreads();
    if (warp == 0 && i < n) {
        out[i] = t[lane * 32] + 1.0f; // TRACE: conflict_load
    }
}

int main(int argc, char **argv)
{
    int launches = cp_sample_launches(argc, argv);
    float *in = nullptr, *out = nullptr, *host = nullptr;
    CHECK(cp_sample_buffers(kN, &in, &out, &host));
    int blocks = kN / kThreads;
    for (int l = 0; l < launches; l++) {
        sample_copy_coalesced<<<blocks, kThreads>>>(in, out, kN);
        CHECK(cudaGetLastError());
        sample_copy_strided<<<blocks, kThreads>>>(in, out, kN, kStride);
        CHECK(cudaGetLastError());
        sample_shared_conflict<<<blocks, kThreads>>>(in, out, kN);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    // the last kernel wrote out[i] = in[i] + 1 for the first warp of each block
    CHECK(cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b += 97) {
        int i = b * kThreads + 5;
        float want = cp_sample_value(i) + 1.0f;
        if (host[i] != want) {
            fprintf(stderr, "cp_trace_sample: out[%d] = %g, want %g\n", i, host[i], want);
            return 1;
        }
    }
    printf("cp_trace_sample: %d launches of 3 kernels, outputs checked\n", launches);
    free(host);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
