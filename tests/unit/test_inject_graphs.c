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
#include "inject/cp_inject_format.c"
#include "inject/cp_inject_tensormaps.c"

/* the tensor map callbacks' subscription: this test's own */
CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    (void)enable, (void)subscriber, (void)domain, (void)cbid;
    return CUPTI_SUCCESS;
}

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

/* node 0's parameters, when fake_params is set: (int, CUtensorMap, float *, CUtensorMap) */
static void **fake_params;

static CUresult f_kernel_params(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    p->func = (CUfunction)(fake_node_base + fake_index(node));
    p->kernelParams = fake_index(node) == 0 ? fake_params : NULL;
    return CUDA_SUCCESS;
}

static CUresult f_param_info(CUfunction f, size_t i, size_t *offset, size_t *size)
{
    static const size_t sizes[] = {4, 128, 8, 128};
    if (fake_index((CUgraphNode)f) != 0 || i >= 4)
        return CUDA_ERROR_INVALID_VALUE;
    *offset = 0;
    *size = sizes[i];
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
    cp_inject_tmaps_param_info = f_param_info;
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

/* A graph's kernel node passing two tensor maps, one encoded on the host and one not: each run
 * of the graph says both (the second unseen) and that the node's parameters were compared. */
static void test_node_maps(void)
{
    fake_graph g0 = {.n = 1, .type = {CU_GRAPH_NODE_TYPE_KERNEL}, .name = {"tma_k"}};
    CHECK(instantiate(&g0, 0x50)->maps == NULL); /* no descriptor encoded yet: none read */
    CHECK(cp_inject_tmaps_enable(NULL) == CUPTI_SUCCESS);
    CUtensorMap known, built;
    memset(&known, 0x5a, sizeof known), memset(&built, 0x3c, sizeof built);
    cuuint64_t dims[1] = {1024};
    cuuint32_t box[1] = {32}, es[1] = {1};
    cuTensorMapEncodeTiled_params e = {&known,
                                       CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                                       1,
                                       (void *)(uintptr_t)0x7f0000000000,
                                       dims,
                                       NULL,
                                       box,
                                       es,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE,
                                       CU_TENSOR_MAP_SWIZZLE_NONE,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE};
    CUresult ok = CUDA_SUCCESS;
    CUpti_CallbackData cb = {
        .callbackSite = CUPTI_API_EXIT, .functionParams = &e, .functionReturnValue = &ok};
    CHECK(cp_inject_tmaps_call(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, &cb));
    int n = 5;
    float *x = NULL;
    void *params[] = {&n, &known, &x, &built};
    fake_params = params;
    fake_graph g = {.n = 1, .type = {CU_GRAPH_NODE_TYPE_KERNEL}, .name = {"tma_k"}};
    const cp_inject_graph *r = instantiate(&g, 0x60);
    CHECK(r && r->maps && r->maps[0].compared && r->maps[0].nmaps == 2);
    if (r && r->maps)
        CHECK(r->maps[0].map[0] == 0 && r->maps[0].map[1] == -1);
    for (int run = 0; r && run < 3; run++)
        cp_inject_graphs_count_maps(r, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    cp_inject_tmaps_write(mem);
    fclose(mem);
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\ttma_k\t0\t3\n");
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\ttma_k\t-\t3\n");
    CHECK_STR_CONTAINS(text, "kernel_tmap\t0\ttma_k\t*\t3\n");
    free(text);
    fake_params = NULL;
}

int main(void)
{
    fake_driver();
    test_one_kernel();
    test_chain_with_edge_data();
    test_memset_then_kernel();
    test_parallel_and_empty();
    test_node_maps();
    cp_inject_graphs_free();
    return cp_test_finish();
}
