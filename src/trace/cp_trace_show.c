/* cp_trace_show.c: coalprobe show of a saved trace report (coalprobe trace --format json): its
 * instructions sorted and cut (--sort, --top per kernel), then the table (the program, the groups
 * of --group-by, each process's kernels and their top instructions with what they mean, the
 * gate), the CSV report (the columns of coalprobe trace --format csv) or the JSON document. The
 * table is built from the document, with the trace table's pieces (cp_trace_table.c). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "cp_trace.h"
#include "cp_trace_report.h"
#include "report/cp_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The short names --sort takes for a trace's instructions (any key of an instruction goes). */
static const cp_show_alias cp_trace_show_aliases[] = {
    {"excess", "excess_bytes"},
    {"sectors", "sectors_per_request"},
    {"conflicts", "bank_conflicts"},
    {"wavefronts", "wavefronts_per_request"},
};

/* The entry of the document's array `list` whose number `key` is v: a kernel by its index, a
 * process by its pid; NULL when none. */
static const cJSON *cp_trace_show_find(const cJSON *doc, const char *list, const char *key,
                                       double v)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(doc, list))
    {
        if (cp_show_num(item, key) == v)
            return item;
    }
    return NULL;
}

/* Keeps the first `top` instructions of each kernel (in their order now); CP_EXIT_RUNTIME when
 * memory runs out. */
static int cp_trace_show_keep(cJSON *instructions, size_t top, cp_status *st)
{
    size_t nkernels = 0;
    const cJSON *in;
    cJSON_ArrayForEach(in, instructions)
    {
        double k = cp_show_num(in, "kernel_index");
        if (k >= 0 && k < 1e9 && (size_t)k + 1 > nkernels)
            nkernels = (size_t)k + 1;
    }
    size_t *kept = calloc(nkernels ? nkernels : 1, sizeof *kept); /* per kernel index */
    if (!kept)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory showing the report");
    for (cJSON *x = instructions ? instructions->child : NULL; x;) {
        cJSON *next = x->next;
        double k = cp_show_num(x, "kernel_index");
        size_t *count = k >= 0 && k < (double)nkernels ? &kept[(size_t)k] : NULL;
        if (count && (*count)++ >= top)
            cJSON_Delete(cJSON_DetachItemViaPointer(instructions, x));
        x = next;
    }
    free(kept);
    return CP_EXIT_OK;
}

/* ---- CSV: coalprobe trace --format csv's columns ----------------------------------------------
 */

static void cp_trace_show_csv(FILE *out, const cJSON *doc)
{
    cp_text_csv_line l = {out, 0};
    cp_trace_csv_header(&l);
    const cJSON *in;
    cJSON_ArrayForEach(in, cJSON_GetObjectItemCaseSensitive(doc, "instructions"))
    {
        const cJSON *k =
            cp_trace_show_find(doc, "kernels", "index", cp_show_num(in, "kernel_index"));
        const cJSON *p = cp_trace_show_find(doc, "processes", "pid", cp_show_num(in, "pid"));
        const cp_trace_values v = {NULL, NULL, NULL, in, k, p};
        cp_trace_csv_row(&l, &v);
    }
}

/* ---- the table ------------------------------------------------------------------------------ */

