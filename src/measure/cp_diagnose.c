/* cp_diagnose.c: why this machine has no usable GPU (no driver, no kernel module, no device
 * node, a container started without GPUs, a driver older than the runtime, CUDA_VISIBLE_DEVICES)
 * or may not read its counters, and the fix: facts read once (cp_diagnose_read), judged by pure
 * functions that the unit tests feed with made-up facts. `coalprobe doctor` and the note of a
 * sweep without a GPU both say what these say. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include "cp_measure.h"

/* How a container gets the host's GPUs. */
#define CP_DIAGNOSE_CONTAINER_FIX                                                                  \
    "if the host has a GPU, start the container with it: docker run --gpus all (NVIDIA "           \
    "Container Toolkit), podman run --device nvidia.com/gpu=all, or a Kubernetes limit "           \
    "nvidia.com/gpu"

/* The oldest driver branch of each CUDA major version (NVIDIA's CUDA Toolkit release notes). */
static const char *cp_diagnose_driver_branch(int runtime_version)
{
    switch (runtime_version / 1000) {
    case 11:
        return "r450";
    case 12:
        return "r525";
    case 13:
        return "r580";
    default:
        return NULL;
    }
}

/* "r580 or newer, for CUDA 13.0" into buf. */
static void cp_diagnose_driver_needed(int runtime_version, char *buf, size_t len)
{
    const char *branch = cp_diagnose_driver_branch(runtime_version);
    snprintf(buf, len, "%s%sfor CUDA %d.%d", branch ? branch : "", branch ? " or newer, " : "",
             runtime_version / 1000, runtime_version % 1000 / 10);
}

/* The kernel module's release ("580.95.05") from /proc/driver/nvidia/version, "" when none. */
static void cp_diagnose_read_module(cp_gpu_facts *f)
{
    FILE *in = fopen("/proc/driver/nvidia/version", "r");
    f->kernel_module = in != NULL;
    if (!in)
        return;
    char line[512];
    if (fgets(line, sizeof line, in))
        cp_measure_parse_driver_release(line, f->module_release, sizeof f->module_release);
    fclose(in);
}

/* /dev/nvidiactl and the /dev/nvidiaN nodes. */
static void cp_diagnose_read_nodes(cp_gpu_facts *f)
{
    f->control_node = access("/dev/nvidiactl", F_OK) == 0;
    DIR *dev = opendir("/dev");
    for (struct dirent *e; dev && (e = readdir(dev));) {
        const char *n = e->d_name;
        if (strncmp(n, "nvidia", 6) == 0 && isdigit((unsigned char)n[6]) &&
            strspn(n + 6, "0123456789") == strlen(n + 6))
            f->device_nodes++;
    }
    if (dev)
        closedir(dev);
}

/* 1 when a file holds `word` (the first 64 KB). */
static int cp_diagnose_file_has(const char *path, const char *word)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return 0;
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, in);
    fclose(in);
    buf[n] = '\0';
    return strstr(buf, word) != NULL;
}

/* The container this process runs in, if any: what the engines leave behind. */
static void cp_diagnose_read_container(cp_gpu_facts *f)
{
    const char *kind = NULL;
    const char *env = getenv("container"); /* podman, systemd-nspawn, lxc */
    if (access("/.dockerenv", F_OK) == 0)
        kind = "Docker";
    else if (access("/run/.containerenv", F_OK) == 0)
        kind = "Podman";
    else if (getenv("KUBERNETES_SERVICE_HOST"))
        kind = "Kubernetes";
    else if (env && *env)
        kind = env;
    else if (cp_diagnose_file_has("/proc/1/cgroup", "docker") ||
             cp_diagnose_file_has("/proc/1/cgroup", "containerd"))
        kind = "Docker";
    else if (cp_diagnose_file_has("/proc/1/cgroup", "kubepods"))
        kind = "Kubernetes";
    else if (cp_diagnose_file_has("/proc/1/cgroup", "lxc"))
        kind = "LXC";
    f->container = kind != NULL;
    snprintf(f->container_kind, sizeof f->container_kind, "%s", kind ? kind : "");
}

