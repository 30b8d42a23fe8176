/* cp_trace_launch.h: runs the program under trace: finds it, starts it with coalprobe's CUPTI
 * injection library (CUDA_INJECTION64_PATH) writing raw files into a directory, passes its
 * standard streams through, forwards SIGINT and SIGTERM, and says how it ended. */
#ifndef CP_TRACE_LAUNCH_H
#define CP_TRACE_LAUNCH_H

#include <signal.h>
#include <stddef.h>

#include "base/cp_base.h"
#include "cp_trace_report.h"

/* How long the launcher waits, after the program ended, for processes still writing their raw
 * files (seconds; COALPROBE_TRACE_WAIT sets another, 0 to 86400). */
#define CP_TRACE_WAIT_DEFAULT 30.0
#define CP_TRACE_WAIT_MAX 86400.0
/* Processes still writing that the report names (past these, a count). */
#define CP_TRACE_WRITERS_NAMED 32

/* Gives SIGINT and SIGTERM the action sa, keeping their actions in old[0] and old[1]. */
void cp_trace_signals_set(const struct sigaction *sa, struct sigaction old[2]);

/* Gives SIGINT and SIGTERM back the actions old[0] and old[1]. */
void cp_trace_signals_restore(const struct sigaction old[2]);

typedef struct cp_trace_child {
    int started;         /* 1 once the program was executed */
    int exited;          /* 1: ended with exit(exit_code) */
    int exit_code;       /* when exited */
    int signaled;        /* 1: killed by term_signal */
    int term_signal;     /* when signaled */
    int forwarded;       /* the signal coalprobe received and passed on (SIGINT/SIGTERM), or 0 */
    double wall_seconds; /* from the start to the end of the program */
    double wait_bound;   /* seconds the launcher would wait for processes still writing */
    double waited;       /* seconds it waited for them after the program ended */
    int wait_ended_by_signal;             /* 1: SIGINT or SIGTERM ended that wait early */
    size_t nwriting;                      /* processes still writing when the wait ended */
    long writing[CP_TRACE_WRITERS_NAMED]; /* the first of their pids */
    char replaced_injection[4096];        /* the user's own CUDA_INJECTION64_PATH, or "" */
} cp_trace_child;

/* Finds the program as execvp would (a name with a slash is taken as a path; otherwise each
 * directory of PATH) and checks it is a regular file the user may execute. Writes its path to
 * path (n bytes). A program that is missing, a directory or not executable is CP_EXIT_USAGE with
 * the reason and a hint. */
int cp_trace_find_program(const char *name, char *path, size_t n, cp_status *st);

/* Waits until no process holds the lock of a raw file in raw_dir (cp_trace_lock.h), or for
 * child->wait_bound seconds, or until SIGINT or SIGTERM reaches coalprobe; says once on stderr,
 * after a second, which processes it waits for. Fills child's waited, nwriting and writing, and
 * says on stderr which ones were still writing when it gave up. Raw files that appear during
 * the wait (processes that initialised CUDA meanwhile) are waited for too. */
void cp_trace_wait_writers(const char *raw_dir, cp_trace_child *child);

/* Adds to t the notes the run gives the report: a user's CUDA_INJECTION64_PATH replaced, and the
 * processes that were still writing their raw files when the report was made. */
void cp_trace_launch_notes(const cp_trace_child *child, cp_trace *t);

/* Runs the program at path (resolved by cp_trace_find_program) with argv as its arguments (argv[0]
 * as the user typed it, like a shell does) and the injection library
 * writing raw files into raw_dir, and waits for it, then for the processes still writing raw
 * files (cp_trace_wait_writers). stdin, stdout and stderr are the program's own. SIGINT and
 * SIGTERM that reach coalprobe meanwhile are forwarded to the program (its process group when it
 * has one of its own). A CUDA_INJECTION64_PATH of the user's own is replaced, with a note on
 * stderr. Returns CP_EXIT_OK when the program ran, whatever its exit status (in *child);
 * CP_EXIT_USAGE for a COALPROBE_TRACE_WAIT that is not a number of seconds (nothing was run);
 * CP_EXIT_RUNTIME when it could not be started. */
int cp_trace_launch(const char *path, char *const argv[], const char *inject_library,
                    const char *raw_dir, cp_trace_child *child, cp_status *st);

#endif
