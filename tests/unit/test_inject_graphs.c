/* test_inject_graphs.c: the injection library's CUDA graphs without a GPU: the driver's graph
 * functions faked (nodes, edges with their data, node types, kernel names) and the order of the
 * kernel nodes read from them: a graph of one kernel node and no edge (torch.cuda.graph of one
 * operator), a chain whose edges carry data, a kernel after a memset, parallel branches. The fake
 * driver holds to its documentation: edges with data are refused to a query without their data
 * (CUDA_ERROR_LOSSY_QUERY), and arrays are only given with a count of at least one. */
#define _GNU_SOURCE
#include "cp_test.h"

/* the module itself, its statics included */
#include "inject/cp_inject_graphs.c"
#include "inject/cp_inject_modules.c"

typedef struct fake_graph {
    size_t n, m;
    CUgraphNodeType type[8];
    const char *name[8];
    size_t from[8], to[8];
    int edge_data; /* 1: the edges carry data (a programmatic dependency) */
} fake_graph;

static char fake_node_base[8]; /* node i is &fake_node_base[i], function i is name[i] */
static fake_graph *fake_current_graph;

static size_t fake_index(CUgraphNode node)
{
    return (size_t)((char *)node - fake_node_base);
}

static CUresult f_get_nodes(CUgraph graph, CUgraphNode *nodes, size_t *count)
{
    fake_graph *g = (fake_graph *)graph;
    if (nodes && *count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodes)
        for (size_t i = 0; i < g->n && i < *count; i++)
            nodes[i] = (CUgraphNode)&fake_node_base[i];
    *count = g->n;
    return CUDA_SUCCESS;
}

static CUresult f_get_edges(CUgraph graph, CUgraphNode *from, CUgraphNode *to,
                            CUgraphEdgeData *data, size_t *count)
{
    fake_graph *g = (fake_graph *)graph;
    if ((from != NULL) != (to != NULL))
        return CUDA_ERROR_INVALID_VALUE;
    if (from && *count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (from && !data && g->edge_data)
        return CUDA_ERROR_LOSSY_QUERY;
    if (from)
        for (size_t e = 0; e < g->m && e < *count; e++) {
            from[e] = (CUgraphNode)&fake_node_base[g->from[e]];
            to[e] = (CUgraphNode)&fake_node_base[g->to[e]];
            if (data) {
                memset(&data[e], 0, sizeof data[e]);
                data[e].type = g->edge_data ? CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC
                                            : CU_GRAPH_DEPENDENCY_TYPE_DEFAULT;
            }
        }
    *count = g->m;
    return CUDA_SUCCESS;
}

static CUresult f_node_type(CUgraphNode node, CUgraphNodeType *type)
{
    *type = fake_current_graph->type[fake_index(node)];
    return CUDA_SUCCESS;
}

static CUresult f_kernel_params(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    p->func = (CUfunction)(fake_node_base + fake_index(node));
    return CUDA_SUCCESS;
}

static CUresult f_func_name(const char **name, CUfunction func)
{
    *name = fake_current_graph->name[fake_index((CUgraphNode)func)];
    return CUDA_SUCCESS;
}

static void fake_driver(void)
{
    cp_graphs.get_nodes = f_get_nodes;
    cp_graphs.get_edges = f_get_edges;
    cp_graphs.node_type = f_node_type;
    cp_graphs.kernel_params = f_kernel_params;
    cp_graphs.func_name = f_func_name;
    cp_graphs.kernel_name = NULL;
    cp_graphs.loaded = 1;
}

/* The graph instantiated as exec: its record. */
static const cp_inject_graph *instantiate(fake_graph *g, uintptr_t exec)
{
    fake_current_graph = g;
    CHECK(cp_inject_graphs_instantiated((CUgraphExec)exec, (CUgraph)g) == 0);
    return cp_inject_graphs_find((CUgraphExec)exec);
}

static void test_one_kernel(void)
{
    /* torch.cuda.graph of `y = x.t().contiguous()`: one kernel node, no edge */
    fake_graph g = {.n = 1, .type = {CU_GRAPH_NODE_TYPE_KERNEL}, .name = {"copy_kernel"}};
    const cp_inject_graph *r = instantiate(&g, 0x10);
    CHECK(r && r->why == NULL && r->n == 1 && r->functions);
    if (r && r->why)
        fprintf(stderr, "why: %s\n", r->why);
    if (r && r->functions)
        CHECK_STR_CONTAINS(r->functions[0], "copy_kernel");
}

static void test_chain_with_edge_data(void)
{
    fake_graph g = {
        .n = 3,
        .m = 2,
        .type = {CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_KERNEL},
        .name = {"sin", "cos", "add"},
        .from = {0, 1},
        .to = {1, 2},
        .edge_data = 1};
    const cp_inject_graph *r = instantiate(&g, 0x20);
    CHECK(r && r->why == NULL && r->n == 3 && r->functions);
    if (r && r->functions)
        CHECK(strcmp(r->functions[0], "sin") == 0 && strcmp(r->functions[1], "cos") == 0 &&
              strcmp(r->functions[2], "add") == 0);
}

static void test_memset_then_kernel(void)
{
    fake_graph g = {.n = 2,
                    .m = 1,
                    .type = {CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_KERNEL},
                    .name = {NULL, "fill"},
                    .from = {0},
                    .to = {1}};
    const cp_inject_graph *r = instantiate(&g, 0x30);
    CHECK(r && r->why == NULL && r->n == 1 && r->functions && strcmp(r->functions[0], "fill") == 0);
}

static void test_parallel_and_empty(void)
{
    fake_graph g = {
        .n = 2, .type = {CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_KERNEL}, .name = {"a", "b"}};
    const cp_inject_graph *r = instantiate(&g, 0x40);
    CHECK(r && r->functions == NULL && r->why && strstr(r->why, "parallel branches"));
    fake_graph empty = {.n = 0};
    r = instantiate(&empty, 0x50);
    CHECK(r && r->why == NULL && r->n == 0);
}

int main(void)
{
    fake_driver();
    test_one_kernel();
    test_chain_with_edge_data();
    test_memset_then_kernel();
    test_parallel_and_empty();
    cp_inject_graphs_free();
    return cp_test_finish();
}
