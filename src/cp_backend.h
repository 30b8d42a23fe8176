/* cp_backend.h: measurement backends behind a table of functions. The CUDA backend
 * (cp_measure_cuda.c) times kernels and reads counters; with no backend the run is
 * model-only. */
#ifndef CP_BACKEND_H
#define CP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cp_config.h"
#include "cp_measure.h"
#include "cp_model.h"
#include "cp_status.h"

typedef struct cp_backend_options {
    int device;         /* CUDA device index */
    uint32_t reps;      /* timed launches per configuration */
    int counters;       /* 1: read hardware counters through CUPTI */
    size_t max_configs; /* configurations the run will measure (CUPTI ranges) */
    /* largest buffer each access (by index) needs over the run: lets the backend allocate
     * and fill its buffers once for a whole sweep */
    uint64_t max_access_bytes[CP_MODEL_MAX_ACCESSES];
    /* the largest sum of one configuration's buffers, and that configuration's description:
     * a run that cannot fit it is refused before anything is allocated */
    uint64_t max_config_bytes;
    char max_config[160];
} cp_backend_options;

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
} cp_backend;

extern const cp_backend cp_backend_cuda;

#endif
