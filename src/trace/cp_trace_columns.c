/* cp_trace_columns.c: a trace report's instruction columns, once: each one's key (the CSV
 * header), where the JSON report holds it and how a run's structures give it, and how and where
 * each shows: the CSV report of a run (cp_trace_csv.c) and of a saved report (coalprobe show,
 * cp_trace_show.c), the text table's instruction rows (cp_trace_table.c), the page's tables and
 * its script (the description cp_trace_columns_describe writes into the page) all read it. */
#include "cp_trace_report.h"

#include "cp_trace.h"
#include "report/cp_report.h" /* cp_show_num, cp_show_str, cp_show_at */

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Where the value lives: the instruction, its kernel or its process (in a run's structures and in
 * the JSON report's "instructions", "kernels" and "processes" alike). */
typedef enum { CP_TRACE_OF_INSTR, CP_TRACE_OF_KERNEL, CP_TRACE_OF_PROCESS } cp_trace_column_of;

/* How a cell is written: a number (empty when unknown), text (empty when unknown), true or false,
 * a pc ("0x0040"). */
typedef enum {
    CP_TRACE_COLUMN_NUMBER,
    CP_TRACE_COLUMN_TEXT,
    CP_TRACE_COLUMN_BOOL,
    CP_TRACE_COLUMN_PC
} cp_trace_column_type;

/* The views a column shows in besides the CSV report: the text table's instruction rows, and the
 * page's tables of kernels and of instructions (written without scripts) and its script's table
 * of a kernel's SASS instructions. */
typedef enum {
    CP_TRACE_IN_TEXT,
    CP_TRACE_IN_KERNELS,
    CP_TRACE_IN_INSTRUCTIONS,
    CP_TRACE_IN_SASS,
    CP_TRACE_VIEWS
} cp_trace_view;

/* How and where a column shows. */
typedef struct cp_trace_look {
    unsigned char at[CP_TRACE_VIEWS]; /* its place (from 1) in each view; 0: not there */
    const char *label;                /* its header on the page */
    int decimals;                     /* the page shows a number with these decimals ... */
    double scale;                     /* ... of value * scale (0: 1) ... */
    const char *suffix;               /* ... and this after it */
    const char *kernel_path; /* the page's kernels table: its value's path in a kernel's object;
                              * NULL: path (the same key) */
    const char *short_label; /* its header in the text table */
    int width;               /* its cells' width there; negative: left-aligned */
} cp_trace_look;

typedef struct cp_trace_column {
    const char *key; /* the CSV header */
    cp_trace_column_of of;
    const char *path; /* its path in the JSON report's object of `of` */
    cp_trace_column_type type;
    size_t derived; /* a number of the instruction's cp_trace_derived: its offset + 1; else 0 */
    double (*number)(const cp_trace_values *row); /* else a number, NAN when unknown */
    const char *(*text)(const cp_trace_values *row, char *buf, size_t n); /* NULL: unknown */
    cp_trace_look look;
    int page_only; /* 1: a column of the page alone, not of the CSV report */
} cp_trace_column;

static double cp_col_rank(const cp_trace_values *r)
{
    return r->in->rank ? (double)r->in->rank : NAN;
}
static double cp_col_pid(const cp_trace_values *r)
{
    return r->p->pid >= 0 ? (double)r->p->pid : NAN;
}
static double cp_col_device(const cp_trace_values *r)
{
    return r->k->device;
}
static double cp_col_launches(const cp_trace_values *r)
{
    return (double)r->k->launches;
}
static double cp_col_pc(const cp_trace_values *r)
{
    return r->in->pc;
}
static double cp_col_line(const cp_trace_values *r)
{
    return r->in->file ? (double)r->in->line : NAN;
}
static double cp_col_excess_share(const cp_trace_values *r)
{
    return r->in->excess_share;
}
static double cp_col_conflict_share(const cp_trace_values *r)
{
    return r->in->conflict_share;
}
static double cp_col_gate_failed(const cp_trace_values *r)
{
    return r->in->gate_failed;
}
static double cp_col_coverage(const cp_trace_values *r)
{
    return r->k->cov.fraction;
}
static double cp_col_excess_known(const cp_trace_values *r)
{
    return r->k->cov.excess_known;
}
static double cp_col_tma_excess(const cp_trace_values *r)
{
    return r->k->cov.tma_excess_bytes;
}
static double cp_col_launches_seen(const cp_trace_values *r)
{
    return r->k->has_seen ? (double)r->k->launches_seen : NAN;
}
static double cp_col_kernel_index(const cp_trace_values *r)
{
    return (double)r->k->index;
}
static double cp_col_counter_launches(const cp_trace_values *r)
{
    return (double)r->k->kc.records;
}
static double cp_col_instruction_launches(const cp_trace_values *r)
{
    return cp_trace_kernel_instructions_sampled(r->k) ? (double)r->k->kc.records : NAN;
}

static const char *cp_col_command(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->p->command;
}
static const char *cp_col_kernel(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->k->name ? r->k->name : r->k->function;
}
static const char *cp_col_function(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->k->function;
}
static const char *cp_col_file(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->in->file;
}
static const char *cp_col_opcode(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->in->opcode;
}
static const char *cp_col_op(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return cp_trace_op_name(r->in);
}
static const char *cp_col_space(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return cp_trace_space_name(r->in);
}
static const char *cp_col_meaning(const cp_trace_values *r, char *buf, size_t n)
{
    cp_trace_meaning(&r->in->d, buf, n);
    return buf;
}
static const char *cp_col_coverage_basis(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return r->k->cov.basis;
}
static const char *cp_col_kind(const cp_trace_values *r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return cp_trace_kind_name(r->in);
}

/* A number of the instruction's derived counts, under its own name; a number, text or true or
 * false got by a function. */
/* clang-format off */
#define CP_COL_D(name, ...) \
    {#name, CP_TRACE_OF_INSTR, #name, CP_TRACE_COLUMN_NUMBER, \
     offsetof(cp_trace_derived, name) + 1, NULL, NULL, {__VA_ARGS__}, 0}
#define CP_COL_N(key, of, path, get, ...) \
    {key, of, path, CP_TRACE_COLUMN_NUMBER, 0, get, NULL, {__VA_ARGS__}, 0}
#define CP_COL_T(key, of, path, get, ...) \
    {key, of, path, CP_TRACE_COLUMN_TEXT, 0, NULL, get, {__VA_ARGS__}, 0}
#define CP_COL_B(key, of, path, get, ...) \
    {key, of, path, CP_TRACE_COLUMN_BOOL, 0, get, NULL, {__VA_ARGS__}, 0}
#define CP_COL_PC(key, of, path, get, ...) \
    {key, of, path, CP_TRACE_COLUMN_PC, 0, get, NULL, {__VA_ARGS__}, 0}
#define CP_COL_PAGE(key, of, path, get, ...) /* a number of the page alone */ \
    {key, of, path, CP_TRACE_COLUMN_NUMBER, 0, get, NULL, {__VA_ARGS__}, 1}
/* Its places: in the text table, the page's kernels, instructions and SASS tables (0: not). */
#define CP_AT(text, kernels, instructions, sass) .at = {text, kernels, instructions, sass}
/* clang-format on */

/* The CSV report's columns, in its order (a new column goes at the end: readers index them). */
static const cp_trace_column cp_trace_columns[] = {
    CP_COL_N("rank", CP_TRACE_OF_INSTR, "rank", cp_col_rank, CP_AT(1, 0, 1, 0), "rank",
             .short_label = "rank", .width = 4),
    CP_COL_N("pid", CP_TRACE_OF_INSTR, "pid", cp_col_pid),
    CP_COL_T("process_command", CP_TRACE_OF_PROCESS, "command", cp_col_command),
    CP_COL_T("kernel", CP_TRACE_OF_INSTR, "kernel", cp_col_kernel, CP_AT(0, 2, 2, 0), "kernel",
             .kernel_path = "name"),
    CP_COL_T("function", CP_TRACE_OF_KERNEL, "function", cp_col_function),
    CP_COL_N("device", CP_TRACE_OF_KERNEL, "device", cp_col_device),
    CP_COL_N("launches", CP_TRACE_OF_KERNEL, "launches", cp_col_launches, CP_AT(0, 3, 0, 0),
             "launches"),
    CP_COL_PC("pc", CP_TRACE_OF_INSTR, "pc", cp_col_pc, CP_AT(3, 0, 5, 1), "pc",
              .short_label = "pc", .width = -8),
    CP_COL_T("file", CP_TRACE_OF_INSTR, "file", cp_col_file, CP_AT(2, 0, 3, 3), "file",
             .short_label = "where",
             .width = -CP_TRACE_WHERE_WIDTH), /* the text table: basename:line */
    CP_COL_N("line", CP_TRACE_OF_INSTR, "line", cp_col_line, CP_AT(0, 0, 4, 0), "line"),
    CP_COL_T("opcode", CP_TRACE_OF_INSTR, "opcode", cp_col_opcode, CP_AT(0, 0, 6, 2), "SASS"),
    CP_COL_T("op", CP_TRACE_OF_INSTR, "op", cp_col_op),
    CP_COL_T("space", CP_TRACE_OF_INSTR, "space", cp_col_space),
    CP_COL_D(requests, CP_AT(5, 6, 8, 4), "requests", .short_label = "requests", .width = 9),
    CP_COL_D(sectors, CP_AT(0, 0, 0, 5), "sectors"),
    CP_COL_D(ideal_sectors),
    CP_COL_D(excess_sectors),
    CP_COL_D(excess_bytes, CP_AT(10, 9, 11, 6), "excess bytes", .short_label = "excess",
             .width = 8),
    CP_COL_D(sectors_per_request, CP_AT(6, 7, 9, 0), "sec/req", 2, .short_label = "sec/req",
             .width = 7),
    CP_COL_D(ideal_sectors_per_request, CP_AT(7, 8, 10, 0), "ideal sec/req", 2,
             .short_label = "ideal", .width = 5),
    CP_COL_D(excess_pct, CP_AT(0, 10, 12, 0), "excess", 1, .suffix = "%"),
    CP_COL_N("excess_share", CP_TRACE_OF_INSTR, "excess_share", cp_col_excess_share,
             CP_AT(11, 13, 0, 0), "share of excess", 1, 100, "%", .short_label = "share",
             .width = 6),
    CP_COL_D(shared_requests),
    CP_COL_D(wavefronts),
    CP_COL_D(ideal_wavefronts),
    CP_COL_D(bank_conflicts),
    CP_COL_D(wavefronts_per_request, CP_AT(8, 11, 13, 0), "wf/req", 2, .short_label = "wf/req",
             .width = 6),
    CP_COL_D(ideal_wavefronts_per_request, CP_AT(9, 0, 0, 0), "ideal wf/req", 2,
             .short_label = "ideal", .width = 5),
    CP_COL_D(conflict_pct, CP_AT(0, 12, 0, 0), "conflicts", 1, .suffix = "%"),
    CP_COL_N("conflict_share", CP_TRACE_OF_INSTR, "conflict_share", cp_col_conflict_share),
    CP_COL_B("gate_failed", CP_TRACE_OF_INSTR, "gate_failed", cp_col_gate_failed),
    CP_COL_T("meaning", CP_TRACE_OF_INSTR, "meaning", cp_col_meaning, CP_AT(0, 0, 14, 0),
             "meaning"),
    /* appended with LDGSTS (cp.async): its requests and the wavefronts of its shared fill */
    CP_COL_D(ldgsts_requests),
    CP_COL_D(fill_wavefronts),
    CP_COL_D(ideal_fill_wavefronts),
    CP_COL_D(fill_wavefronts_per_request),
    CP_COL_D(ideal_fill_wavefronts_per_request),
    /* appended with the other kinds of instruction */
    CP_COL_T("kind", CP_TRACE_OF_INSTR, "kind", cp_col_kind, CP_AT(4, 0, 7, 0), "kind",
             .short_label = "kind", .width = -5),
    CP_COL_D(atomic_requests),
    CP_COL_D(local_requests),
    CP_COL_D(tma_requests),
    CP_COL_D(gmma_requests),
    CP_COL_D(gmma_wavefronts),
    /* appended with coverage: the instruction's kernel's (empty when not measured) */
    CP_COL_N("kernel_coverage", CP_TRACE_OF_KERNEL, "coverage.fraction", cp_col_coverage),
    CP_COL_B("kernel_excess_known", CP_TRACE_OF_KERNEL, "coverage.excess_known",
             cp_col_excess_known),
    /* appended with sampling and selection: the kernel's launches seen (empty when the raw file
     * does not say) and its launches with per-kernel counters */
    CP_COL_N("launches_seen", CP_TRACE_OF_KERNEL, "launches_seen", cp_col_launches_seen,
             CP_AT(0, 4, 0, 0), "seen"), /* counted of seen (selection) */
    CP_COL_N("counter_launches", CP_TRACE_OF_KERNEL, "counter_launches", cp_col_counter_launches,
             CP_AT(0, 5, 0, 0), "with counters"), /* sampled: serialised */
    /* appended with the tensor maps (issue 45): how the kernel's coverage is known, among them
     * tensor_map_geometry (TMA judged by the whole-sector maps its launches passed) */
    CP_COL_T("kernel_coverage_basis", CP_TRACE_OF_KERNEL, "coverage.basis", cp_col_coverage_basis),
    /* appended with --instructions sampled: the launches the kernel's instruction counts cover
     * (empty when they cover every counted launch) */
    CP_COL_N("instruction_launches", CP_TRACE_OF_KERNEL, "instruction_launches",
             cp_col_instruction_launches, CP_AT(0, 14, 0, 0), "instructions from"),
    /* appended with TMA judged by its maps' geometry (issue 45): the bytes the kernel's TMA
     * copies moved past their boxes' (empty unless its coverage basis is tensor_map_geometry) */
    CP_COL_N("kernel_tma_excess_bytes", CP_TRACE_OF_KERNEL, "coverage.tma_excess_bytes",
             cp_col_tma_excess),
    /* the page's alone: the kernels table's first column, the kernel's index */
    CP_COL_PAGE("kernel_index", CP_TRACE_OF_INSTR, "kernel_index", cp_col_kernel_index,
                CP_AT(0, 1, 0, 0), "#", .kernel_path = "index"),
};

void cp_trace_csv_header(cp_text_csv_line *l)
{
    for (size_t c = 0; c < CP_COUNT_OF(cp_trace_columns); c++)
        if (!cp_trace_columns[c].page_only)
            cp_text_csv_cell(l, cp_trace_columns[c].key);
    cp_text_csv_end_line(l);
}

/* ---- the text table's instruction rows ---------------------------------------------------- */

int cp_trace_text_cell(const char *key)
{
    for (size_t c = 0; c < CP_COUNT_OF(cp_trace_columns); c++)
        if (cp_trace_columns[c].look.at[CP_TRACE_IN_TEXT] && !strcmp(cp_trace_columns[c].key, key))
            return cp_trace_columns[c].look.at[CP_TRACE_IN_TEXT] - 1;
    return -1;
}

void cp_trace_table_row(FILE *out, const char *const cells[CP_TRACE_TABLE_CELLS])
{
    int width[CP_TRACE_TABLE_CELLS] = {0};
    for (size_t c = 0; c < CP_COUNT_OF(cp_trace_columns); c++) {
        const cp_trace_look *l = &cp_trace_columns[c].look;
        if (l->at[CP_TRACE_IN_TEXT])
            width[l->at[CP_TRACE_IN_TEXT] - 1] = l->width;
    }
    fputs("   ", out);
    for (size_t i = 0; i < CP_TRACE_TABLE_CELLS; i++)
        fprintf(out, " %*s", width[i], cells[i]);
    fputc('\n', out);
}

void cp_trace_table_row_header(FILE *out)
{
    const char *header[CP_TRACE_TABLE_CELLS] = {0};
    for (size_t c = 0; c < CP_COUNT_OF(cp_trace_columns); c++) {
        const cp_trace_look *l = &cp_trace_columns[c].look;
        if (l->at[CP_TRACE_IN_TEXT])
            header[l->at[CP_TRACE_IN_TEXT] - 1] = l->short_label;
    }
    cp_trace_table_row(out, header);
}

/* ---- the page's description of the columns ------------------------------------------------ */

cJSON *cp_trace_columns_describe(void)
{
    static const char *const of[] = {"instruction", "kernel", "process"};
    static const char *const type[] = {"number", "text", "bool", "pc"};
    static const char *const views[] = {"kernels", "instructions", "sass"}; /* the page's */
    cJSON *all = cJSON_CreateArray();
    for (size_t c = 0; all && c < CP_COUNT_OF(cp_trace_columns); c++) {
        const cp_trace_column *col = &cp_trace_columns[c];
        cJSON *o = cJSON_CreateObject(), *at = cJSON_CreateObject();
        cJSON_AddItemToArray(all, o);
        cJSON_AddStringToObject(o, "key", col->key);
        cJSON_AddStringToObject(o, "of", of[col->of]);
        cJSON_AddStringToObject(o, "path", col->path);
        cJSON_AddStringToObject(o, "type", type[col->type]);
        cJSON_AddBoolToObject(o, "csv", !col->page_only);
        if (col->look.label) {
            cJSON_AddStringToObject(o, "label", col->look.label);
            cJSON_AddNumberToObject(o, "decimals", col->look.decimals);
            cJSON_AddNumberToObject(o, "scale", col->look.scale ? col->look.scale : 1);
            cJSON_AddStringToObject(o, "suffix", col->look.suffix ? col->look.suffix : "");
            cJSON_AddStringToObject(o, "kernel_path",
                                    col->look.kernel_path ? col->look.kernel_path : col->path);
        }
        for (size_t v = 0; v < CP_COUNT_OF(views); v++)
            if (col->look.at[CP_TRACE_IN_KERNELS + v])
                cJSON_AddNumberToObject(at, views[v], col->look.at[CP_TRACE_IN_KERNELS + v]);
        cJSON_AddItemToObject(o, "at", at);
    }
    return all; /* NULL, or the allocation that failed left a part out: checked by printing it */
}

/* The cell of c: the number or text the caller got, as the CSV report writes it. */
static void cp_trace_csv_cell_of(cp_text_csv_line *l, const cp_trace_column *c, double v,
                                 const char *text)
{
    char pc[24];
    switch (c->type) {
    case CP_TRACE_COLUMN_TEXT:
        cp_text_csv_cell(l, text);
        break;
    case CP_TRACE_COLUMN_BOOL:
        cp_text_csv_cell(l, v != 0 && !isnan(v) ? "true" : "false");
        break;
    case CP_TRACE_COLUMN_PC:
        snprintf(pc, sizeof pc, "0x%04llx", (unsigned long long)v);
        cp_text_csv_cell(l, pc);
        break;
    default:
        cp_trace_csv_number(l, v);
    }
}

/* The column of key; NULL when there is none. */
static const cp_trace_column *cp_trace_column_find(const char *key)
{
    for (size_t i = 0; i < CP_COUNT_OF(cp_trace_columns); i++)
        if (strcmp(cp_trace_columns[i].key, key) == 0)
            return &cp_trace_columns[i];
    return NULL;
}

/* Column c's value in v: *num (NAN when unknown; 0 or 1 for true or false) or the text it
 * returns (NULL when unknown), in buf[n] where it must be made. */
static const char *cp_trace_column_get(const cp_trace_column *c, const cp_trace_values *v,
                                       double *num, char *buf, size_t n)
{
    *num = NAN;
    if (v->doc_in) { /* a saved report */
        const cJSON *o = c->of == CP_TRACE_OF_INSTR    ? v->doc_in
                         : c->of == CP_TRACE_OF_KERNEL ? v->doc_kernel
                                                       : v->doc_process;
        *num = c->type == CP_TRACE_COLUMN_BOOL ? cJSON_IsTrue(cp_show_at(o, c->path))
                                               : cp_show_num(o, c->path);
        return c->type == CP_TRACE_COLUMN_TEXT ? cp_show_str(o, c->path) : NULL;
    }
    if (c->derived)
        *num = *(const double *)((const char *)&v->in->d + c->derived - 1);
    else if (c->number)
        *num = c->number(v);
    else
        return c->text(v, buf, n);
    return NULL;
}

double cp_trace_value(const cp_trace_values *v, const char *key)
{
    const cp_trace_column *c = cp_trace_column_find(key);
    double num = NAN;
    char buf[8];
    if (c && c->type != CP_TRACE_COLUMN_TEXT)
        cp_trace_column_get(c, v, &num, buf, sizeof buf);
    return num;
}

const char *cp_trace_value_text(const cp_trace_values *v, const char *key, char *buf, size_t n)
{
    const cp_trace_column *c = cp_trace_column_find(key);
    double num;
    return c && c->type == CP_TRACE_COLUMN_TEXT ? cp_trace_column_get(c, v, &num, buf, n) : NULL;
}

void cp_trace_csv_row(cp_text_csv_line *l, const cp_trace_values *v)
{
    for (size_t i = 0; i < CP_COUNT_OF(cp_trace_columns); i++) {
        if (cp_trace_columns[i].page_only)
            continue;
        char buf[700];
        double num;
        const char *text = cp_trace_column_get(&cp_trace_columns[i], v, &num, buf, sizeof buf);
        cp_trace_csv_cell_of(l, &cp_trace_columns[i], num, text);
    }
    cp_text_csv_end_line(l);
}
