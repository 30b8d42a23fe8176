/* cp_devices.c: a sweep spread over several GPUs of one host (--devices; cp_devices.h). Each GPU
 * has a worker: the first runs on the calling thread (its phases are the ones -v shows), the
 * others on threads of their own. GPUs of different kinds are refused before any work: from the
 * backend's describe() before any GPU is opened (then each worker measures as soon as its state
 * is open), or, without it or with --require-counters, once every worker has opened its state
 * (the workers wait for that). A worker takes the next configuration from a shared queue until
 * none is left, or until the others can finish the rest before it has read its own counters. It
 * reads the counters of its rows in batches of the backend's replay sequence as soon as it has a
 * whole one (cp_devices_counters_now says why not one GPU at a time), and the rest at the end. With
 * --check the workers meet once more and each times the other GPUs' configurations, so that a row
 * slower or faster than on the other GPUs is flagged. Each worker closes its own state when done,
 * all at once before the report; -v prints each worker's line (its share, its batches, when it
 * finished). One file over 800 lines: the workers, their queue, its end-of-queue rule and the
 * counter batches share one lock and one private struct, and splitting them would expose it. */
#define _POSIX_C_SOURCE 200809L
#include "cp_devices.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cp_progress.h"

#define CP_DEVICES_BATCHES 8

typedef struct cp_devices_worker {
    struct cp_devices *run;
    size_t slot;           /* its place among the workers */
    cp_device_info info;   /* index set before open(), the rest by it */
    void *state;           /* the backend's, NULL until opened */
    cp_status refusal;     /* the counters refused on this GPU, or code CP_EXIT_OK */
    cp_status st;          /* how it failed */
    int failed;            /* 1: it failed (failure says how) */
    int not_open;          /* 1: it failed to start or to open */
    int no_device;         /* open() found no GPU at all */
    char failure[1400];    /* "GPU 1 (NVIDIA H200) failed mid-sweep: ..." */
    size_t *owned, nowned; /* the rows it measured, in the sweep's order */
    /* the counter gap lists its rows point to, copied out of its state before it closes (the
     * backend owns them until then, cp_measure.h; the report is written after) */
    struct {
        const cp_counter_gap *from;
        cp_counter_gap *copy;
        size_t n;
    } * gap_lists;
    size_t ngap_lists;
    size_t counted; /* owned[0..counted) went through counters() */
    int stopped;    /* it took its last configuration (cp_devices_stop_taking) */
    size_t beyond;  /* configurations beyond this GPU, predicted only */
    pthread_t thread;
    int has_thread;
    /* -v (cp_devices_print_workers): seconds measuring and reading counters, each batch read
     * (the first CP_DEVICES_BATCHES), and since the run's start, when it took its last
     * configuration and when it was done */
    double measure_s, count_s, last_at, done_at;
    size_t nbatches;
    struct {
        size_t rows;
        double at, s;
        int at_end;
    } batch[CP_DEVICES_BATCHES];
} cp_devices_worker;

struct cp_devices {
    const cp_options *o;
    const cp_backend *backend;
    cp_backend_options bo;
    const cp_config *configs; /* the rows' configurations, for the workers' preload */
    double began;             /* cp_phase_now() at the run's start */
    cp_row *rows;
    cp_measurement *meas;
    size_t n;
    cp_devices_worker *w;
    size_t nw;
    cp_device_info *infos; /* a copy of each worker's info, for the report */
    int mixed;             /* GPUs of different kinds */
    int early; /* decided from the backend's describe() before opening: each worker measures
                * as soon as it is open */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t opened;   /* workers that tried to open */
    int go;          /* 0: wait; 1: measure; -1: stop (a refusal) */
    size_t next;     /* the next configuration to take */
    size_t finished; /* configurations done, for the progress line */
    size_t counted;  /* workers done with their counters */
    /* the end of the queue: each worker's rows whose counters are not read yet (backlog[k]),
     * and the seconds the workers took per configuration to time and check it, and to read its
     * counters, so far */
    size_t backlog[CP_MAX_DEVICES];
    double timed_s, counted_s;
    size_t timed_rows, counted_rows;
    int counting; /* the backend reads counters (cp_backend.counter_batch) */
    /* --check: the median time and half its spread of row r timed on worker k, at
     * [k * n + r] (NAN where not timed) */
    double *other_median, *other_half;
};

