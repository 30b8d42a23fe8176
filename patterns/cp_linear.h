/* cp_linear.h: the one-element-per-thread grid that several families' kernels launch (blocks of
 * CP_LINEAR_BLOCK threads, thread i of the grid handling element i), numbered the same in the
 * model (C) and in the kernels (CUDA). */
#ifndef CP_LINEAR_H
#define CP_LINEAR_H

#include "cp_hd.h"

/* Threads per block of the one-element-per-thread kernels (a multiple of the warp size). */
#define CP_LINEAR_BLOCK 256u

/* Global thread index of thread `thread` of block `block`. */
CP_HD uint64_t cp_linear_thread(uint64_t block, uint64_t thread)
{
    return block * CP_LINEAR_BLOCK + thread;
}

#endif
