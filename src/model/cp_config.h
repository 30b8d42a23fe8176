/* cp_config.h: one configuration of a sweep (pattern family plus its parameters) and the
 * names of its enumerations as they appear on the command line and in reports. */
#ifndef CP_CONFIG_H
#define CP_CONFIG_H

#include <stdint.h>

#include "cp_expr.h"
#include "cp_family.h" /* cp_family: the pattern families */

typedef enum { CP_OP_LOAD, CP_OP_STORE, CP_OP_COUNT } cp_op;
typedef enum { CP_LAYOUT_AOS, CP_LAYOUT_SOA, CP_LAYOUT_COUNT } cp_layout;
typedef enum {
    CP_GEMM_NAIVE,
    CP_GEMM_COALESCED,
    CP_GEMM_SMEM,
    CP_GEMM_CUBLAS, /* the reference: measured, not modelled */
    CP_GEMM_COUNT
} cp_gemm_variant;

typedef enum {
    CP_TRANSPOSE_NAIVE,  /* coalesced read, strided write, no shared memory */
    CP_TRANSPOSE_TILED,  /* 32 x 32 tiles through shared memory: column reads conflict */
    CP_TRANSPOSE_PADDED, /* the same with one float of padding per tile row */
    CP_TRANSPOSE_COUNT
} cp_transpose_variant;

typedef enum {
    CP_READONLY_VARIANT_PLAIN,    /* const float *: LDG.E */
    CP_READONLY_VARIANT_RESTRICT, /* const float *__restrict__: the read-only path */
    CP_READONLY_VARIANT_LDG,      /* __ldg() */
    CP_READONLY_VARIANT_CONSTANT, /* __constant__ memory: LDC, tables up to 64 KB */
    CP_READONLY_VARIANT_COUNT
} cp_readonly_variant;

typedef enum {
    CP_LOOKUP_MOD,       /* table[i % entries] */
    CP_LOOKUP_RANDOM,    /* table[hash(i) % entries] */
    CP_LOOKUP_BROADCAST, /* table[(i / 32) % entries]: one entry per warp */
    CP_LOOKUP_COUNT
} cp_lookup;

typedef enum {
    CP_ASYNC_VARIANT_PLAIN,      /* each thread loads its elements (LDG) */
    CP_ASYNC_VARIANT_SMEM,       /* staged in shared memory synchronously (LDG, STS, LDS) */
    CP_ASYNC_VARIANT_CP_ASYNC,   /* cp.async into shared memory (LDGSTS), stages in flight */
    CP_ASYNC_VARIANT_TMA_BULK,   /* cp.async.bulk of the whole tile (TMA), mbarriers */
    CP_ASYNC_VARIANT_TMA_TENSOR, /* cp.async.bulk.tensor.2d through a tensor map */
    CP_ASYNC_VARIANT_COUNT
} cp_async_variant;

/* Documented limits of the parameters (the CLI refuses values outside them). */
#define CP_STRIDE_MAX 4096u
#define CP_OFFSET_MAX 4096u
#define CP_FIELDS_MAX 64u
#define CP_GEMM_DIM_MAX 65536u
#define CP_SIZE_MIN 4096u                    /* bytes */
#define CP_SIZE_MAX (16ull << 30)            /* bytes */
#define CP_SIZE_DEFAULT (256ull << 20)       /* bytes: about 5x the 50 MB L2 of an H100 */
#define CP_GATHER_SIZE_DEFAULT (64ull << 20) /* bytes: the gather model counts every warp */
#define CP_EXPR_SIZE_DEFAULT (64ull << 20)   /* bytes: the expr model evaluates every thread */
#define CP_SMEM_STRIDE_MAX 64u               /* elements: 32 * 64 * 16 bytes of shared memory */
#define CP_TRANSPOSE_DIM_MAX 65536u
#define CP_READONLY_SIZE_DEFAULT (64ull << 20) /* bytes of out: 16M lookups */
#define CP_TABLE_MIN 128ull                    /* bytes: one 128-byte line */
#define CP_TABLE_MAX (4ull << 30)              /* bytes: 2^30 entries */
#define CP_TABLE_CONSTANT_MAX 65536ull         /* bytes of __constant__ memory */
#define CP_ASYNC_TILE_FLOATS 4096u             /* a tile: 16 KB (families/async/cp_async.h) */
#define CP_ASYNC_STAGES_LIMIT 4u
#define CP_ASYNC_WORK_LIMIT 4096u

