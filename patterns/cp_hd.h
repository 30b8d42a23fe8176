/* cp_hd.h: lets a pattern header compile as plain C (the model) and as CUDA device code (the
 * kernels). */
#ifndef CP_HD_H
#define CP_HD_H

#include <stdint.h>

#if defined(__CUDACC__)
#define CP_HD static __host__ __device__ __forceinline__
#else
#define CP_HD static inline
#endif

#endif