/* Root, CAP_SYS_ADMIN (capability 21 of CapEff) and RmProfilingAdminOnly. */
static void cp_diagnose_read_privilege(cp_gpu_facts *f)
{
    f->root = geteuid() == 0;
    FILE *in = fopen("/proc/self/status", "r");
    char line[256];
    while (in && fgets(line, sizeof line, in)) {
        unsigned long long caps;
        if (sscanf(line, "CapEff: %llx", &caps) == 1)
            f->cap_sys_admin = (caps >> 21) & 1;
    }
    if (in)
        fclose(in);
    cp_probe_profiling_admin_only(f->admin_only, sizeof f->admin_only);
}

void cp_diagnose_read(cp_gpu_facts *f)
{
    memset(f, 0, sizeof *f);
    (void)cudaRuntimeGetVersion(&f->runtime_version);
    (void)cudaDriverGetVersion(&f->driver_version); /* 0, and success, without libcuda */
    cudaError_t e = cudaGetDeviceCount(&f->device_count);
    if (e != cudaSuccess) {
        f->device_count = 0;
        snprintf(f->count_error, sizeof f->count_error, "%s: %s", cudaGetErrorName(e),
                 cudaGetErrorString(e));
    }
    cp_diagnose_read_module(f);
    cp_diagnose_read_nodes(f);
    cp_diagnose_read_container(f);
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    f->visible_set = visible != NULL;
    snprintf(f->visible, sizeof f->visible, "%s", visible ? visible : "");
    cp_diagnose_read_privilege(f);
}

/* --- the judgement: pure functions of the facts ------------------------------------------------
 */

/* A container started without GPUs, whatever part of the driver it lacks (`missing`, as the
 * message names it): one cause, one message and one fix. */
static cp_gpu_cause cp_diagnose_container(const cp_gpu_facts *f, const char *missing, cp_status *st)
{
    cp_status_set(st, CP_EXIT_RUNTIME, "a %s container started without GPUs: no %s inside it",
                  f->container_kind, missing);
    cp_status_hint(st, CP_DIAGNOSE_CONTAINER_FIX);
    return CP_GPU_CONTAINER;
}

/* Without libcuda.so.1: a container without GPUs, a module without its library, or no driver. */
static cp_gpu_cause cp_diagnose_no_libcuda(const cp_gpu_facts *f, cp_status *st)
{
    char needed[64];
    cp_diagnose_driver_needed(f->runtime_version, needed, sizeof needed);
    if (f->container)
        return cp_diagnose_container(f,
                                     f->device_nodes
                                         ? "NVIDIA driver library (libcuda.so.1)"
                                         : "NVIDIA driver library (libcuda.so.1) and no "
                                           "/dev/nvidia* device",
                                     st);
    if (f->kernel_module) {
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "the NVIDIA kernel module%s%s is loaded but its library libcuda.so.1 is "
                      "not installed or not on the loader's path",
                      f->module_release[0] ? " " : "", f->module_release);
        cp_status_hint(st, "install the driver's user-space part of the same release (Debian: "
                           "libcuda1; NVIDIA's packages: libnvidia-compute), or add its directory "
                           "to LD_LIBRARY_PATH");
        return CP_GPU_NO_LIBCUDA;
    }
    cp_status_set(st, CP_EXIT_RUNTIME,
                  "no NVIDIA driver: neither its kernel module (/proc/driver/nvidia) nor its "
                  "library libcuda.so.1 is installed");
    cp_status_hint(st,
                   "install the NVIDIA driver (%s) and reboot; until then coalprobe shows the "
                   "model's predictions (--model)",
                   needed);
    return CP_GPU_NO_DRIVER;
}

/* With libcuda.so.1 at least as new as the runtime, yet no GPU: the module, the device nodes,
 * CUDA_VISIBLE_DEVICES, or what the driver said. */
