/* cp_sample.h: what the stand-alone programs of the GPU tests and benches share
 * (tests/gpu/trace_inject_sample.cu, the samples of tests/trace, tests/cli/trace_inject_mimic.c,
 * the benches): the report of a failed CUDA call, the trace samples' launches and buffers, the
 * TMA samples' mbarrier, and the program's side of the hand-over to a child that goes on after the
 * program has ended. Included by path ("../cp_sample.h", "../tests/cp_sample.h"). */
#ifndef CP_SAMPLE_H
#define CP_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef __CUDACC__
#include <cuda_runtime.h>

/* 1 when e is cudaSuccess; else 0, with "PROGRAM: CALL failed: ERROR at FILE:LINE" on stderr. */
static inline int cp_sample_cuda_ok(cudaError_t e, const char *program, const char *call,
                                    const char *file, int line)
{
    if (e == cudaSuccess)
        return 1;
    fprintf(stderr, "%s: %s failed: %s at %s:%d\n", program, call, cudaGetErrorName(e), file, line);
    return 0;
}

/* call's error reported in the name of program, at the caller's file and line. */
#define CP_SAMPLE_CUDA_OK(program, call)                                                           \
    cp_sample_cuda_ok((call), program, #call, __FILE__, __LINE__)

/* The value of element i of the trace samples' input. */
static inline float cp_sample_value(int i)
{
    return (float)(i % 1000) + 0.5f;
}

/* The trace samples' buffers of n floats: in (cp_sample_value(i)) and out on the device, and a
 * host buffer of the same size (*host, freed by the caller). */
static inline cudaError_t cp_sample_buffers(int n, float **in, float **out, float **host)
{
    cudaError_t e;
    if ((e = cudaMalloc(in, n * sizeof(float))) != cudaSuccess ||
        (e = cudaMalloc(out, n * sizeof(float))) != cudaSuccess)
        return e;
    if (!(*host = (float *)malloc(n * sizeof(float))))
        return cudaErrorMemoryAllocation;
    for (int i = 0; i < n; i++)
        (*host)[i] = cp_sample_value(i);
    return cudaMemcpy(*in, *host, n * sizeof(float), cudaMemcpyHostToDevice);
}

/* The TMA samples' (tests/trace) mbarrier of the block at bar, initialised by thread 0 for one
 * arrival, then expecting `bytes`: its shared address, for the copy and cp_sample_tma_wait. The
 * block's threads all call it (it synchronises them). */
__device__ __forceinline__ unsigned cp_sample_tma_arm(unsigned long long *bar, unsigned bytes)
{
    unsigned b = (unsigned)__cvta_generic_to_shared(bar);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(bytes)
                     : "memory");
#endif
    return b;
}

/* Waits until the copies expected on the mbarrier at shared address b have landed. */
__device__ __forceinline__ void cp_sample_tma_wait(unsigned b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
#endif
}

/* The launches a trace sample's first argument asks for (default 3, at least 1). */
static inline int cp_sample_launches(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 3;
    return launches < 1 ? 1 : launches;
}
#endif

/* The program's side once it has forked child pid: it closes its ends of the pipes ready and
 * parent_alive (parent_alive's write end stays open until the program exits, which the child
 * waits for), waits for the child's 'y' on ready and says that the program ends. 0, or 1 when
 * the child failed. */
static inline int cp_sample_parent_ends(const int ready[2], const int parent_alive[2], pid_t pid)
{
    close(ready[1]);
    close(parent_alive[0]);
    char c = 'n';
    if (read(ready[0], &c, 1) != 1 || c != 'y')
        return 1;
    printf("the program ends, its child %ld goes on\n", (long)pid);
    return 0;
}

#endif
