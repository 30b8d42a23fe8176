/* cp_doctor.c: `coalprobe doctor`: one line per check of what measuring needs on this machine
 * (CUDA driver and runtime, each GPU and whether this build has code for it, CUPTI and the right
 * to profile, another profiler, the counters of each chip, NVRTC, cuBLAS, the trace path), each
 * with its fix; as text or JSON. And the --version line. */
#define _GNU_SOURCE /* strcasestr */
#include "cp_doctor.h"
#include "cp_commands.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/cp_measure.h"
#include "trace/cp_trace.h"
#include "model/cp_model.h"
#include "base/cp_base.h"

#define CP_DOCTOR_SCHEMA_VERSION 1
#define CP_DOCTOR_MAX_CHECKS 96
#define CP_DOCTOR_MAX_GPUS 16

/* One check: what it is about, whether it passed, what was found, and the fix. Optional checks
 * (the trace path) do not decide the exit status. */
typedef struct cp_doctor_check {
    const char *name; /* JSON key: "cuda_driver", "gpu", "cupti", ... */
    int device;       /* the GPU it is about, -1 for the machine */
    int ok, optional;
    char detail[760];
    char fix[400];
} cp_doctor_check;

typedef struct cp_doctor_gpu {
    cp_device_info info;
    int runs; /* this build runs on it */
    char chip[64];
    int has_counters; /* counters holds the chip's */
    cp_probe_counters counters;
} cp_doctor_gpu;

typedef struct cp_doctor {
    cp_doctor_check checks[CP_DOCTOR_MAX_CHECKS];
    size_t nchecks;
    cp_doctor_gpu gpus[CP_DOCTOR_MAX_GPUS];
    size_t ngpus;
    int driver_version, runtime_version;
    cp_probe_library cupti, nvrtc, cublas;
    int cupti_found, sass_metrics;
    const char *chip; /* --chip */
    cp_probe_counters chip_counters;
    int chip_counters_ok;
} cp_doctor;

static cp_doctor_check *cp_doctor_add(cp_doctor *d, const char *name, int device, int ok,
                                      int optional)
{
    static cp_doctor_check overflow; /* never printed: the table is larger than any machine */
    if (d->nchecks == CP_DOCTOR_MAX_CHECKS)
        return &overflow;
    cp_doctor_check *c = &d->checks[d->nchecks++];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->device = device;
    c->ok = ok;
    c->optional = optional;
    return c;
}

/* A failed check from a status: its message is the detail, its hint the fix. */
static void cp_doctor_fail(cp_doctor *d, const char *name, int device, int optional,
                           const char *what, const cp_status *st)
{
    cp_doctor_check *c = cp_doctor_add(d, name, device, 0, optional);
    snprintf(c->detail, sizeof c->detail, "%.80s%s%.500s", what, what[0] ? ": " : "", st->message);
    snprintf(c->fix, sizeof c->fix, "%s", st->hint);
}

static void cp_doctor_version_text(char *buf, size_t len, int runtime_version)
{
    const cp_arch_built *b = cp_arch_this_build();
    char archs[256];
    cp_arch_describe_built(b, archs, sizeof archs);
    unsigned cupti = 0;
    cp_probe_library lib;
    int sass = 0;
    cp_status st;
    cp_status_clear(&st);
    if (cp_probe_cupti(&lib, &sass, &st) == CP_EXIT_OK)
        sscanf(lib.version, "API %u", &cupti);
    char cupti_text[48] = "CUPTI not found";
    if (cupti)
        snprintf(cupti_text, sizeof cupti_text, "CUPTI API %u", cupti);
    snprintf(buf, len, "coalprobe %s (CUDA runtime %d.%d, %s, kernels for %s)", CP_VERSION,
             runtime_version / 1000, runtime_version % 1000 / 10, cupti_text,
             archs[0] ? archs : "an unknown list of architectures");
}

void cp_doctor_print_version(FILE *out)
{
    int driver = 0, runtime = 0;
    cp_status st;
    cp_status_clear(&st);
    (void)cp_probe_cuda(&driver, &runtime, NULL, &st); /* the runtime's version needs no driver */
    char text[512];
    cp_doctor_version_text(text, sizeof text, runtime);
    fprintf(out, "%s\n", text);
}

