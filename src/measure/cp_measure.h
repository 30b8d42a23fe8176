/* cp_measure.h: what a measurement backend reports (device facts, timings, counters) and
 * the table of functions a backend provides. The CUDA backend lives in cp_measure_cuda.c;
 * without a GPU the program runs model-only and rows carry no measurement. */
#ifndef CP_MEASURE_H
#define CP_MEASURE_H

#include <stdint.h>

#include "model/cp_model.h"
#include "base/cp_base.h"

/* Facts about the GPU, read from the device and measured once per run. */
typedef struct cp_device_info {
    int index;
    char name[256];
    char uuid[48]; /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" as nvidia-smi -L prints it */
    int cc_major, cc_minor;
    int sm_count;
    uint64_t l2_bytes;
    uint64_t memory_bytes;
    int driver_version;      /* CUDA driver API version, e.g. 13000 */
    int runtime_version;     /* CUDA runtime version */
    char driver_release[64]; /* kernel driver release such as "580.159.04", or "" */
    double sm_clock_hz;
    double memory_clock_hz;
    int memory_bus_bits;
    double peak_theoretical_bytes_per_s; /* 2 * memory clock * bus width / 8 */
    double peak_measured_bytes_per_s;    /* cudaMemcpy device to device, reads plus writes */
    /* the kernels this binary runs on it (cp_arch_decide): SASS for its architecture, SASS of
     * an older minor, or PTX the driver JIT-compiles; kernel_arch is the built one (90, 120) */
    cp_arch_run_kind kernel_kind;
    int kernel_arch;
    /* what one SM offers: threads, blocks, registers, shared memory and their allocation units
     * (all 0 when unknown) */
    cp_sm_limits sm;
} cp_device_info;

typedef enum {
    CP_COUNTERS_NOT_RUN, /* model only, or counters disabled with --no-counters */
    CP_COUNTERS_OK,      /* every counter below was read */
    CP_COUNTERS_REFUSED, /* the profiler refused; reason says why and how to fix it */
} cp_counters_status;

/* Hardware counter values of one configuration's kernel; NAN when not read. */
typedef struct cp_counter_values {
    double load_requests, load_sectors;
    double store_requests, store_sectors;
    double l2_read_sectors, l2_write_sectors; /* L2 sectors requested by L1 (srcunit tex) */
    double dram_read_bytes, dram_write_bytes;
    double load_bytes_requested, store_bytes_requested; /* bytes the active lanes asked for */
    double dram_throughput_pct; /* DRAM bytes per median second, % of the theoretical peak */
    /* shared memory: instructions, wavefronts and bank conflicts, loads and stores */
    double shared_load_requests, shared_load_wavefronts, shared_load_conflicts;
    double shared_store_requests, shared_store_wavefronts, shared_store_conflicts;
    /* achieved occupancy: sm__warps_active.avg.pct_of_peak_sustained_active (or the chip's
     * equivalent) as a fraction of the SM's peak warps, 0..1 */
    double achieved_occupancy;
    /* the memory path (readonly and async sweeps only): the share of global load sectors that
     * hit in L1 and of L2 read sectors that hit in L2, SM active cycles over elapsed (0..1), LDC
     * instructions, LDGSTS instructions (cp.async), TMA load instructions and the global sectors
     * they read */
    double l1_load_hit_rate, l2_read_hit_rate, sm_active;
    double constant_requests, ldgsts_requests;
    double tma_load_requests, tma_load_sectors;
    /* the family's own counters (cp_family_desc.counters), in its order: the value of each
     * one's CUPTI metric; NAN for one not read (refused, not on the chip, the model's alone) */
    double family[CP_FAMILY_COUNTERS_MAX];
} cp_counter_values;

/* A counter a run did not read (null in the report), and why. */
typedef struct cp_counter_gap {
    const char *counter; /* its name under measured.counters in the JSON report, such as
                          * "dram_read_bytes", "shared_load.wavefronts", "achieved_occupancy" */
    char reason[200];
} cp_counter_gap;

#define CP_MEASURE_MAX_GAPS 24

/* What a configuration's kernel needs of an SM, as launched for the timed runs, and how many of
 * its blocks fit on one (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor;
 * for the expr family the same on the kernel NVRTC compiled). */
