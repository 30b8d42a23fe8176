/* cp_cublas.h: the cuBLAS reference of the GEMM family: a row-major FP32 C = A*B through
 * cublasSgemm, behind a small handle. */
#ifndef CP_CUBLAS_H
#define CP_CUBLAS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "base/cp_base.h"

typedef struct cp_cublas cp_cublas;

/* Creates a cuBLAS handle bound to stream (default FP32 math: no TF32). */
int cp_cublas_open(cudaStream_t stream, cp_cublas **out, cp_status *st);

/* Row-major C (m x n) = A (m x k) * B (k x n), launched on the handle's stream. */
int cp_cublas_sgemm(cp_cublas *h, const float *A, const float *B, float *C, uint64_t m, uint64_t n,
                    uint64_t k, cp_status *st);

/* Loads libcublas (no GPU needed) and writes the file it came from into path and its version
 * ("13.0.0") into version ("" when unknown). CP_EXIT_RUNTIME with the reason and a fix when it
 * cannot be loaded. */
int cp_cublas_probe(char *path, size_t len, char *version, size_t vlen, cp_status *st);

/* NULL-safe. */
void cp_cublas_close(cp_cublas *h);

#endif
