// cp_stride.cu: the kernels of the stride family (one element per thread), indexed through
// cp_stride.h.
#include "cp_kernels.h"
#include "cp_stride.h"
#include "cp_stride_kernels.h"

namespace
{

// The 32-byte element: two 16-byte halves, issued as two 16-byte instructions on sm_90.
struct __align__(32) cp_f8
{
    float4 lo, hi;
};

template <typename T>
__global__ void __launch_bounds__(CP_LINEAR_BLOCK)
    cp_stride_load_kernel(const T *in, T *out, uint64_t n, uint64_t stride, uint64_t offset)
{
    uint64_t i = cp_linear_thread(blockIdx.x, threadIdx.x);
    if (i < n)
        out[i] = in[cp_stride_index(i, stride, offset)];
}

template <typename T>
__global__ void __launch_bounds__(CP_LINEAR_BLOCK)
    cp_stride_store_kernel(const T *in, T *out, uint64_t n, uint64_t stride, uint64_t offset)
{
    uint64_t i = cp_linear_thread(blockIdx.x, threadIdx.x);
    if (i < n)
        out[cp_stride_index(i, stride, offset)] = in[i];
}

// The kernel cp_stride_launch_typed<T> launches for op.
template <typename T> const void *cp_stride_kernel_for(int op)
{
    return op == 0 ? (const void *)cp_stride_load_kernel<T>
                   : (const void *)cp_stride_store_kernel<T>;
}

template <typename T>
cudaError_t cp_stride_launch_typed(const void *in, void *out, uint64_t n, uint64_t stride,
                                   uint64_t offset, int op, cudaStream_t stream)
{
    uint64_t blocks = (n + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    if (blocks > 0x7fffffffull)
        return cudaErrorInvalidValue;
    if (op == 0)
        cp_stride_load_kernel<T><<<(unsigned)blocks, CP_LINEAR_BLOCK, 0, stream>>>(
            static_cast<const T *>(in), static_cast<T *>(out), n, stride, offset);
    else
        cp_stride_store_kernel<T><<<(unsigned)blocks, CP_LINEAR_BLOCK, 0, stream>>>(
            static_cast<const T *>(in), static_cast<T *>(out), n, stride, offset);
    return cudaGetLastError();
}
} // namespace

extern "C" cudaError_t cp_kernels_stride_launch(const void *in, void *out, uint64_t n,
                                                uint64_t stride, uint64_t offset,
                                                uint32_t width_bytes, int op, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    switch (width_bytes) {
    case 4:
        return cp_stride_launch_typed<float>(in, out, n, stride, offset, op, stream);
    case 8:
        return cp_stride_launch_typed<float2>(in, out, n, stride, offset, op, stream);
    case 16:
        return cp_stride_launch_typed<float4>(in, out, n, stride, offset, op, stream);
    case 32:
        return cp_stride_launch_typed<cp_f8>(in, out, n, stride, offset, op, stream);
    default:
        return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t cp_kernels_stride_resources(uint32_t width_bytes, int op,
                                                   cp_kernel_resources *r)
{
    const void *f = width_bytes == 4    ? cp_stride_kernel_for<float>(op)
                    : width_bytes == 8  ? cp_stride_kernel_for<float2>(op)
                    : width_bytes == 16 ? cp_stride_kernel_for<float4>(op)
                    : width_bytes == 32 ? cp_stride_kernel_for<cp_f8>(op)
                                        : nullptr;
    if (!f)
        return cudaErrorInvalidValue;
    return cp_kernels_resources(f, CP_LINEAR_BLOCK, 0, r);
}
