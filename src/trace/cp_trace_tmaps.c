/* cp_trace_tmaps.c: what a tensor map's shape means for the global sectors its TMA copies move:
 * whether the box's innermost row, the global address and every global stride fall on whole
 * 32-byte sectors, and the bytes a row moves when it does not (docs/trace.md, "Tensor maps"). */
#include "cp_trace_report.h"

#include <inttypes.h>
#include <string.h>

#define CP_TRACE_SECTOR 32u

void cp_trace_tmap_list(char *buf, size_t size, const uint64_t *v, size_t n, const char *sep)
{
    size_t at = 0;
    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, size, "-");
    for (size_t i = 0; i < n && at < size; i++) {
        int w = snprintf(buf + at, size - at, "%s%" PRIu64, i ? sep : "", v[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* Appends "; " and the phrase to j->reason (cut at its size). */
static void cp_trace_tmap_why(cp_trace_tmap_judgement *j, const char *phrase)
{
    size_t at = strlen(j->reason);
    snprintf(j->reason + at, sizeof j->reason - at, "%s%s", at ? "; " : "", phrase);
}

void cp_trace_tmap_judge(const cp_trace_tmap *m, cp_trace_tmap_judgement *j)
{
    memset(j, 0, sizeof *j);
    if (m->element_bits == 0 || m->nbox == 0) {
        snprintf(j->reason, sizeof j->reason, "the size of a %s element is unknown",
                 m->data_type ? m->data_type : "?");
        return;
    }
    j->known = 1;
    /* elementStrides leave the row's span as it is: TMA ignores dimension 0's stride when the
     * layout is not interleaved, and a stride inside the row skips elements of sectors the row
     * covers anyway */
    j->row_bytes = (m->box[0] * m->element_bits + 7) / 8;
    j->row_sectors_bytes = (j->row_bytes + CP_TRACE_SECTOR - 1) / CP_TRACE_SECTOR * CP_TRACE_SECTOR;
    char phrase[160];
    if (j->row_bytes % CP_TRACE_SECTOR) {
        snprintf(phrase, sizeof phrase,
                 "rows of %" PRIu64 " B move %" PRIu64 " B of sectors, %.0f%% used", j->row_bytes,
                 j->row_sectors_bytes, 100.0 * (double)j->row_bytes / (double)j->row_sectors_bytes);
        cp_trace_tmap_why(j, phrase);
    }
    if (m->alignment % CP_TRACE_SECTOR) {
        snprintf(phrase, sizeof phrase, "address aligned to %" PRIu64 " B", m->alignment);
        cp_trace_tmap_why(j, phrase);
    }
    for (unsigned i = 0; i + 1 < m->rank; i++)
        if (m->strides[i] % CP_TRACE_SECTOR) {
            snprintf(phrase, sizeof phrase, "dim %u stride %" PRIu64 " B not a multiple of 32 B",
                     i + 1, m->strides[i]);
            cp_trace_tmap_why(j, phrase);
        }
    j->whole_sectors = j->reason[0] == '\0';
    if (j->whole_sectors)
        snprintf(j->reason, sizeof j->reason,
                 "rows of %" PRIu64 " B, address and strides on 32 B sectors", j->row_bytes);
}