typedef struct cp_resources {
    int known;        /* 1 when the fields below were read */
    char reason[160]; /* known 0: why not ("cuBLAS chooses its own kernels"), or "" */
    uint32_t registers_per_thread;
    uint64_t static_shared_bytes;  /* per block */
    uint64_t dynamic_shared_bytes; /* per block, as launched */
    uint32_t threads_per_block;
    uint32_t blocks_per_sm;       /* the occupancy API's answer */
    double theoretical_occupancy; /* blocks_per_sm * warps per block / the SM's warps, 0..1 */
    cp_sm_limits sm;              /* the SM's limits, for the limit that binds (cp_occupancy.h) */
} cp_resources;

/* --- the stopping rule of the timed launches (cp_samples.c: pure, no GPU; docs/measurement.md,
 * "Timing"). A configuration takes timed samples until it has min_samples AND its samples add
 * up to min_time_s AND (its noise is at most max_noise OR max_time_s was spent); --reps N takes
 * exactly N instead. --- */

/* The defaults, in this one place (help, docs and the tests read them from here). Provisional:
 * chosen from the 20-launch H100 reports of docs/results/ and the 10 s target of issue 27, to
 * be measured on the H100 (bench/noise_rule.sh). */
#define CP_SAMPLING_MIN_SAMPLES 5
#define CP_SAMPLING_MAX_NOISE_PCT 0.5
#define CP_SAMPLING_MIN_TIME_S 0
#define CP_SAMPLING_MAX_TIME_S 0.5
/* The most samples --reps or --min-samples may ask for, and the most the rule takes: it stops
 * there even before --min-time (times the events cannot tell from 0 would never add up). */
#define CP_SAMPLING_MAX_COUNT 100000
/* The noise is the half-width of a distribution-free confidence interval of the median at this
 * level (cp_samples_interval_rank). */
#define CP_SAMPLING_CONFIDENCE 0.90
/* The fewest samples such an interval exists for (1 - 2 / 2^n >= the level). */
#define CP_SAMPLING_NOISE_MIN_SAMPLES 5

/* The rule's settings. */
typedef struct cp_sampling {
    uint32_t reps;        /* > 0: exactly this many samples, no rule (--reps) */
    uint32_t min_samples; /* --min-samples */
    double max_noise;     /* --max-noise as a fraction: 0.005 is 0.5% */
    double min_time_s;    /* --min-time: the samples' own times add up to at least this */
    double max_time_s;    /* --max-time: time spent, from the first sample's L2 flush to the end of
                           * the latest sample, after which a noisy configuration stops */
} cp_sampling;

/* The defaults above (reps 0: the rule). */
void cp_sampling_defaults(cp_sampling *r);

/* Why a configuration's sampling stopped. */
typedef enum {
    CP_SAMPLES_GOING,   /* not yet */
    CP_SAMPLES_QUIET,   /* its noise came down to max_noise */
    CP_SAMPLES_TIMEOUT, /* max_time_s spent, its noise above max_noise (or unknown): noisy */
    CP_SAMPLES_COUNTED, /* --reps samples taken */
} cp_samples_stop;

/* One configuration's samples so far, sorted, and where the rule stands. */
typedef struct cp_samples {
    cp_sampling rule;
    double *sorted;  /* the samples' times in seconds, ascending */
    double *arrived; /* the same times in the order they were added */
    size_t n, cap;
    double sum_s;   /* the samples' times added */
    double spent_s; /* time spent up to the end of the latest sample */
    double noise;   /* cp_samples_noise of the samples so far, NAN below 5 */
    cp_samples_stop stop;
} cp_samples;

/* Starts an empty set of samples under rule. */
void cp_samples_init(cp_samples *s, const cp_sampling *rule);
void cp_samples_free(cp_samples *s);

/* Adds one sample: its time, and the time spent from the first sample's start to its end (a
 * clock of the caller's: the CUDA backend's events). Updates the noise and applies the rule:
 * returns 1 when sampling stops now (s->stop says why), 0 when it goes on, -1 when memory ran
 * out (nothing added). A sample added after the stop is refused (-1). */
int cp_samples_add(cp_samples *s, double time_s, double spent_s);

/* How many samples to queue before the rule can next stop: the rest of --reps or of
 * --min-samples, the count that should reach --min-time at the mean time so far, else 1; 0 once
 * stopped. */
uint32_t cp_samples_next(const cp_samples *s);

