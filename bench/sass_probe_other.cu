// sass_probe_other.cu: a kernel in a module of its own for bench/sass_probe.cu (order letter D).
#include <cuda_runtime.h>
__global__ void probe_d(const float *in, float *out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[(i * 8) % (1 << 20)]; }
void probe_launch_d(const float *in, float *out) { probe_d<<<512, 256>>>(in, out); }
