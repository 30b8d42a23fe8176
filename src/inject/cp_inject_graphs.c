/* cp_inject_graphs.c: the kernel nodes of the traced program's instantiated CUDA graphs, in the
 * order they run (cp_inject_graphs.h). The order is that of a topological sort of the graph; it
 * is the order the GPU runs them in only when every kernel node depends, directly or through
 * other nodes, on the one before it: a chain, as stream capture of one stream makes. A graph
 * with kernels on parallel branches gets no order (its ranges are reported as unmatched). */
#define _GNU_SOURCE
#include "cp_inject_graphs.h"

#include "cp_inject_modules.h"
#include "cp_inject_tensormaps.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"

typedef CUresult (*cp_graph_get_nodes_fn)(CUgraph, CUgraphNode *, size_t *);
typedef CUresult (*cp_graph_get_edges_fn)(CUgraph, CUgraphNode *, CUgraphNode *, CUgraphEdgeData *,
                                          size_t *);
typedef CUresult (*cp_graph_node_get_type_fn)(CUgraphNode, CUgraphNodeType *);
typedef CUresult (*cp_graph_kernel_node_get_params_fn)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*cp_func_get_name_fn)(const char **, CUfunction);
typedef CUresult (*cp_kernel_get_name_fn)(const char **, CUkernel);

static struct {
    cp_graph_get_nodes_fn get_nodes;
    cp_graph_get_edges_fn get_edges;
    cp_graph_node_get_type_fn node_type;
    cp_graph_kernel_node_get_params_fn kernel_params;
    cp_func_get_name_fn func_name;
    cp_kernel_get_name_fn kernel_name;
    int loaded;     /* every function above but kernel_name was found */
    cp_table execs; /* "%p" of a CUgraphExec -> cp_inject_graph */
} cp_graphs;

int cp_inject_graphs_load(void *cuda)
{
    cp_graphs.get_nodes = (cp_graph_get_nodes_fn)dlsym(cuda, "cuGraphGetNodes");
    cp_graphs.get_edges = (cp_graph_get_edges_fn)dlsym(cuda, "cuGraphGetEdges_v2");
    cp_graphs.node_type = (cp_graph_node_get_type_fn)dlsym(cuda, "cuGraphNodeGetType");
    cp_graphs.kernel_params =
        (cp_graph_kernel_node_get_params_fn)dlsym(cuda, "cuGraphKernelNodeGetParams_v2");
    cp_graphs.func_name = (cp_func_get_name_fn)dlsym(cuda, "cuFuncGetName");
    cp_graphs.kernel_name = (cp_kernel_get_name_fn)dlsym(cuda, "cuKernelGetName");
    cp_graphs.loaded = cp_graphs.get_nodes && cp_graphs.get_edges && cp_graphs.node_type &&
                       cp_graphs.kernel_params && cp_graphs.func_name;
    return cp_graphs.loaded;
}

static void cp_graph_free(void *v)
{
    cp_inject_graph *g = v;
    if (!g)
        return;
    for (size_t i = 0; g->functions && i < g->n; i++)
        free(g->functions[i]);
    free(g->functions);
    free(g->crcs);
    free(g->maps);
    free(g);
}

/* The graph's nodes and edges, read from the driver: 0, or -1 (why set). A graph without edges
 * (one kernel node, as torch.cuda.graph makes of `x.t().contiguous()`) is not asked for its edges
 * into arrays of none, and the edges' data is asked for too: a query without it is refused
 * (CUDA_ERROR_LOSSY_QUERY) when an edge carries data (a programmatic dependency). */
typedef struct cp_graph_shape {
    size_t nnodes, nedges;
    CUgraphNode *nodes, *from, *to;
    CUgraphEdgeData *data;
} cp_graph_shape;