/* j such that [x_(j), x_(n+1-j)] (1-based order statistics) is the narrowest interval of n
 * samples that covers their distribution's median with probability >= CP_SAMPLING_CONFIDENCE
 * whatever the distribution: the largest j with P(Binomial(n, 1/2) <= j - 1) <= (1 - level) / 2.
 * 0 when n < CP_SAMPLING_NOISE_MIN_SAMPLES (no interval reaches the level). Exact up to n = 1000,
 * the normal approximation beyond. */
size_t cp_samples_interval_rank(size_t n);

/* The noise of the ascending samples x[0..n): the relative half-width of the median's interval,
 * (x_(n+1-j) - x_(j)) / (2 * median); NAN when n < CP_SAMPLING_NOISE_MIN_SAMPLES. */
double cp_samples_noise(const double *sorted, size_t n);

/* The median of the ascending samples x[0..n) (the mean of the middle two for even n). */
double cp_samples_median(const double *sorted, size_t n);

/* Reads --max-noise: a percentage, "0.5" or "0.5%" (0 < PCT <= 100), as a fraction. */
int cp_sampling_parse_noise(const char *arg, double *fraction, cp_status *st);
/* Reads --min-time and --max-time (option: its name for messages): seconds, "0.5", "0.5s" or
 * "500ms", 0..3600. */
int cp_sampling_parse_seconds(const char *arg, const char *option, double *seconds, cp_status *st);

/* Everything measured for one configuration. */
typedef struct cp_measurement {
    int timed;     /* 1 when the times below were measured */
    uint32_t reps; /* timed launches: the samples the stopping rule took, or --reps */
    double time_median_s, time_min_s, time_max_s;
    double noise;              /* the samples' noise (cp_samples_noise), NAN when fewer than 5 */
    int noisy;                 /* 1: stopped at --max-time with the noise above --max-noise */
    double useful_bytes;       /* bytes requested by the threads (loads plus stores) */
    double useful_bytes_per_s; /* useful_bytes / median time */
    double dram_bytes_per_s;   /* (DRAM read + write bytes) / median time, NAN without counters */
    double pct_of_peak;        /* useful bandwidth over the measured copy peak, in percent */
    double flop_per_s;         /* GEMM: 2 m n k / median time; NAN for other families */
    double pct_of_cublas;      /* GEMM: cuBLAS's median time over this one's, in percent */
    double rel_error;          /* GEMM: ||C - C_cublas|| / ||C_cublas|| */
    int verified;              /* 1 when the kernel's output matched the host reference */
    cp_counters_status counters_status;
    char counters_reason[1024];
    cp_counter_values counters;
    /* with counters_status OK: the counters not read and why (the chip lacks them, the sweep
     * does not report them); owned by the backend, valid until it is closed */
    const cp_counter_gap *counter_gaps;
    size_t ncounter_gaps;
    int counts_match;       /* 1 when requests and sectors equal the model's, -1 unknown */
    cp_resources resources; /* the kernel's registers, shared memory and occupancy */
    /* the readonly family: the SASS instruction its table load compiled to for this GPU
     * (LDG.E, LDG.E.CONSTANT, LDC), "" when unknown, and then why */
    char load_opcode[32];
    char load_opcode_reason[120];
} cp_measurement;

/* Sets every counter of v to NAN. */
void cp_counter_values_clear(cp_counter_values *v);
/* 1 when the measured requests and sectors (global), the family's own counters that a metric
 * measures (cp_prediction.family_checked) and, where the model describes shared
 * memory, shared requests, wavefronts and bank conflicts equal the prediction's; 0 when one
 * differs; -1 when p is not modelled (cuBLAS) or a counter needed was not read (NAN). Shared
 * counters that were not read are not needed for a kernel the model gives no shared access. */
int cp_measure_counts_match(const cp_prediction *p, const cp_counter_values *v);

/* Reads device's facts (name, compute capability, memory, L2, clocks, driver and runtime
 * versions; no bandwidth is measured: the peak fields are NAN) and decides how it runs this
 * binary's kernels (kernel_kind, kernel_arch). Needs the device; makes it current. On a device
 * this binary has no code for, returns CP_EXIT_RUNTIME with the refusal of cp_arch_check_device
 * (or the driver's "no kernel image", when the build's list is wrong); d is filled either way. */
int cp_measure_device_facts(int device, cp_device_info *d, cp_status *st);