/* --- the checks ------------------------------------------------------------------------------ */

static void cp_doctor_check_gpu(cp_doctor *d, int device)
{
    cp_doctor_gpu *g = &d->gpus[d->ngpus++];
    memset(g, 0, sizeof *g);
    cp_status st;
    cp_status_clear(&st);
    int rc = cp_measure_device_facts(device, &g->info, &st);
    int arch = cp_arch_from_cc(g->info.cc_major, g->info.cc_minor);
    if (rc != CP_EXIT_OK && g->info.name[0] == '\0') {
        cp_doctor_fail(d, "gpu", device, 0, "cannot read the GPU", &st);
        return;
    }
    g->runs = rc == CP_EXIT_OK;
    cp_doctor_check *c = cp_doctor_add(d, "gpu", device, g->runs, 0);
    int n =
        snprintf(c->detail, sizeof c->detail,
                 "GPU %d: %s, sm_%d, %.1f GiB, L2 %.1f MiB, clocks up to %.0f MHz (SM) and %.0f "
                 "MHz (memory), %s: ",
                 device, g->info.name, arch, (double)g->info.memory_bytes / (1u << 30),
                 (double)g->info.l2_bytes / (1u << 20), g->info.sm_clock_hz / 1e6,
                 g->info.memory_clock_hz / 1e6, g->info.uuid[0] ? g->info.uuid : "no UUID");
    size_t used = n > 0 ? (size_t)n : 0;
    if (used >= sizeof c->detail)
        return;
    if (!g->runs) {
        snprintf(c->detail + used, sizeof c->detail - used, "%s", st.message);
        snprintf(c->fix, sizeof c->fix, "%s", st.hint);
    } else if (g->info.kernel_kind == CP_ARCH_RUN_PTX) {
        snprintf(c->detail + used, sizeof c->detail - used,
                 "this build runs on it through the compute_%d PTX, JIT-compiled by the driver "
                 "(slower start)",
                 g->info.kernel_arch);
        snprintf(c->fix, sizeof c->fix, "for SASS: cmake -DCMAKE_CUDA_ARCHITECTURES=%d", arch);
    } else {
        snprintf(c->detail + used, sizeof c->detail - used, "this build has SASS for it (sm_%d%s)",
                 g->info.kernel_arch,
                 g->info.kernel_kind == CP_ARCH_RUN_COMPATIBLE ? ", an older minor" : "");
    }
    char facts[256];
    if (g->runs && cp_arch_unverified(arch, facts, sizeof facts) > 0) {
        cp_doctor_check *f = cp_doctor_add(d, "model_facts", device, 0, 1);
        snprintf(f->detail, sizeof f->detail,
                 "GPU %d: unverified on sm_%d: %s (the model assumes them; docs/model.md, "
                 "'Hardware facts')",
                 device, arch, facts);
        snprintf(f->fix, sizeof f->fix,
                 "run ctest -L gpu on this GPU: a measured count that differs from the model "
                 "shows where a fact does not hold");
    }
}

/* One line on a chip's counters: how many it has, the passes, the metrics it lacks. */
static void cp_doctor_counters_text(const cp_probe_counters *pc, char *buf, size_t len)
{
    snprintf(
        buf, len,
        "%.60s: %zu of %zu counters; %zu profiler passes a sweep (stride, layout, gather, expr, "
        "gemm), %zu with shared memory (smem, transpose, gemm smem), %zu with the memory path "
        "(readonly, async)%s%.300s",
        pc->chip, pc->read, pc->metrics, pc->passes, pc->passes_shared, pc->passes_path,
        pc->missing[0] ? "; the chip has no " : "", pc->missing);
    if (strlen(pc->missing) > 300)
        snprintf(buf + strlen(buf) - 3, 4, "...");
}