int cp_devices_resolve(const cp_options *o, int count, int *devices, size_t *n, cp_status *st)
{
    *n = 0;
    if (o->devices_all) {
        for (int d = 0; d < count && d < CP_MAX_DEVICES; d++)
            devices[(*n)++] = d;
        return CP_EXIT_OK;
    }
    for (size_t i = 0; i < o->ndevices; i++) {
        if (o->devices[i] >= count) {
            cp_status_set(st, CP_EXIT_USAGE,
                          "--devices: device %d does not exist: this machine "
                          "has %d",
                          o->devices[i], count);
            cp_status_hint(st, "devices are numbered from 0 (nvidia-smi lists them); or "
                               "--devices all");
            return CP_EXIT_USAGE;
        }
        devices[(*n)++] = o->devices[i];
    }
    return CP_EXIT_OK;
}

/* Marks worker w failed (st: how), once; the caller holds no lock. */
static void cp_devices_fail(cp_devices_worker *w, const char *when, const cp_status *st)
{
    if (w->failed)
        return;
    w->failed = 1;
    snprintf(w->failure, sizeof w->failure, "GPU %d (%.255s) failed %.80s: %.900s", w->info.index,
             w->info.name[0] ? w->info.name : "not opened", when, st->message);
}

/* Opens w's state, then waits for the decision of the first worker (cp_devices_decide). */
static void cp_devices_open(cp_devices_worker *w)
{
    cp_devices *d = w->run;
    cp_backend_options bo = d->bo;
    bo.device = w->info.index;
    cp_status_clear(&w->st);
    cp_status_clear(&w->refusal);
    int rc = d->backend->open(&bo, &w->info, &w->state, &w->no_device, &w->refusal, &w->st);
    w->info.index = bo.device; /* kept when open() failed before filling it */
    if (rc != CP_EXIT_OK) {
        w->state = NULL;
        w->not_open = 1;
        cp_devices_fail(w, "to open", &w->st);
    }
    pthread_mutex_lock(&d->lock);
    d->opened++;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
}

int cp_devices_stop_taking(const size_t *backlog, const int *taking, size_t nw, size_t me,
                           size_t left, double time_s, double count_s)
{
    double mine = (double)backlog[me] * count_s, least = 0;
    size_t others = 0;
    for (size_t k = 0; k < nw; k++)
        if (k != me && taking[k]) {
            double theirs = (double)backlog[k] * count_s;
            least = others++ == 0 || theirs < least ? theirs : least;
        }
    if (others == 0)
        return 0;
    return mine - least > (double)left * (time_s + count_s) / (double)others;
}

/* Under d->lock: 1 when w should take no more configurations (cp_devices_stop_taking, from the
 * seconds per configuration so far; a worker whose counters are not read yet counts them at
 * its time per configuration). */
static int cp_devices_should_stop(cp_devices_worker *w)
{
    cp_devices *d = w->run;
    if (!d->counting || d->nw < 2 || d->timed_rows == 0)
        return 0;
    int taking[CP_MAX_DEVICES];
    for (size_t k = 0; k < d->nw; k++)
        taking[k] = !d->w[k].stopped && !d->w[k].failed;
    double t = d->timed_s / (double)d->timed_rows;
    double c = d->counted_rows ? d->counted_s / (double)d->counted_rows : t;
    return cp_devices_stop_taking(d->backlog, taking, d->nw, w->slot, d->n - d->next, t, c);
}

/* Takes the next configuration for w: its index, or n when none is left, a signal came, or w
 * should leave the rest to the others (its counters would end the run last). */
static size_t cp_devices_take(cp_devices_worker *w)
{
    cp_devices *d = w->run;
    pthread_mutex_lock(&d->lock);
    size_t i = d->n;
    if (!w->stopped && d->next < d->n && !cp_parallel_cancelled()) {
        if (cp_devices_should_stop(w))
            w->stopped = 1;
        else
            i = d->next++;
    }
    if (i == d->n)
        w->stopped = 1;
    pthread_mutex_unlock(&d->lock);
    return i;
}

/* One configuration finished: counted for the progress line, which the first worker draws. */
static void cp_devices_finished(cp_devices *d)
{
    pthread_mutex_lock(&d->lock);
    d->finished++;
    pthread_mutex_unlock(&d->lock);
}

/* Remembers row i as w's. */
static int cp_devices_own(cp_devices_worker *w, size_t i)
{
    size_t *grown = realloc(w->owned, (w->nowned + 1) * sizeof *grown);
    if (!grown)
        return 0;
    w->owned = grown;
    w->owned[w->nowned++] = i;
    return 1;
}