/* Resets m to "nothing measured". */
void cp_measurement_clear(cp_measurement *m);

/* The times of s's samples into m: reps, median, min, max, noise, noisy; timed 1 (with one
 * sample at least). */
void cp_samples_result(const cp_samples *s, cp_measurement *m);

/* Formats a device's 16-byte UUID as nvidia-smi prints it ("GPU-" then 8-4-4-4-12 hex digits). */
void cp_measure_format_uuid(const unsigned char bytes[16], char *buf, unsigned long len);

/* Finds the driver release (such as "580.159.04") in the first line of
 * /proc/driver/nvidia/version: the first word made of digits and dots with at least one dot.
 * Writes "" when there is none. */
void cp_measure_parse_driver_release(const char *line, char *buf, unsigned long len);

/* --- measurement backends behind a table of functions: the CUDA backend
 * (cp_measure_cuda.c) times kernels and reads counters; with no backend the run is
 * model-only. --- */

typedef struct cp_backend_options {
    int device;                   /* CUDA device index */
    cp_sampling sampling;         /* how many timed launches each configuration takes */
    int counters;                 /* 1: read hardware counters through CUPTI */
    int shared_counters;          /* 1: the shared-memory counters too (cp_config_uses_shared) */
    int requests_as_instructions; /* 1: every configuration's requests are its instructions
                                   * (cp_config_requests_are_instructions): fewer passes */
    int path_counters;            /* 1: the memory path's counters too (cp_config_path_counters) */
    /* the CUPTI metrics of the sweep's families' own counters (cp_family_desc.counters), each
     * once (cp_backend_options_add_family) */
    const char *family_metrics[CP_FAMILY_COUNTERS_MAX];
    size_t nfamily_metrics;
    size_t max_configs; /* configurations the run will measure (CUPTI ranges) */
    int counters_now;   /* 1: open the CUPTI session before open() returns, so that
                         * a refusal is known at once (--require-counters, --check);
                         * 0: open it on a second thread while the kernels are timed */
    /* largest buffer each access (by index) needs over the run: lets the backend allocate
     * and fill its buffers once for a whole sweep */
    uint64_t max_access_bytes[CP_MODEL_MAX_ACCESSES];
    /* the largest sum of one configuration's buffers, and that configuration's description:
     * a run that cannot fit it is refused before anything is allocated */
    uint64_t max_config_bytes;
    char max_config[160];
} cp_backend_options;

/* The index of metric in o->family_metrics; o->nfamily_metrics when it is not there. */
size_t cp_backend_options_family_index(const cp_backend_options *o, const char *metric);

/* Adds the CUPTI metrics of c's family's own counters to o->family_metrics, each once (at most
 * CP_FAMILY_COUNTERS_MAX in all: a metric beyond is not read, its values NAN). */
void cp_backend_options_add_family(cp_backend_options *o, const cp_config *c);