static void cp_doctor_check_counters(cp_doctor *d, int device)
{
    cp_doctor_gpu *g = &d->gpus[device];
    cp_status st;
    cp_status_clear(&st);
    if (cp_probe_device_chip(device, g->chip, sizeof g->chip, &st) != CP_EXIT_OK) {
        cp_doctor_fail(d, "counters", device, 0, "CUPTI cannot name the chip", &st);
        return;
    }
    if (cp_probe_counters_for_chip(g->chip, &g->counters, &st) != CP_EXIT_OK) {
        cp_doctor_fail(d, "counters", device, 0, g->chip, &st);
        return;
    }
    g->has_counters = 1;
    cp_status_clear(&st);
    int allowed = cp_probe_profiling(device, &st) == CP_EXIT_OK;
    cp_doctor_check *c = cp_doctor_add(d, "counters", device, allowed, 0);
    char text[640];
    cp_doctor_counters_text(&g->counters, text, sizeof text);
    snprintf(c->detail, sizeof c->detail, "GPU %d %.440s%s%.240s", device, text,
             allowed ? "" : "; but a profiling session is refused: ", allowed ? "" : st.message);
    if (!allowed)
        snprintf(c->fix, sizeof c->fix, "%s", st.hint);
}

/* Whether this process may read counters: root, CAP_SYS_ADMIN, or the driver allowing all
 * (cp_diagnose_counters judges, as for a sweep). */
static void cp_doctor_check_privilege(cp_doctor *d)
{
    cp_gpu_facts f;
    cp_diagnose_read(&f);
    cp_status st;
    cp_status_clear(&st);
    int ok = cp_diagnose_counters(&f, &st) == CP_EXIT_OK;
    cp_doctor_check *c = cp_doctor_add(d, "profiling_allowed", -1, ok, 0);
    snprintf(c->detail, sizeof c->detail, "profiling %s: RmProfilingAdminOnly=%s, %s%s",
             ok ? "allowed" : "restricted to administrators",
             f.admin_only[0] ? f.admin_only : "unknown (no /proc/driver/nvidia/params)",
             f.root ? "running as root" : "not root",
             f.cap_sys_admin && !f.root ? " but with CAP_SYS_ADMIN" : "");
    if (!ok)
        snprintf(c->fix, sizeof c->fix, "%s", st.hint);
}

/* Another profiler injected into this process: Nsight Compute and Nsight Systems name their
 * injection library in CUDA_INJECTION64_PATH; a preloaded CUPTI tool shows in LD_PRELOAD. A
 * profiler busy in another process cannot be seen from here: the counters check opens a real
 * session, which CUPTI refuses then. */
static void cp_doctor_check_other_profiler(cp_doctor *d)
{
    const char *inject = getenv("CUDA_INJECTION64_PATH");
    const char *preload = getenv("LD_PRELOAD");
    int preloaded = preload && (strcasestr(preload, "nsight") || strcasestr(preload, "cupti") ||
                                strcasestr(preload, "injection"));
    int other = (inject && *inject) || preloaded;
    cp_doctor_check *c = cp_doctor_add(d, "other_profiler", -1, !other, 0);
    if (other) {
        snprintf(c->detail, sizeof c->detail, "another profiler is attached: %s%s",
                 inject && *inject ? "CUDA_INJECTION64_PATH=" : "LD_PRELOAD=",
                 inject && *inject ? inject : preload);
        snprintf(c->fix, sizeof c->fix,
                 "run coalprobe outside Nsight Compute / Nsight Systems, or with --no-counters "
                 "under them (two profilers cannot read counters at once)");
    } else {
        snprintf(c->detail, sizeof c->detail,
                 "no other profiler injected into this process (CUDA_INJECTION64_PATH, "
                 "LD_PRELOAD)");
    }
}

/* The injection library of `coalprobe trace`, where trace looks for it. */
static void cp_doctor_check_inject(cp_doctor *d)
{
    char lib[1024];
    cp_status st;
    cp_status_clear(&st);
    int found = cp_trace_find_injection(lib, sizeof lib, &st) == CP_EXIT_OK;
    cp_doctor_check *c = cp_doctor_add(d, "trace_inject_library", -1, found, 1);
    if (found) {
        snprintf(c->detail, sizeof c->detail, "trace: injection library %.600s", lib);
    } else {
        snprintf(c->detail, sizeof c->detail, "%.700s", st.message); /* "trace: ..." */
        snprintf(c->fix, sizeof c->fix, "%s; only coalprobe trace needs it", st.hint);
    }
}

