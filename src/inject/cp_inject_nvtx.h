/* cp_inject_nvtx.h: the NVTX ranges open on each thread of the traced program, from CUPTI's NVTX
 * callbacks, interned as `range` records (cp_trace_raw.h) for the call sites of launches. */
#ifndef CP_INJECT_NVTX_H
#define CP_INJECT_NVTX_H

#include <cupti.h>
#include <stdint.h>
#include <stdio.h>

/* The answer of cp_inject_nvtx_current when the innermost range could not be interned. */
#define CP_INJECT_RANGE_OVERFLOW (-1)

/* Asks CUPTI for the callbacks of the NVTX calls read here (ranges, domains, registered
 * strings). CUPTI receives them only where the program's NVTX calls into it (NVTX_INJECTION64_PATH
 * naming libcupti when NVTX first initialises). */
CUptiResult cp_inject_nvtx_enable(CUpti_SubscriberHandle subscriber);

/* One NVTX callback (data: CUpti_NvtxData) on the calling thread: range nodes interned, their
 * records written to raw the first time. The caller serialises the calls. */
void cp_inject_nvtx_call(CUpti_CallbackId cbid, const void *data, FILE *raw);

/* The innermost NVTX range node open on the calling thread: its ID, 0 for none, or
 * CP_INJECT_RANGE_OVERFLOW. */
int64_t cp_inject_nvtx_current(void);

/* The range name --nvtx-include asks for (copied; NULL: none). */
void cp_inject_nvtx_want(const char *name);

/* 1 when the calling thread is inside a range named as cp_inject_nvtx_want asked (the innermost
 * kept range or one open below it, in any domain). */
int cp_inject_nvtx_inside(void);

/* Releases the tables (the calling thread's stack is emptied too). */
void cp_inject_nvtx_free(void);

#endif