/* What ran and what was counted, the program's excess, its coverage, and the notes. */
static void cp_trace_show_header(FILE *out, const cJSON *doc)
{
    char line[2048];
    const char *program = cp_show_str(doc, "program.command");
    const char *raw = cp_show_str(doc, "from_raw");
    if (program)
        cp_trace_table_wrap(out, "coalprobe trace: ", "                 ", program);
    else if (raw) {
        snprintf(line, sizeof line, "raw files in %s (--from-raw)", raw);
        cp_trace_table_wrap(out, "coalprobe trace: ", "                 ", line);
    }
    double code = cp_show_num(doc, "program.exit_code");
    double sig = cp_show_num(doc, "program.signal");
    if (isfinite(code) || isfinite(sig))
        fprintf(out, "the program %s %.0f\n",
                isfinite(code) ? "exited with status" : "was killed by signal",
                isfinite(code) ? code : sig);
    size_t counted = 0, whole = 0, uncounted = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(doc, "kernels"))
    {
        const char *from = cp_show_str(k, "counts_from");
        int yes = cJSON_IsTrue(cp_show_at(k, "counted"));
        counted += yes;
        whole += yes && from && strcmp(from, "kernel_counters") == 0;
        uncounted += !yes;
    }
    int nprocs = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "processes"));
    fprintf(out, "%d process%s used CUDA; %zu kernel%s counted", nprocs, nprocs == 1 ? "" : "es",
            counted, counted == 1 ? "" : "s");
    if (whole)
        fprintf(out, " (%zu only as a whole)", whole);
    if (uncounted)
        fprintf(out, ", %zu launched but not counted", uncounted);
    fputc('\n', out);
    if (cJSON_IsTrue(cp_show_at(doc, "counted"))) {
        int known = cJSON_IsTrue(cp_show_at(doc, "totals.coverage.excess_known"));
        cp_trace_program_excess e = {
            .excess_bytes = cp_show_num(doc, "totals.excess_bytes"),
            .excess_sectors = cp_show_num(doc, "totals.excess_sectors"),
            .known = known,
            .sampled = 0,
            .tma_excess_bytes = cp_show_num(doc, "totals.coverage.tma_excess_bytes"),
            .tma_estimate = cJSON_IsTrue(cp_show_at(doc, "totals.coverage.tma_excess_estimate")),
            .bank_conflicts = cp_show_num(doc, "totals.bank_conflicts")};
        cp_trace_table_program_excess_line(out, &e);
        const char *reason = cp_show_str(doc, "totals.coverage.reason");
        if (reason)
            cp_trace_table_wrap(out, "coverage: ", "  ", reason);
    } else if (cp_show_str(doc, "no_counts_reason")) {
        cp_trace_table_wrap(out, "no counts: ", "  ", cp_show_str(doc, "no_counts_reason"));
    }
    if (!cJSON_IsTrue(cp_show_at(doc, "complete")) && cp_show_str(doc, "incomplete_reason"))
        cp_trace_table_wrap(out, "INCOMPLETE: ", "  ", cp_show_str(doc, "incomplete_reason"));
    const cJSON *note;
    cJSON_ArrayForEach(note, cJSON_GetObjectItemCaseSensitive(doc, "notes"))
    {
        if (cp_show_str(note, "text"))
            cp_trace_table_wrap(out, "note: ", "      ", cp_show_str(note, "text"));
    }
}

/* The groups of --group-by (line, callsite, range): each one's excess and kernels. */
static void cp_trace_show_groups(FILE *out, const cJSON *doc)
{
    const cJSON *items = cp_show_at(doc, "groups.items");
    if (!cJSON_IsArray(items))
        return;
    fprintf(out, "\nwhere the excess comes from, by %s: %d group%s\n",
            cp_show_str(doc, "groups.by"), cJSON_GetArraySize(items),
            cJSON_GetArraySize(items) == 1 ? "" : "s");
    const cJSON *g;
    int i = 0;
    cJSON_ArrayForEach(g, items)
    {
        char bytes[32], line[600];
        const char *key = cp_show_str(g, "key");
        snprintf(line, sizeof line, "#%d %s", ++i, key ? key : "?");
        cp_trace_table_wrap(out, "  ", "     ", line);
        cp_trace_format_bytes(bytes, sizeof bytes, cp_show_num(g, "excess_bytes"));
        double launches = cp_show_num(g, "launches");
        fprintf(out, "     excess %s (%.1f%% of the program's), %.0f launch%s\n", bytes,
                100 * cp_show_num(g, "excess_share"), launches, launches == 1 ? "" : "es");
    }
}

/* What the selection and the sampling left out of kernel k's launches, as the trace table says
 * it (" counted of 1402 seen, counters from 5 of 1400 launches"), or "". */
