// cp_atomic.cu: the atomic family's kernels: one atomicAdd a thread to its accumulator
// (cp_atomic.h, the function the model evaluates), or one a warp after a shuffle reduction; the
// old value stored (ATOM) or dropped (RED). One kernel per variant, op and type, so that each
// compiles to the one instruction it measures.
#include "cp_atomic.h"
#include "cp_atomic_kernels.h"
#include "cp_kernels.h"
#include "cp_linear.h"

namespace
{

// A reduction: red.global.add, whose old value nobody asks for (RED in SASS), written out so that
// the kernel measures RED whatever the compiler would make of an atomicAdd left unused.
__device__ __forceinline__ void cp_atomic_red(unsigned int *p, unsigned int v)
{
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void cp_atomic_red(float *p, float v)
{
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

template <typename T, int VARIANT, int OP>
__global__ void __launch_bounds__(CP_LINEAR_BLOCK)
    cp_atomic_kernel(T *acc, T *out, uint64_t n, uint64_t addresses, uint64_t stride)
{
    uint64_t i = cp_linear_thread(blockIdx.x, threadIdx.x);
    if (VARIANT == CP_ATOMIC_AGGREGATED) {
        // every lane of the warp takes part in the shuffles (blocks are whole warps): the
        // lanes past n add 0
        T v = i < n ? T(1) : T(0);
        for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
        T old = T(0);
        if ((threadIdx.x & 31u) == 0 && i < n) {
            if (OP == CP_ATOMIC_ATOM)
                old = atomicAdd(&acc[cp_atomic_slot(i, VARIANT, addresses, stride)], v);
            else
                cp_atomic_red(&acc[cp_atomic_slot(i, VARIANT, addresses, stride)], v);
        }
        if (OP == CP_ATOMIC_ATOM) {
            old = __shfl_sync(0xffffffffu, old, 0);
            if (i < n)
                out[i] = old;
        }
        return;
    }
    if (i >= n)
        return;
    T *slot = &acc[cp_atomic_slot(i, VARIANT, addresses, stride)];
    if (OP == CP_ATOMIC_ATOM)
        out[i] = atomicAdd(slot, T(1));
    else
        cp_atomic_red(slot, T(1));
}

// The kernel of (variant, op, type), as a function of untyped pointers.
template <typename T, int VARIANT, int OP> void *cp_atomic_entry()
{
    return (void *)cp_atomic_kernel<T, VARIANT, OP>;
}

#define CP_ATOMIC_OPS(T, V)                                                                        \
    {                                                                                              \
        cp_atomic_entry<T, V, CP_ATOMIC_ATOM>(), cp_atomic_entry<T, V, CP_ATOMIC_RED>()            \
    }
#define CP_ATOMIC_VARIANTS(T)                                                                      \
    {                                                                                              \
        CP_ATOMIC_OPS(T, CP_ATOMIC_OWN), CP_ATOMIC_OPS(T, CP_ATOMIC_CONTENTION),                   \
            CP_ATOMIC_OPS(T, CP_ATOMIC_STRIDED), CP_ATOMIC_OPS(T, CP_ATOMIC_AGGREGATED)            \
    }

// [type][variant][op]
const void *cp_atomic_kernel_of(int variant, int op, int type)
{
    static const void *const kernels[2][4][2] = {CP_ATOMIC_VARIANTS(unsigned int),
                                                 CP_ATOMIC_VARIANTS(float)};
    if (variant < 0 || variant > 3 || op < 0 || op > 1 || type < 0 || type > 1)
        return nullptr;
    return kernels[type][variant][op];
}

} // namespace

extern "C" cudaError_t cp_kernels_atomic_launch(int variant, int op, int type, void *acc, void *out,
                                                uint64_t n, uint64_t addresses, uint64_t stride,
                                                cudaStream_t stream)
{
    const void *k = cp_atomic_kernel_of(variant, op, type);
    if (!k || addresses == 0 || stride == 0 || n >= (1ull << 32))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    uint64_t blocks = (n + CP_LINEAR_BLOCK - 1) / CP_LINEAR_BLOCK;
    void *args[] = {&acc, &out, &n, &addresses, &stride};
    return cudaLaunchKernel(k, dim3((unsigned)blocks), dim3(CP_LINEAR_BLOCK), args, 0, stream);
}

extern "C" cudaError_t cp_kernels_atomic_resources(int variant, int op, int type,
                                                   cp_kernel_resources *r)
{
    const void *k = cp_atomic_kernel_of(variant, op, type);
    if (!k)
        return cudaErrorInvalidValue;
    return cp_kernels_resources(k, CP_LINEAR_BLOCK, 0, r);
}
