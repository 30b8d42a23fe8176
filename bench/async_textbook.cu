// async_textbook.cu: the async family's rungs as the textbook and the CUDA C++ Programming Guide
// write them, beside coalprobe's (bench/async_textbook.sh): (a) each block's tiles computed from
// global memory, (b) shared-memory staging with __syncthreads, (c) the guide's double-buffered
// cuda::pipeline of cuda::memcpy_async (cp.async), (d) cuda::memcpy_async on a cuda::barrier
// (cp.async.bulk, TMA), (e) the guide's TMA tensor-map copy, both double-buffered; and cudaMemcpy
// device to device. Beside the rungs, two other ways to write (a) and (b): the grid-stride
// elementwise loop and the staging loop stepped by blockDim.x, whose trip counts the compiler does
// not know. Same work function and layout as coalprobe (16 KB tiles, 256 threads), timed as
// coalprobe times (cp_bench.cuh: coalprobe's own flush and timing), every output checked bitwise
// against the host. usage: async_textbook [BYTES [WORK...]]   (default 256M 0 64)
#include <algorithm>
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>         // CUtensorMap
#include <cuda/barrier>   // cuda::barrier, cuda::device::experimental (TMA)
#include <cuda/pipeline>  // cuda::pipeline, cuda::memcpy_async
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>
#include <thread>
#include <vector>

#include "../families/async/cp_async.h" // cp_async_work: the very work function of coalprobe's kernels
#include "../patterns/cp_fill.h"
#include "cp_bench.cuh" // coalprobe's flush and timing

#define CHECK CP_BENCH_CHECK

namespace cg = cooperative_groups;
namespace cde = cuda::device::experimental;
using barrier = cuda::barrier<cuda::thread_scope_block>;
// the guide's __shared__ barriers and pipeline state: constructed by init and make_pipeline
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int THREADS = 256; // a block
constexpr int TILE = 4096;   // floats of a tile: 16 KB
constexpr int ROW = 256;     // floats of a row of the tensor map
constexpr int BOX_ROWS = 16; // rows of a box: one tile
constexpr int STAGES = 2;    // double buffering
static_assert(THREADS == CP_ASYNC_BLOCK && TILE == CP_ASYNC_TILE && ROW * BOX_ROWS == TILE,
              "the layout of coalprobe's async family");

// the block computes tile t from src (global or shared memory): each thread the elements
// threadIdx.x, threadIdx.x + THREADS, ... (a block size known to the compiler, as the CUDA
// samples write their tiles)
__device__ __forceinline__ void tb_compute(const float *src, float *__restrict__ out, size_t t,
                                           uint32_t work)
{
    for (int i = threadIdx.x; i < TILE; i += THREADS)
        out[t * TILE + i] = cp_async_work(src[i], work);
}

// (a) plain: each block computes its tiles straight from global memory
__global__ void tb_plain(const float *__restrict__ in, float *__restrict__ out, size_t tiles,
                         uint32_t work)
{
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x)
        tb_compute(in + t * TILE, out, t, work);
}

// (b) smem: each tile staged in shared memory by the block, __syncthreads, then computed
template <bool RUNTIME_STRIDE>
__global__ void tb_smem(const float *__restrict__ in, float *__restrict__ out, size_t tiles,
                        uint32_t work)
{
    __shared__ float tile[TILE];
    const int step = RUNTIME_STRIDE ? blockDim.x : THREADS;
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        for (int i = threadIdx.x; i < TILE; i += step)
            tile[i] = in[t * TILE + i];
        __syncthreads();
        for (int i = threadIdx.x; i < TILE; i += step)
            out[t * TILE + i] = cp_async_work(tile[i], work);
        __syncthreads();
    }
}

// not a rung, shown beside them: the grid-stride loop over the elements (one load in flight per
// thread between computes)
__global__ void tb_grid_stride(const float *__restrict__ in, float *__restrict__ out, size_t tiles,
                               uint32_t work)
{
    const size_t n = tiles * TILE;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = cp_async_work(in[i], work);
}

