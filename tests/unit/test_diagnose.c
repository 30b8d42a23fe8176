/* test_diagnose.c: the diagnosis of a machine without a usable GPU or without the right to read
 * counters (cp_diagnose_gpu, cp_diagnose_counters), fed with made-up facts: each cause named
 * with its fix, in the order that finds the real one. No GPU needed. */
#include <string.h>

#include "measure/cp_measure.h"
#include "cp_test.h"

/* A machine with a CUDA 13.0 runtime and a working driver and GPU: each test breaks one thing. */
static cp_gpu_facts cp_test_working(void)
{
    cp_gpu_facts f;
    memset(&f, 0, sizeof f);
    f.runtime_version = 13000;
    f.driver_version = 13000;
    f.device_count = 1;
    f.kernel_module = 1;
    snprintf(f.module_release, sizeof f.module_release, "580.95.05");
    f.device_nodes = 1;
    f.control_node = 1;
    snprintf(f.admin_only, sizeof f.admin_only, "1");
    return f;
}

/* The cause of f is `want`, its message holds `says` and its fix `fix`. */
static void cp_test_cause(const cp_gpu_facts *f, cp_gpu_cause want, const char *says,
                          const char *fix)
{
    cp_status st;
    cp_status_clear(&st);
    cp_gpu_cause got = cp_diagnose_gpu(f, &st);
    CHECK_EQ_U64(got, want);
    CHECK_EQ_U64(st.code, CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, says);
    CHECK_STR_CONTAINS(st.hint, fix);
}

static void test_working(void)
{
    cp_gpu_facts f = cp_test_working();
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_diagnose_gpu(&f, &st), CP_GPU_OK);
    CHECK_EQ_U64(st.code, CP_EXIT_OK);
    /* a 13.0 driver runs a 13.1 runtime (minor version compatibility): not too old */
    f.runtime_version = 13010;
    CHECK_EQ_U64(cp_diagnose_gpu(&f, &st), CP_GPU_OK);
}

/* No libcuda.so.1: no driver at all, a module without its library, a container. */
static void test_no_libcuda(void)
{
    cp_gpu_facts f = cp_test_working();
    f.driver_version = 0;
    f.device_count = 0;
    snprintf(f.count_error, sizeof f.count_error,
             "cudaErrorInsufficientDriver: CUDA driver "
             "version is insufficient for CUDA runtime");
    f.kernel_module = 0;
    f.module_release[0] = '\0';
    f.device_nodes = f.control_node = 0;
    /* the runtime's misleading error is not the cause given */
    cp_test_cause(&f, CP_GPU_NO_DRIVER, "no NVIDIA driver", "install the NVIDIA driver (r580");
    f.kernel_module = 1;
    snprintf(f.module_release, sizeof f.module_release, "580.95.05");
    cp_test_cause(&f, CP_GPU_NO_LIBCUDA, "kernel module 580.95.05 is loaded but its library",
                  "libcuda1");
    f.container = 1;
    snprintf(f.container_kind, sizeof f.container_kind, "Docker");
    cp_test_cause(&f, CP_GPU_CONTAINER, "a Docker container started without GPUs",
                  "docker run --gpus all");
    /* the driver branch follows the runtime's major version */
    f.container = 0;
    f.kernel_module = 0;
    f.runtime_version = 12040;
    cp_test_cause(&f, CP_GPU_NO_DRIVER, "no NVIDIA driver", "r525 or newer, for CUDA 12.4");
}

static void test_driver_too_old(void)
{
    cp_gpu_facts f = cp_test_working();
    f.driver_version = 12080;
    f.device_count = 0;
    snprintf(f.module_release, sizeof f.module_release, "570.86.15");
    cp_test_cause(&f, CP_GPU_DRIVER_TOO_OLD,
                  "driver 570.86.15 supports CUDA 12.8, older than "
                  "the CUDA 13.0 runtime",
                  "r580 or newer");
}

/* libcuda.so.1 as new as the runtime: the module, the nodes, CUDA_VISIBLE_DEVICES. */
static void test_no_device(void)
{
    cp_gpu_facts f = cp_test_working();
    f.device_count = 0;
    f.kernel_module = 0;
    cp_test_cause(&f, CP_GPU_NO_MODULE, "kernel module is not loaded", "modprobe nvidia");
    f.kernel_module = 1;
    f.device_nodes = 0;
    cp_test_cause(&f, CP_GPU_NO_DEVICE_NODE, "no device node (/dev/nvidia0)", "nvidia-smi");
    f.device_nodes = 2;
    f.control_node = 0;
    cp_test_cause(&f, CP_GPU_NO_DEVICE_NODE, "(/dev/nvidiactl)", "nvidia-modprobe");
    f.container = 1;
    snprintf(f.container_kind, sizeof f.container_kind, "Podman");
    cp_test_cause(&f, CP_GPU_CONTAINER, "Podman container started without GPUs",
                  "nvidia.com/gpu=all");
    /* a container sees the host's /proc/driver/nvidia or not: no nodes is what counts */
    f.kernel_module = 0;
    cp_test_cause(&f, CP_GPU_CONTAINER, "no /dev/nvidiactl device", "--gpus all");
    f = cp_test_working();
    f.device_count = 0;
    f.visible_set = 1;
    cp_test_cause(&f, CP_GPU_HIDDEN, "CUDA_VISIBLE_DEVICES='' hides every GPU",
                  "unset CUDA_VISIBLE_DEVICES");
    f.visible_set = 0;
    snprintf(f.count_error, sizeof f.count_error, "cudaErrorNoDevice: no CUDA-capable device");
    cp_test_cause(&f, CP_GPU_NONE_SEEN, "sees no GPU (cudaErrorNoDevice", "nvidia-smi");
}

