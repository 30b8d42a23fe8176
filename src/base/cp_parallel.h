/* cp_parallel.h: a loop over [0, n) spread over the CPUs with POSIX threads, for the model's
 * exhaustive counts (a user's expression or a gather evaluated thread by thread). Whoever uses
 * it sums per-worker integer results, so the outcome does not depend on how many threads ran. */
#ifndef CP_PARALLEL_H
#define CP_PARALLEL_H

#include <stdint.h>

/* Most worker threads one loop uses. */
#define CP_PARALLEL_MAX_THREADS 256u

/* One chunk [begin, end) of the loop, run by worker `worker` (0 .. workers-1; 0 is the calling
 * thread). A worker runs its chunks one after the other; chunks of different workers run at
 * the same time. */
typedef void (*cp_parallel_fn)(void *arg, unsigned worker, uint64_t begin, uint64_t end);

/* The CPUs this process may run on (its affinity mask: `taskset -c 0` makes it 1), at least 1
 * and at most CP_PARALLEL_MAX_THREADS. */
unsigned cp_parallel_cpus(void);

/* Sets the threads the loops use: 0 (the default) is cp_parallel_cpus(). For tests and
 * benchmarks; not thread-safe. */
void cp_parallel_set_threads(unsigned n);

/* The threads the loops use now. */
unsigned cp_parallel_threads(void);

/* The workers cp_parallel_for would use for n items in chunks of `grain`: the fewer of
 * cp_parallel_threads() and the number of chunks (1 for n <= grain). */
unsigned cp_parallel_workers(uint64_t n, uint64_t grain);

/* Runs fn over [0, n) in chunks of `grain` items (the last one shorter), handed out in
 * increasing order to at most `workers` workers, the calling thread among them; returns when
 * every chunk is done, or when cancelled (see below). A thread that cannot be started leaves its
 * share to the others (with 1 worker everything runs in the calling thread, in order).
 * Returns 1 when every chunk ran, 0 when a cancellation stopped the loop before some of them
 * (workers check it before each chunk, so a loop stops within one chunk per worker). */
int cp_parallel_for(unsigned workers, uint64_t n, uint64_t grain, cp_parallel_fn fn, void *arg);

/* Cancellation, process-wide: a signal handler (SIGINT, SIGTERM) asks every loop running and
 * every later one to stop; long loops outside cp_parallel_for poll cp_parallel_cancelled()
 * between chunks of their own. cp_parallel_cancel is async-signal-safe (a lock-free atomic);
 * sig is the signal's number (nonzero). */
void cp_parallel_cancel(int sig);

/* The signal that cancelled, 0 while none did. Cheap: one relaxed atomic load. */
int cp_parallel_cancelled(void);

/* Clears the cancellation, for a new run (the app's, a test's). */
void cp_parallel_cancel_reset(void);

#endif
