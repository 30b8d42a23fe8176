/* cp_smem_kernels.h: the launchers of the smem family's kernels (cp_smem.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_SMEM_KERNELS_H
#define CP_SMEM_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* smem family (cp_smem.h): op 0 (load) or 1 (store) through a shared array of
 * 32*stride elements of width_bytes (4, 8, 16), `iterations` accesses per thread (at least
 * stride), CP_SMEM_BLOCKS blocks; out receives one word per thread. */
cudaError_t cp_kernels_smem_launch(uint32_t *out, uint32_t stride, uint32_t width_bytes,
                                   uint32_t iterations, int op, int alone, cudaStream_t stream);
/* The resources of the kernel the launcher above runs for a timed launch (`alone` 0), with the
 * block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_smem_resources(uint32_t stride, uint32_t width_bytes, int op,
                                      cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
