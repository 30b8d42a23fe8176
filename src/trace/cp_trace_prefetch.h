/* cp_trace_prefetch.h: while the traced program runs, nvdisasm disassembles the small cubins the
 * injection library saves as their modules load, into the listing cache, so that the report
 * after the program finds their listings there instead of running nvdisasm then. The cubins
 * disassembled ahead are those of at most CP_TRACE_EARLY_CUBIN_BYTES (cp_trace_raw.h). */
#ifndef CP_TRACE_PREFETCH_H
#define CP_TRACE_PREFETCH_H

#include <stddef.h>

typedef struct cp_trace_prefetch cp_trace_prefetch;

/* Starts watching raw_dir (inotify) on a thread of its own. NULL, and nothing runs, when there is
 * no nvdisasm, no listing cache, or the watch or the thread cannot be made: the report then runs
 * nvdisasm as before. Every descriptor it opens is closed on exec, so that it may start before
 * the program is forked. */
cp_trace_prefetch *cp_trace_prefetch_start(const char *raw_dir);

/* Stops watching and waits for the nvdisasm in progress (killing it when interrupted is not 0),
 * then frees p; *listed (when not NULL): the cubins disassembled. NULL-safe. */
void cp_trace_prefetch_finish(cp_trace_prefetch *p, int interrupted, size_t *listed);

#endif