/* Measures configuration i on w (its row names w's GPU); 0 when w failed. */
static int cp_devices_measure_one(cp_devices_worker *w, size_t i, cp_progress *progress)
{
    cp_devices *d = w->run;
    cp_row *row = &d->rows[i];
    row->device = &d->infos[w->slot];
    cp_measurement_clear(&d->meas[i]);
    if (cp_measure_beyond(&row->config, &w->info)) {
        w->beyond++;
        cp_devices_finished(d);
        return 1;
    }
    cp_status st;
    cp_status_clear(&st);
    cp_phase_start_up_done(); /* -v: the first worker's, on the main thread */
    double began = cp_phase_now();
    /* d->configs[i]: the configuration preload() was given (row->config is its copy) */
    int rc = d->backend->measure(w->state, &d->configs[i], &row->predicted, &d->meas[i], &st);
    if (rc == CP_EXIT_OK && !cp_devices_own(w, i))
        rc = cp_status_set(&st, CP_EXIT_RUNTIME, "out of memory");
    if (rc != CP_EXIT_OK) {
        char desc[160];
        cp_config_describe(&row->config, desc, sizeof desc);
        size_t len = strlen(st.message);
        snprintf(st.message + len, sizeof st.message - len, " (measuring %s %s)",
                 cp_config_family_name(row->config.family), desc);
        cp_devices_fail(w, "mid-sweep", &st);
        row->failed = w->failure;
        return 0;
    }
    row->measured = &d->meas[i];
    double spent = cp_phase_now() - began;
    w->measure_s += spent;
    pthread_mutex_lock(&d->lock);
    d->timed_s += spent;
    d->timed_rows++;
    d->backlog[w->slot]++; /* slot < nw <= CP_MAX_DEVICES (cp_devices_resolve) */
    pthread_mutex_unlock(&d->lock);
    cp_devices_finished(d);
    if (progress) {
        pthread_mutex_lock(&d->lock);
        size_t finished = d->finished;
        pthread_mutex_unlock(&d->lock);
        cp_progress_update(progress, finished, d->n, &row->config);
    }
    return 1;
}

/* Reads the counters of w's next m rows (owned[counted..counted + m)) through compacted
 * copies (at_end: after its last configuration). */
static void cp_devices_counters(cp_devices_worker *w, size_t m, int at_end)
{
    cp_devices *d = w->run;
    if (w->failed || m == 0)
        return;
    const size_t *rows = w->owned + w->counted;
    w->counted += m;
    cp_config *c = malloc(m * sizeof *c);
    cp_prediction *p = malloc(m * sizeof *p);
    cp_measurement *x = malloc(m * sizeof *x);
    cp_status st;
    cp_status_clear(&st);
    int rc = c && p && x ? CP_EXIT_OK : cp_status_set(&st, CP_EXIT_RUNTIME, "out of memory");
    for (size_t k = 0; rc == CP_EXIT_OK && k < m; k++) {
        c[k] = d->rows[rows[k]].config;
        p[k] = d->rows[rows[k]].predicted;
        x[k] = d->meas[rows[k]];
    }
    double began = cp_phase_now();
    if (rc == CP_EXIT_OK)
        rc = d->backend->counters(w->state, m, c, p, x, &st);
    double spent = cp_phase_now() - began;
    pthread_mutex_lock(&d->lock);
    if (rc == CP_EXIT_OK) {
        d->counted_s += spent;
        d->counted_rows += m;
    }
    d->backlog[w->slot] -= m < d->backlog[w->slot] ? m : d->backlog[w->slot];
    pthread_mutex_unlock(&d->lock);
    w->count_s += spent;
    if (w->nbatches < CP_DEVICES_BATCHES) {
        w->batch[w->nbatches].rows = m;
        w->batch[w->nbatches].at = began - d->began;
        w->batch[w->nbatches].s = spent;
        w->batch[w->nbatches].at_end = at_end;
    }
    w->nbatches++;
    for (size_t k = 0; rc == CP_EXIT_OK && k < m; k++)
        d->meas[rows[k]] = x[k];
    if (rc != CP_EXIT_OK)
        cp_devices_fail(w, "reading the counters", &st);
    /* refused at open: the rows carry the reason already; else a session opened meanwhile */
    if (rc == CP_EXIT_OK && w->refusal.code == CP_EXIT_OK && d->backend->counters_refusal)
        d->backend->counters_refusal(w->state, &w->refusal);
    free(c);
    free(p);
    free(x);
}

