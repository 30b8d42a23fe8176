// cp_expr_kernel.cuh: the expr family's kernels, compiled at run time by NVRTC (src/measure/cp_rtc.c)
// once the expression is known. The build embeds this file as a string (CMakeLists.txt); the
// backend (src/measure/cp_measure_cuda.c) puts one line before it:
//   #define CP_EXPR_INDEX(i, n, cp_p) <the --index expression as C, from cp_expr_to_c>
// in which i and n are long long and parameter k is cp_p.v[k]. Thread i of blocks of 256 threads
// (numbered as cp_stride.h numbers them) accesses element CP_EXPR_INDEX of the indexed
// buffer and element i of the other; the model (cp_expr_model.c) evaluates the same
// expression on the host and refused the run if any thread's index were undefined or outside
// [0, n). Nothing else reaches the compiler: the expression's C is generated, not the user's text.
#ifndef CP_EXPR_INDEX
#define CP_EXPR_INDEX(i, n, cp_p) (i) // for compiling this file on its own
#endif

typedef long long cp_ll;

struct cp_expr_params
{
    cp_ll v[8];
};

__device__ __forceinline__ cp_ll cp_min(cp_ll a, cp_ll b)
{
    return a < b ? a : b;
}
__device__ __forceinline__ cp_ll cp_max(cp_ll a, cp_ll b)
{
    return a > b ? a : b;
}
__device__ __forceinline__ cp_ll cp_abs(cp_ll a)
{
    return a < 0 ? -a : a;
}

// The 32-byte element: two 16-byte halves, issued as two 16-byte instructions on sm_90.
struct __align__(32) cp_expr_f8
{
    float4 lo, hi;
};

#define CP_EXPR_KERNELS(T, W)                                                                      \
    extern "C" __global__ void __launch_bounds__(256)                                             \
        cp_expr_load_##W(const T *in, T *out, cp_ll n, cp_expr_params cp_p)                       \
    {                                                                                              \
        cp_ll i = (cp_ll)blockIdx.x * 256 + threadIdx.x;                                           \
        if (i < n)                                                                                 \
            out[i] = in[CP_EXPR_INDEX(i, n, cp_p)];                                                \
    }                                                                                              \
    extern "C" __global__ void __launch_bounds__(256)                                             \
        cp_expr_store_##W(const T *in, T *out, cp_ll n, cp_expr_params cp_p)                      \
    {                                                                                              \
        cp_ll i = (cp_ll)blockIdx.x * 256 + threadIdx.x;                                           \
        if (i < n)                                                                                 \
            out[CP_EXPR_INDEX(i, n, cp_p)] = in[i];                                                \
    }

CP_EXPR_KERNELS(float, 4)
CP_EXPR_KERNELS(float2, 8)
CP_EXPR_KERNELS(float4, 16)
CP_EXPR_KERNELS(cp_expr_f8, 32)