// (c) cp-async: the guide's multi-stage pipeline (with_staging_unified): the block copies batch
// (tile) fetch while it computes batch compute, cuda::memcpy_async into a block-scope pipeline
__global__ void tb_pipeline(const float *__restrict__ in, float *__restrict__ out, size_t tiles,
                            uint32_t work)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float shared[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> shared_state;
    auto pipeline = cuda::make_pipeline(block, &shared_state);
    const size_t batches = tiles > blockIdx.x ? (tiles - blockIdx.x - 1) / gridDim.x + 1 : 0;
    auto tile_of = [&](size_t batch) { return blockIdx.x + batch * gridDim.x; };
    for (size_t compute_batch = 0, fetch_batch = 0; compute_batch < batches; ++compute_batch) {
        for (; fetch_batch < batches && fetch_batch < compute_batch + STAGES; ++fetch_batch) {
            pipeline.producer_acquire();
            cuda::memcpy_async(block, shared[fetch_batch % STAGES],
                               in + tile_of(fetch_batch) * TILE,
                               cuda::aligned_size_t<16>(sizeof(shared[0])), pipeline);
            pipeline.producer_commit();
        }
        pipeline.consumer_wait();
        tb_compute(shared[compute_batch % STAGES], out, tile_of(compute_batch), work);
        pipeline.consumer_release();
    }
}

// (d) tma-bulk and (e) tma-tensor: the guide's TMA examples, double-buffered: one barrier per
// buffer; thread 0 starts a tile's copy (which adds the tile's bytes to the barrier's expected
// transactions); every thread arrives and waits on the barrier before computing the tile
template <bool TENSOR>
__device__ __forceinline__ void tb_tma(const float *in, const CUtensorMap *map,
                                       float *__restrict__ out, size_t tiles, uint32_t work)
{
    __shared__ alignas(128) float smem[STAGES][TILE];
    __shared__ barrier bar[STAGES];
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            init(&bar[s], blockDim.x);
        cde::fence_proxy_async_shared_cta(); // the barriers visible to the async proxy
    }
    __syncthreads();
    const size_t n = tiles > blockIdx.x ? (tiles - blockIdx.x - 1) / gridDim.x + 1 : 0;
    auto issue = [&](size_t j) { // thread 0: the copy of the block's j-th tile into smem[j % 2]
        const size_t t = blockIdx.x + j * gridDim.x;
        barrier &b = bar[j % STAGES];
        if (TENSOR) {
            cde::cp_async_bulk_tensor_2d_global_to_shared(smem[j % STAGES], map, 0,
                                                          (int)(t * BOX_ROWS), b);
            cuda::device::barrier_expect_tx(b, sizeof(smem[0]));
        } else {
            cuda::memcpy_async(smem[j % STAGES], in + t * TILE,
                               cuda::aligned_size_t<16>(sizeof(smem[0])), b);
        }
    };
    if (threadIdx.x == 0)
        for (size_t j = 0; j < STAGES && j < n; j++)
            issue(j);
    for (size_t j = 0; j < n; j++) {
        barrier::arrival_token token = bar[j % STAGES].arrive();
        bar[j % STAGES].wait(std::move(token)); // the tile has landed
        tb_compute(smem[j % STAGES], out, blockIdx.x + j * gridDim.x, work);
        __syncthreads(); // smem[j % 2] is read before the copy of tile j + 2 overwrites it
        if (threadIdx.x == 0 && j + STAGES < n)
            issue(j + STAGES);
    }
}

__global__ void tb_bulk(const float *__restrict__ in, float *__restrict__ out, size_t tiles,
                        uint32_t work)
{
    tb_tma<false>(in, nullptr, out, tiles, work);
}

__global__ void tb_tensor(const __grid_constant__ CUtensorMap map, float *__restrict__ out,
                          size_t tiles, uint32_t work)
{
    tb_tma<true>(nullptr, &map, out, tiles, work);
}

// the input as rows of ROW floats, boxes of BOX_ROWS rows (one tile), as the guide encodes it
static CUtensorMap tb_tensor_map(const float *in, size_t tiles)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                           &found));
    if (found != cudaDriverEntryPointSuccess || !fn) {
        fprintf(stderr, "async_textbook: no cuTensorMapEncodeTiled in the driver\n");
        exit(1);
    }
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    CUtensorMap map;
    cuuint64_t size[2] = {ROW, tiles * BOX_ROWS};
    cuuint64_t stride[1] = {ROW * sizeof(float)};
    cuuint32_t box[2] = {ROW, BOX_ROWS};
    cuuint32_t elem_stride[2] = {1, 1};
    CUresult r =
        encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float *>(in), size, stride, box,
               elem_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "async_textbook: cuTensorMapEncodeTiled failed: %d\n", (int)r);
        exit(1);
    }
    return map;
}

