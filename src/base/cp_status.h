/* cp_status.h: error status shared by every module; exit codes; the CUDA/CUPTI check macros. */
#ifndef CP_STATUS_H
#define CP_STATUS_H

#include <stddef.h>

/* Exit codes of the coalprobe binary (documented in README.md and docs/errors.md). */
enum {
    CP_EXIT_OK = 0,       /* success */
    CP_EXIT_RUNTIME = 1,  /* runtime error: CUDA, CUPTI, I/O, wrong kernel output */
    CP_EXIT_USAGE = 2,    /* bad command line: nothing was launched or written */
    CP_EXIT_MISMATCH = 3, /* --check: predicted and measured counts disagree */
    CP_EXIT_PIPE = 141,   /* standard output closed by its reader (128 + SIGPIPE, what the shell
                           * shows for a tool SIGPIPE ended): coalprobe stops quietly */
    /* 128 + signal number (130 SIGINT, 143 SIGTERM): interrupted; the report written holds
     * the configurations finished so far and is marked incomplete */
};

/* A status filled in by the function that failed; the caller owns the storage.
 * code is one of the CP_EXIT_* values; message says what failed, hint what to do. */
typedef struct cp_status {
    int code;
    char message[512];
    char hint[256];
} cp_status;

/* Clears st (code CP_EXIT_OK, empty strings). */
void cp_status_clear(cp_status *st);

/* Records code and a printf-style message in st (st may be NULL) and returns code. */
int cp_status_set(cp_status *st, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records a hint for the user in st (st may be NULL). */
void cp_status_hint(cp_status *st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* CP_CUDA_CHECK(st, call): evaluates a CUDA runtime call; on failure records the call,
 * the error name and file:line in st and returns CP_EXIT_RUNTIME from the caller. */
#define CP_CUDA_CHECK(st, call)                                                                    \
    do {                                                                                           \
        cudaError_t cp_e_ = (call);                                                                \
        if (cp_e_ != cudaSuccess)                                                                  \
            return cp_status_set((st), CP_EXIT_RUNTIME, "%s failed: %s (%s) at %s:%d", #call,      \
                                 cudaGetErrorName(cp_e_), cudaGetErrorString(cp_e_), __FILE__,     \
                                 __LINE__);                                                        \
    } while (0)

/* CP_TRY(call): propagates a non-zero status code returned by a coalprobe function. */
#define CP_TRY(call)                                                                               \
    do {                                                                                           \
        int cp_rc_ = (call);                                                                       \
        if (cp_rc_ != CP_EXIT_OK)                                                                  \
            return cp_rc_;                                                                         \
    } while (0)

#endif
