/* cp_parallel.c: the parallel loop: worker threads take chunks from a shared atomic counter. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cp_parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

static unsigned cp_parallel_setting; /* 0: every CPU */

/* The signal that cancelled the loops, 0 while none did; written by a signal handler, read by
 * every worker: lock-free, so async-signal-safe. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "cancellation needs a lock-free atomic int");
static atomic_int cp_parallel_stop;

void cp_parallel_cancel(int sig)
{
    atomic_store_explicit(&cp_parallel_stop, sig ? sig : 1, memory_order_relaxed);
}

int cp_parallel_cancelled(void)
{
    return atomic_load_explicit(&cp_parallel_stop, memory_order_relaxed);
}

void cp_parallel_cancel_reset(void)
{
    atomic_store_explicit(&cp_parallel_stop, 0, memory_order_relaxed);
}

unsigned cp_parallel_cpus(void)
{
    long n = 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n <= 0)
        n = 1;
    return n > (long)CP_PARALLEL_MAX_THREADS ? CP_PARALLEL_MAX_THREADS : (unsigned)n;
}

void cp_parallel_set_threads(unsigned n)
{
    cp_parallel_setting = n > CP_PARALLEL_MAX_THREADS ? CP_PARALLEL_MAX_THREADS : n;
}

unsigned cp_parallel_threads(void)
{
    return cp_parallel_setting ? cp_parallel_setting : cp_parallel_cpus();
}

unsigned cp_parallel_workers(uint64_t n, uint64_t grain)
{
    uint64_t chunks = grain ? (n + grain - 1) / grain : 1;
    unsigned threads = cp_parallel_threads();
    if (chunks < 1)
        chunks = 1;
    return chunks < threads ? (unsigned)chunks : threads;
}

typedef struct cp_parallel_loop {
    atomic_uint_fast64_t next; /* the next chunk to hand out */
    uint64_t n, grain;
    cp_parallel_fn fn;
    void *arg;
} cp_parallel_loop;

typedef struct cp_parallel_worker {
    cp_parallel_loop *loop;
    unsigned index;
} cp_parallel_worker;

static void cp_parallel_run(cp_parallel_loop *loop, unsigned worker)
{
    uint64_t chunks = (loop->n + loop->grain - 1) / loop->grain;
    for (;;) {
        if (cp_parallel_cancelled())
            return;
        uint64_t c = atomic_fetch_add_explicit(&loop->next, 1, memory_order_relaxed);
        if (c >= chunks)
            return;
        uint64_t begin = c * loop->grain;
        uint64_t end = loop->n - begin < loop->grain ? loop->n : begin + loop->grain;
        loop->fn(loop->arg, worker, begin, end);
    }
}

static void *cp_parallel_thread(void *p)
{
    cp_parallel_worker *w = p;
    cp_parallel_run(w->loop, w->index);
    return NULL;
}

int cp_parallel_for(unsigned workers, uint64_t n, uint64_t grain, cp_parallel_fn fn, void *arg)
{
    if (n == 0)
        return 1;
    if (grain == 0)
        grain = 1;
    if (workers > CP_PARALLEL_MAX_THREADS)
        workers = CP_PARALLEL_MAX_THREADS;
    cp_parallel_loop loop = {0, n, grain, fn, arg};
    atomic_init(&loop.next, 0);
    pthread_t threads[CP_PARALLEL_MAX_THREADS];
    cp_parallel_worker info[CP_PARALLEL_MAX_THREADS];
    unsigned started = 0;
    for (unsigned k = 1; k < workers; k++) {
        info[started] = (cp_parallel_worker){&loop, k};
        if (pthread_create(&threads[started], NULL, cp_parallel_thread, &info[started]) != 0)
            break; /* the workers already running share the rest */
        started++;
    }
    cp_parallel_run(&loop, 0);
    for (unsigned k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    /* a chunk handed out is run: every chunk ran when every one was handed out */
    return atomic_load(&loop.next) >= (n + grain - 1) / grain;
}
