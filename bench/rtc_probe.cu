// rtc_probe.cu: does CUPTI's SASS metrics count an NVRTC kernel per instruction? One kernel
// compiled at run time by NVRTC, loaded twice: through the driver's module API
// (cuModuleLoadData, as Triton and most JIT users do) and through the CUDA runtime's library API
// (cudaLibraryLoadData, as coalprobe's expr family does), each launched 3 times; run it under
// `coalprobe trace` and compare the two kernels' counts_from.
// With an argument, each module is unloaded after its kernels ran (as coalprobe unloads its expr
// kernels at the end).
// build: nvcc -o rtc_probe bench/rtc_probe.cu -lnvrtc -lcuda
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <vector>

#define CU(call)                                                                                   \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            std::fprintf(stderr, "rtc_probe: %s failed (%d)\n", #call, (int)r_);                   \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)
#define RT(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "rtc_probe: %s: %s\n", #call, cudaGetErrorName(e_));              \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

static const char *source(const char *name)
{
    static char text[512];
    std::snprintf(text, sizeof text,
                  "extern \"C\" __global__ void %s(const float *in, float *out, int n)\n"
                  "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (i < n) out[i] = in[(i * 8) %% n]; }\n",
                  name);
    return text;
}

static std::vector<char> compile(const char *name, int arch)
{
    nvrtcProgram p;
    if (nvrtcCreateProgram(&p, source(name), name, 0, nullptr, nullptr) != NVRTC_SUCCESS)
        std::exit(1);
    char opt[64];
    std::snprintf(opt, sizeof opt, "--gpu-architecture=sm_%d", arch);
    const char *opts[] = {opt, "-lineinfo"};
    if (nvrtcCompileProgram(p, 2, opts) != NVRTC_SUCCESS) {
        size_t n;
        nvrtcGetProgramLogSize(p, &n);
        std::vector<char> log(n);
        nvrtcGetProgramLog(p, log.data());
        std::fprintf(stderr, "%s\n", log.data());
        std::exit(1);
    }
    size_t n;
    nvrtcGetCUBINSize(p, &n);
    std::vector<char> cubin(n);
    nvrtcGetCUBIN(p, cubin.data());
    nvrtcDestroyProgram(&p);
    return cubin;
}

int main(int argc, char **argv)
{
    const bool unload = argc > 1; // unload the module before the library kernel runs

    int major, minor;
    RT(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    RT(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    const int n = 1 << 22;
    float *in, *out;
    RT(cudaMalloc(&in, n * sizeof(float)));
    RT(cudaMalloc(&out, n * sizeof(float)));
    RT(cudaMemset(in, 0, n * sizeof(float)));
    void *args[] = {&in, &out, (void *)&n};

    std::vector<char> a = compile("rtc_via_module", major * 10 + minor);
    CUmodule mod;
    CUfunction fa;
    CU(cuModuleLoadData(&mod, a.data()));
    CU(cuModuleGetFunction(&fa, mod, "rtc_via_module"));
    for (int r = 0; r < 3; r++)
        CU(cuLaunchKernel(fa, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));

    if (unload) {
        CU(cuCtxSynchronize());
        CU(cuModuleUnload(mod));
    }

    std::vector<char> b = compile("rtc_via_library", major * 10 + minor);
    cudaLibrary_t lib;
    cudaKernel_t kb;
    RT(cudaLibraryLoadData(&lib, b.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    RT(cudaLibraryGetKernel(&kb, lib, "rtc_via_library"));
    for (int r = 0; r < 3; r++)
        RT(cudaLaunchKernel((const void *)kb, dim3(n / 256), dim3(256), args, 0, nullptr));
    RT(cudaDeviceSynchronize());
    if (unload)
        RT(cudaLibraryUnload(lib));
    std::printf("rtc_probe: each kernel launched 3 times%s\n", unload ? ", each unloaded" : "");
    return 0;
}
