/* cp_devices.h: a sweep spread over several GPUs of one host (--devices): one worker a GPU, each
 * with its own backend state, the rows in the sweep's order, each naming the GPU that measured
 * it. Used by cp_app.c only. */
#ifndef CP_DEVICES_H
#define CP_DEVICES_H

#include <stddef.h>
#include <stdio.h>

#include "cp_cli.h"
#include "measure/cp_measure.h"
#include "report/cp_report.h"
#include "base/cp_base.h"

/* One run over several GPUs: its workers and their states (opaque). */
typedef struct cp_devices cp_devices;

/* The devices o asks for (--devices LIST, or all that `count` has): CP_EXIT_USAGE when one does
 * not exist. devices holds CP_MAX_DEVICES. */
int cp_devices_resolve(const cp_options *o, int count, int *devices, size_t *n, cp_status *st);

/* Opens one backend state per device o asks for, each on its own worker thread (bo: the
 * options every state shares; its device is set per worker), refuses GPUs of different kinds
 * unless --mixed, and measures rows[0..n) (their configurations configs[0..n), which every worker
 * loads first: cp_backend.preload) with them: each worker takes the next configuration
 * until none is left, reading the counters of its rows in batches as it goes (each whole batch
 * of cp_backend.counter_batch as soon as it has one) and the rest at the end, then closes its
 * state; with --check each configuration is also timed on every other GPU (cp_row.other_*). *done:
 * the rows finished (fewer after a signal). A GPU that fails leaves its rows marked failed
 * (cp_row.failed), and the others go on. *out is NULL when the machine has no GPU (the run goes on
 * model-only; no_gpu holds the backend's words for the caller's note); otherwise close it with
 * cp_devices_close once the report is written. */
int cp_devices_measure(const cp_options *o, const cp_backend *backend, const cp_backend_options *bo,
                       const cp_config *configs, cp_row *rows, cp_measurement *meas, size_t n,
                       size_t *done, cp_devices **out, cp_status *no_gpu, cp_status *st);

/* The end of the queue (exposed for its unit test): 1 when worker `me`, whose counters are not
 * read yet for backlog[me] rows, should take no more of the `left` configurations: the other
 * workers still taking (taking[k]) can time, check and count them all (time_s + count_s seconds
 * each, shared among them) before me has counted its own (count_s seconds a row), from the
 * least backlog among them. */
int cp_devices_stop_taking(const size_t *backlog, const int *taking, size_t nw, size_t me,
                           size_t left, double time_s, double count_s);

/* The GPUs of the run, in the order asked (those that could not be opened included), and
 * whether they are of different kinds. */
const cp_device_info *cp_devices_info(const cp_devices *d, size_t *count, int *mixed);

/* -v: one line per GPU of a run over several (nothing for one): its configurations, the seconds
 * it spent measuring them and reading their counters, each batch of counters (its rows, when
 * it began and how long it took, "at the end" for the one after its last configuration), and
 * when it took its last configuration and was done, in seconds since the run's start. */
void cp_devices_print_workers(const cp_devices *d, FILE *out);

/* After the report: CP_EXIT_RUNTIME naming the GPUs that failed and how, or CP_EXIT_OK. */
int cp_devices_failures(const cp_devices *d, cp_status *st);

/* Closes every state (the rows' counter gaps die with them); NULL-safe. */
void cp_devices_close(cp_devices *d);

#endif
