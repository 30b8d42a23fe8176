/* cp_kernels.h: what every family's kernels share (a kernel's resources, the `alone` rule) and
 * the launchers of the kernels every family uses (fill, L2 flush, poison of checked chunks, a
 * GEMM's error norm); a family's own launchers are in its folder's cp_<family>_kernels.h. The
 * __global__ functions stay private to their .cu files; each launcher checks its arguments,
 * sizes the grid from them, launches on `stream` and returns the launch's cudaError_t. */
#ifndef CP_KERNELS_H
#define CP_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one kernel needs of an SM, and how many of its blocks fit on one (current device). */
typedef struct cp_kernel_resources {
    int registers;              /* per thread */
    size_t static_shared_bytes; /* per block */
    size_t dynamic_shared_bytes;
    int threads_per_block;
    int blocks_per_sm;            /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
    double theoretical_occupancy; /* blocks_per_sm * warps per block / the SM's warps, 0..1 */
} cp_kernel_resources;

/* Fills r for `kernel` launched with `threads` per block and dynamic_bytes of dynamic shared
 * memory (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
cudaError_t cp_kernels_resources(const void *kernel, int threads, size_t dynamic_bytes,
                                 cp_kernel_resources *r);

/* The kernels that use shared memory take `alone`: when 1, the launch also asks for more than
 * half of an SM's shared memory, so that one block runs on an SM at a time. The profiler's bank
 * conflict counters then count each instruction's own conflicts: with several blocks on an SM,
 * one block's shared stores meet another's loads in the same cycles, and the H100 counts those
 * collisions as conflicts too (0.5-3% more wavefronts in the transpose). Timed launches pass 0. */

/* Dynamic shared memory that keeps a second block of `kernel` (which has static_bytes of its
 * own) off an SM of the current device, the kernel's limit raised to it; 0 when alone is 0. */
cudaError_t cp_kernels_alone_bytes(const void *kernel, size_t static_bytes, size_t dynamic_bytes,
                                   int alone, size_t *bytes);

/* Writes cp_fill_value(word, seed) to every 4-byte word of buf (bytes a multiple of 4). */
cudaError_t cp_kernels_fill_launch(void *buf, uint64_t bytes, uint32_t seed, cudaStream_t stream);

/* Reads every byte of buf (a multiple of 16) without writing it, evicting earlier data from
 * L2 without leaving dirty lines; *sink is written only if an impossible sum turns up. */
cudaError_t cp_kernels_flush_launch(const void *buf, uint64_t bytes, float *sink,
                                    cudaStream_t stream);

/* Up to 16 ranges of 4-byte words of one buffer: the chunks an output check reads. */
#define CP_KERNELS_MAX_CHUNKS 16
typedef struct cp_kernels_chunks {
    int count;
    uint64_t first[CP_KERNELS_MAX_CHUNKS]; /* the range's first word in the buffer */
    uint64_t words[CP_KERNELS_MAX_CHUNKS]; /* its length in words */
} cp_kernels_chunks;

/* Writes 0xFFFFFFFF to every word of ch's ranges of buf, in one launch: 16 cudaMemsetAsync calls
 * each waited for the driver while another GPU of the run read its counters. */
cudaError_t cp_kernels_chunks_poison_launch(void *buf, const cp_kernels_chunks *ch,
                                            cudaStream_t stream);

/* Adds sum((c - ref)^2) to sums[0] and sum(ref^2) to sums[1] (device doubles) over n floats:
 * the relative error ||c - ref|| / ||ref|| of a GEMM against its reference. */
cudaError_t cp_kernels_diff_norm_launch(const float *c, const float *ref, uint64_t n, double *sums,
                                        cudaStream_t stream);

/* The kernel image the current device runs (cudaFuncGetAttributes of the fill kernel): its
 * binaryVersion and ptxVersion (90 for sm_90). cudaErrorNoKernelImageForDevice when this binary
 * carries no code the device can run. */
cudaError_t cp_kernels_image(int *binary_version, int *ptx_version);

#ifdef __cplusplus
}
#endif

#endif