/* In the sweep, with `batch` or more of w's rows waiting for their counters: reads them (whole
 * batches) and returns 1; otherwise 0. Whatever the other GPUs do: a GPU reading counters while
 * another times took 1.25 times as long as alone, while another reads its own 1.0-1.06 times
 * (2 x H100), so GPUs that take turns lose more than GPUs that read theirs together. */
static int cp_devices_counters_now(cp_devices_worker *w, size_t batch)
{
    size_t waiting = w->nowned - w->counted;
    if (batch == 0 || waiting < batch)
        return 0;
    cp_devices_counters(w, waiting / batch * batch, 0);
    return 1;
}

/* Waits until every worker is done with its counters. */
static void cp_devices_meet(cp_devices *d)
{
    pthread_mutex_lock(&d->lock);
    d->counted++;
    pthread_cond_broadcast(&d->cond);
    while (d->counted < d->nw)
        pthread_cond_wait(&d->cond, &d->lock);
    pthread_mutex_unlock(&d->lock);
}

/* --check: times on w every row another GPU measured (into other_median / other_half). */
static void cp_devices_time_others(cp_devices_worker *w)
{
    cp_devices *d = w->run;
    for (size_t i = 0; i < d->n && !w->failed && !cp_parallel_cancelled(); i++) {
        const cp_row *row = &d->rows[i];
        if (!row->measured || row->device == &d->infos[w->slot] ||
            cp_measure_beyond(&row->config, &w->info))
            continue;
        cp_measurement m;
        cp_status st;
        cp_status_clear(&st);
        if (d->backend->measure(w->state, &d->configs[i], &row->predicted, &m, &st) != CP_EXIT_OK) {
            cp_devices_fail(w, "timing the other GPUs' configurations (--check)", &st);
            break;
        }
        d->other_median[w->slot * d->n + i] = m.time_median_s;
        d->other_half[w->slot * d->n + i] = (m.time_max_s - m.time_min_s) / 2;
    }
}

/* Loads on w the kernels of every configuration (any of them may come to w); marks w failed
 * when it cannot. */
static void cp_devices_preload(cp_devices_worker *w)
{
    cp_devices *d = w->run;
    if (!d->backend->preload || d->n == 0)
        return;
    cp_status st;
    cp_status_clear(&st);
    if (d->backend->preload(w->state, d->n, d->configs, &st) != CP_EXIT_OK)
        cp_devices_fail(w, "loading its kernels", &st);
}

/* The copy of the gap list from[0..n) kept by w, made on first use; NULL when memory ran out. */
static cp_counter_gap *cp_devices_gap_copy(cp_devices_worker *w, const cp_counter_gap *from,
                                           size_t n)
{
    for (size_t k = 0; k < w->ngap_lists; k++)
        if (w->gap_lists[k].from == from && w->gap_lists[k].n == n)
            return w->gap_lists[k].copy;
    void *grown = realloc(w->gap_lists, (w->ngap_lists + 1) * sizeof *w->gap_lists);
    if (!grown)
        return NULL;
    w->gap_lists = grown;
    cp_counter_gap *copy = malloc(n * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, from, n * sizeof *copy);
    w->gap_lists[w->ngap_lists].from = from;
    w->gap_lists[w->ngap_lists].copy = copy;
    w->gap_lists[w->ngap_lists].n = n;
    w->ngap_lists++;
    return copy;
}

/* Every row w measured made to point to a copy of its counter gap list, which lives in w's state
 * (one list shared by many rows, each copied once): a failed worker's too, whose measurements the
 * device notes still read (cp_app.c). Without memory for a copy, the row keeps no list and w
 * fails (its rows are then reported failed). */
static void cp_devices_keep_gaps(cp_devices_worker *w)
{
    for (size_t j = 0; j < w->nowned; j++) {
        cp_measurement *m = &w->run->meas[w->owned[j]];
        if (!m->ncounter_gaps)
            continue;
        m->counter_gaps = cp_devices_gap_copy(w, m->counter_gaps, m->ncounter_gaps);
        if (m->counter_gaps)
            continue;
        m->ncounter_gaps = 0;
        cp_status st;
        cp_status_set(&st, CP_EXIT_RUNTIME, "out of memory");
        cp_devices_fail(w, "keeping its counters' notes", &st);
    }
}

