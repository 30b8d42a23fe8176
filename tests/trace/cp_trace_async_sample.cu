// cp_trace_async_sample.cu: the trace tests' CUDA program of cp.async copies (LDGSTS), built
// with -lineinfo: a coalesced 16-byte copy, a coalesced 4-byte copy and a strided 4-byte copy
// from global into shared memory, each followed by a conflict-free shared load and a coalesced
// store, so that tests/gpu/trace_async.py can hold coalprobe trace to their known counts and to
// Nsight Compute. After the direct launches, the 4-byte and the 16-byte copy are captured into a
// CUDA graph (one after the other on one stream), the graph is launched 3 times, and the 4-byte
// copy once more directly: each kernel's launches and counts must include the graph's. A fourth
// kernel has a TMA bulk copy (sm_90 and later), local memory and a reduction (kinds_mix).
// On a GPU below sm_80 (no cp.async) the copies are plain loads and stores.
// Usage: cp_trace_async_sample [LAUNCHES]  (each kernel LAUNCHES times directly, default 3)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "cp_trace_async_sample: %s failed: %s at %s:%d\n", #call,              \
                    cudaGetErrorName(e_), __FILE__, __LINE__);                                     \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static const int kN = 1 << 20;   // floats per buffer (4 MiB)
static const int kThreads = 256; // threads per block
static const int kStride = 32;   // the strided copy's stride, in floats
static const int kGraphLaunches = 3;

// One lane's copy of `bytes` (4 or 16) from global src into shared dst, waited for.
template <int BYTES> __device__ __forceinline__ void async_copy(void *dst, const void *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(src) : "memory");
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#else
    if (BYTES == 16)
        *(float4 *)dst = *(const float4 *)src;
    else
        *(float *)dst = *(const float *)src;
#endif
}

__global__ void async_copy16(const float4 *in, float4 *out, int n)
{
    __shared__ float4 tile[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        async_copy<16>(&tile[threadIdx.x], &in[i]);
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x];
}

__global__ void async_copy4(const float *in, float *out, int n)
{
    __shared__ float tile[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        async_copy<4>(&tile[threadIdx.x], &in[i]);
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x];
}

__global__ void async_copy4_strided(const float *in, float *out, int n, int stride)
{
    __shared__ float tile[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        async_copy<4>(&tile[threadIdx.x], &in[(long long)i * stride % n]);
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x];
}

// out[i] == in[i * stride % n] (host holds in's values), read back from the device
static cudaError_t check_strided(const float *in, const float *out, float *host)
{
    (void)in;
    cudaError_t e = cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
        return e;
    for (int i = 0; i < kN; i += 4099) {
        int j = (int)((long long)i * kStride % kN);
        if (host[i] != (float)(j % 1000) + 0.5f) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g, want %g\n", i, host[i],
                    (float)(j % 1000) + 0.5f);
            return cudaErrorUnknown;
        }
    }
    return cudaSuccess;
}

// The other kinds of memory instruction: on sm_90 and later a TMA bulk copy of the block's tile
// into shared memory by thread 0 (UBLKCP, waited for on an mbarrier), elsewhere a plain copy;
// a stack array indexed at run time (local memory: STL, LDL); and an atomic add of every thread
// to one counter whose result is unused (a reduction, REDG).
__global__ void kinds_mix(const float *in, float *out, unsigned *counter, int n, int pick)
{
    __shared__ alignas(128) float tile[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b),
                     "r"(kThreads * 4)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                     "[%1], %2, [%3];\n" ::"r"((unsigned)__cvta_generic_to_shared(tile)),
                     "l"(in + (size_t)blockIdx.x * kThreads), "r"(kThreads * 4), "r"(b)
                     : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
#else
    if (i < n)
        tile[threadIdx.x] = in[i];
    __syncthreads();
#endif
    volatile float stack[16]; // volatile and indexed at run time: local memory
    for (int k = 0; k < 16; k++)
        stack[k] = tile[(threadIdx.x + k) % kThreads];
    if (i < n) {
        out[i] = stack[pick & 15];
        atomicAdd(counter, 1u);
    }
}

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 3;
    if (launches < 1)
        launches = 1;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, kN * sizeof(float)));
    CHECK(cudaMalloc(&out, kN * sizeof(float)));
    float *host = (float *)malloc(kN * sizeof(float));
    if (!host)
        return 1;
    for (int i = 0; i < kN; i++)
        host[i] = (float)(i % 1000) + 0.5f;
    CHECK(cudaMemcpy(in, host, kN * sizeof(float), cudaMemcpyHostToDevice));
    for (int l = 0; l < launches; l++) {
        async_copy16<<<kN / 4 / kThreads, kThreads>>>((const float4 *)in, (float4 *)out, kN / 4);
        CHECK(cudaGetLastError());
        async_copy4<<<kN / kThreads, kThreads>>>(in, out, kN);
        CHECK(cudaGetLastError());
        async_copy4_strided<<<kN / kThreads, kThreads>>>(in, out, kN, kStride);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(check_strided(in, out, host));
    // the other kinds: out[i] = in[i + pick's offset within the block], counter = every thread
    unsigned *counter = nullptr, counted = 0;
    CHECK(cudaMalloc(&counter, sizeof *counter));
    CHECK(cudaMemset(counter, 0, sizeof *counter));
    for (int l = 0; l < launches; l++) {
        kinds_mix<<<kN / kThreads, kThreads>>>(in, out, counter, kN, 0);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(&counted, counter, sizeof counted, cudaMemcpyDeviceToHost));
    if (counted != (unsigned)kN * (unsigned)launches) {
        fprintf(stderr, "cp_trace_async_sample: the counter is %u, want %u\n", counted,
                (unsigned)kN * (unsigned)launches);
        return 1;
    }
    CHECK(cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i += 4099)
        if (host[i] != (float)(i % 1000) + 0.5f) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g after kinds_mix\n", i, host[i]);
            return 1;
        }
    CHECK(cudaFree(counter));
    // the strided copy again, so that the checks below read its output
    async_copy4_strided<<<kN / kThreads, kThreads>>>(in, out, kN, kStride);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(check_strided(in, out, host));
    // a graph of two kernels, launched 3 times, then a direct launch
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    async_copy4<<<kN / kThreads, kThreads, 0, stream>>>(in, out, kN);
    async_copy16<<<kN / 4 / kThreads, kThreads, 0, stream>>>((const float4 *)in, (float4 *)out,
                                                             kN / 4);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int g = 0; g < kGraphLaunches; g++)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    async_copy4<<<kN / kThreads, kThreads>>>(in, out, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i += 4099)
        if (host[i] != (float)(i % 1000) + 0.5f) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g after the graph\n", i, host[i]);
            return 1;
        }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    printf("cp_trace_async_sample: %d launches of 4 kernels, a graph of 2 launched %d times, "
           "outputs checked\n",
           launches, kGraphLaunches);
    free(host);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