static int cp_graph_read(CUgraph graph, cp_graph_shape *s, const char **why)
{
    memset(s, 0, sizeof *s);
    *why = "the driver did not list the graph's nodes and edges";
    if (cp_graphs.get_nodes(graph, NULL, &s->nnodes) != CUDA_SUCCESS ||
        cp_graphs.get_edges(graph, NULL, NULL, NULL, &s->nedges) != CUDA_SUCCESS)
        return -1;
    s->nodes = calloc(s->nnodes + 1, sizeof *s->nodes);
    s->from = calloc(s->nedges + 1, sizeof *s->from);
    s->to = calloc(s->nedges + 1, sizeof *s->to);
    s->data = calloc(s->nedges + 1, sizeof *s->data);
    if (!s->nodes || !s->from || !s->to || !s->data) {
        *why = "out of memory";
        return -1;
    }
    if (s->nnodes > 0 && cp_graphs.get_nodes(graph, s->nodes, &s->nnodes) != CUDA_SUCCESS)
        return -1;
    if (s->nedges > 0 &&
        cp_graphs.get_edges(graph, s->from, s->to, s->data, &s->nedges) != CUDA_SUCCESS)
        return -1;
    *why = NULL;
    return 0;
}

/* Node n's position in the graph's node list (index: "%p" -> position), SIZE_MAX if absent. */
static size_t cp_graph_index(const cp_table *index, CUgraphNode n)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (void *)n);
    const cp_table_entry *e = cp_table_find(index, key);
    return e ? e->index : SIZE_MAX;
}

/* Edges as adjacency lists: the edges into node i (its dependencies) are src[first[i] ..
 * first[i + 1]), by index. */
typedef struct cp_graph_adjacency {
    size_t *first, *src;
} cp_graph_adjacency;

/* 1 when node b depends on node a, directly or through other nodes. */
static int cp_graph_depends(size_t n, const cp_graph_adjacency *in, size_t a, size_t b,
                            unsigned char *seen, size_t *stack)
{
    memset(seen, 0, n);
    size_t top = 0;
    stack[top++] = b;
    seen[b] = 1;
    while (top) {
        size_t x = stack[--top];
        for (size_t e = in->first[x]; e < in->first[x + 1]; e++) {
            size_t y = in->src[e];
            if (y == a)
                return 1;
            if (!seen[y]) {
                seen[y] = 1;
                stack[top++] = y;
            }
        }
    }
    return 0;
}

/* The tensor maps among the parameters of a kernel node's launch p (its params as the node keeps
 * them), into *m when the program has encoded descriptors and their sizes can be read. */
static void cp_graph_node_maps(const CUDA_KERNEL_NODE_PARAMS *p, cp_inject_graph_maps *m)
{
    memset(m, 0, sizeof *m);
    CUfunction f = p->func ? p->func : (CUfunction)p->kern;
    uint16_t index[CP_INJECT_GRAPH_NODE_MAPS];
    int n =
        cp_inject_tmaps_any() ? cp_inject_tmaps_params(f, index, CP_INJECT_GRAPH_NODE_MAPS) : -1;
    if (n < 0)
        return;
    for (m->nmaps = 0; m->nmaps < n; m->nmaps++)
        m->map[m->nmaps] =
            p->kernelParams ? cp_inject_tmaps_find(p->kernelParams[index[m->nmaps]]) : -1;
    m->compared = 1;
}

void cp_inject_graphs_count_maps(const cp_inject_graph *g, uint32_t ordinal)
{
    for (size_t i = 0; g->maps && g->functions && i < g->n; i++) {
        const cp_inject_graph_maps *m = &g->maps[i];
        if (!m->compared || m->nmaps == 0)
            continue;
        for (int j = 0; j < m->nmaps; j++)
            cp_inject_tmaps_used(ordinal, g->crcs[i], g->functions[i], m->map[j], NULL);
        cp_inject_tmaps_checked(ordinal, g->crcs[i], g->functions[i], NULL);
    }
}

/* A kernel node's function name, copied, its cubin in *crc (0 unknown) and its tensor maps in
 * *maps (NULL: not read); NULL when the name cannot be read. */
static char *cp_graph_function(CUgraphNode node, uint32_t *crc, cp_inject_graph_maps *maps)
{
    *crc = 0;
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    if (cp_graphs.kernel_params(node, &p) != CUDA_SUCCESS)
        return NULL;
    if (maps)
        cp_graph_node_maps(&p, maps);
    const char *name = NULL;
    if (p.func && cp_graphs.func_name(&name, p.func) != CUDA_SUCCESS)
        name = NULL;
    if (name)
        *crc = cp_inject_modules_crc(p.func);
    if (!name && p.kern && cp_graphs.kernel_name &&
        cp_graphs.kernel_name(&name, p.kern) != CUDA_SUCCESS)
        name = NULL;
    return name ? strdup(name) : NULL;
}