/* Closes w's state (the first worker's as the teardown phase of -v), what its rows keep of it
 * copied first. */
static void cp_devices_close_state(cp_devices_worker *w)
{
    if (!w->state)
        return;
    cp_devices_keep_gaps(w);
    cp_phase_begin(CP_PHASE_TEARDOWN);
    w->run->backend->close(w->state);
    cp_phase_end();
    w->state = NULL;
}

/* The part of a worker after the decision: its kernels loaded, its share of the queue with its
 * counters, with --check the other GPUs' configurations, then its state closed. */
static void cp_devices_work(cp_devices_worker *w, cp_progress *progress)
{
    cp_devices *d = w->run;
    cp_devices_preload(w); /* on failure, w takes nothing and the others go on */
    size_t batch = 0;      /* one GPU alone reads its counters at the end, as cp_app does */
    if (d->nw > 1 && d->backend->counter_batch && w->state)
        batch = d->backend->counter_batch(w->state);
    if (batch) {
        pthread_mutex_lock(&d->lock);
        d->counting = 1;
        pthread_mutex_unlock(&d->lock);
    }
    while (!w->failed) {
        if (cp_devices_counters_now(w, batch))
            continue;
        size_t i = cp_devices_take(w);
        if (i == d->n)
            break;
        w->last_at = cp_phase_now() - d->began;
        if (!cp_devices_measure_one(w, i, progress))
            break;
    }
    cp_devices_counters(w, w->nowned - w->counted, 1);
    if (d->other_median) {
        cp_devices_meet(d);
        cp_devices_time_others(w);
    }
    cp_devices_close_state(w);
    w->done_at = cp_phase_now() - d->began;
}

/* A worker of its own thread: opens, waits for the decision unless it was made before, works. */
static void *cp_devices_thread(void *arg)
{
    cp_devices_worker *w = arg;
    cp_devices *d = w->run;
    cp_phase_ignore_thread(); /* -v shows the first worker's phases */
    cp_devices_open(w);
    if (d->early) {
        d->infos[w->slot] = w->info; /* its own slot: read after the join */
        cp_devices_work(w, NULL);
        return NULL;
    }
    pthread_mutex_lock(&d->lock);
    while (d->go == 0)
        pthread_cond_wait(&d->cond, &d->lock);
    int go = d->go;
    pthread_mutex_unlock(&d->lock);
    if (go > 0)
        cp_devices_work(w, NULL);
    return NULL;
}

/* 1 when a and b are GPUs of one kind (same name and compute capability). */
static int cp_devices_same_kind(const cp_device_info *a, const cp_device_info *b)
{
    return strcmp(a->name, b->name) == 0 && a->cc_major == b->cc_major &&
           a->cc_minor == b->cc_minor;
}

/* Whether GPUs info[0..n) (NULL: one that failed) may run together: sets d->mixed; a usage
 * error for GPUs of different kinds without --mixed. */
static int cp_devices_kinds(cp_devices *d, const cp_device_info *const *info, size_t n,
                            cp_status *st)
{
    const cp_device_info *first = NULL, *other = NULL;
    for (size_t k = 0; k < n; k++) {
        if (!info[k])
            continue;
        if (!first)
            first = info[k];
        else if (!cp_devices_same_kind(first, info[k]) && !other)
            other = info[k];
    }
    d->mixed = other != NULL;
    if (!other || d->o->mixed_devices)
        return CP_EXIT_OK;
    cp_status_set(st, CP_EXIT_USAGE,
                  "--devices: GPUs of different kinds: GPU %d is %s (sm_%d%d), GPU %d is "
                  "%s (sm_%d%d)",
                  first->index, first->name, first->cc_major, first->cc_minor, other->index,
                  other->name, other->cc_major, other->cc_minor);
    cp_status_hint(st, "name GPUs of one kind (--devices 0,1), or add --mixed: each row's "
                       "numbers then belong to its own GPU");
    return CP_EXIT_USAGE;
}

/* Before any GPU is opened, from the backend's describe(): the kinds decided (d->early set,
 * and CP_EXIT_OK, when every GPU could be described), or the refusal of mixed kinds. Not with
 * --require-counters, which needs every GPU's counter session first. */