typedef struct cp_backend {
    const char *name;
    /* Opens the device and fills dev (peak bandwidth measured). When no usable GPU or driver
     * exists, returns CP_EXIT_RUNTIME with *no_device = 1 and says why in st: the run goes on
     * model-only. When counters are refused, the backend still opens: each measurement then
     * carries CP_COUNTERS_REFUSED and the reason, and `refusal` (code CP_EXIT_RUNTIME) says
     * why and how to fix it; otherwise refusal->code is CP_EXIT_OK. */
    int (*open)(const cp_backend_options *opt, cp_device_info *dev, void **state, int *no_device,
                cp_status *refusal, cp_status *st);
    /* Measures one configuration: runs its kernel, checks the output and times it. */
    int (*measure)(void *state, const cp_config *c, const cp_prediction *p, cp_measurement *m,
                   cp_status *st);
    /* Reads the hardware counters of n configurations that measure() already timed,
     * profiling them together (timings are never taken while the profiler runs), and fills
     * in each m[i]'s counters, counts_match and DRAM bandwidth. */
    int (*counters)(void *state, size_t n, const cp_config *c, const cp_prediction *p,
                    cp_measurement *m, cp_status *st);
    /* Releases everything open() acquired; NULL-safe. */
    void (*close)(void *state);
    /* Without open(): what c's kernel needs of an SM of `device` (for --explain). Launches
     * nothing; an expr kernel is compiled and loaded. r->known is 0 with r->reason for a kernel
     * that is not coalprobe's (cuBLAS). CP_EXIT_RUNTIME with *no_device = 1 when there is no
     * usable GPU. May be NULL: then no resources are shown. */
    int (*resources)(int device, const cp_config *c, cp_resources *r, int *no_device,
                     cp_status *st);
    /* After counters(): why the counters were refused when open() could not say yet (a
     * session opened while the kernels were timed); refusal->code CP_EXIT_OK otherwise. May
     * be NULL. */
    void (*counters_refusal)(void *state, cp_status *refusal);
    /* Without open(): the L2 of `device` in bytes (for the defaults that depend on it).
     * CP_EXIT_RUNTIME with *no_device = 1 when there is no usable GPU. May be NULL. */
    int (*l2_bytes)(int device, uint64_t *bytes, int *no_device, cp_status *st);
    /* Without open(): how many devices there are (for --devices all). CP_EXIT_RUNTIME with
     * *no_device = 1 when there is no usable GPU. May be NULL: then only device 0 exists.
     * A run over several devices (src/app/cp_devices.c) opens one state per device, each on its
     * own thread, and calls measure(), counters() and close() of a state from any thread, one
     * at a time: a backend makes its device current in each. */
    int (*device_count)(int *count, int *no_device, cp_status *st);
    /* After open(), before the first measure(): loads the kernels of the n configurations about
     * to be measured (not those compiled at run time), so that none is loaded while the
     * counters' session is set up beside the timing. c stays valid until close(): measure()
     * given &c[i] reuses what preload() read of that kernel. May be NULL. */
    int (*preload)(void *state, size_t n, const cp_config *c, cp_status *st);
    /* After open(): how many configurations counters() profiles in one replay sequence (each
     * sequence costs a fixed start), or 0 when it reads no counters. A run over several GPUs
     * reads each GPU's counters in batches of this many while the other GPUs time theirs, so
     * that no two GPUs profile at once until the end. May be NULL: then once at the end. */
    size_t (*counter_batch)(void *state);
    /* Without open(), and without making a context: device's index, name, UUID and compute
     * capability, enough to tell GPUs of different kinds apart. A run over several GPUs then
     * decides before opening them, and each starts measuring as soon as it is open. May be
     * NULL: then every GPU is opened before any measures. */
    int (*describe)(int device, cp_device_info *dev, cp_status *st);
} cp_backend;

extern const cp_backend cp_backend_cuda;

/* 1 when configuration c's kernel needs more than device dev is (cp_family_needs_cc): it is
 * predicted, not measured, there. */
int cp_measure_beyond(const cp_config *c, const cp_device_info *dev);

/* The cause and fix coalprobe shows for a CUPTI refusal, by its CUptiResult number (e.g. 35,
 * CUPTI_ERROR_INSUFFICIENT_PRIVILEGES): 1 and both set when code is a refusal it explains, 0
 * otherwise (cp_cupti.cpp; needs no GPU and no CUPTI library). */
int cp_measure_cupti_refusal_text(int code, const char **cause, const char **fix);

/* --- why there is no GPU, or no counters (cp_diagnose.c): facts read once, judged by pure
 * functions, so that doctor, the note of a sweep without a GPU and the tests agree. --- */

/* What the machine shows about its GPUs. */
typedef struct cp_gpu_facts {
    int runtime_version;     /* cudaRuntimeGetVersion (13000 for 13.0) */
    int driver_version;      /* cudaDriverGetVersion: 0 when libcuda.so.1 cannot be loaded */
    int device_count;        /* cudaGetDeviceCount, 0 when it failed */
    char count_error[160];   /* its error, "NAME: text", or "" */
    int kernel_module;       /* /proc/driver/nvidia/version exists */
    char module_release[64]; /* the module's release ("580.95.05") or "" */
    int device_nodes;        /* /dev/nvidiaN nodes */
    int control_node;        /* /dev/nvidiactl exists */
    int container;           /* this process runs in a container */
    char container_kind[32]; /* "Docker", "Podman", "Kubernetes", "LXC", ... */
    int visible_set;         /* CUDA_VISIBLE_DEVICES is set ... */
    char visible[64];        /* ... to this */
    int root, cap_sys_admin; /* the right to profile */
    char admin_only[16];     /* RmProfilingAdminOnly ("1", "0"; "" unknown) */
} cp_gpu_facts;

