/* cp_sample.h: what the stand-alone programs of the GPU tests and benches share
 * (tests/gpu/trace_inject_sample.cu, tests/cli/trace_inject_mimic.c, bench/gemm_textbook.cu):
 * the report of a failed CUDA call, and the program's side of the hand-over to a child that goes
 * on after the program has ended. Included by path ("../cp_sample.h", "../tests/cp_sample.h"). */
#ifndef CP_SAMPLE_H
#define CP_SAMPLE_H

#include <stdio.h>
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