static int cp_devices_decide_early(cp_devices *d, cp_status *st)
{
    if (!d->backend->describe || d->o->require_counters)
        return CP_EXIT_OK;
    const cp_device_info *info[CP_MAX_DEVICES];
    cp_phase_begin(CP_PHASE_DEVICE);
    size_t k = 0;
    for (; k < d->nw; k++) {
        cp_status ignored; /* open() says it again, or works */
        cp_status_clear(&ignored);
        if (d->backend->describe(d->w[k].info.index, &d->infos[k], &ignored) != CP_EXIT_OK)
            break;
        info[k] = &d->infos[k];
    }
    cp_phase_end();
    if (k < d->nw)
        return CP_EXIT_OK; /* decided after opening, as without describe() */
    CP_TRY(cp_devices_kinds(d, info, d->nw, st));
    d->early = 1;
    return CP_EXIT_OK;
}

/* Once every worker tried to open: whether the run goes on. CP_EXIT_OK to measure; an error
 * (mixed kinds without --mixed, counters refused with --require-counters, no GPU opened) to
 * stop. *no_device: the machine has no GPU at all (the run goes on model-only). */
static int cp_devices_decide(cp_devices *d, int *no_device, cp_status *st)
{
    const cp_device_info *info[CP_MAX_DEVICES];
    int any = 0;
    for (size_t k = 0; k < d->nw; k++) {
        d->infos[k] = d->w[k].info;
        if (d->w[k].no_device)
            *no_device = 1;
        info[k] = d->w[k].not_open ? NULL : &d->w[k].info;
        any |= !d->w[k].not_open;
    }
    if (!any) {
        *st = d->w[0].st;
        return st->code != CP_EXIT_OK ? st->code : CP_EXIT_RUNTIME;
    }
    *no_device = 0;
    if (!d->early)
        CP_TRY(cp_devices_kinds(d, info, d->nw, st));
    for (size_t k = 0; k < d->nw && d->o->require_counters; k++)
        if (!d->w[k].not_open && d->w[k].refusal.code != CP_EXIT_OK) {
            cp_status_set(st, CP_EXIT_RUNTIME, "hardware counters refused on GPU %d (%s)",
                          d->w[k].info.index, d->w[k].refusal.message);
            cp_status_hint(st, "%s", d->w[k].refusal.hint);
            return CP_EXIT_RUNTIME;
        }
    return CP_EXIT_OK;
}

/* The first worker's part of the start: waits for the others to open, decides, tells them. */
static int cp_devices_start(cp_devices *d, int *no_device, cp_status *st)
{
    pthread_mutex_lock(&d->lock);
    while (d->opened < d->nw)
        pthread_cond_wait(&d->cond, &d->lock);
    pthread_mutex_unlock(&d->lock);
    int rc = cp_devices_decide(d, no_device, st);
    pthread_mutex_lock(&d->lock);
    d->go = rc == CP_EXIT_OK ? 1 : -1;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static int cp_devices_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..k) (k > 0; sorts v). */
static double cp_devices_median(double *v, size_t k)
{
    qsort(v, k, sizeof *v, cp_devices_cmp_double);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* --check: each row's time on the other GPUs (the median of their medians) and whether it
 * differs from the row's own beyond the noise of both (half their min-max spreads, plus 1%). */
static void cp_devices_compare_times(cp_devices *d)
{
    double *med = malloc(d->nw * sizeof *med), *half = malloc(d->nw * sizeof *half);
    for (size_t i = 0; med && half && i < d->n; i++) {
        cp_row *row = &d->rows[i];
        const cp_measurement *m = row->measured;
        size_t k = 0;
        for (size_t w = 0; m && w < d->nw; w++)
            if (isfinite(d->other_median[w * d->n + i])) {
                med[k] = d->other_median[w * d->n + i];
                half[k++] = d->other_half[w * d->n + i];
            }
        if (k == 0 || !m->timed)
            continue;
        double other = cp_devices_median(med, k), other_half = cp_devices_median(half, k);
        double own_half = (m->time_max_s - m->time_min_s) / 2;
        row->other_checked = 1;
        row->other_median_s = other;
        row->other_differs =
            fabs(m->time_median_s - other) > own_half + other_half + 0.01 * m->time_median_s;
    }
    free(med);
    free(half);
}

/* The run of the devices o asks for; *none when the machine has no GPU (said on stderr). */
static int cp_devices_new(const cp_options *o, const cp_backend *backend,
                          const cp_backend_options *bo, cp_devices **out, int *none,
                          cp_status *no_gpu, cp_status *st)
{
    int count = 1, no_device = 0, list[CP_MAX_DEVICES];
    size_t nlist = 0;
    *out = NULL;
    *none = 0;
    if (backend->device_count && backend->device_count(&count, &no_device, st) != CP_EXIT_OK) {
        if (!no_device)
            return st->code;
        *no_gpu = *st;
        cp_status_clear(st);
        *none = 1;
        return CP_EXIT_OK;
    }
    CP_TRY(cp_devices_resolve(o, count, list, &nlist, st));
    cp_devices *d = calloc(1, sizeof *d);
    if (!d)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu GPUs", nlist);
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->cond, NULL);
    d->o = o;
    d->backend = backend;
    d->bo = *bo;
    d->nw = nlist;
    d->w = calloc(nlist, sizeof *d->w);
    d->infos = calloc(nlist, sizeof *d->infos);
    if (!d->w || !d->infos) {
        cp_devices_close(d);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for %zu GPUs", nlist);
    }
    for (size_t k = 0; k < nlist; k++) {
        d->w[k].run = d;
        d->w[k].slot = k;
        d->w[k].info.index = list[k];
    }
    *out = d;
    return CP_EXIT_OK;
}