static void cp_doctor_check_libraries(cp_doctor *d)
{
    cp_status st;
    cp_status_clear(&st);
    d->cupti_found = cp_probe_cupti(&d->cupti, &d->sass_metrics, &st) == CP_EXIT_OK;
    if (d->cupti_found) {
        cp_doctor_check *c = cp_doctor_add(d, "cupti", -1, 1, 0);
        snprintf(c->detail, sizeof c->detail, "CUPTI %s: %s", d->cupti.version, d->cupti.path);
    } else {
        cp_doctor_fail(d, "cupti", -1, 0, "CUPTI (hardware counters)", &st);
    }
    cp_status_clear(&st);
    if (cp_probe_nvrtc(&d->nvrtc, &st) == CP_EXIT_OK) {
        cp_doctor_check *c = cp_doctor_add(d, "nvrtc", -1, 1, 0);
        snprintf(c->detail, sizeof c->detail, "NVRTC %s (the expr family): %s", d->nvrtc.version,
                 d->nvrtc.path);
    } else {
        cp_doctor_fail(d, "nvrtc", -1, 0, "NVRTC (the expr family)", &st);
    }
    cp_status_clear(&st);
    if (cp_probe_cublas(&d->cublas, &st) == CP_EXIT_OK) {
        cp_doctor_check *c = cp_doctor_add(d, "cublas", -1, 1, 0);
        snprintf(c->detail, sizeof c->detail, "cuBLAS %s (the GEMM reference): %s",
                 d->cublas.version, d->cublas.path);
    } else {
        cp_doctor_fail(d, "cublas", -1, 0, "cuBLAS (the GEMM reference)", &st);
    }
}

static void cp_doctor_check_nvrtc_archs(cp_doctor *d)
{
    for (size_t i = 0; i < d->ngpus; i++) {
        if (!d->gpus[i].info.name[0])
            continue;
        int arch = cp_arch_from_cc(d->gpus[i].info.cc_major, d->gpus[i].info.cc_minor);
        cp_status st;
        cp_status_clear(&st);
        if (cp_probe_nvrtc_arch(arch, &st) == CP_EXIT_OK) {
            cp_doctor_check *c = cp_doctor_add(d, "nvrtc_arch", (int)i, 1, 0);
            snprintf(c->detail, sizeof c->detail,
                     "GPU %zu: NVRTC compiles the expr kernels for sm_%d", i, arch);
        } else {
            cp_doctor_fail(d, "nvrtc_arch", (int)i, 0, "", &st);
        }
    }
}

