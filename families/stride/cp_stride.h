/* cp_stride.h: the strided-access family: which element each thread of the grid touches.
 *
 * Thread i (global index, blocks of CP_LINEAR_BLOCK threads: cp_linear.h) accesses element
 * i*stride + offset of an array of width-byte elements on the strided side, and element i
 * of a dense array on the other side:
 *   op load:  out[i] = in[cp_stride_index(i, stride, offset)]   (strided read, dense write)
 *   op store: out[cp_stride_index(i, stride, offset)] = in[i]   (dense read, strided write)
 * The model (cp_stride_model.c) and the kernels (cp_stride.cu) both call these. */
#ifndef CP_STRIDE_H
#define CP_STRIDE_H

#include "cp_hd.h"
#include "cp_linear.h"

/* Element of the strided array that thread i accesses. */
CP_HD uint64_t cp_stride_index(uint64_t i, uint64_t stride, uint64_t offset)
{
    return i * stride + offset;
}

/* Elements the strided array must hold so that threads 0..n-1 stay in bounds. */
CP_HD uint64_t cp_stride_extent(uint64_t n, uint64_t stride, uint64_t offset)
{
    return n == 0 ? 0 : (n - 1) * stride + offset + 1;
}

#endif
