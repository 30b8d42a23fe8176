// cp_smem.cu: the kernels of the smem family (shared-memory bank conflicts), walking the
// pattern of cp_smem.h. Shared memory is `volatile` so that every access of the
// pattern is issued as written: one LDS/STS (.64, .128) per lane per iteration, unpredicated.
#include "cp_kernels.h"
#include "cp_smem_kernels.h"
#include "cp_smem.h"

namespace
{

// The XOR of the 32-bit words of an element, and an element made of cp_smem_value words.
__device__ __forceinline__ uint32_t cp_smem_xor(uint32_t v)
{
    return v;
}
__device__ __forceinline__ uint32_t cp_smem_xor(uint2 v)
{
    return v.x ^ v.y;
}
__device__ __forceinline__ uint32_t cp_smem_xor(uint4 v)
{
    return v.x ^ v.y ^ v.z ^ v.w;
}

template <typename T> __device__ __forceinline__ T cp_smem_make(uint32_t e);
template <> __device__ __forceinline__ uint32_t cp_smem_make<uint32_t>(uint32_t e)
{
    return cp_smem_value(e);
}
template <> __device__ __forceinline__ uint2 cp_smem_make<uint2>(uint32_t e)
{
    return make_uint2(cp_smem_value(2 * e), cp_smem_value(2 * e + 1));
}
template <> __device__ __forceinline__ uint4 cp_smem_make<uint4>(uint32_t e)
{
    return make_uint4(cp_smem_value(4 * e), cp_smem_value(4 * e + 1), cp_smem_value(4 * e + 2),
                      cp_smem_value(4 * e + 3));
}

// Volatile element access (a volatile T has no assignment operators for vector types).
template <typename T> __device__ __forceinline__ T cp_smem_read(const volatile T *p);
template <> __device__ __forceinline__ uint32_t cp_smem_read(const volatile uint32_t *p)
{
    return *p;
}
template <> __device__ __forceinline__ uint2 cp_smem_read(const volatile uint2 *p)
{
    uint2 v;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];"
                 : "=r"(v.x), "=r"(v.y)
                 : "r"((uint32_t)__cvta_generic_to_shared((const void *)p)));
    return v;
}
template <> __device__ __forceinline__ uint4 cp_smem_read(const volatile uint4 *p)
{
    uint4 v;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"((uint32_t)__cvta_generic_to_shared((const void *)p)));
    return v;
}
template <typename T> __device__ __forceinline__ void cp_smem_write(volatile T *p, T v);
template <> __device__ __forceinline__ void cp_smem_write(volatile uint32_t *p, uint32_t v)
{
    *p = v;
}
template <> __device__ __forceinline__ void cp_smem_write(volatile uint2 *p, uint2 v)
{
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(
                     (uint32_t)__cvta_generic_to_shared((const void *)p)),
                 "r"(v.x), "r"(v.y)
                 : "memory");
}
template <> __device__ __forceinline__ void cp_smem_write(volatile uint4 *p, uint4 v)
{
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(
                     (uint32_t)__cvta_generic_to_shared((const void *)p)),
                 "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

// The block's dynamic shared memory as an array of T (16-byte aligned), read and written through
// volatile accesses.
template <typename T> __device__ __forceinline__ volatile T *cp_smem_array()
{
    extern __shared__ uint4 cp_smem_raw[];
    return reinterpret_cast<volatile T *>(cp_smem_raw);
}

template <typename T>
__global__ void __launch_bounds__(CP_SMEM_BLOCK)
    cp_smem_load_kernel(uint32_t *out, uint32_t stride, uint32_t iterations)
{
    volatile T *sm = cp_smem_array<T>();
    uint32_t lane = threadIdx.x % 32u;
    for (uint32_t r = 0; r < stride; r++) { // every warp stores the whole array: no race
        uint32_t e = cp_smem_fill_index(lane, r);
        cp_smem_write(sm + e, cp_smem_make<T>(e));
    }
    __syncthreads();
    uint32_t e = cp_smem_start(lane, stride), acc = 0;
    for (uint32_t t = 0; t < iterations; t++) {
        acc ^= cp_smem_xor(cp_smem_read(sm + e));
        e = cp_smem_next(e, stride);
    }
    out[blockIdx.x * CP_SMEM_BLOCK + threadIdx.x] = acc;
}

template <typename T>
__global__ void __launch_bounds__(CP_SMEM_BLOCK)
    cp_smem_store_kernel(uint32_t *out, uint32_t stride, uint32_t iterations)
{
    volatile T *sm = cp_smem_array<T>();
    uint32_t lane = threadIdx.x % 32u;
    uint32_t e = cp_smem_start(lane, stride);
    for (uint32_t t = 0; t < iterations; t++) { // element e always gets the same value
        cp_smem_write(sm + e, cp_smem_make<T>(e));
        e = cp_smem_next(e, stride);
    }
    __syncthreads();
    uint32_t acc = 0;
    for (uint32_t r = 0; r < stride; r++)
        acc ^= cp_smem_xor(cp_smem_read(sm + cp_smem_drain_index(lane, stride, r)));
    out[blockIdx.x * CP_SMEM_BLOCK + threadIdx.x] = acc;
}

template <typename T>
cudaError_t cp_smem_launch_typed(uint32_t *out, uint32_t stride, uint32_t iterations, int op,
                                 int alone, cudaStream_t stream)
{
    void (*kernel)(uint32_t *, uint32_t, uint32_t) =
        op == 0 ? cp_smem_load_kernel<T> : cp_smem_store_kernel<T>;
    size_t bytes;
    cudaError_t e = cp_kernels_alone_bytes(
        (const void *)kernel, 0, (size_t)cp_smem_elements(stride) * sizeof(T), alone, &bytes);
    if (e != cudaSuccess)
        return e;
    kernel<<<CP_SMEM_BLOCKS, CP_SMEM_BLOCK, bytes, stream>>>(out, stride, iterations);
    return cudaGetLastError();
}

// The resources of the kernel cp_smem_launch_typed<T> runs for a timed launch (alone 0).
template <typename T>
cudaError_t cp_smem_resources_typed(uint32_t stride, int op, cp_kernel_resources *r)
{
    void (*kernel)(uint32_t *, uint32_t, uint32_t) =
        op == 0 ? cp_smem_load_kernel<T> : cp_smem_store_kernel<T>;
    return cp_kernels_resources((const void *)kernel, CP_SMEM_BLOCK,
                                (size_t)cp_smem_elements(stride) * sizeof(T), r);
}

} // namespace