static void cp_doctor_run_checks(cp_doctor *d)
{
    char version[512];
    cp_status st;
    cp_status_clear(&st);
    int devices = 0;
    int cuda = cp_probe_cuda(&d->driver_version, &d->runtime_version, &devices, &st);
    cp_doctor_version_text(version, sizeof version, d->runtime_version);
    cp_doctor_check *c = cp_doctor_add(d, "build", -1, 1, 0);
    snprintf(c->detail, sizeof c->detail, "%s", version);
    c = cp_doctor_add(d, "cuda_runtime", -1, d->runtime_version > 0, 0);
    snprintf(c->detail, sizeof c->detail, "CUDA runtime %d.%d", d->runtime_version / 1000,
             d->runtime_version % 1000 / 10);
    /* a driver older than the runtime is too old only when it sees no GPU: CUDA's minor
     * version compatibility runs a 13.1 runtime on a 13.0 driver */
    int older = d->driver_version < d->runtime_version;
    if (d->driver_version == 0 || (older && cuda != CP_EXIT_OK)) {
        cp_doctor_fail(d, "cuda_driver", -1, 0, "no GPU", &st); /* cp_diagnose_gpu's cause */
    } else {
        c = cp_doctor_add(d, "cuda_driver", -1, 1, 0);
        snprintf(c->detail, sizeof c->detail, "CUDA driver %d.%d%s", d->driver_version / 1000,
                 d->driver_version % 1000 / 10,
                 older ? ", older than the runtime (CUDA's minor version compatibility)" : "");
        if (cuda != CP_EXIT_OK)
            cp_doctor_fail(d, "gpu", -1, 0, "no GPU", &st);
    }
    for (int i = 0; cuda == CP_EXIT_OK && i < devices && i < CP_DOCTOR_MAX_GPUS; i++)
        cp_doctor_check_gpu(d, i);
    cp_doctor_check_libraries(d);
    cp_doctor_check_privilege(d);
    cp_doctor_check_other_profiler(d);
    for (size_t i = 0; d->cupti_found && i < d->ngpus; i++)
        if (d->gpus[i].runs)
            cp_doctor_check_counters(d, (int)i);
    if (d->chip && d->cupti_found) {
        cp_status_clear(&st);
        d->chip_counters_ok =
            cp_probe_counters_for_chip(d->chip, &d->chip_counters, &st) == CP_EXIT_OK;
        if (d->chip_counters_ok) {
            c = cp_doctor_add(d, "chip_counters", -1, 1, 0);
            cp_doctor_counters_text(&d->chip_counters, c->detail, sizeof c->detail);
        } else {
            cp_doctor_fail(d, "chip_counters", -1, 0, d->chip, &st);
        }
    }
    cp_doctor_check_nvrtc_archs(d);
    c = cp_doctor_add(d, "trace_sass_metrics", -1, d->sass_metrics, 1);
    snprintf(c->detail, sizeof c->detail,
             "trace: CUPTI SASS metrics API (cuptiSassMetricsSetConfig) %s",
             d->sass_metrics ? "present" : "missing");
    if (!d->sass_metrics)
        snprintf(c->fix, sizeof c->fix,
                 "coalprobe trace needs the CUPTI of CUDA 12.6 or newer (cuptiSassMetrics*)");
    cp_doctor_check_inject(d);
}

/* --- output ---------------------------------------------------------------------------------- */

/* 1 when the locale's character set is UTF-8 (LC_ALL, then LC_CTYPE, then LANG decide). */
static int cp_doctor_utf8(void)
{
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
    }
    return 0;
}

static size_t cp_doctor_failures(const cp_doctor *d, int optional)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nchecks; i++)
        n += !d->checks[i].ok && d->checks[i].optional == optional;
    return n;
}

static void cp_doctor_print_text(const cp_doctor *d, FILE *out)
{
    int utf8 = cp_doctor_utf8();
    for (size_t i = 0; i < d->nchecks; i++) {
        const cp_doctor_check *c = &d->checks[i];
        const char *mark = c->ok ? (utf8 ? "\u2713" : "ok  ") : (utf8 ? "\u2717" : "FAIL");
        fprintf(out, "%s %s%s\n", mark, c->detail, !c->ok && c->optional ? " (optional)" : "");
        if (c->fix[0])
            fprintf(out, "    fix: %s\n", c->fix);
    }
    size_t failed = cp_doctor_failures(d, 0), optional = cp_doctor_failures(d, 1);
    if (failed)
        fprintf(out, "doctor: %zu check%s failed: measuring will not fully work here\n", failed,
                failed == 1 ? "" : "s");
    else
        fprintf(out, "doctor: everything measuring needs is here%s\n",
                optional ? " (an optional part is missing)" : "");
}

static void cp_doctor_json_string(cJSON *o, const char *key, const char *s)
{
    if (s && *s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *cp_doctor_json_counters(const cp_probe_counters *pc)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "chip", pc->chip);
    cJSON_AddNumberToObject(o, "metrics", (double)pc->metrics);
    cJSON_AddNumberToObject(o, "read", (double)pc->read);
    cJSON_AddNumberToObject(o, "passes", (double)pc->passes);
    cJSON_AddNumberToObject(o, "passes_with_shared", (double)pc->passes_shared);
    cJSON_AddNumberToObject(o, "passes_with_path", (double)pc->passes_path);
    cJSON *missing = cJSON_AddArrayToObject(o, "missing");
    for (const char *p = pc->missing; *p;) {
        size_t n = strcspn(p, ",");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        cJSON_AddItemToArray(missing, cJSON_CreateString(name));
        p += n;
        p += strspn(p, ", ");
    }
    return o;
}

