/* cp_measure_family.h: the CUDA backend's state and what it asks of each access-pattern family
 * (its kernel's launch, resources and output check), private to the measure layer and the
 * families' measure parts: a family defines its hooks in families/<family>/cp_<family>_measure.c
 * and names them in its entry there, cp_<family>_measure, which the table of cp_measure_family.c
 * holds, found by cp_measure_family_of. */
#ifndef CP_MEASURE_FAMILY_H
#define CP_MEASURE_FAMILY_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_measure.h"
#include "cp_cublas.h"
#include "cp_cupti.h"
#include "cp_kernels.h" /* cp_kernel_resources and the launchers the families share */
#include "cp_rtc.h"

/* Launches before cuBLAS's timed ones (it has no checked launch). A kernel of coalprobe's has
 * none: its checked launch (step 2 of docs/measurement.md) is its first timed sample, after an L2
 * flush like every other (with two warm-ups, one and none the medians agreed within 0.7%,
 * docs/results/2026-11-23-h100-counter-speed/). */
#define CP_CUDA_WARMUPS 2
/* A launch call that takes the host longer than this (a normal one takes a few microseconds,
 * less than the L2 flush before it runs on the GPU) may have kept the GPU waiting between the
 * sample's events: the checked launch's sample is then not kept. */
#define CP_CUDA_SLOW_LAUNCH_S 20e-6
/* The GPU time the first configuration of a backend state runs untimed before its checked launch
 * (cp_measure_cuda.c, cp_cuda_warm_up). */
#define CP_CUDA_WARMUP_S 5e-3
#define CP_CUDA_MAX_BUFFERS CP_MODEL_MAX_ACCESSES
#define CP_CUDA_CUBLAS_TIMES 64 /* GEMM sizes whose cuBLAS time is remembered */
#define CP_CUDA_BATCH 256       /* timed samples queued at most before their times are read */

/* A device buffer kept for the whole sweep. Input buffers hold cp_fill_value(word, seed) for
 * every word, so any configuration can read them without refilling. */
typedef struct cp_cuda_buffer {
    void *ptr;
    uint64_t capacity;
    uint32_t seed; /* the fill of an input buffer; 0 when its contents are not a fill */
} cp_cuda_buffer;

typedef struct cp_cuda_state {
    cp_backend_options opt;
    cp_cuda_buffer pool[CP_MODEL_MAX_ACCESSES];
    cp_device_info dev;
    cudaStream_t stream;
    void *flush_buf;
    uint64_t flush_bytes;
    float *sink;
    /* the timed samples' events: a start and a stop each, created as batches need them (at most
     * CP_CUDA_BATCH), and the event before a configuration's first timed sample (time spent) */
    cudaEvent_t starts[CP_CUDA_BATCH], stops[CP_CUDA_BATCH];
    uint32_t nevents;
    cudaEvent_t begin;
    cp_cupti_session *cupti;
    cp_cublas *cublas; /* created on the first GEMM */
    void *gemm_ref;    /* cuBLAS's C, the reference of every GEMM variant */
    uint64_t gemm_ref_bytes;
    double *norm_sums; /* two device doubles for the reference check */
    struct {           /* cuBLAS median times by size, for "% of cuBLAS" */
        uint64_t m, n, k;
        double seconds;
    } cublas_times[CP_CUDA_CUBLAS_TIMES];
    size_t ncublas_times;
    int counters_refused;
    char counters_reason[1024];
    /* preload()'s configurations and what it read of each one's kernel (pre_known[i]: read),
     * reused by measure() when it is given &pre_c[i] */
    const cp_config *pre_c;
    size_t pre_n;
    cp_resources *pre_res;
    unsigned char *pre_known;
    /* the CUPTI session opening on a second thread while the kernels are timed */
    pthread_t cupti_thread;
    int cupti_deferred; /* to start once the first configuration's kernel is loaded */
    int cupti_pending;
    int cupti_rc;
    double cupti_seconds; /* the session's set-up on its thread, for -v */
    unsigned cupti_groups;
    cp_status cupti_refusal;
    /* counters the session does not read, and why: for every row, and for rows profiled with
     * one block per SM (whose occupancy is not the timed launch's) */
    cp_counter_gap gaps[CP_MEASURE_MAX_GAPS], gaps_alone[CP_MEASURE_MAX_GAPS];
    size_t ngaps, ngaps_alone;
    /* the same two lists for rows with cp.async loads, whose bytes requested are not read */
    cp_counter_gap gaps_async[CP_MEASURE_MAX_GAPS], gaps_alone_async[CP_MEASURE_MAX_GAPS];
    size_t ngaps_async, ngaps_alone_async;
    /* each family's state of its own where it keeps one (the kernels it compiled at run time),
     * NULL until it does: its release hook frees it */
    void *own[CP_FAMILY_COUNT];
    /* the output checks' pinned host copy of the chunks they read, grown as needed */
    float *check_host;
    uint64_t check_words;
    int warmed; /* the first configuration's warm-up has run (cp_measure_cuda.c) */
} cp_cuda_state;

