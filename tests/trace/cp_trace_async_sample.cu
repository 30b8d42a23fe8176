// cp_trace_async_sample.cu: the trace tests' CUDA program of cp.async copies (LDGSTS), built
// with -lineinfo: a coalesced 16-byte copy, a coalesced 4-byte copy and a strided 4-byte copy
// from global into shared memory, each followed by a conflict-free shared load and a coalesced
// store, so that tests/gpu/trace_async.py can hold coalprobe trace to their known counts and to
// Nsight Compute. After the direct launches, the 4-byte and the 16-byte copy are captured into a
// CUDA graph (one after the other on one stream), the graph is launched 3 times, and the 4-byte
// copy once more directly: each kernel's launches and counts must include the graph's; then a
// graph of 100 launches of a small kernel (graph_step), launched twice. A fourth
// kernel has a TMA bulk copy (sm_90 and later), local memory and a reduction (kinds_mix). On
// sm_90 and later a 2-D tensor-map copy (tma_tile2d: each block's 32 x 8 tile of a 1024 x 1024
// float matrix through cuTensorMapEncodeTiled and UTMALDG, stored with STG) runs too, and its
// narrow twin (tma_tile2d_narrow: tiles of 12 x 8 floats, 48-byte rows that are not whole sectors,
// through a second map), and on every GPU a read-only lookup (readonly_lookup: `const __restrict__`
// and __ldg of a 4 KB table). On a GPU below sm_80 (no cp.async) the copies are plain loads and
// stores. Usage: cp_trace_async_sample [LAUNCHES]  (each kernel LAUNCHES times directly, default 3)
#include <cstdio>
#include <cstdlib>
#include <cuda.h> // CUtensorMap (a type only: the encoder comes from the runtime's entry point)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "../cp_sample.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("cp_trace_async_sample", call))                                     \
            return 1;                                                                              \
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

// Element i of a block copied from in[src] into the block's tile through cp.async, then stored
// from the tile to out[i].
template <int BYTES, class T>
__device__ __forceinline__ void copy_through_tile(const T *in, T *out, int n, long long src)
{
    __shared__ T tile[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        async_copy<BYTES>(&tile[threadIdx.x], &in[src]);
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x];
}

__global__ void async_copy16(const float4 *in, float4 *out, int n)
{
    copy_through_tile<16>(in, out, n, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void async_copy4(const float *in, float *out, int n)
{
    copy_through_tile<4>(in, out, n, blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void async_copy4_strided(const float *in, float *out, int n, int stride)
{
    copy_through_tile<4>(in, out, n,
                         (long long)(blockIdx.x * blockDim.x + threadIdx.x) * stride % n);
}

// The 2-D copy's matrix and tile: kWidth x kWidth floats, tiles of kTileCols x kTileRows (128-byte
// rows: whole sectors), one a block of kThreads.
static const int kWidth = 1024, kTileCols = 32, kTileRows = kThreads / kTileCols;
// The narrow copy's tiles: kNarrowCols x kTileRows floats (48-byte rows, a multiple of TMA's 16
// bytes but not of a 32-byte sector), kNarrowTiles across a row, the last one partly outside the
// matrix (filled with zeros by TMA, not stored).
static const int kNarrowCols = 12, kNarrowTiles = (kWidth + kNarrowCols - 1) / kNarrowCols;

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
    unsigned b = cp_sample_tma_arm(&bar, kThreads * 4);
    if (threadIdx.x == 0)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                     "[%1], %2, [%3];\n" ::"r"((unsigned)__cvta_generic_to_shared(tile)),
                     "l"(in + (size_t)blockIdx.x * kThreads), "r"(kThreads * 4), "r"(b)
                     : "memory");
    cp_sample_tma_wait(b);
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

// Block b's COLS x kTileRows tile of the matrix the tensor map describes (TILES tiles across a
// row), copied by TMA (UTMALDG.2D) into shared memory and stored to the same place of out where
// it lies inside the matrix: out == in.
template <int COLS, int TILES>
__device__ __forceinline__ void tma_tile_copy(const CUtensorMap &map, float *out)
{
    __shared__ alignas(128) float tile[kTileRows][COLS];
    __shared__ alignas(8) unsigned long long bar;
    int tx = blockIdx.x % TILES, ty = blockIdx.x / TILES;
    unsigned b = cp_sample_tma_arm(&bar, sizeof tile);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
            "[%0], [%1, {%2, %3}], [%4];\n" ::"r"((unsigned)__cvta_generic_to_shared(tile)),
            "l"((unsigned long long)&map), "r"(tx * COLS), "r"(ty * kTileRows), "r"(b)
            : "memory");
#endif
    cp_sample_tma_wait(b);
    int r = threadIdx.x / COLS, c = threadIdx.x % COLS;
    if (tx * COLS + c < kWidth)
        out[(size_t)(ty * kTileRows + r) * kWidth + tx * COLS + c] = tile[r][c];
}

// 32 x 8 tiles (128-byte rows, whole sectors): 4 MiB through TMA a launch.
__global__ void tma_tile2d(const __grid_constant__ CUtensorMap map, float *out)
{
    tma_tile_copy<kTileCols, kWidth / kTileCols>(map, out);
}

// 12 x 8 tiles through the narrow map (48-byte rows, not whole sectors).
__global__ void tma_tile2d_narrow(const __grid_constant__ CUtensorMap map, float *out)
{
    tma_tile_copy<kNarrowCols, kNarrowTiles>(map, out);
}

// One step of a long graph: x[i] += 1 for the block's 256 floats.
static const int kBigGraphNodes = 100, kBigGraphLaunches = 2;
__global__ void graph_step(float *x)
{
    x[threadIdx.x] += 1.0f;
}

// out[i] = table[i % kTable] through the read-only path (LDG.E.CONSTANT): a 4 KB table that
// stays in L1.
static const int kTable = 1024;
__global__ void readonly_lookup(const float *__restrict__ table, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __ldg(&table[i % kTable]);
}

// A tensor map of in as a kWidth x kWidth float matrix in tiles of cols x kTileRows, encoded
// through the driver's cuTensorMapEncodeTiled (found through the runtime).
static cudaError_t encode_map(const float *in, cuuint32_t cols, CUtensorMap *map)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                     cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)
        return e != cudaSuccess ? e : cudaErrorSymbolNotFound;
    cuuint64_t dims[2] = {kWidth, kWidth}, strides[1] = {kWidth * sizeof(float)};
    cuuint32_t box[2] = {cols, kTileRows}, steps[2] = {1, 1};
    CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
        map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)in, dims, strides, box, steps,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cp_trace_async_sample: cuTensorMapEncodeTiled failed: %d\n", (int)r);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