static int cp_doctor_print_json(const cp_doctor *d, FILE *out, const char *command)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", CP_DOCTOR_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "coalprobe");
    cJSON_AddStringToObject(tool, "version", CP_VERSION);
    cJSON_AddStringToObject(root, "command", command);
    cJSON *build = cJSON_AddObjectToObject(root, "build");
    cJSON *sass = cJSON_AddArrayToObject(build, "sass"),
          *ptx = cJSON_AddArrayToObject(build, "ptx");
    const cp_arch_built *b = cp_arch_this_build();
    for (size_t i = 0; b && i < b->count; i++) {
        char name[32];
        char suffix[2] = {b->entries[i].suffix, '\0'};
        if (b->entries[i].sass) {
            snprintf(name, sizeof name, "sm_%d%s", b->entries[i].arch, suffix);
            cJSON_AddItemToArray(sass, cJSON_CreateString(name));
        }
        if (b->entries[i].ptx) {
            snprintf(name, sizeof name, "compute_%d%s", b->entries[i].arch, suffix);
            cJSON_AddItemToArray(ptx, cJSON_CreateString(name));
        }
    }
    cJSON_AddNumberToObject(build, "cuda_runtime_version", d->runtime_version);
    if (d->driver_version)
        cJSON_AddNumberToObject(root, "cuda_driver_version", d->driver_version);
    else
        cJSON_AddNullToObject(root, "cuda_driver_version");
    cJSON *gpus = cJSON_AddArrayToObject(root, "gpus");
    for (size_t i = 0; i < d->ngpus; i++) {
        const cp_doctor_gpu *g = &d->gpus[i];
        if (!g->info.name[0])
            continue;
        cJSON *o = cJSON_CreateObject();
        char arch[32];
        snprintf(arch, sizeof arch, "sm_%d", cp_arch_from_cc(g->info.cc_major, g->info.cc_minor));
        cJSON_AddNumberToObject(o, "index", (double)i);
        cJSON_AddStringToObject(o, "name", g->info.name);
        cJSON_AddStringToObject(o, "arch", arch);
        cJSON_AddNumberToObject(o, "memory_bytes", (double)g->info.memory_bytes);
        cJSON_AddNumberToObject(o, "l2_bytes", (double)g->info.l2_bytes);
        cJSON_AddBoolToObject(o, "runs", g->runs);
        static const char *const kinds[] = {"sass", "sass_compatible", "ptx_jit", "none"};
        cJSON_AddStringToObject(o, "kernel_image", kinds[g->info.kernel_kind]);
        cp_doctor_json_string(o, "chip", g->chip);
        if (g->has_counters)
            cJSON_AddItemToObject(o, "counters", cp_doctor_json_counters(&g->counters));
        else
            cJSON_AddNullToObject(o, "counters");
        cJSON_AddItemToArray(gpus, o);
    }
    if (d->chip_counters_ok)
        cJSON_AddItemToObject(root, "chip_counters", cp_doctor_json_counters(&d->chip_counters));
    cJSON *checks = cJSON_AddArrayToObject(root, "checks");
    for (size_t i = 0; i < d->nchecks; i++) {
        const cp_doctor_check *c = &d->checks[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", c->name);
        if (c->device >= 0)
            cJSON_AddNumberToObject(o, "device", c->device);
        else
            cJSON_AddNullToObject(o, "device");
        cJSON_AddBoolToObject(o, "ok", c->ok);
        cJSON_AddBoolToObject(o, "optional", c->optional);
        cJSON_AddStringToObject(o, "detail", c->detail);
        cp_doctor_json_string(o, "fix", c->fix);
        cJSON_AddItemToArray(checks, o);
    }
    cJSON_AddBoolToObject(root, "usable", cp_doctor_failures(d, 0) == 0);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "coalprobe: out of memory while building the doctor's JSON\n");
        return CP_EXIT_RUNTIME;
    }
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    return CP_EXIT_OK;
}

/* --chip names a chip CUPTI's host API knows; else, on stderr, that it is unknown, the nearest
 * name and every known one, and CP_EXIT_USAGE. Where CUPTI cannot be loaded nobody can tell:
 * CP_EXIT_OK, and the cupti check says why. */