/* One configuration being measured: its buffers and what the callbacks need. */
typedef struct cp_cuda_run {
    cp_cuda_state *s;
    const cp_config *c;
    const cp_prediction *p;
    void *bufs[CP_CUDA_MAX_BUFFERS];
    int alone; /* profiling: one block per SM (cp_kernels.h says why) */
} cp_cuda_run;

/* Output checks sample 16 chunks of threads (or of rows): the first, the last and 14 spread
 * between them. */
#define CP_CUDA_CHUNKS 16

/* A chunk of threads of a one-element-per-thread kernel. */
typedef struct cp_cuda_chunk {
    uint64_t i0, count;     /* threads */
    uint64_t first, nwords; /* output words they write, first .. first + nwords - 1 */
    uint64_t words;         /* words per element */
} cp_cuda_chunk;

/* A one-element-per-thread family: thread i copies element src(i) of input access `data` to
 * element dst(i) of output access `out`, each element `words` 32-bit words. */
typedef struct cp_cuda_copy {
    size_t out, data;
    uint64_t (*words)(const cp_config *c); /* NULL: 1 */
    uint64_t (*src)(const cp_config *c, uint64_t i);
    uint64_t (*dst)(const cp_config *c, uint64_t i); /* NULL: i */
    /* Optional: a check of one chunk before its output's (gather: the index array) */
    int (*check_chunk)(const cp_cuda_run *r, const cp_cuda_chunk *ch, cp_status *st);
} cp_cuda_copy;

/* What the backend asks of a family: its hooks, one type each, so that a family declares its
 * hooks by name below (and its definitions are checked against them). Every configuration goes
 * through the same steps (buffers from the prediction's accesses, inputs filled, output
 * poisoned, one checked launch, timed launches, counters); these are the steps that differ. */

/* Launches the configuration's kernel on the state's stream (launch errors only). */
typedef int cp_measure_launch_fn(const cp_cuda_run *r, cp_status *st);
/* Fills what the output check reads with 0xFF bytes (a NaN), so that a word the kernel failed
 * to write cannot pass for a stale right answer. */
typedef int cp_measure_poison_fn(const cp_cuda_run *r, cp_status *st);
/* Checks the output of the launch that just ran; may record how close it came in m. */
typedef int cp_measure_verify_fn(const cp_cuda_run *r, cp_measurement *m, cp_status *st);
/* The static resources of the kernel launch runs for c (timed launches: `alone` 0) into k, in
 * one of three forms (cp_measure_family says which): fixed, a kernel's whose resources depend
 * on nothing in c (its cp_kernels_<family>_resources itself); config, those of a built-in kernel
 * chosen by c; general: expr is the kernel compiled at run time for c (NULL for the others),
 * and a configuration whose kernel is not coalprobe's writes why into r->reason and leaves k
 * alone. */
typedef cudaError_t cp_measure_fixed_resources_fn(cp_kernel_resources *k);
typedef cudaError_t cp_measure_config_resources_fn(const cp_config *c, cp_kernel_resources *k);
typedef int cp_measure_resources_fn(const cp_config *c, const cp_rtc_module *expr,
                                    cp_kernel_resources *k, cp_resources *r, cp_status *st);
/* Writes input access a itself instead of the common fill, setting *written (its contents are
 * then not a fill, never reused as one). */
typedef int cp_measure_fill_input_fn(const cp_cuda_run *r, size_t a, void *buf, int *written,
                                     cp_status *st);
/* 1 when c's kernel is profiled with one block per SM (cp_kernels.h, `alone`). */
typedef int cp_measure_profiled_alone_fn(const cp_config *c);
/* What the family measures after the timing (into m, m's median set). */
typedef int cp_measure_after_timing_fn(const cp_cuda_run *r, cp_measurement *m, cp_status *st);
/* For kernels compiled at run time: c's kernel as loaded in s by the launches (a look-up), and
 * c's kernel compiled and loaded for device d alone (the caller unloads it), both for
 * resources. */
typedef int cp_measure_loaded_kernel_fn(cp_cuda_state *s, const cp_config *c, cp_rtc_module **k,
                                        cp_status *st);
typedef int cp_measure_load_kernel_fn(const cp_device_info *d, const cp_config *c,
                                      cp_rtc_module **k, cp_status *st);
/* Releases what the family keeps in s (when the backend closes). */
typedef void cp_measure_release_fn(cp_cuda_state *s);

