/* cp_transpose_kernels.h: the launchers of the transpose family's kernels (cp_transpose.cu), for
 * its measure part; the __global__ functions stay private to the .cu file. */
#ifndef CP_TRANSPOSE_KERNELS_H
#define CP_TRANSPOSE_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* transpose family: out (n x m) = in^T (in m x n, row-major); variant 0 naive, 1 tiled, 2
 * padded (cp_transpose.h). m at most 65535 * 32. */
cudaError_t cp_kernels_transpose_launch(int variant, const float *in, float *out, uint64_t m,
                                        uint64_t n, int alone, cudaStream_t stream);
/* The resources of the kernel the launcher above runs for a timed launch (`alone` 0), with the
 * block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_transpose_resources(int variant, cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
