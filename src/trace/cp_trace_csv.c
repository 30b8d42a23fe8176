/* cp_trace_csv.c: the trace report as CSV: a header line and one line per instruction of the
 * selected kernels, in rank order (RFC 4180 quoting; empty cells for missing values); the columns
 * are cp_trace_columns.c's. */
#include "cp_trace_report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* A number: empty when NAN; an integer when integral; else 6 significant digits. */
void cp_trace_csv_number(cp_text_csv_line *l, double v)
{
    char buf[48] = "";
    if (!isfinite(v))
        ;
    else if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);
    else
        snprintf(buf, sizeof buf, "%.6g", v);
    cp_text_csv_cell(l, buf);
}

int cp_trace_write_csv(FILE *out, const cp_trace_report *r, cp_status *st)
{
    errno = 0;
    cp_text_csv_line l = {out, 0};
    cp_trace_csv_header(&l);
    for (size_t i = 0; i < r->ninstrs; i++) {
        const cp_trace_values v = {r->instrs[i], r->instr_kernel[i], r->instr_proc[i], NULL, NULL,
                                   NULL};
        cp_trace_csv_row(&l, &v);
    }
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the trace report: %s",
                             strerror(errno ? errno : EIO));
    return CP_EXIT_OK;
}
