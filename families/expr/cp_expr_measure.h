/* cp_expr_measure.h: the CUDA source of the expr family's kernels for one expression (the
 * embedded families/expr/cp_expr_kernel.cuh after a definition of CP_EXPR_INDEX), and their names;
 * for its measure part and the tests, after measure's headers (cp_expr, cp_op, cp_status). */
#ifndef CP_EXPR_MEASURE_H
#define CP_EXPR_MEASURE_H

#include <stdint.h>

/* The source NVRTC compiles for e: "#define CP_EXPR_INDEX(i, n, cp_p) (...)" with the C of
 * cp_expr_to_c (parameter k as cp_p.v[k]), then the kernels. *out is malloc'ed (the caller
 * frees it). CP_EXIT_RUNTIME when out of memory. */
int cp_expr_kernel_source(const cp_expr *e, char **out, cp_status *st);

/* The kernels: one per op and width (4, 8, 16, 32). */
#define CP_EXPR_KERNEL_COUNT 8

/* The index (0 .. CP_EXPR_KERNEL_COUNT-1) of the kernel for op and width, -1 for another width. */
int cp_expr_kernel_index(cp_op op, uint32_t width_bytes);

/* The extern "C" name of the kernel for op and width, e.g. "cp_expr_load_4"; NULL for another
 * width. */
const char *cp_expr_kernel_name(cp_op op, uint32_t width_bytes);

#endif