// every block that fits on the GPU at once, at most one a tile
static unsigned tb_grid(const void *kernel, size_t tiles)
{
    int sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    return (unsigned)std::min<size_t>((size_t)sms * per_sm, tiles);
}

// a size in bytes, with an optional K, M or G (powers of 1024)
static size_t tb_bytes(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (end == s || (shift && end[1]) || (!shift && *end))
        return 0;
    return (size_t)v << shift;
}

// ref[i] = cp_async_work(in[i], work) on the host (fmaf: the same float), on every core
static void tb_reference(const std::vector<float> &in, std::vector<float> &ref, uint32_t work)
{
    const size_t n = in.size();
    const unsigned k = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned p = 0; p < k; p++)
        pool.emplace_back([&, p]() {
            for (size_t i = n * p / k; i < n * (p + 1) / k; i++)
                ref[i] = cp_async_work(in[i], work);
        });
    for (auto &t : pool)
        t.join();
}

int main(int argc, char **argv)
{
    const size_t bytes = argc > 1 ? tb_bytes(argv[1]) : (256ull << 20);
    if (bytes == 0 || bytes % (TILE * sizeof(float))) {
        fprintf(stderr, "async_textbook: BYTES must be a positive multiple of 16K\n");
        return 2;
    }
    std::vector<uint32_t> works;
    for (int a = 2; a < argc; a++)
        works.push_back((uint32_t)strtoul(argv[a], nullptr, 10));
    if (works.empty())
        works = {0, 64};
    const size_t n = bytes / sizeof(float), tiles = n / TILE;
    std::vector<float> h(n), ref(n), got(n);
    for (size_t i = 0; i < n; i++)
        h[i] = cp_fill_value(i, 1); // coalprobe's input: seed 1
    float *in, *out, *sink;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMalloc(&sink, 4));
    CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    const cp_bench_flush flush = cp_bench_flush_make();
    const CUtensorMap map = tb_tensor_map(in, tiles);
    // the rungs, then two forms shown beside them (rows plain-grid-stride and smem-blockdim:
    // the same techniques written with a loop whose trip count the compiler does not know)
    typedef void (*tb_kernel)(const float *, float *, size_t, uint32_t);
    const tb_kernel kernels[] = {tb_plain, tb_smem<false>, tb_pipeline,    tb_bulk,
                                 nullptr,  nullptr,        tb_grid_stride, tb_smem<true>};
    const char *names[] = {"plain",      "smem",   "cp-async",          "tma-bulk",
                           "tma-tensor", "memcpy", "plain-grid-stride", "smem-blockdim"};
    const int order[] = {0, 1, 2, 3, 4, 6, 7}; // names[5]: cudaMemcpy, the last round
    unsigned grid[8] = {};
    for (int k : order)
        grid[k] = tb_grid(k == 4 ? (const void *)tb_tensor : (const void *)kernels[k], tiles);

    printf("rung,work,median_s,min_s,max_s,bytes_per_s\n");
    for (size_t w = 0; w <= works.size(); w++) {
        const bool copy = w == works.size(); // the last round: cudaMemcpy, once
        const uint32_t work = copy ? 0 : works[w];
        if (copy)
            ref = h;
        else
            tb_reference(h, ref, work);
        for (size_t o = 0; o < (copy ? 1 : std::size(order)); o++) {
            const int k = copy ? 5 : order[o];
            auto launch = [&]() -> cudaError_t {
                if (k == 5)
                    return cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice);
                if (k == 4)
                    tb_tensor<<<grid[4], THREADS>>>(map, out, tiles, work);
                else
                    kernels[k]<<<grid[k], THREADS>>>(in, out, tiles, work);
                return cudaGetLastError();
            };
            CHECK(cudaMemset(out, 0xff, bytes)); // poison: NaN everywhere
            const cp_bench_times t = cp_bench_time(flush, launch);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; i++)
                if (memcmp(&got[i], &ref[i], sizeof(float)) != 0) {
                    fprintf(stderr,
                            "async_textbook: %s, work %u: out[%zu] is %a, the host computes %a\n",
                            names[k], work, i, got[i], ref[i]);
                    return 3;
                }
            printf("%s,%u,%.6e,%.6e,%.6e,%.6e\n", names[k], work, t.median_s, t.min_s, t.max_s,
                   2.0 * bytes / t.median_s);
            fflush(stdout);
        }
    }
    return 0;
}
