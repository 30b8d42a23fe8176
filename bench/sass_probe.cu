// sass_probe.cu: a standalone check of CUPTI's SASS metrics API, outside any injection: enable
// once, then launch kernels A, B, A, C, each followed by a synchronisation and a flush, and print
// how many records and warp-level global loads each flush returned. Used to find out why only the
// first function launched after an enable was counted (docs/trace.md, "What CUPTI does").
// usage: sass_probe [lazy 0|1] [reenable 0|1|2|3] [flushes 0|1] [order ABAC|BAAC|...] [newctx 0|1]
//                   [delay N: launches before the enable]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#define CU(call)                                                                                   \
    do {                                                                                           \
        CUptiResult r_ = (call);                                                                   \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_;                                                                        \
            cuptiGetResultString(r_, &s_);                                                         \
            printf("%s failed: %s at line %d\n", #call, s_, __LINE__);                             \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void probe_a(const float *in, float *out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }
__global__ void probe_b(const float *in, float *out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[(i * 32) % (1 << 20)] * 2.0f; }
__global__ void probe_c(const float *in, float *out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i ^ 1] + 1.0f; }

void probe_launch_d(const float *in, float *out); // bench/sass_probe_other.cu

static uint64_t g_ld_id;

static int flush(CUcontext ctx, const char *label)
{
    CUpti_SassMetricsGetDataProperties_Params dp = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp.ctx = ctx;
    CU(cuptiSassMetricsGetDataProperties(&dp));
    size_t n = dp.numOfPatchedInstructionRecords, k = dp.numOfInstances;
    printf("%-10s records %zu instances %zu", label, n, k);
    if (n == 0 || k == 0) {
        printf("\n");
        return 0;
    }
    CUpti_SassMetrics_Data *data = (CUpti_SassMetrics_Data *)calloc(n, sizeof *data);
    CUpti_SassMetrics_InstanceValue *v = (CUpti_SassMetrics_InstanceValue *)calloc(n * k, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        data[i].structSize = sizeof data[i];
        data[i].pInstanceValues = v + i * k;
    }
    CUpti_SassMetricsFlushData_Params fp = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    fp.ctx = ctx;
    fp.numOfPatchedInstructionRecords = n;
    fp.numOfInstances = k;
    fp.pMetricsData = data;
    CU(cuptiSassMetricsFlushData(&fp));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++)
            if (data[i].pInstanceValues[j].metricId == g_ld_id && data[i].pInstanceValues[j].value)
                printf("  [%s pc 0x%x ld %llu]", data[i].functionName + 2, data[i].pcOffset,
                       (unsigned long long)data[i].pInstanceValues[j].value);
    printf("\n");
    free(data);
    free(v);
    return 0;
}

int main(int argc, char **argv)
{
    int lazy = argc > 1 ? atoi(argv[1]) : 1, reenable = argc > 2 ? atoi(argv[2]) : 0;
    int flushes = argc > 3 ? atoi(argv[3]) : 1;
    const char *order = argc > 4 ? argv[4] : "ABAC";
    int newctx = argc > 5 ? atoi(argv[5]) : 0;
    int delay = argc > 6 ? atoi(argv[6]) : 0;
    if (newctx) {
        CUcontext c;
        cuInit(0);
        CUctxCreateParams cp = {};
        if (cuCtxCreate(&c, &cp, 0, 0) != CUDA_SUCCESS)
            printf("cuCtxCreate failed\n");
    }
    float *in, *out;
    cudaMalloc(&in, 4 << 20);
    cudaMalloc(&out, 4 << 20);
    cudaMemset(in, 0, 4 << 20);
    CUcontext ctx;
    cuCtxGetCurrent(&ctx);
    CUpti_Profiler_Initialize_Params init = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CU(cuptiProfilerInitialize(&init));
    CUpti_Device_GetChipName_Params chip = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    CU(cuptiDeviceGetChipName(&chip));
    CUpti_SassMetrics_GetProperties_Params gp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    gp.pChipName = chip.pChipName;
    gp.pMetricName = "smsp__sass_inst_executed_op_global_ld";
    CU(cuptiSassMetricsGetProperties(&gp));
    g_ld_id = gp.metric.metricId;
    CUpti_SassMetrics_Config cfg = {g_ld_id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
    CUpti_SassMetricsSetConfig_Params set = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    set.pConfigs = &cfg;
    set.numOfMetricConfig = 1;
    set.deviceIndex = 0;
    CU(cuptiSassMetricsSetConfig(&set));
    CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    en.enableLazyPatching = (uint8_t)lazy;
    if (delay == 0)
        CU(cuptiSassMetricsEnable(&en));
    printf("lazy %d reenable %d flushes %d order %s newctx %d (4096 warps a launch)\n", lazy, reenable, flushes, order, newctx);
    for (int step = 0; order[step]; step++) {
        char name[2] = {order[step], 0};
        if (delay > 0 && step == delay) {
            printf("  enable\n");
            CU(cuptiSassMetricsEnable(&en));
        }
        if (reenable && step > 0 && step >= delay) {
            CUpti_SassMetricsDisable_Params dis = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
            dis.ctx = ctx;
            CU(cuptiSassMetricsDisable(&dis));
            printf("  disable: dropped %zu\n", dis.numOfDroppedRecords);
            if (reenable >= 2) {
                CUpti_SassMetricsUnsetConfig_Params un = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
                un.deviceIndex = 0;
                CU(cuptiSassMetricsUnsetConfig(&un));
            }
            if (reenable >= 3) {
                CUpti_Profiler_DeInitialize_Params de = {CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
                CU(cuptiProfilerDeInitialize(&de));
                CU(cuptiProfilerInitialize(&init));
            }
            if (reenable >= 2)
                CU(cuptiSassMetricsSetConfig(&set));
            CU(cuptiSassMetricsEnable(&en));
        }
        if (name[0] == 'A')
            probe_a<<<512, 256>>>(in, out);
        else if (name[0] == 'B')
            probe_b<<<512, 256>>>(in, out);
        else if (name[0] == 'D')
            probe_launch_d(in, out);
        else
            probe_c<<<512, 256>>>(in, out);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            printf("  launch %s: %s\n", name, cudaGetErrorName(e));
        if (flushes && step >= delay && flush(ctx, name))
            return 1;
    }
    if (!flushes && flush(ctx, "all"))
        return 1;
    CUpti_SassMetricsDisable_Params dis = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    dis.ctx = ctx;
    CU(cuptiSassMetricsDisable(&dis));
    printf("end: dropped %zu\n", dis.numOfDroppedRecords);
    return 0;
}