static int cp_doctor_check_chip_name(const char *chip)
{
    const char *const *chips = NULL;
    size_t n = 0;
    cp_status st;
    cp_status_clear(&st);
    if (cp_probe_chips(&chips, &n, &st) != CP_EXIT_OK || n == 0)
        return CP_EXIT_OK;
    for (size_t i = 0; i < n; i++)
        if (strcmp(chips[i], chip) == 0)
            return CP_EXIT_OK;
    char shown[96];
    cp_text_printable(shown, sizeof shown, chip);
    fprintf(stderr, "coalprobe: --chip: unknown chip '%s'\nhint: ", shown);
    const char *near = NULL;
    for (size_t i = 0; i < n && !near; i++) /* a chip spelled in lower case */
        if (strcasecmp(chips[i], chip) == 0)
            near = chips[i];
    if (!near)
        near = cp_help_nearest(chip, chips, n);
    if (near)
        fprintf(stderr, "did you mean %s? ", near);
    fprintf(stderr, "the chips CUPTI knows:");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %s", chips[i]);
    fprintf(stderr, "\n");
    return CP_EXIT_USAGE;
}

static const struct option cp_doctor_options[] = {
    {"format", required_argument, NULL, 'f'},
    {"chip", required_argument, NULL, 'c'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const struct option *cp_doctor_option_table(void)
{
    return cp_doctor_options;
}

int cp_doctor_main(int argc, char **argv)
{
    const struct option *options = cp_doctor_options;
    int json = 0, opt;
    const char *chip = NULL;
    optind = 0;
    opterr = 0;
    char **args = argv + 1; /* "doctor" plays argv[0] */
    int nargs = argc - 1;
    uint64_t seen = 0; /* the options with a value given so far: each is given once */
    while ((opt = getopt_long(nargs, args, ":h", options, NULL)) != -1) {
        const char *word = args[optind - 1];
        cp_status once;
        cp_status_clear(&once);
        if (cp_sweep_once(options, opt, &seen, &once) != CP_EXIT_OK) {
            fprintf(stderr, "coalprobe: %s\nhint: %s\n", once.message, once.hint);
            return CP_EXIT_USAGE;
        }
        switch (opt) {
        case 'f':
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0) {
                fprintf(stderr,
                        "coalprobe: --format: '%s' is not a format of doctor\n"
                        "hint: doctor writes text or json\n",
                        optarg);
                return CP_EXIT_USAGE;
            }
            json = strcmp(optarg, "json") == 0;
            break;
        case 'c':
            chip = optarg;
            break;
        case 'h':
            cp_help_print_command(stdout, cp_commands_doctor());
            return CP_EXIT_OK;
        case ':':
            fprintf(stderr,
                    "coalprobe: option '%s' needs a value\nhint: see coalprobe doctor --help\n",
                    word);
            return CP_EXIT_USAGE;
        default:
            fprintf(stderr,
                    "coalprobe: unknown option '%s' of doctor\nhint: see coalprobe doctor --help\n",
                    word);
            return CP_EXIT_USAGE;
        }
    }
    if (optind < nargs) {
        fprintf(stderr, "coalprobe: unexpected argument '%s'\nhint: see coalprobe doctor --help\n",
                args[optind]);
        return CP_EXIT_USAGE;
    }
    if (chip && cp_doctor_check_chip_name(chip) != CP_EXIT_OK)
        return CP_EXIT_USAGE;
    cp_doctor *d = calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "coalprobe: out of memory\n");
        return CP_EXIT_RUNTIME;
    }
    d->chip = chip;
    cp_doctor_run_checks(d);
    int rc = CP_EXIT_OK;
    if (json) {
        char command[256];
        snprintf(command, sizeof command, "coalprobe doctor --format json%s%s",
                 chip ? " --chip " : "", chip ? chip : "");
        rc = cp_doctor_print_json(d, stdout, command);
    } else {
        cp_doctor_print_text(d, stdout);
    }
    if (rc == CP_EXIT_OK && cp_doctor_failures(d, 0))
        rc = CP_EXIT_RUNTIME;
    free(d);
    return rc;
}