static void cp_trace_show_sampled(const cJSON *k, double launches, char *buf, size_t n)
{
    double seen = cp_show_num(k, "launches_seen"), with = cp_show_num(k, "counter_launches");
    size_t m = 0;
    buf[0] = 0;
    if (isfinite(seen) && seen > launches)
        m = (size_t)snprintf(buf, n, " counted of %.0f seen", seen);
    if (m < n && cJSON_IsTrue(cp_show_at(k, "counters_sampled")))
        snprintf(buf + m, n - m, ", %scounters from %.0f of %.0f launches",
                 isfinite(cp_show_num(k, "instruction_launches")) ? "instructions and " : "", with,
                 launches);
}

/* A kernel's heading: its name, launches, time on the GPU, its global and shared totals. */
static void cp_trace_show_kernel_head(FILE *out, const cJSON *k)
{
    char name[CP_TRACE_TABLE_WIDTH + 1], line[1024], gpu[64] = "", cov[160] = "";
    const char *n = cp_show_str(k, "name");
    cp_trace_table_clip(name, sizeof name, n ? n : "?", CP_TRACE_TABLE_WIDTH - 9);
    fprintf(out, "\n  kernel %s\n", name);
    double s = cp_show_num(k, "kernel_counters.gpu_time_s");
    if (isfinite(s))
        snprintf(gpu, sizeof gpu, ", %.3g %s on the GPU",
                 s >= 1      ? s
                 : s >= 1e-3 ? s * 1e3
                             : s * 1e6,
                 s >= 1      ? "s"
                 : s >= 1e-3 ? "ms"
                             : "us");
    double fraction = cp_show_num(k, "coverage.fraction");
    const char *basis = cp_show_str(k, "coverage.basis");
    cp_trace_table_coverage_words(
        cov, sizeof cov, basis && strcmp(basis, "tensor_map_geometry") == 0,
        cp_show_num(k, "coverage.tma_excess_bytes"),
        cJSON_IsTrue(cp_show_at(k, "coverage.tma_excess_estimate")), fraction);
    double launches = cp_show_num(k, "launches");
    char sampled[160];
    cp_trace_show_sampled(k, launches, sampled, sizeof sampled);
    snprintf(line, sizeof line, "device %.0f, %.0f launch%s%s%s%s", cp_show_num(k, "device"),
             launches, launches == 1 ? "" : "es", sampled, gpu, cov);
    cp_trace_table_wrap(out, "    ", "      ", line);
    cp_trace_derived d;
    cp_trace_json_read_counts(k, &d);
    cp_trace_table_kernel_totals(out, &d, cJSON_IsTrue(cp_show_at(k, "coverage.excess_known")), "");
}

/* A kernel's top instructions (those that ran), top of them, in the order of the document. */
static void cp_trace_show_instrs(FILE *out, const cJSON *doc, const cJSON *k, size_t top)
{
    const char *from = cp_show_str(k, "counts_from");
    if (from && strcmp(from, "kernel_counters") == 0) {
        cp_trace_table_wrap(out, "    ", "      ",
                            "counted as a whole only: no per-instruction counts");
        return;
    }
    size_t ran = 0, shown = 0;
    const cJSON *in;
    cJSON_ArrayForEach(in, cJSON_GetObjectItemCaseSensitive(doc, "instructions"))
    {
        if (cp_show_num(in, "kernel_index") != cp_show_num(k, "index") ||
            !isfinite(cp_show_num(in, "rank")))
            continue;
        if (ran++ >= top)
            continue;
        if (!shown++)
            cp_trace_table_row_header(out);
        const cp_trace_values v = {NULL, NULL, NULL, in, k, NULL};
        cp_trace_table_instr_row(out, &v);
    }
    if (ran == 0)
        fprintf(out, "    no memory instruction of it ran\n");
    else if (ran > shown)
        fprintf(out, "    ... %zu more instruction%s (--top N shows more)\n", ran - shown,
                ran - shown == 1 ? "" : "s");
}

