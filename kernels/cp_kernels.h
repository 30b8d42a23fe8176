/* cp_kernels.h: the launchers of coalprobe's kernels. The __global__ functions stay private
 * to their .cu files; each launcher checks its arguments, sizes the grid from them, launches
 * on `stream` and returns the launch's cudaError_t. */
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

/* The resources of the kernel each family's launcher below runs for a timed launch (`alone` 0),
 * with the block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_stride_resources(uint32_t width_bytes, int op, cp_kernel_resources *r);
cudaError_t cp_kernels_layout_resources(cp_kernel_resources *r);
cudaError_t cp_kernels_gather_resources(cp_kernel_resources *r);
cudaError_t cp_kernels_smem_resources(uint32_t stride, uint32_t width_bytes, int op,
                                      cp_kernel_resources *r);
cudaError_t cp_kernels_transpose_resources(int variant, cp_kernel_resources *r);

/* stride family: op 0 (load) runs out[i] = in[i*stride+offset], op 1 (store) runs
 * out[i*stride+offset] = in[i], for i < n, with elements of width_bytes (4, 8, 16, 32). */
cudaError_t cp_kernels_stride_launch(const void *in, void *out, uint64_t n, uint64_t stride,
                                     uint64_t offset, uint32_t width_bytes, int op,
                                     cudaStream_t stream);

/* layout family: out[i] = in[AoS: i*fields+field | SoA: field*n+i] for i < n. */
cudaError_t cp_kernels_layout_launch(const float *in, float *out, uint64_t n, uint32_t fields,
                                     uint32_t field, int soa, cudaStream_t stream);

/* gemm family: C = A*B (row-major, m x k times k x n); variant 0 naive, 1 coalesced, 2 smem
 * (32 x 32 tiles in shared memory). */
cudaError_t cp_kernels_gemm_launch(int variant, const float *A, const float *B, float *C,
                                   uint64_t m, uint64_t n, uint64_t k, cudaStream_t stream);
/* The resources of the kernel cp_kernels_gemm_launch runs for these arguments. */
cudaError_t cp_kernels_gemm_resources(int variant, uint64_t m, uint64_t n, uint64_t k,
                                      cp_kernel_resources *r);

/* gather family: idx[i] = cp_gather_index(i, n, run, seed) for i < n (n at most 2^32). */
cudaError_t cp_kernels_gather_index_launch(uint32_t *idx, uint64_t n, uint64_t run, uint64_t seed,
                                           cudaStream_t stream);

/* gather family: out[i] = in[idx[i]] for i < n. */
cudaError_t cp_kernels_gather_launch(const uint32_t *idx, const float *in, float *out, uint64_t n,
                                     cudaStream_t stream);

/* readonly family (patterns/cp_readonly.h): out[i] = table[cp_readonly_entry(i, entries, index)]
 * for i < n (n below 2^32), the table read as `variant` says: 0 plain pointer, 1 const
 * __restrict__, 2 __ldg, 3 __constant__ memory (entries at most 16384: the table the last
 * cp_kernels_readonly_constant_load copied; `table` is then unused). */
cudaError_t cp_kernels_readonly_launch(int variant, int index, const float *table, float *out,
                                       uint64_t n, uint64_t entries, cudaStream_t stream);
/* Copies the first `bytes` of device buffer table into the constant variant's table. */
cudaError_t cp_kernels_readonly_constant_load(const float *table, uint64_t bytes,
                                              cudaStream_t stream);
cudaError_t cp_kernels_readonly_resources(int variant, int index, cp_kernel_resources *r);
/* The (mangled) name of the kernel cp_kernels_readonly_launch runs, for its SASS. */
cudaError_t cp_kernels_readonly_name(int variant, int index, const char **name);

/* async family (patterns/cp_async.h): out = cp_async_work(in, work) over `tiles` tiles of
 * CP_ASYNC_TILE floats, each loaded by `variant` (0 plain, 1 smem, 2 cp-async, 3 tma-bulk, 4
 * tma-tensor) with `stages` tiles in flight (1..4; plain and smem have one). The first launch of
 * a (variant, stages) on a device sets its shared-memory limit and sizes its grid, and the
 * first of an input its tensor map: later launches make no other call but cudaGetDevice.
 * Profiled as timed (not `alone`, below): SM active and achieved occupancy are the timed
 * launches'.
 * cudaErrorNotSupported on a device below cp_kernels_async_needs(variant). */
cudaError_t cp_kernels_async_launch(int variant, int stages, const float *in, float *out,
                                    uint64_t tiles, uint32_t work, cudaStream_t stream);
cudaError_t cp_kernels_async_resources(int variant, int stages, cp_kernel_resources *r);
/* The compute capability a variant needs, as major * 10 + minor (cp-async 80, tma 90; 0). */
int cp_kernels_async_needs(int variant);

/* The kernels that use shared memory take `alone`: when 1, the launch also asks for more than
 * half of an SM's shared memory, so that one block runs on an SM at a time. The profiler's bank
 * conflict counters then count each instruction's own conflicts: with several blocks on an SM,
 * one block's shared stores meet another's loads in the same cycles, and the H100 counts those
 * collisions as conflicts too (0.5-3% more wavefronts in the transpose). Timed launches pass 0. */

/* smem family (patterns/cp_smem.h): op 0 (load) or 1 (store) through a shared array of
 * 32*stride elements of width_bytes (4, 8, 16), `iterations` accesses per thread (at least
 * stride), CP_SMEM_BLOCKS blocks; out receives one word per thread. */
cudaError_t cp_kernels_smem_launch(uint32_t *out, uint32_t stride, uint32_t width_bytes,
                                   uint32_t iterations, int op, int alone, cudaStream_t stream);

/* transpose family: out (n x m) = in^T (in m x n, row-major); variant 0 naive, 1 tiled, 2
 * padded (patterns/cp_transpose.h). m at most 65535 * 32. */
cudaError_t cp_kernels_transpose_launch(int variant, const float *in, float *out, uint64_t m,
                                        uint64_t n, int alone, cudaStream_t stream);

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