/* A family's entry of the measure table (cp_measure_family.c). Optional members are NULL. */
typedef struct cp_measure_family {
    cp_measure_launch_fn *launch;
    cp_measure_poison_fn *poison;
    cp_measure_verify_fn *verify;
    /* A one-element-per-thread family: the copy its kernel makes, poisoned and checked in
     * chunks by cp_cuda_copy_poison and cp_cuda_copy_verify (poison and verify are NULL). */
    const cp_cuda_copy *copy;
    /* Its resources: exactly one of the three is set; cp_measure_family_resources calls it. */
    cp_measure_fixed_resources_fn *fixed_resources;
    cp_measure_config_resources_fn *config_resources;
    cp_measure_resources_fn *resources;
    cp_measure_fill_input_fn *fill_input;         /* optional */
    cp_measure_profiled_alone_fn *profiled_alone; /* optional */
    cp_measure_after_timing_fn *after_timing;     /* optional */
    cp_measure_loaded_kernel_fn *loaded_kernel;   /* optional, with load_kernel */
    cp_measure_load_kernel_fn *load_kernel;
    cp_measure_release_fn *release; /* optional */
    /* 1 when the pattern's shared-memory bytes count as useful bytes (what the family moves). */
    int useful_shared;
} cp_measure_family;

/* Each family's entry, cp_<family>_measure, defined at the end of its measure part
 * (families/<family>/cp_<family>_measure.c), its hooks static there; the table of
 * cp_measure_family.c enters them in the order of the registry. */
#define CP_FAMILY(NAME, name) extern const cp_measure_family cp_##name##_measure;
#include "cp_families.def"
#undef CP_FAMILY

/* The family's entry, NULL for a value outside the enumeration. */
const cp_measure_family *cp_measure_family_of(cp_family f);

/* The static resources of the kernel f's launch runs for c, through whichever of its three
 * forms f has (the `resources` members above say what expr and r are for). */
int cp_measure_family_resources(const cp_measure_family *f, const cp_config *c,
                                const cp_rtc_module *expr, cp_kernel_resources *k, cp_resources *r,
                                cp_status *st);

/* Provided by cp_measure_cuda.c for the families. */

/* Times r's kernel: warmups launches, then timed launches each after an L2 flush, as many as
 * opt.sampling's rule takes (cp_samples), into m (reps, median, min, max, noise, noisy). */
int cp_cuda_time(cp_cuda_run *r, int warmups, cp_measurement *m, cp_status *st);

/* Shared by the families' output checks (cp_measure_family.c). */

/* Input buffers get seed = access index + 1; outputs are poisoned with 0xFF bytes (NaN). */
uint32_t cp_cuda_seed(size_t access);

/* A wrong output value (float words, or raw 32-bit words): CP_EXIT_RUNTIME with a message. */
int cp_cuda_wrong(cp_status *st, const char *what, uint64_t index, float got, float want);
int cp_cuda_wrong_word(cp_status *st, const char *what, uint64_t index, uint32_t got,
                       uint32_t want);

/* Copies `count` words from device word offset `first` of buf into a new host array. */
int cp_cuda_copy_words(const void *buf, uint64_t first, uint64_t count, uint32_t **out,
                       cp_status *st);

/* What a family's output check expects of a range of output words. */
typedef struct cp_cuda_expect {
    const char *what; /* names a word in the message: "<what> <word offset> is ..." */
    int floats;       /* 1: compared and reported as floats (cp_cuda_wrong), 0: as raw words */
    /* The word expected at device word offset `word` (a float's bits when floats is 1). */
    uint32_t (*want)(const void *ctx, uint64_t word);
    const void *ctx;
} cp_cuda_expect;

/* The bits of f, for a want() of float words. */
uint32_t cp_cuda_float_bits(float f);

/* Checks the host words got[0 .. count - 1], from device word offset `first`, against e: the
 * first wrong one is the error. */
int cp_cuda_check_words(const uint32_t *got, uint64_t first, uint64_t count,
                        const cp_cuda_expect *e, cp_status *st);

/* Copies `count` words from device word offset `first` of buf back and checks them against e
 * (cp_cuda_check_words). */
int cp_cuda_verify_words(const void *buf, uint64_t first, uint64_t count, const cp_cuda_expect *e,
                         cp_status *st);

/* Poisons all of output access `out` of r. */
int cp_cuda_poison_access(const cp_cuda_run *r, size_t out, cp_status *st);

/* The words the 16 chunks of c's output checks copy back (cp_cuda_copy_verify). */
uint64_t cp_cuda_copy_check_words(const cp_config *c, const cp_cuda_copy *cp);

/* The state's pinned host memory for the output checks: room for at least `words`, grown to
 * twice what it held at least. A pinned allocation waits for the driver, which CUPTI's starts
 * of another GPU's counter batches hold: preload() reserves what its configurations need. */
int cp_cuda_check_reserve(cp_cuda_state *s, uint64_t words, cp_status *st);

/* Poisons the output words of the 16 chunks; checks them. */
int cp_cuda_copy_poison(const cp_cuda_run *r, const cp_cuda_copy *cp, cp_status *st);
int cp_cuda_copy_verify(const cp_cuda_run *r, const cp_cuda_copy *cp, cp_status *st);

#endif
