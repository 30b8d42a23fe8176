/* cp_layout.h: the data-layout family: one field of a record, stored as AoS or SoA.
 *
 * n records of `fields` 4-byte fields. Thread i reads field `field` of record i:
 *   AoS (array of structs): float element i*fields + field
 *   SoA (struct of arrays): float element field*n + i
 * and writes it densely to out[i]. Both layouts hold n*fields floats.
 * The model (cp_layout_model.c) and the kernels (cp_layout.cu) both call these;
 * threads are numbered as in cp_linear.h (CP_LINEAR_BLOCK threads per block). */
#ifndef CP_LAYOUT_H
#define CP_LAYOUT_H

#include "cp_hd.h"

/* Float element of the AoS array that thread i reads. */
CP_HD uint64_t cp_layout_aos_index(uint64_t i, uint64_t fields, uint64_t field)
{
    return i * fields + field;
}

/* Float element of the SoA array that thread i reads (n records). */
CP_HD uint64_t cp_layout_soa_index(uint64_t i, uint64_t n, uint64_t field)
{
    return field * n + i;
}

/* Floats either layout holds for n records. */
CP_HD uint64_t cp_layout_extent(uint64_t n, uint64_t fields)
{
    return n * fields;
}

#endif