extern "C" cudaError_t cp_kernels_smem_launch(uint32_t *out, uint32_t stride, uint32_t width_bytes,
                                              uint32_t iterations, int op, int alone,
                                              cudaStream_t stream)
{
    // the array must hold iterations 0..stride-1 of every lane (the drain reads them back)
    if (stride == 0 || (size_t)cp_smem_elements(stride) * width_bytes > 48 * 1024 ||
        iterations < stride)
        return cudaErrorInvalidValue;
    switch (width_bytes) {
    case 4:
        return cp_smem_launch_typed<uint32_t>(out, stride, iterations, op, alone, stream);
    case 8:
        return cp_smem_launch_typed<uint2>(out, stride, iterations, op, alone, stream);
    case 16:
        return cp_smem_launch_typed<uint4>(out, stride, iterations, op, alone, stream);
    default:
        return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t cp_kernels_smem_resources(uint32_t stride, uint32_t width_bytes, int op,
                                                 cp_kernel_resources *r)
{
    if (stride == 0 || (size_t)cp_smem_elements(stride) * width_bytes > 48 * 1024)
        return cudaErrorInvalidValue;
    switch (width_bytes) {
    case 4:
        return cp_smem_resources_typed<uint32_t>(stride, op, r);
    case 8:
        return cp_smem_resources_typed<uint2>(stride, op, r);
    case 16:
        return cp_smem_resources_typed<uint4>(stride, op, r);
    default:
        return cudaErrorInvalidValue;
    }
}