/* The graph as numbers: edges by node position, adjacency lists both ways, and the scratch of
 * the searches. */
typedef struct cp_graph_work {
    size_t n, m;
    size_t *from, *to, *order, *kernels, *stack;
    size_t *out_first, *out_dst;
    cp_graph_adjacency in;
    unsigned char *seen;
} cp_graph_work;

static void cp_graph_work_free(cp_graph_work *w)
{
    free(w->from);
    free(w->to);
    free(w->order);
    free(w->kernels);
    free(w->stack);
    free(w->out_first);
    free(w->out_dst);
    free(w->in.first);
    free(w->in.src);
    free(w->seen);
}

/* Fills w from s: 0, or -1 with *why. */
static int cp_graph_work_init(const cp_graph_shape *s, cp_graph_work *w, const char **why)
{
    size_t n = s->nnodes, m = s->nedges;
    cp_table index = {0};
    int rc = -1;
    memset(w, 0, sizeof *w);
    w->n = n, w->m = m;
    w->from = calloc(m + 1, sizeof(size_t)), w->to = calloc(m + 1, sizeof(size_t));
    w->order = calloc(n + 1, sizeof(size_t)), w->kernels = calloc(n + 1, sizeof(size_t));
    w->stack = calloc(n + 1, sizeof(size_t)), w->out_first = calloc(n + 2, sizeof(size_t));
    w->out_dst = calloc(m + 1, sizeof(size_t)), w->in.first = calloc(n + 2, sizeof(size_t));
    w->in.src = calloc(m + 1, sizeof(size_t)), w->seen = calloc(n + 1, 1);
    *why = "out of memory";
    if (!w->from || !w->to || !w->order || !w->kernels || !w->stack || !w->out_first ||
        !w->out_dst || !w->in.first || !w->in.src || !w->seen)
        goto out;
    for (size_t i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "%p", (void *)s->nodes[i]);
        cp_table_entry *e = cp_table_get(&index, key, NULL);
        if (!e)
            goto out;
        e->index = i;
    }
    for (size_t e = 0; e < m; e++) {
        w->from[e] = cp_graph_index(&index, s->from[e]);
        w->to[e] = cp_graph_index(&index, s->to[e]);
        if (w->from[e] == SIZE_MAX || w->to[e] == SIZE_MAX) {
            *why = "an edge names a node the graph does not list";
            goto out;
        }
        w->out_first[w->from[e] + 1]++;
        w->in.first[w->to[e] + 1]++;
    }
    for (size_t i = 0; i < n; i++) { /* counts into starts */
        w->out_first[i + 1] += w->out_first[i];
        w->in.first[i + 1] += w->in.first[i];
    }
    for (size_t e = 0; e < m; e++) /* stack[i]: node i's outgoing edges placed so far */
        w->out_dst[w->out_first[w->from[e]] + w->stack[w->from[e]]++] = w->to[e];
    memset(w->stack, 0, (n + 1) * sizeof(size_t));
    for (size_t e = 0; e < m; e++)
        w->in.src[w->in.first[w->to[e]] + w->stack[w->to[e]]++] = w->from[e];
    rc = 0;
out:
    cp_table_free(&index, NULL);
    return rc;
}

/* w->order: the nodes in a topological order (Kahn's algorithm, order[] as its queue); -1 when
 * the graph has a cycle. */
static int cp_graph_topological(cp_graph_work *w)
{
    size_t head = 0, tail = 0, *indegree = w->stack; /* the stack is free until the searches */
    for (size_t i = 0; i < w->n; i++)
        indegree[i] = w->in.first[i + 1] - w->in.first[i];
    for (size_t i = 0; i < w->n; i++)
        if (indegree[i] == 0)
            w->order[tail++] = i;
    while (head < tail) {
        size_t x = w->order[head++];
        for (size_t e = w->out_first[x]; e < w->out_first[x + 1]; e++)
            if (--indegree[w->out_dst[e]] == 0)
                w->order[tail++] = w->out_dst[e];
    }
    return tail == w->n ? 0 : -1;
}