/* --check over several GPUs: room for every row's time on every GPU (NAN: not timed there). */
static int cp_devices_want_times(cp_devices *d, cp_status *st)
{
    if (!d->o->check || d->nw < 2)
        return CP_EXIT_OK;
    d->other_median = malloc(d->nw * d->n * sizeof *d->other_median);
    d->other_half = malloc(d->nw * d->n * sizeof *d->other_half);
    if (!d->other_median || !d->other_half)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory for --check over %zu GPUs", d->nw);
    for (size_t i = 0; i < d->nw * d->n; i++)
        d->other_median[i] = d->other_half[i] = NAN;
    return CP_EXIT_OK;
}

/* Starts the workers after the first on threads of their own; one that cannot start fails. */
static void cp_devices_spawn(cp_devices *d)
{
    for (size_t k = 1; k < d->nw; k++) {
        cp_devices_worker *w = &d->w[k];
        w->has_thread = pthread_create(&w->thread, NULL, cp_devices_thread, w) == 0;
        if (w->has_thread)
            continue;
        cp_status st;
        cp_status_set(&st, CP_EXIT_RUNTIME, "cannot start a thread for it");
        w->not_open = 1;
        cp_devices_fail(w, "to start", &st);
        pthread_mutex_lock(&d->lock);
        d->opened++;
        d->counted++; /* it never works: --check's meeting does not wait for it */
        pthread_mutex_unlock(&d->lock);
    }
}

/* After the workers: the rows of a failed GPU are marked failed (their timings and counters
 * are not trusted), and rows no GPU was left to measure too; notes on stderr. */
static void cp_devices_settle(cp_devices *d, size_t *done)
{
    for (size_t k = 0; k < d->nw; k++) {
        cp_devices_worker *w = &d->w[k];
        for (size_t j = 0; w->failed && j < w->nowned; j++) {
            d->rows[w->owned[j]].failed = w->failure;
            d->rows[w->owned[j]].measured = NULL;
        }
        if (w->refusal.code != CP_EXIT_OK && !w->failed)
            fprintf(stderr,
                    "coalprobe: warning: hardware counters unavailable on GPU %d: %s%s%s\n"
                    "coalprobe: its rows carry timings only\n",
                    w->info.index, w->refusal.message, w->refusal.hint[0] ? "\nhint: " : "",
                    w->refusal.hint);
        if (w->beyond)
            cp_progress_note(stderr, d->o->quiet,
                             "coalprobe: note: %zu configurations beyond GPU %d (%s, sm_%d%d) were "
                             "predicted, not measured\n",
                             w->beyond, w->info.index, w->info.name, w->info.cc_major,
                             w->info.cc_minor);
    }
    *done = d->next;
    if (cp_parallel_cancelled() || d->next == d->n)
        return;
    for (size_t i = d->next; i < d->n; i++) { /* every GPU failed before these */
        cp_measurement_clear(&d->meas[i]);
        d->rows[i].device = &d->infos[0];
        d->rows[i].failed = d->w[0].failure;
    }
    *done = d->n;
}