static void test_counters(void)
{
    cp_gpu_facts f = cp_test_working();
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_diagnose_counters(&f, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "restricted to administrators (RmProfilingAdminOnly=1)");
    CHECK_STR_CONTAINS(st.hint, "setcap cap_sys_admin+ep");
    CHECK_STR_CONTAINS(st.hint, "NVreg_RestrictProfilingToAdminUsers=0");
    CHECK_STR_CONTAINS(st.hint, "--no-counters");
    /* the same fix as CUPTI's refusal (35: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) */
    const char *fix = NULL;
    CHECK(cp_measure_cupti_refusal_text(35, NULL, &fix) == 1);
    CHECK(fix && strcmp(st.hint, fix) == 0);
    /* 26: CUPTI_ERROR_HARDWARE_BUSY, another process holds the counters: named, with a fix (a
     * hung job's workers on the GPU gave it with an empty hint) */
    const char *cause = NULL;
    fix = NULL;
    CHECK(cp_measure_cupti_refusal_text(26, &cause, &fix) == 1);
    CHECK(cause && strstr(cause, "another process holds") != NULL);
    CHECK(fix && strstr(fix, "nvidia-smi --query-compute-apps") && strstr(fix, "--no-counters"));
    /* unknown (no driver) counts as restricted */
    f.admin_only[0] = '\0';
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_diagnose_counters(&f, &st), CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "RmProfilingAdminOnly=unknown");
    f.root = 1;
    CHECK_EQ_U64(cp_diagnose_counters(&f, &st), CP_EXIT_OK);
    f.root = 0;
    f.cap_sys_admin = 1;
    CHECK_EQ_U64(cp_diagnose_counters(&f, &st), CP_EXIT_OK);
    f.cap_sys_admin = 0;
    snprintf(f.admin_only, sizeof f.admin_only, "0");
    CHECK_EQ_U64(cp_diagnose_counters(&f, &st), CP_EXIT_OK);
}

/* The facts of this machine read without failing, and judged: a cause, or a GPU. */
static void test_read(void)
{
    cp_gpu_facts f;
    cp_diagnose_read(&f);
    CHECK(f.runtime_version >= 11000);
    cp_status st;
    cp_status_clear(&st);
    cp_gpu_cause c = cp_diagnose_gpu(&f, &st);
    CHECK((c == CP_GPU_OK) == (f.device_count > 0));
    CHECK(c == CP_GPU_OK || (st.message[0] && st.hint[0]));
}

/* A container started without GPUs: the whole message, for each part of the driver it lacks
 * (the library, with or without the device nodes; the nodes with the library there). */
static void test_container_messages(void)
{
    static const struct {
        int libcuda, device_nodes, control_node;
        const char *message;
    } cases[] = {
        {0, 1, 1,
         "a Docker container started without GPUs: no NVIDIA driver library (libcuda.so.1) "
         "inside it"},
        {0, 0, 0,
         "a Docker container started without GPUs: no NVIDIA driver library (libcuda.so.1) and "
         "no /dev/nvidia* device inside it"},
        {1, 0, 0, "a Docker container started without GPUs: no /dev/nvidiaN device inside it"},
        {1, 1, 0, "a Docker container started without GPUs: no /dev/nvidiactl device inside it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cp_gpu_facts f = cp_test_working();
        f.device_count = 0;
        f.driver_version = cases[i].libcuda ? 13000 : 0;
        f.device_nodes = cases[i].device_nodes;
        f.control_node = cases[i].control_node;
        f.container = 1;
        snprintf(f.container_kind, sizeof f.container_kind, "Docker");
        cp_status st;
        cp_status_clear(&st);
        CHECK_EQ_U64(cp_diagnose_gpu(&f, &st), CP_GPU_CONTAINER);
        CHECK(strcmp(st.message, cases[i].message) == 0);
        CHECK_STR_CONTAINS(st.hint, "docker run --gpus all");
    }
}

int main(void)
{
    test_working();
    test_no_libcuda();
    test_driver_too_old();
    test_no_device();
    test_container_messages();
    test_counters();
    test_read();
    return cp_test_finish();
}
