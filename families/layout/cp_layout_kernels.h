/* cp_layout_kernels.h: the launchers of the layout family's kernels (cp_layout.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_LAYOUT_KERNELS_H
#define CP_LAYOUT_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* layout family: out[i] = in[AoS: i*fields+field | SoA: field*n+i] for i < n. */
cudaError_t cp_kernels_layout_launch(const float *in, float *out, uint64_t n, uint32_t fields,
                                     uint32_t field, int soa, cudaStream_t stream);
/* The resources of the kernel the launcher above runs for a timed launch (`alone` 0), with the
 * block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_layout_resources(cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