static cp_gpu_cause cp_diagnose_no_device(const cp_gpu_facts *f, cp_status *st)
{
    if (!f->kernel_module && !f->container) {
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "the NVIDIA driver's library is installed but its kernel module is not "
                      "loaded (no /proc/driver/nvidia)");
        cp_status_hint(st, "sudo modprobe nvidia, or reboot after installing the driver; dmesg "
                           "| grep -i nvidia says why it failed (Secure Boot refuses an unsigned "
                           "module)");
        return CP_GPU_NO_MODULE;
    }
    if (!f->device_nodes || !f->control_node) {
        if (f->container)
            return cp_diagnose_container(
                f, f->device_nodes ? "/dev/nvidiactl device" : "/dev/nvidiaN device", st);
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "the NVIDIA kernel module is loaded but there is no device node (%s)",
                      f->device_nodes ? "/dev/nvidiactl" : "/dev/nvidia0");
        cp_status_hint(st, "run nvidia-smi once as root (it creates the nodes) or "
                           "nvidia-modprobe -c 0 -u; check the permissions of /dev/nvidia*");
        return CP_GPU_NO_DEVICE_NODE;
    }
    if (f->visible_set) {
        cp_status_set(st, CP_EXIT_RUNTIME, "CUDA_VISIBLE_DEVICES='%s' hides every GPU", f->visible);
        cp_status_hint(st, "unset CUDA_VISIBLE_DEVICES, or set it to a GPU's index or UUID "
                           "(nvidia-smi -L lists them)");
        return CP_GPU_HIDDEN;
    }
    cp_status_set(st, CP_EXIT_RUNTIME, "the CUDA driver sees no GPU%s%s%s",
                  f->count_error[0] ? " (" : "", f->count_error, f->count_error[0] ? ")" : "");
    cp_status_hint(st, "nvidia-smi says whether the driver sees the GPU; sudo dmesg | grep -i "
                       "nvrm says why not");
    return CP_GPU_NONE_SEEN;
}

cp_gpu_cause cp_diagnose_gpu(const cp_gpu_facts *f, cp_status *st)
{
    if (f->device_count > 0)
        return CP_GPU_OK;
    if (f->driver_version == 0)
        return cp_diagnose_no_libcuda(f, st);
    if (f->driver_version < f->runtime_version) {
        char needed[64];
        cp_diagnose_driver_needed(f->runtime_version, needed, sizeof needed);
        cp_status_set(st, CP_EXIT_RUNTIME,
                      "the NVIDIA driver%s%s supports CUDA %d.%d, older than the CUDA %d.%d "
                      "runtime coalprobe was built with",
                      f->module_release[0] ? " " : "", f->module_release, f->driver_version / 1000,
                      f->driver_version % 1000 / 10, f->runtime_version / 1000,
                      f->runtime_version % 1000 / 10);
        cp_status_hint(st,
                       "install a newer NVIDIA driver (%s), or build coalprobe with the CUDA "
                       "Toolkit %d.x",
                       needed, f->driver_version / 1000);
        return CP_GPU_DRIVER_TOO_OLD;
    }
    return cp_diagnose_no_device(f, st);
}

int cp_diagnose_counters(const cp_gpu_facts *f, cp_status *st)
{
    if (f->root || f->cap_sys_admin || strcmp(f->admin_only, "0") == 0)
        return CP_EXIT_OK;
    cp_status_set(st, CP_EXIT_RUNTIME,
                  "reading GPU counters is restricted to administrators (RmProfilingAdminOnly=%s) "
                  "and this process is not root and has no CAP_SYS_ADMIN",
                  f->admin_only[0] ? f->admin_only : "unknown");
    const char *fix = NULL; /* CUPTI's refusal gives the same fix */
    cp_measure_cupti_refusal_text(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, NULL, &fix);
    cp_status_hint(st, "%s", fix ? fix : "run as root");
    return CP_EXIT_RUNTIME;
}