// out[i] == table[i % kTable] == in[i % kTable], read back from the device into host
static cudaError_t check_lookup(const float *out, float *host)
{
    cudaError_t e = cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; e == cudaSuccess && i < kN; i += 4099)
        if (host[i] != cp_sample_value(i % kTable)) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g after readonly_lookup\n", i,
                    host[i]);
            e = cudaErrorUnknown;
        }
    return e;
}

// out[i] == in[i], read back from the device into host; what: after which kernel
static cudaError_t check_copy(const float *out, float *host, const char *what)
{
    cudaError_t e = cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; e == cudaSuccess && i < kN; i += 4099)
        if (host[i] != cp_sample_value(i)) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g after %s\n", i, host[i], what);
            e = cudaErrorUnknown;
        }
    return e;
}

// out[i] == in[i * stride % n], read back from the device into host
static cudaError_t check_strided(const float *out, float *host)
{
    cudaError_t e = cudaMemcpy(host, out, kN * sizeof(float), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
        return e;
    for (int i = 0; i < kN; i += 4099) {
        float want = cp_sample_value((int)((long long)i * kStride % kN));
        if (host[i] != want) {
            fprintf(stderr, "cp_trace_async_sample: out[%d] = %g, want %g\n", i, host[i], want);
            return cudaErrorUnknown;
        }
    }
    return cudaSuccess;
}

int main(int argc, char **argv)
{
    int launches = cp_sample_launches(argc, argv);
    float *in = nullptr, *out = nullptr, *host = nullptr;
    CHECK(cp_sample_buffers(kN, &in, &out, &host));
    for (int l = 0; l < launches; l++) {
        async_copy16<<<kN / 4 / kThreads, kThreads>>>((const float4 *)in, (float4 *)out, kN / 4);
        CHECK(cudaGetLastError());
        async_copy4<<<kN / kThreads, kThreads>>>(in, out, kN);
        CHECK(cudaGetLastError());
        async_copy4_strided<<<kN / kThreads, kThreads>>>(in, out, kN, kStride);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(check_strided(out, host));
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
    CHECK(check_copy(out, host, "kinds_mix"));
    CHECK(cudaFree(counter));
    // the read-only lookup, and on sm_90 and later the tensor-map copy
    for (int l = 0; l < launches; l++) {
        readonly_lookup<<<kN / kThreads, kThreads>>>(in, out, kN);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(check_lookup(out, host));
    int device = 0, major = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major >= 9) {
        CUtensorMap map, narrow;
        CHECK(encode_map(in, kTileCols, &map));
        for (int l = 0; l < launches; l++) {
            tma_tile2d<<<kN / kThreads, kThreads>>>(map, out);
            CHECK(cudaGetLastError());
        }
        CHECK(cudaDeviceSynchronize());
        CHECK(check_copy(out, host, "tma_tile2d"));
        CHECK(cudaMemset(out, 0, kN * sizeof(float)));
        CHECK(encode_map(in, kNarrowCols, &narrow));
        for (int l = 0; l < launches; l++) {
            tma_tile2d_narrow<<<kNarrowTiles *(kWidth / kTileRows), kNarrowCols * kTileRows>>>(
                narrow, out);
            CHECK(cudaGetLastError());
        }
        CHECK(cudaDeviceSynchronize());
        CHECK(check_copy(out, host, "tma_tile2d_narrow"));
    }
    // the strided copy again, so that the checks below read its output
    async_copy4_strided<<<kN / kThreads, kThreads>>>(in, out, kN, kStride);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(check_strided(out, host));
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
    CHECK(check_copy(out, host, "the graph"));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    // a graph of more kernel nodes than one batch of the per-kernel counters holds at first
    CHECK(cudaMemset(out, 0, kThreads * sizeof(float)));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int s = 0; s < kBigGraphNodes; s++)
        graph_step<<<1, kThreads, 0, stream>>>(out);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int g = 0; g < kBigGraphLaunches; g++)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(host, out, kThreads * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kThreads; i++)
        if (host[i] != (float)(kBigGraphNodes * kBigGraphLaunches)) {
            fprintf(stderr, "cp_trace_async_sample: after the long graph x[%d] = %g\n", i, host[i]);
            return 1;
        }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    printf("cp_trace_async_sample: %d launches of %d kernels, a graph of 2 launched %d times, "
           "outputs checked\n",
           launches, major >= 9 ? 6 : 5, kGraphLaunches);
    free(host);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