/* The gate's verdict. */
static void cp_trace_show_gate(FILE *out, const cJSON *doc, int color)
{
    if (!cJSON_IsTrue(cp_show_at(doc, "gate.checked")))
        return;
    int n = cJSON_GetArraySize(cp_show_at(doc, "gate.violations"));
    char line[300];
    if (n)
        snprintf(line, sizeof line, "%sFAILED%s: %d violation%s among %.0f judged",
                 color ? CP_TERM_RED : "", color ? CP_TERM_RESET : "", n, n == 1 ? "" : "s",
                 cp_show_num(doc, "gate.judged") + cp_show_num(doc, "gate.judged_coverage"));
    else
        snprintf(line, sizeof line, "%spassed%s: %.0f judged", color ? CP_TERM_GREEN : "",
                 color ? CP_TERM_RESET : "",
                 cp_show_num(doc, "gate.judged") + cp_show_num(doc, "gate.judged_coverage"));
    fprintf(out, "\ngate: %s\n", line);
}

/* The table: a report's header, its groups, each process's counted kernels (those launched but
 * not counted after them). */
static void cp_trace_show_table(FILE *out, const cJSON *doc, size_t top)
{
    cp_trace_show_header(out, doc);
    cp_trace_show_groups(out, doc);
    const cJSON *p, *k;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "processes"))
    {
        const char *command = cp_show_str(p, "command");
        fprintf(out, "\nprocess %.0f: ", cp_show_num(p, "pid"));
        cp_trace_table_wrap(out, "", "  ", command ? command : "?");
        size_t uncounted = 0;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(doc, "kernels"))
        {
            if (cp_show_num(k, "pid") != cp_show_num(p, "pid"))
                continue;
            if (!cJSON_IsTrue(cp_show_at(k, "counted"))) {
                uncounted++;
                continue;
            }
            cp_trace_show_kernel_head(out, k);
            cp_trace_show_instrs(out, doc, k, top);
        }
        if (uncounted)
            fprintf(out, "\n  launched, not counted: %zu kernel%s (the JSON names them)\n",
                    uncounted, uncounted == 1 ? "" : "s");
    }
}

/* The table written into memory, then out with every control character of the names in it
 * escaped (cp_text_put_printable), the gate's verdict (coalprobe's own words, coloured) after. */
static int cp_trace_show_escaped(FILE *out, const cJSON *doc, size_t top, int color)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return -1;
    cp_trace_show_table(mem, doc, top);
    int bad = ferror(mem);
    if (fclose(mem) != 0 || bad) {
        free(text);
        return -1;
    }
    for (char *line = text, *end = text + len; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl)
            *nl = '\0';
        cp_text_put_printable(out, line);
        fputs(nl ? "\n" : "", out);
        line = nl ? nl + 1 : end;
    }
    free(text);
    cp_trace_show_gate(out, doc, color);
    return 0;
}

int cp_trace_show(cJSON *doc, const char *path, const cp_show_options *o, FILE *out, cp_status *st)
{
    CP_TRY(cp_show_check_schema(doc, path, 1, st));
    if (o->format == CP_FORMAT_VEGALITE) /* the chart trace --format vega-lite draws */
        return cp_report_write_vegalite_doc(out, doc, st);
    cJSON *instructions = cJSON_GetObjectItemCaseSensitive(doc, "instructions");
    if (o->sort)
        CP_TRY(cp_show_sort(instructions, o->sort, cp_trace_show_aliases,
                            CP_COUNT_OF(cp_trace_show_aliases), NULL, 0, st));
    double report_top = cp_show_num(doc, "options.top");
    size_t top = o->top_given ? o->top : isfinite(report_top) ? (size_t)report_top : 5;
    if (o->top_given && o->format != CP_FORMAT_TABLE)
        CP_TRY(cp_trace_show_keep(instructions, o->top, st));
    if (o->format == CP_FORMAT_JSON)
        return cp_show_print_json(out, doc, st);
    if (o->format == CP_FORMAT_CSV)
        cp_trace_show_csv(out, doc);
    else if (cp_trace_show_escaped(out, doc, top, o->view && o->view->color) != 0)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory writing the trace report");
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the report");
    return CP_EXIT_OK;
}