/* The kernel nodes of s in topological order into g: the order only when each kernel node
 * depends on the one before it; g->why otherwise. */
static void cp_graph_order(const cp_graph_shape *s, cp_inject_graph *g)
{
    cp_graph_work w;
    if (cp_graph_work_init(s, &w, &g->why) != 0)
        goto out;
    g->why = "the graph has a cycle";
    if (cp_graph_topological(&w) != 0)
        goto out;
    g->n = 0;
    for (size_t k = 0; k < w.n; k++) {
        CUgraphNodeType type;
        g->why = "the driver did not give a node's type";
        if (cp_graphs.node_type(s->nodes[w.order[k]], &type) != CUDA_SUCCESS)
            goto out;
        g->why = "the graph holds a child or conditional graph, whose kernels are not followed";
        if (type == CU_GRAPH_NODE_TYPE_GRAPH || type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
            goto out;
        if (type == CU_GRAPH_NODE_TYPE_KERNEL)
            w.kernels[g->n++] = w.order[k];
    }
    g->why = "kernels on parallel branches run in no fixed order";
    for (size_t k = 1; k < g->n; k++)
        if (!cp_graph_depends(w.n, &w.in, w.kernels[k - 1], w.kernels[k], w.seen, w.stack))
            goto out;
    g->why = "out of memory";
    if (!(g->functions = calloc(g->n + 1, sizeof *g->functions)) ||
        !(g->crcs = calloc(g->n + 1, sizeof *g->crcs)))
        goto out;
    if (cp_inject_tmaps_any()) /* no maps read otherwise: launches say nothing of them */
        g->maps = calloc(g->n + 1, sizeof *g->maps);
    g->why = "the driver did not name a kernel node's function";
    for (size_t k = 0; k < g->n; k++)
        if (!(g->functions[k] = cp_graph_function(s->nodes[w.kernels[k]], &g->crcs[k],
                                                  g->maps ? &g->maps[k] : NULL)))
            goto out;
    g->why = NULL;
out:
    if (g->why && g->functions) {
        for (size_t k = 0; k < g->n; k++)
            free(g->functions[k]);
        free(g->functions);
        g->functions = NULL;
    }
    if (!g->functions) {
        free(g->crcs);
        free(g->maps);
        g->crcs = NULL;
        g->maps = NULL;
    }
    cp_graph_work_free(&w);
}

int cp_inject_graphs_instantiated(CUgraphExec exec, CUgraph graph)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (void *)exec);
    cp_inject_graph *g = calloc(1, sizeof *g);
    if (!g)
        return -1;
    cp_graph_shape s = {0};
    const char *why = NULL;
    if (!cp_graphs.loaded)
        g->why = "the driver lacks a function coalprobe reads graphs with";
    else if (cp_graph_read(graph, &s, &why) != 0)
        g->why = why;
    else
        cp_graph_order(&s, g);
    free(s.nodes);
    free(s.from);
    free(s.to);
    free(s.data);
    cp_table_entry *e = cp_table_get(&cp_graphs.execs, key, NULL);
    if (!e) {
        cp_graph_free(g);
        return -1;
    }
    cp_graph_free(e->value);
    e->value = g;
    return 0;
}

void cp_inject_graphs_destroyed(CUgraphExec exec)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (void *)exec);
    cp_table_entry *e = cp_table_find(&cp_graphs.execs, key);
    if (e) { /* the slot stays (no removal in cp_table): an empty record of no graph */
        cp_graph_free(e->value);
        e->value = NULL;
    }
}

const cp_inject_graph *cp_inject_graphs_find(CUgraphExec exec)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (void *)exec);
    cp_table_entry *e = cp_table_find(&cp_graphs.execs, key);
    return e ? e->value : NULL;
}

void cp_inject_graphs_free(void)
{
    cp_table_free(&cp_graphs.execs, cp_graph_free);
}