/* Why there is no usable GPU; the first that holds, in this order. */
typedef enum {
    CP_GPU_OK,             /* the driver sees a GPU */
    CP_GPU_CONTAINER,      /* a container started without GPUs */
    CP_GPU_NO_LIBCUDA,     /* the kernel module without libcuda.so.1 */
    CP_GPU_NO_DRIVER,      /* no driver at all */
    CP_GPU_DRIVER_TOO_OLD, /* the driver's CUDA version is older than the runtime's */
    CP_GPU_NO_MODULE,      /* libcuda.so.1 without the kernel module */
    CP_GPU_NO_DEVICE_NODE, /* the module without /dev/nvidia0 or /dev/nvidiactl */
    CP_GPU_HIDDEN,         /* CUDA_VISIBLE_DEVICES hides every GPU */
    CP_GPU_NONE_SEEN,      /* the driver sees none, for a reason not found above */
} cp_gpu_cause;

/* Reads the facts (the CUDA runtime's answers, /proc, /dev, the environment). */
void cp_diagnose_read(cp_gpu_facts *f);

/* The cause; unless CP_GPU_OK, st (code CP_EXIT_RUNTIME) says it and its hint the fix. */
cp_gpu_cause cp_diagnose_gpu(const cp_gpu_facts *f, cp_status *st);

/* CP_EXIT_OK when this process may read counters (root, CAP_SYS_ADMIN, or the driver allows
 * everyone); else CP_EXIT_RUNTIME with why and the fix (the fix of CUPTI's refusal). */
int cp_diagnose_counters(const cp_gpu_facts *f, cp_status *st);

/* --- what this machine offers, for `coalprobe doctor` and --version (cp_probe.c). Each check
 * returns CP_EXIT_OK or CP_EXIT_RUNTIME with what is wrong in st's message and the fix in its
 * hint; none needs a GPU unless it says so. --- */

/* A library loaded on demand: where it came from and its version ("" when unknown). */
typedef struct cp_probe_library {
    char path[256];
    char version[48];
} cp_probe_library;

/* The CUDA driver's and runtime's versions (13000 for 13.0; the driver's is 0 without a driver)
 * and, unless devices is NULL, the devices the driver sees. CP_EXIT_RUNTIME when there is no
 * driver or (devices asked) no device. */
int cp_probe_cuda(int *driver_version, int *runtime_version, int *devices, cp_status *st);

/* CUPTI: the library, its API version and whether it has the SASS metrics API the trace path
 * needs (*sass_metrics). */
int cp_probe_cupti(cp_probe_library *lib, int *sass_metrics, cp_status *st);

/* NVRTC (the expr family) and cuBLAS (the GEMM reference). */
int cp_probe_nvrtc(cp_probe_library *lib, cp_status *st);
int cp_probe_cublas(cp_probe_library *lib, cp_status *st);

/* NVRTC compiles for sm_<arch>. */
int cp_probe_nvrtc_arch(int arch, cp_status *st);

/* What coalprobe's counters cost on a chip (host API only): metrics read of all it asks, those
 * the chip lacks, and the replay passes without and with the shared-memory counters (a stride
 * sweep against an smem sweep), and with the memory path's too (readonly, async). */
typedef struct cp_probe_counters {
    char chip[64];
    size_t metrics, read;
    size_t passes, passes_shared, passes_path;
    char missing[512]; /* "dram_read_bytes, dram_write_bytes" or "" */
} cp_probe_counters;
int cp_probe_counters_for_chip(const char *chip, cp_probe_counters *out, cp_status *st);

/* Host only: the chips CUPTI's profiler host API knows (its own list, such as "GH100"), *count of
 * them; CP_EXIT_RUNTIME (none) when CUPTI cannot be loaded. */
int cp_probe_chips(const char *const **chips, size_t *count, cp_status *st);

/* Needs the GPU: CUPTI's chip name of device (such as "GH100"). */
int cp_probe_device_chip(int device, char *chip, size_t len, cp_status *st);

/* Needs the GPU: opens a profiling session on device and closes it: CP_EXIT_OK when counters
 * can be read, else CUPTI's refusal (privileges, another profiler, vGPU...) with its fix. */
int cp_probe_profiling(int device, cp_status *st);

/* RmProfilingAdminOnly of the NVIDIA driver ("1", "0"; "" when unknown). */
void cp_probe_profiling_admin_only(char *buf, size_t len);

#endif
