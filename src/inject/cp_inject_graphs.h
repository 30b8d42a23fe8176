/* cp_inject_graphs.h: the injection library's view of the traced program's CUDA graphs: for
 * every instantiated graph (CUgraphExec), the functions of its kernel nodes in the order they
 * run, so that the Range Profiler's ranges of a graph launch (one per kernel node) are filed
 * under the right kernels; or why that order cannot be told. Runs inside the traced program:
 * libc and the CUDA driver only (its functions looked up with dlsym). */
#ifndef CP_INJECT_GRAPHS_H
#define CP_INJECT_GRAPHS_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

/* An instantiated graph: n kernel nodes, their functions in the order they run (functions NULL
 * and why set when that order is not one: parallel branches, or a node whose function cannot be
 * read). */
/* The tensor maps a kernel node passes, read when its graph is instantiated: the maps of its
 * 128-byte parameters (cp_inject_tmaps_find: -1 for one that is no recorded map). */
#define CP_INJECT_GRAPH_NODE_MAPS 16
typedef struct cp_inject_graph_maps {
    int compared; /* 1: its 128-byte parameters were read (nmaps of them) */
    int nmaps;
    int64_t map[CP_INJECT_GRAPH_NODE_MAPS];
} cp_inject_graph_maps;

typedef struct cp_inject_graph {
    size_t n;
    char **functions;
    cp_inject_graph_maps *maps; /* beside functions, or NULL: no descriptor encoded yet */
    uint32_t *crcs; /* beside functions: each one's cubin (cp_inject_modules_crc), 0 unknown */
    const char *why;
} cp_inject_graph;

/* Looks the driver's graph functions up in the handle of libcuda; 0 when one is missing (graphs
 * are then not followed: their ranges are reported as unmatched). */
int cp_inject_graphs_load(void *cuda);

/* Says each launch of graph g's kernel nodes to the tensor map record (cp_inject_tensormaps.h):
 * the maps each node passes, and that its parameters were compared. */
void cp_inject_graphs_count_maps(const cp_inject_graph *g, uint32_t ordinal);

/* Records exec, instantiated (or updated) from graph. 0, or -1 when memory runs out. */
int cp_inject_graphs_instantiated(CUgraphExec exec, CUgraph graph);

/* Forgets exec (destroyed). */
void cp_inject_graphs_destroyed(CUgraphExec exec);

/* exec as recorded, or NULL when it never was (instantiated before the injection, or the lookups
 * failed). */
const cp_inject_graph *cp_inject_graphs_find(CUgraphExec exec);

/* Forgets every graph. */
void cp_inject_graphs_free(void);

#endif
