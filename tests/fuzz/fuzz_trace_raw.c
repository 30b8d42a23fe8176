/* fuzz_trace_raw.c: libFuzzer target for the raw trace reader (src/trace/cp_trace_load.c). */

/* Reads arbitrary bytes as one raw file (a crashed process's file may end anywhere, a disk may
 * hold anything): the reader must never crash, leak or loop, must skip what it cannot read,
 * and must read the same bytes the same way twice. Any crash, leak, abort or sanitizer report
 * is a bug. */
#include "cp_fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/cp_trace_report.h"

/* What a reading found, to compare two readings. */
static uint64_t summary(const cp_trace *t)
{
    uint64_t h = t->nprocs * 1000003u + t->nnotes;
    for (size_t p = 0; p < t->nprocs; p++) {
        const cp_trace_process *proc = &t->procs[p];
        h = h * 31 + proc->nkernels + proc->malformed * 7 + (uint64_t)proc->complete;
        for (size_t k = 0; k < proc->nkernels; k++) {
            const cp_trace_kernel *kk = &proc->kernels[k];
            if (!kk->function || (!kk->has_crc && kk->ninstrs))
                abort(); /* a kernel of launch records only has no instructions */
            h = h * 31 + kk->ninstrs + kk->launches;
            for (size_t i = 0; i < kk->ninstrs; i++) {
                const cp_trace_instr *in = &kk->instrs[i];
                if (in->counts.has >> CP_TRACE_NMETRICS || (!in->file && in->line))
                    abort();
                for (int m = 0; m < CP_TRACE_NMETRICS; m++)
                    h = h * 31 + in->counts.value[m];
            }
        }
    }
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cp_status st;
    cp_status_clear(&st);
    cp_trace a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* exactly size bytes, no NUL after them: the reader must not read past the end */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    int ra = cp_trace_load_text(&a, "raw-1.tsv", copy, size, &st);
    int rb = cp_trace_load_text(&b, "raw-1.tsv", copy, size, &st);
    if (ra != rb || (ra == CP_EXIT_OK && summary(&a) != summary(&b)))
        abort();
    cp_trace_sort_processes(&a);
    cp_trace_free(&a);
    cp_trace_free(&b);
    free(copy);
    return 0;
}