/* One configuration. Only the fields of `family` are meaningful; the others stay zero. */
typedef struct cp_config {
    cp_family family;
    /* stride family */
    uint64_t stride;      /* elements between neighbouring threads, >= 1 */
    uint64_t offset;      /* elements of width_bytes skipped at the start */
    uint32_t width_bytes; /* 4, 8, 16 or 32 */
    cp_op op;             /* which side is strided */
    /* layout family */
    cp_layout layout;
    uint32_t fields; /* 4-byte fields per record, >= 1 */
    uint32_t field;  /* field read, < fields */
    /* gather family */
    uint64_t run;  /* contiguous elements kept together by the index array (1: random) */
    uint64_t seed; /* of the permutation */
    /* smem family: stride, width_bytes and op as above, on a shared-memory array; each thread
     * makes `iterations` accesses */
    uint64_t iterations;
    /* transpose family: an m x n matrix (m rows) becomes n x m */
    cp_transpose_variant transpose;
    /* expr family: the index expression (owned by the caller, shared by every configuration
     * of a sweep), its parameters' values in the order of its names; width_bytes and op as in
     * the stride family, op picking the side indexed by the expression */
    const struct cp_expr *expr;
    int64_t expr_params[CP_EXPR_MAX_PARAMS];
    uint32_t nexpr_params;
    /* readonly family: a lookup out[i] = table[entry(i)] from a table of table_bytes */
    cp_readonly_variant readonly;
    cp_lookup lookup;
    uint64_t table_bytes;
    /* async family: tiles of 16 KB loaded by `async`, `stages` in flight, `work` FMAs per
     * element; elements = 4096 per tile */
    cp_async_variant async;
    uint32_t stages;
    uint32_t work;
    /* stride, layout, gather, smem, expr, readonly and async: elements (threads but for
     * async) */
    uint64_t elements;
    /* gemm family */
    cp_gemm_variant variant;
    uint64_t m, n, k;
} cp_config;

/* The names of the enumerations, one table each, indexed by their values. */
extern const char *const cp_config_op_names[CP_OP_COUNT];
extern const char *const cp_config_layout_names[CP_LAYOUT_COUNT];
extern const char *const cp_config_variant_names[CP_GEMM_COUNT];
extern const char *const cp_config_transpose_names[CP_TRANSPOSE_COUNT];
extern const char *const cp_config_readonly_names[CP_READONLY_VARIANT_COUNT];
extern const char *const cp_config_lookup_names[CP_LOOKUP_COUNT];
extern const char *const cp_config_async_names[CP_ASYNC_VARIANT_COUNT];

const char *cp_config_family_name(cp_family f);
const char *cp_config_op_name(cp_op op);
const char *cp_config_variant_name(cp_gemm_variant v);

/* Elements (threads) that a run of `size_bytes` useful bytes gives for this access width. */
uint64_t cp_config_elements_for_size(uint64_t size_bytes, uint32_t width_bytes);

/* Writes an expr configuration's parameters as name=value pairs joined by sep ("s=2 k=1"),
 * "" without parameters, into buf (len bytes, cut to fit). */
void cp_config_format_params(const cp_config *c, const char *sep, char *buf, unsigned long len);

/* 1 when c's kernel uses shared memory (smem; transpose tiled and padded; gemm smem): its sweep
 * reads the shared-memory counters too, which cost the profiler one more pass. */
int cp_config_uses_shared(const cp_config *c);

/* 1 when every global access of c's kernel is issued only by warps with an active lane (stride
 * and layout: one bounds check, and a warp past it exits before any access), so that its
 * warp-level global instructions are its requests: the profiler then counts requests as
 * instructions, in the pass of the sector counters (2 passes instead of 4). */
int cp_config_requests_are_instructions(const cp_config *c);

/* 1 when c's family reads the memory path's counters (L1 and L2 hits, SM active, constant,
 * cp.async and TMA loads): the readonly and async families, whose lessons they are. */
int cp_config_path_counters(const cp_config *c);

/* Writes a short human label such as "stride=2 offset=0 width=4 op=load" into buf. */
void cp_config_describe(const cp_config *c, char *buf, unsigned long len);

#endif
