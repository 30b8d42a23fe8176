// cp_readonly.cu: the read-only path family's kernels (cp_readonly.h): one lookup
// out[i] = table[j(i)] per thread, the table read through a plain pointer, a const __restrict__
// pointer, __ldg or __constant__ memory, for each index pattern.
#include "cp_kernels.h"
#include "cp_readonly_kernels.h"
#include "cp_readonly.h"

namespace
{

__constant__ float cp_readonly_constant_table[CP_READONLY_CONSTANT_BYTES / sizeof(float)];

// The global thread index, below 2^32 (the launcher refuses larger grids).
__device__ __forceinline__ uint32_t cp_readonly_thread()
{
    return blockIdx.x * CP_READONLY_BLOCK + threadIdx.x;
}

// A plain pointer: out may alias table, so the load cannot take the read-only path (LDG.E).
template <int Index>
__global__ void __launch_bounds__(CP_READONLY_BLOCK)
    cp_readonly_plain_kernel(const float *table, float *out, uint32_t n, uint32_t entries)
{
    uint32_t i = cp_readonly_thread();
    if (i < n)
        out[i] = table[cp_readonly_entry(i, entries, Index)];
}

// const __restrict__: the compiler may load through the non-coherent path (LDG.E.CONSTANT).
template <int Index>
__global__ void __launch_bounds__(CP_READONLY_BLOCK)
    cp_readonly_restrict_kernel(const float *__restrict__ table, float *__restrict__ out,
                                uint32_t n, uint32_t entries)
{
    uint32_t i = cp_readonly_thread();
    if (i < n)
        out[i] = table[cp_readonly_entry(i, entries, Index)];
}

// __ldg: the read-only load asked for explicitly, pointers as plain as the first variant's.
template <int Index>
__global__ void __launch_bounds__(CP_READONLY_BLOCK)
    cp_readonly_ldg_kernel(const float *table, float *out, uint32_t n, uint32_t entries)
{
    uint32_t i = cp_readonly_thread();
    if (i < n)
        out[i] = __ldg(&table[cp_readonly_entry(i, entries, Index)]);
}

// __constant__ memory (LDC): table is unused, the entries are cp_readonly_constant_table's.
template <int Index>
__global__ void __launch_bounds__(CP_READONLY_BLOCK)
    cp_readonly_constant_kernel(const float *table, float *out, uint32_t n, uint32_t entries)
{
    (void)table;
    uint32_t i = cp_readonly_thread();
    if (i < n)
        out[i] = cp_readonly_constant_table[cp_readonly_entry(i, entries, Index)];
}

typedef void (*cp_readonly_kernel_fn)(const float *, float *, uint32_t, uint32_t);

#define CP_READONLY_ROW(k)                                                                         \
    {                                                                                              \
        k<CP_READONLY_INDEX_MOD>, k<CP_READONLY_INDEX_RANDOM>, k<CP_READONLY_INDEX_BROADCAST>      \
    }

// By variant (plain, restrict, ldg, constant), then index pattern (mod, random, broadcast).
const cp_readonly_kernel_fn cp_readonly_kernels[4][3] = {
    CP_READONLY_ROW(cp_readonly_plain_kernel),
    CP_READONLY_ROW(cp_readonly_restrict_kernel),
    CP_READONLY_ROW(cp_readonly_ldg_kernel),
    CP_READONLY_ROW(cp_readonly_constant_kernel),
};

cp_readonly_kernel_fn cp_readonly_kernel_for(int variant, int index)
{
    if (variant < 0 || variant >= 4 || index < 0 || index >= 3)
        return nullptr;
    return cp_readonly_kernels[variant][index];
}

} // namespace

extern "C" cudaError_t cp_kernels_readonly_launch(int variant, int index, const float *table,
                                                  float *out, uint64_t n, uint64_t entries,
                                                  cudaStream_t stream)
{
    cp_readonly_kernel_fn k = cp_readonly_kernel_for(variant, index);
    if (!k || entries == 0 || entries > (CP_READONLY_TABLE_MAX / sizeof(float)) ||
        n > (1ull << 32) - 1 ||
        (variant == CP_READONLY_CONSTANT && entries > CP_READONLY_CONSTANT_BYTES / sizeof(float)))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    unsigned blocks = (unsigned)((n + CP_READONLY_BLOCK - 1) / CP_READONLY_BLOCK);
    k<<<blocks, CP_READONLY_BLOCK, 0, stream>>>(table, out, (uint32_t)n, (uint32_t)entries);
    return cudaGetLastError();
}

extern "C" cudaError_t cp_kernels_readonly_constant_load(const float *table, uint64_t bytes,
                                                         cudaStream_t stream)
{
    if (bytes > CP_READONLY_CONSTANT_BYTES)
        return cudaErrorInvalidValue;
    return cudaMemcpyToSymbolAsync(cp_readonly_constant_table, table, bytes, 0,
                                   cudaMemcpyDeviceToDevice, stream);
}

extern "C" cudaError_t cp_kernels_readonly_resources(int variant, int index, cp_kernel_resources *r)
{
    cp_readonly_kernel_fn k = cp_readonly_kernel_for(variant, index);
    if (!k)
        return cudaErrorInvalidValue;
    return cp_kernels_resources((const void *)k, CP_READONLY_BLOCK, 0, r);
}

extern "C" cudaError_t cp_kernels_readonly_name(int variant, int index, const char **name)
{
    cp_readonly_kernel_fn k = cp_readonly_kernel_for(variant, index);
    if (!k)
        return cudaErrorInvalidValue;
    return cudaFuncGetName(name, (const void *)k);
}