int cp_devices_measure(const cp_options *o, const cp_backend *backend, const cp_backend_options *bo,
                       const cp_config *configs, cp_row *rows, cp_measurement *meas, size_t n,
                       size_t *done, cp_devices **out, cp_status *no_gpu, cp_status *st)
{
    int none = 0;
    *done = 0;
    cp_status_clear(no_gpu);
    CP_TRY(cp_devices_new(o, backend, bo, out, &none, no_gpu, st));
    if (none)
        return CP_EXIT_OK;
    cp_devices *d = *out;
    d->began = cp_phase_now();
    d->configs = configs;
    d->rows = rows;
    d->meas = meas;
    d->n = n;
    int rc = cp_devices_want_times(d, st);
    if (rc != CP_EXIT_OK) {
        cp_devices_close(d);
        *out = NULL;
        return rc;
    }
    rc = cp_devices_decide_early(d, st);
    if (rc != CP_EXIT_OK) {
        cp_devices_close(d);
        *out = NULL;
        return rc;
    }
    cp_devices_spawn(d);
    cp_devices_open(&d->w[0]);
    int no_device = 0;
    if (d->early)
        d->infos[0] = d->w[0].info;
    else
        rc = cp_devices_start(d, &no_device, st);
    if (rc == CP_EXIT_OK) {
        cp_progress progress;
        cp_progress_start(&progress, "measuring", o->quiet);
        cp_devices_work(&d->w[0], &progress);
        cp_progress_clear(&progress);
    }
    for (size_t k = 1; k < d->nw; k++)
        if (d->w[k].has_thread)
            pthread_join(d->w[k].thread, NULL);
    if (rc == CP_EXIT_OK && d->early) /* decided before opening: no GPU opened is an error */
        rc = cp_devices_decide(d, &no_device, st);
    if (rc == CP_EXIT_OK) {
        cp_devices_settle(d, done);
        if (d->other_median)
            cp_devices_compare_times(d);
        return CP_EXIT_OK;
    }
    cp_devices_close(d);
    *out = NULL;
    if (!no_device)
        return rc;
    *no_gpu = *st;
    cp_status_clear(st);
    return CP_EXIT_OK;
}

const cp_device_info *cp_devices_info(const cp_devices *d, size_t *count, int *mixed)
{
    *count = d ? d->nw : 0;
    *mixed = d ? d->mixed : 0;
    return d ? d->infos : NULL;
}

void cp_devices_print_workers(const cp_devices *d, FILE *out)
{
    for (size_t k = 0; d && d->nw > 1 && k < d->nw; k++) {
        const cp_devices_worker *w = &d->w[k];
        fprintf(out,
                "coalprobe: GPU %d: %zu configurations, measured in %.3f s; counters in %.3f s, "
                "%zu batches",
                w->info.index, w->nowned, w->measure_s, w->count_s, w->nbatches);
        for (size_t b = 0; b < w->nbatches && b < CP_DEVICES_BATCHES; b++)
            fprintf(out, "%s%zu at %.3f s for %.3f s%s", b ? ", " : " (", w->batch[b].rows,
                    w->batch[b].at, w->batch[b].s, w->batch[b].at_end ? " at the end" : "");
        fprintf(out, "%s; last configuration taken at %.3f s, done at %.3f s\n",
                w->nbatches > CP_DEVICES_BATCHES ? ", ...)"
                : w->nbatches                    ? ")"
                                                 : "",
                w->last_at, w->done_at);
    }
}

int cp_devices_failures(const cp_devices *d, cp_status *st)
{
    size_t failed = 0, first = 0;
    for (size_t k = 0; d && k < d->nw; k++)
        if (d->w[k].failed && failed++ == 0)
            first = k;
    if (!failed)
        return CP_EXIT_OK;
    cp_status_set(st, CP_EXIT_RUNTIME, "%s%s", d->w[first].failure,
                  failed > 1 ? " (and other GPUs: the report says how)" : "");
    cp_status_hint(st, "the rows of a failed GPU are marked failed in the report; the other GPUs' "
                       "rows are complete (--devices without it runs them again)");
    return CP_EXIT_RUNTIME;
}

void cp_devices_close(cp_devices *d)
{
    if (!d)
        return;
    for (size_t k = 0; d->w && k < d->nw; k++) {
        if (d->w[k].state)
            d->backend->close(d->w[k].state);
        free(d->w[k].owned);
        for (size_t g = 0; g < d->w[k].ngap_lists; g++)
            free(d->w[k].gap_lists[g].copy);
        free(d->w[k].gap_lists);
    }
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->cond);
    free(d->other_median);
    free(d->other_half);
    free(d->infos);
    free(d->w);
    free(d);
}
