// cp_bench.cuh: what the textbook benches (gemm_textbook.cu, async_textbook.cu) share: coalprobe's
// own L2 flush (kernels/cp_util.cu compiled in, over twice the L2 and at least 64 MB, as
// src/measure/cp_measure_cuda.c sizes it) and coalprobe's timing of a launch: 2 warm-ups, the
// flush before each timed launch, CUDA events, median of the middle two of 20, min and max.
// Compile with -I. -Ipatterns -Ikernels from the repository's root.
#ifndef CP_BENCH_CUH
#define CP_BENCH_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../kernels/cp_util.cu"
#include "../tests/cp_sample.h"

#define CP_BENCH_CHECK(call)                                                                       \
    do {                                                                                           \
        if (!CP_SAMPLE_CUDA_OK("bench", call))                                                     \
            exit(1);                                                                               \
    } while (0)

struct cp_bench_flush {
    void *buf;
    uint64_t bytes;
    float *sink;
};

struct cp_bench_times {
    double median_s, min_s, max_s;
};

// The flush buffer of device 0, zero-filled (a read of zeros never reaches the sink's store).
static cp_bench_flush cp_bench_flush_make()
{
    int l2 = 0;
    CP_BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    cp_bench_flush f = {nullptr, std::max<uint64_t>(2 * (uint64_t)l2, 64ull << 20), nullptr};
    CP_BENCH_CHECK(cudaMalloc(&f.buf, f.bytes));
    CP_BENCH_CHECK(cudaMemset(f.buf, 0, f.bytes));
    CP_BENCH_CHECK(cudaMalloc(&f.sink, sizeof(float)));
    return f;
}

// Times launch() (a callable returning cudaError_t) as coalprobe times a configuration.
template <class Launch> static cp_bench_times cp_bench_time(const cp_bench_flush &f, Launch launch)
{
    cudaEvent_t e0, e1;
    CP_BENCH_CHECK(cudaEventCreate(&e0));
    CP_BENCH_CHECK(cudaEventCreate(&e1));
    for (int r = 0; r < 2; r++)
        CP_BENCH_CHECK(launch());
    std::vector<double> times;
    for (int r = 0; r < 20; r++) {
        CP_BENCH_CHECK(cp_kernels_flush_launch(f.buf, f.bytes, f.sink, 0));
        CP_BENCH_CHECK(cudaEventRecord(e0));
        CP_BENCH_CHECK(launch());
        CP_BENCH_CHECK(cudaEventRecord(e1));
        CP_BENCH_CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CP_BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        times.push_back(ms * 1e-3);
    }
    CP_BENCH_CHECK(cudaEventDestroy(e0));
    CP_BENCH_CHECK(cudaEventDestroy(e1));
    std::sort(times.begin(), times.end());
    const size_t h = times.size() / 2;
    return {0.5 * (times[h - 1] + times[h]), times.front(), times.back()};
}

#endif
