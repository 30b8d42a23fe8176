/* cp_occupancy.h: what a kernel needs of an SM (registers, shared memory, threads) and which of
 * the SM's limits holds its blocks per SM down: CUDA's occupancy calculation
 * (cuda_occupancy.h), done on numbers alone so that --explain and the reports can say why a
 * kernel has the occupancy it has. Pure functions: no GPU, no CUDA. */
#ifndef CP_OCCUPANCY_H
#define CP_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

/* What one SM offers (device attributes, and the allocation units of its architecture). */
typedef struct cp_sm_limits {
    uint32_t warp_size;           /* 32 */
    uint32_t max_threads_per_sm;  /* cudaDevAttrMaxThreadsPerMultiProcessor: 2048 on the H100 */
    uint32_t max_blocks_per_sm;   /* cudaDevAttrMaxBlocksPerMultiprocessor: 32 */
    uint32_t registers_per_sm;    /* cudaDevAttrMaxRegistersPerMultiprocessor: 65536 */
    uint32_t register_unit;       /* a warp's registers are allocated in units of this: 256 */
    uint32_t register_partitions; /* the register file is split among this many SM
                                   * sub-partitions, each holding whole warps: 4 */
    uint64_t shared_bytes_per_sm; /* cudaDevAttrMaxSharedMemoryPerMultiprocessor: 233472 */
    uint32_t shared_unit;         /* a block's shared memory is allocated in units of this: 128 */
    uint32_t shared_reserved_per_block; /* cudaDevAttrReservedSharedMemoryPerBlock: 1024 */
} cp_sm_limits;

/* Fills the allocation units of architecture `arch` (90 for sm_90) from CUDA's occupancy
 * calculator: registers in units of 256 per warp over 4 sub-partitions, shared memory in units
 * of 256 bytes before sm_80 and 128 from sm_80 on. Returns 0 for an architecture before sm_50
 * (not known), 1 otherwise. */
int cp_occupancy_arch_units(int arch, cp_sm_limits *sm);

/* What an SM's limit on blocks can be. */
typedef enum {
    CP_LIMIT_THREADS,   /* the SM's threads (warps) */
    CP_LIMIT_REGISTERS, /* the SM's register file */
    CP_LIMIT_SHARED,    /* the SM's shared memory */
    CP_LIMIT_BLOCKS,    /* the SM's most resident blocks */
    CP_LIMIT_COUNT
} cp_limit;

/* Blocks per SM that each limit allows, the least of them, and which limits hold it there. */
typedef struct cp_occupancy {
    uint32_t warps_per_block;
    uint32_t blocks_by[CP_LIMIT_COUNT]; /* UINT32_MAX where the limit does not bind (no shared
                                         * memory used, or no registers) */
    uint32_t blocks;                    /* the least of blocks_by: blocks resident per SM */
    unsigned limiters;                  /* bit (1u << limit) for each limit equal to blocks */
    double occupancy;                   /* blocks * warps_per_block / the SM's warps, 0..1 */
} cp_occupancy;

/* Computes the occupancy of blocks of `threads` threads using `registers` registers per thread
 * and `shared_bytes` of shared memory (static plus dynamic) on an SM with limits sm, as CUDA's
 * occupancy calculator does (default shared memory carveout: all of shared_bytes_per_sm).
 * Returns 0 (out untouched) when threads is 0 or a limit of sm is 0, 1 otherwise; blocks is 0
 * when one block does not fit. */
int cp_occupancy_compute(const cp_sm_limits *sm, uint32_t threads, uint32_t registers,
                         uint64_t shared_bytes, cp_occupancy *out);

/* The limit's name as reports write it: "threads", "registers", "shared_memory", "blocks". */
const char *cp_limit_name(cp_limit l);

/* The limits of `limiters`, in enum order, named and joined with `sep` ("threads+registers"),
 * into buf; "" when there are none. */
void cp_occupancy_describe_limiters(unsigned limiters, const char *sep, char *buf, size_t len);

#endif
