// cp_layout.cu: the kernel of the layout family (one element per thread), indexed through
// cp_layout.h.
#include "cp_kernels.h"
#include "cp_layout.h"
#include "cp_layout_kernels.h"
#include "cp_linear.h"

namespace
{

__global__ void __launch_bounds__(CP_LINEAR_BLOCK)
    cp_layout_kernel(const float *in, float *out, uint64_t n, uint32_t fields, uint32_t field,
                     int soa)
{
    uint64_t i = cp_linear_thread(blockIdx.x, threadIdx.x);
    if (i < n)
        out[i] = in[soa ? cp_layout_soa_index(i, n, field) : cp_layout_aos_index(i, fields, field)];
}

} // namespace

extern "C" cudaError_t cp_kernels_layout_launch(const float *in, float *out, uint64_t n,
                                                uint32_t fields, uint32_t field, int soa,
                                                cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uint64_t blocks = (n + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    if (blocks > 0x7fffffffull || field >= fields)
        return cudaErrorInvalidValue;
    cp_layout_kernel<<<(unsigned)blocks, CP_LINEAR_BLOCK, 0, stream>>>(in, out, n, fields, field,
                                                                       soa);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_layout_resources(cp_kernel_resources *r)
{
    return cp_kernels_resources((const void *)cp_layout_kernel, CP_LINEAR_BLOCK, 0, r);
}
