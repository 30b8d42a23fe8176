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

/* Records a usage error in st: the printf-style message, then the hint (st may be NULL);
 * returns CP_EXIT_USAGE. */
int cp_status_usage(cp_status *st, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* CP_CHECK_RESULT(st, type, ok, text, call, fmt, ...): evaluates call, a function of a library
 * whose results are of type `type`, ok meaning success; otherwise records in st
 * "TEXT failed: " fmt " at FILE:LINE", fmt's arguments (...) naming the result cp_result_, and
 * returns CP_EXIT_RUNTIME from the caller. text is the call as written (#call of the library's
 * own check macro, so that a macro inside the call is shown unexpanded). */
#define CP_CHECK_RESULT(st, type, ok, text, call, fmt, ...)                                        \
    do {                                                                                           \
        type cp_result_ = (call);                                                                  \
        if (cp_result_ != (ok))                                                                    \
            return cp_status_set((st), CP_EXIT_RUNTIME, "%s failed: " fmt " at %s:%d", text,       \
                                 __VA_ARGS__, __FILE__, __LINE__);                                 \
    } while (0)

/* CP_CUDA_CHECK(st, call): evaluates a CUDA runtime call; on failure records the call,
 * the error name and file:line in st and returns CP_EXIT_RUNTIME from the caller. */
#define CP_CUDA_CHECK(st, call)                                                                    \
    CP_CHECK_RESULT(st, cudaError_t, cudaSuccess, #call, call, "%s (%s)",                          \
                    cudaGetErrorName(cp_result_), cudaGetErrorString(cp_result_))

/* CP_TRY(call): propagates a non-zero status code returned by a coalprobe function. */
#define CP_TRY(call)                                                                               \
    do {                                                                                           \
        int cp_rc_ = (call);                                                                       \
        if (cp_rc_ != CP_EXIT_OK)                                                                  \
            return cp_rc_;                                                                         \
    } while (0)

#endif
