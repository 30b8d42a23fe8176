// stride_plain.cu: the program a user would profile with Nsight Compute instead of running
// coalprobe --stride 1..32: one plain strided-load kernel per stride 1..32 (4-byte floats, a
// 256 MiB output as coalprobe's default size, the input stride times larger), one launch each,
// outputs checked. bench/counter_speed.sh times ncu collecting coalprobe's counters on it.
// usage: stride_plain [MAX_STRIDE]   (default 32)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "stride_plain: %s: %s at %s:%d\n", #call, cudaGetErrorName(e_),   \
                         __FILE__, __LINE__);                                                      \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

__global__ void stride_load(const float *in, float *out, unsigned long long n, unsigned stride)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

__global__ void fill(float *p, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = (float)(i % 1000) + 1.0f;
}

int main(int argc, char **argv)
{
    const unsigned max_stride = argc > 1 ? (unsigned)std::atoi(argv[1]) : 32;
    const unsigned long long n = (256ull << 20) / sizeof(float);
    const unsigned long long in_n = n * max_stride;
    float *in, *out;
    CHECK(cudaMalloc(&in, in_n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    fill<<<(unsigned)((in_n + 255) / 256), 256>>>(in, in_n);
    CHECK(cudaGetLastError());
    std::vector<float> host(1024);
    for (unsigned s = 1; s <= max_stride; s++) {
        stride_load<<<(unsigned)((n + 255) / 256), 256>>>(in, out, n, s);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (unsigned long long i = 0; i < host.size(); i++)
            if (host[i] != (float)((i * s) % 1000) + 1.0f) {
                std::fprintf(stderr, "stride_plain: stride %u: out[%llu] = %g\n", s, i, host[i]);
                return 1;
            }
    }
    std::printf("stride_plain: strides 1..%u, %llu floats each, outputs checked\n", max_stride, n);
    return 0;
}
