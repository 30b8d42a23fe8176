// cp_trace_collect_sample.cu: the program of the trace tests of what is counted (sampling and
// selection, tests/gpu/trace_collect.py): three kernels launched a known number of times before,
// inside and after cudaProfilerStart/Stop and an NVTX range named "step", one of them in two
// launch shapes of the same work, so that every option's counted launches are known:
//   coll_copy     3 before the start (outside "step"), 20 inside "step" (shape A), 2 inside "step"
//                 (shape B: half the block, twice the grid), 3 after the stop: 28
//   coll_strided  20 inside "step": 20
//   coll_other    20 inside "step", 2 after it but before the stop: 22
// Each launch of a kernel does the same work, so its per-launch counts are the same in every
// launch. Usage: cp_trace_collect_sample [ITERATIONS] (default 20: the loop's count above).
#include <cstdio>
#include <cstdlib>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include "../cp_sample.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("cp_trace_collect_sample", call))                                   \
            return 1;                                                                              \
    } while (0)

static const int kN = 1 << 18;   // elements per buffer
static const int kThreads = 256; // threads per block of shape A
static const int kStride = 32;   // the strided kernel's stride, in elements

__global__ void coll_copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i]; // coalesced: 4 sectors a request
}

__global__ void coll_strided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long long)i * stride % n]; // 32 sectors a request where 4 would do
}

__global__ void coll_other(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = out[i] * 0.5f + 1.0f;
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 20;
    float *in = nullptr, *out = nullptr, *host = nullptr;
    CHECK(cp_sample_buffers(kN, &in, &out, &host));
    free(host);
    const int blocks = kN / kThreads;
    for (int i = 0; i < 3; i++) // before cudaProfilerStart, outside "step"
        coll_copy<<<blocks, kThreads>>>(in, out, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStart());
    for (int i = 0; i < iterations; i++) {
        nvtxRangePushA("step");
        coll_copy<<<blocks, kThreads>>>(in, out, kN);
        coll_strided<<<blocks, kThreads>>>(in, out, kN, kStride);
        coll_other<<<blocks, kThreads>>>(out, kN);
        nvtxRangePop();
    }
    nvtxRangePushA("step");
    for (int i = 0; i < 2; i++) // shape B: the same work in blocks of half the threads
        coll_copy<<<blocks * 2, kThreads / 2>>>(in, out, kN);
    nvtxRangePop();
    for (int i = 0; i < 2; i++) // inside the capture range, outside "step"
        coll_other<<<blocks, kThreads>>>(out, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStop());
    for (int i = 0; i < 3; i++) // after cudaProfilerStop
        coll_copy<<<blocks, kThreads>>>(in, out, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("cp_trace_collect_sample: %d iterations\n", iterations);
    return 0;
}
