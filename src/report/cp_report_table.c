/* cp_report_table.c: the human-readable table, one line per configuration. One file of some
 * 830 lines: the column tables, the width rule that drops columns and the notes under the table
 * all read the same layout. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/cp_model.h"

#define CP_REPORT_TABLE_CELL 48   /* bytes of one formatted cell */
#define CP_REPORT_TABLE_COLS 18   /* most columns of one family's table (GEMM: 17) */
#define CP_REPORT_TABLE_LINE 1024 /* bytes of one output line */

/* What a column shows. */
typedef enum {
    CP_REPORT_CELL_FIELD, /* a value of the configuration: the column's field */
    CP_REPORT_CELL_PRED_LOAD_SPR,
    CP_REPORT_CELL_PRED_LOAD_EFF,
    CP_REPORT_CELL_PRED_STORE_SPR,
    CP_REPORT_CELL_PRED_STORE_EFF,
    CP_REPORT_CELL_MEAS_LOAD_SPR,
    CP_REPORT_CELL_MEAS_STORE_SPR,
    CP_REPORT_CELL_MEAS_TIME,
    CP_REPORT_CELL_MEAS_GBS,
    CP_REPORT_CELL_MEAS_DRAM_GBS,
    CP_REPORT_CELL_MEAS_MATCH,
    CP_REPORT_CELL_PRED_A_SPR, /* GEMM: per operand */
    CP_REPORT_CELL_PRED_B_SPR,
    CP_REPORT_CELL_PRED_C_SPR,
    CP_REPORT_CELL_MEAS_TIME_MS,
    CP_REPORT_CELL_MEAS_GFLOPS,
    CP_REPORT_CELL_MEAS_PCT_CUBLAS,
    /* shared memory: wavefronts and bank conflicts per request, loads and stores */
    CP_REPORT_CELL_PRED_SH_LD_WF,
    CP_REPORT_CELL_PRED_SH_ST_WF,
    CP_REPORT_CELL_MEAS_SH_LD_WF,
    CP_REPORT_CELL_MEAS_SH_ST_WF,
    /* smem: the side of the pattern (op) */
    CP_REPORT_CELL_PRED_SHARED_WF,
    CP_REPORT_CELL_PRED_SHARED_CONF,
    CP_REPORT_CELL_MEAS_SHARED_WF,
    CP_REPORT_CELL_MEAS_SHARED_CONF,
    /* the kernel's registers per thread; theoretical / achieved occupancy in percent */
    CP_REPORT_CELL_MEAS_REGS,
    CP_REPORT_CELL_MEAS_OCCUPANCY,
    /* the memory path: L1 and L2 hit rates, SM active (percent), the load's SASS opcode; the
     * TMA copies' sectors per request */
    CP_REPORT_CELL_MEAS_L1_HIT,
    CP_REPORT_CELL_MEAS_L2_HIT,
    CP_REPORT_CELL_MEAS_SM_ACTIVE,
    CP_REPORT_CELL_MEAS_OPCODE,
    CP_REPORT_CELL_PRED_TMA_SPR,
    CP_REPORT_CELL_MEAS_TMA_SPR,
    /* readonly: where the table is likely served from (an estimate) */
    CP_REPORT_CELL_PRED_REGIME,
    /* a run over several GPUs: the GPU that measured the row */
    CP_REPORT_CELL_MEAS_GPU,
    /* a family's own counter (cp_family_desc.counters; the column's `counter`), as a count */
    CP_REPORT_CELL_PRED_FAMILY,
    CP_REPORT_CELL_MEAS_FAMILY,
} cp_report_cell;

typedef enum {
    CP_REPORT_GROUP_PARAMS,
    CP_REPORT_GROUP_PREDICTED,
    CP_REPORT_GROUP_MEASURED
} cp_report_group;

/* A column: its header on two lines (top may be empty), group and alignment. */
typedef struct cp_report_column {
    cp_report_cell cell;
    const char *top, *bottom;
    cp_report_group group;
    int left;                     /* 1: left-aligned text; 0: right-aligned */
    const cp_family_field *field; /* CP_REPORT_CELL_FIELD */
    size_t counter;               /* CP_REPORT_CELL_*_FAMILY: the counter's index */
} cp_report_column;

static const char *const cp_report_group_labels[] = {NULL, "predicted", "measured"};

/* A right-aligned column of counts or times: CP_REPORT_CELL_PRED_<cell> or _MEAS_<cell>, under
 * its header's two lines. */
#define CP_REPORT_PRED(cell, top, bottom)                                                          \
    {                                                                                              \
        CP_REPORT_CELL_PRED_##cell, top, bottom, CP_REPORT_GROUP_PREDICTED, 0, NULL, 0             \
    }
#define CP_REPORT_MEAS(cell, top, bottom)                                                          \
    {                                                                                              \
        CP_REPORT_CELL_MEAS_##cell, top, bottom, CP_REPORT_GROUP_MEASURED, 0, NULL, 0              \
    }

/* Quantities shown both predicted and measured, under the same header, as GROUP (CP_REPORT_PRED
 * or CP_REPORT_MEAS) columns: sectors per request of global loads and stores; shared wavefronts
 * and bank conflicts per request (smem); shared wavefronts per request of the tile's store and
 * load (transpose); the tile's load by the LSU or by the TMA unit and the compute's shared loads
 * (async). */
#define CP_REPORT_SIDES(GROUP) GROUP(LOAD_SPR, "ld", "sec/req"), GROUP(STORE_SPR, "st", "sec/req")
#define CP_REPORT_SHARED(GROUP)                                                                    \
    GROUP(SHARED_WF, "wavefr", "/req"), GROUP(SHARED_CONF, "confl", "/req")
#define CP_REPORT_SHARED_SIDES(GROUP)                                                              \
    GROUP(SH_ST_WF, "sh.st", "wf/req"), GROUP(SH_LD_WF, "sh.ld", "wf/req")
#define CP_REPORT_COPIES(GROUP)                                                                    \
    GROUP(LOAD_SPR, "ld", "sec/req"), GROUP(TMA_SPR, "tma", "sec/req"),                            \
        GROUP(SH_LD_WF, "sh.ld", "wf/req")

/* Groups of columns that several tables share: the measured sectors per request of global loads
 * and stores; time in microseconds and useful bandwidth; DRAM bandwidth and whether the counts
 * match the model; the predicted sectors per request of three accesses (named a, b, c) and the
 * load efficiency. */
#define CP_REPORT_MEAS_SIDES CP_REPORT_SIDES(CP_REPORT_MEAS)
#define CP_REPORT_MEAS_TIME_US CP_REPORT_MEAS(TIME, "time", "us"), CP_REPORT_MEAS(GBS, "", "GB/s")
#define CP_REPORT_MEAS_DRAM_MATCH                                                                  \
    CP_REPORT_MEAS(DRAM_GBS, "DRAM", "GB/s"), CP_REPORT_MEAS(MATCH, "", "match")
#define CP_REPORT_PRED_ACCESSES(a, b, c)                                                           \
    CP_REPORT_PRED(A_SPR, a, "sec/req"), CP_REPORT_PRED(B_SPR, b, "sec/req"),                      \
        CP_REPORT_PRED(C_SPR, c, "sec/req"), CP_REPORT_PRED(LOAD_EFF, "ld", "eff")

/* A run over several GPUs: the GPU of each row, first of the measured columns. */
static const cp_report_column cp_report_gpu_column = CP_REPORT_MEAS(GPU, "", "gpu");

/* The tables of columns below keep one column (or group) a line. */
/* clang-format off */
/* The predicted columns of stride and layout: load and store. */
static const cp_report_column cp_report_common_predicted[] = {
    CP_REPORT_PRED(LOAD_SPR, "ld", "sec/req"),
    CP_REPORT_PRED(LOAD_EFF, "ld", "eff"),
    CP_REPORT_PRED(STORE_SPR, "st", "sec/req"),
    CP_REPORT_PRED(STORE_EFF, "st", "eff"),
};
/* The measured columns of every family but GEMM, smem and transpose. */
static const cp_report_column cp_report_common_measured[] = {
    CP_REPORT_MEAS_SIDES,
    CP_REPORT_MEAS_TIME_US,
    CP_REPORT_MEAS_DRAM_MATCH,
};
/* gather's predicted columns: per access (idx, in, out). */
static const cp_report_column cp_report_accesses_predicted[] = {
    CP_REPORT_PRED_ACCESSES("idx", "in", "out"),
};
/* GEMM's predicted columns, per operand, and measured ones, with GFLOP/s against cuBLAS. */
static const cp_report_column cp_report_operands_predicted[] = {
    CP_REPORT_PRED_ACCESSES("A", "B", "C"),
};
static const cp_report_column cp_report_operands_measured[] = {
    CP_REPORT_MEAS_SIDES,
    CP_REPORT_MEAS(TIME_MS, "time", "ms"),
    CP_REPORT_MEAS(GFLOPS, "", "GFLOP/s"),
    CP_REPORT_MEAS(PCT_CUBLAS, "% of", "cuBLAS"),
    CP_REPORT_MEAS(REGS, "", "regs"),
    CP_REPORT_MEAS(OCCUPANCY, "occ %", "th/ach"),
    CP_REPORT_MEAS_DRAM_MATCH,
};
/* smem's: shared wavefronts and bank conflicts per request of the pattern's side. */
static const cp_report_column cp_report_shared_predicted[] = {
    CP_REPORT_SHARED(CP_REPORT_PRED),
};
static const cp_report_column cp_report_shared_measured[] = {
    CP_REPORT_SHARED(CP_REPORT_MEAS),
    CP_REPORT_MEAS_TIME_US,
    CP_REPORT_MEAS(MATCH, "", "match"),
};
/* transpose's: global sectors and shared wavefronts per request of the tile's store and load. */
static const cp_report_column cp_report_sides_shared_predicted[] = {
    CP_REPORT_SIDES(CP_REPORT_PRED),
    CP_REPORT_SHARED_SIDES(CP_REPORT_PRED),
};
static const cp_report_column cp_report_sides_shared_measured[] = {
    CP_REPORT_MEAS_SIDES,
    CP_REPORT_SHARED_SIDES(CP_REPORT_MEAS),
    CP_REPORT_MEAS_TIME_US,
    CP_REPORT_MEAS_DRAM_MATCH,
};
/* readonly's: the load and store; measured, where the table's sectors were served from and
 * the instruction the load compiled to. */
static const cp_report_column cp_report_path_predicted[] = {
    CP_REPORT_PRED(LOAD_SPR, "ld", "sec/req"),
    CP_REPORT_PRED(LOAD_EFF, "ld", "eff"),
    CP_REPORT_PRED(STORE_SPR, "st", "sec/req"),
    CP_REPORT_PRED(REGIME, "fits", "(est)"),
};
static const cp_report_column cp_report_path_measured[] = {
    CP_REPORT_MEAS(LOAD_SPR, "ld", "sec/req"),
    CP_REPORT_MEAS(L1_HIT, "L1", "hit"),
    CP_REPORT_MEAS(L2_HIT, "L2", "hit"),
    CP_REPORT_MEAS(SM_ACTIVE, "SM", "act"),
    CP_REPORT_MEAS(OPCODE, "", "SASS"),
    CP_REPORT_MEAS_TIME_US,
    CP_REPORT_MEAS_DRAM_MATCH,
};
/* async's: the tile's load by the LSU or by the TMA unit, the compute's shared loads. */
static const cp_report_column cp_report_copies_predicted[] = {
    CP_REPORT_COPIES(CP_REPORT_PRED),
};
static const cp_report_column cp_report_copies_measured[] = {
    CP_REPORT_COPIES(CP_REPORT_MEAS),
    CP_REPORT_MEAS(SM_ACTIVE, "SM", "act"),
    CP_REPORT_MEAS_TIME_US,
    CP_REPORT_MEAS_DRAM_MATCH,
};
/* after the family's own counters (CP_COUNTS_FAMILY): the time and whether they match */
static const cp_report_column cp_report_family_measured[] = {
    CP_REPORT_MEAS(TIME, "time", "us"),
    CP_REPORT_MEAS(MATCH, "", "match"),
};
/* clang-format on */

/* The columns of one family's table, with their widths; those left out to fit a width. */
typedef struct cp_report_shape {
    cp_report_column params[CP_SHOWN_MAX]; /* the family's parameter columns */
    /* its own counters' columns (CP_COUNTS_FAMILY), predicted and measured */
    cp_report_column family_pred[CP_FAMILY_COUNTERS_MAX], family_meas[CP_FAMILY_COUNTERS_MAX];
    const cp_report_column *cols[CP_REPORT_TABLE_COLS];
    size_t width[CP_REPORT_TABLE_COLS];
    int has_value[CP_REPORT_TABLE_COLS]; /* some row shows more than "-" there */
    size_t ncols;
    const cp_report_column *dropped[CP_REPORT_TABLE_COLS]; /* left out for the width */
    size_t ndropped;
    const cp_report_column *all[CP_REPORT_TABLE_COLS]; /* every column, in the table's order */
    size_t nall;
} cp_report_shape;

/* One output line, built in memory so that trailing blanks can be dropped. */
typedef struct cp_report_line {
    char text[CP_REPORT_TABLE_LINE];
    size_t len;
} cp_report_line;

static void cp_report_table_append(cp_report_line *l, const char *s, size_t width, int left)
{
    size_t room = sizeof l->text - l->len;
    int n = snprintf(l->text + l->len, room, left ? "%-*s" : "%*s", (int)width, s);
    if (n > 0)
        l->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* s in a cell of `width`, the text (not its padding) between the escapes `color` and reset
 * when color is not NULL. */
static void cp_report_table_append_colored(cp_report_line *l, const char *s, size_t width, int left,
                                           const char *color)
{
    if (!color) {
        cp_report_table_append(l, s, width, left);
        return;
    }
    size_t len = strlen(s), pad = width > len ? width - len : 0;
    if (!left)
        cp_report_table_append(l, "", pad, 0);
    cp_report_table_append(l, color, 0, 0);
    cp_report_table_append(l, s, 0, 0);
    cp_report_table_append(l, CP_TERM_RESET, 0, 0);
    if (left)
        cp_report_table_append(l, "", pad, 0);
}

/* n copies of c. */
static void cp_report_table_repeat(cp_report_line *l, char c, size_t n)
{
    for (; n && l->len + 1 < sizeof l->text; n--)
        l->text[l->len++] = c;
    l->text[l->len] = '\0';
}

static void cp_report_table_emit(FILE *out, cp_report_line *l)
{
    while (l->len && l->text[l->len - 1] == ' ')
        l->len--;
    l->text[l->len] = '\0';
    fprintf(out, "%s\n", l->text);
    l->len = 0;
}

/* value * scale with `decimals` decimals and a suffix; "-" when value is NAN or infinite. */
static void cp_report_table_format_number(char *buf, size_t len, double value, double scale,
                                          int decimals, const char *suffix)
{
    if (isfinite(value))
        snprintf(buf, len, "%.*f%s", decimals, value * scale, suffix);
    else
        snprintf(buf, len, "-");
}

/* The value of field f of c. */
static void cp_report_table_format_field(const cp_config *c, const cp_family_field *f, char *buf,
                                         size_t len)
{
    switch (f->kind) {
    case CP_FIELD_U64:
    case CP_FIELD_BYTES: /* as the input spells them: 4K, 64M */
        cp_family_field_format(f, c, buf, len);
        break;
    case CP_FIELD_NAME:
        snprintf(buf, len, "%s", cp_family_field_name(f, c));
        break;
    case CP_FIELD_INDEX: { /* long expressions are cut to the cell, ending in "..." */
        const char *text = c->expr ? cp_expr_text(c->expr) : "?";
        if (strlen(text) < len)
            snprintf(buf, len, "%s", text);
        else
            snprintf(buf, len, "%.*s...", (int)len - 4, text);
        break;
    }
    case CP_FIELD_PARAMS:
        cp_config_format_params(c, " ", buf, len);
        if (!buf[0])
            snprintf(buf, len, "-");
        break;
    }
}

/* The predicted cells of row (sectors or wavefronts per request, efficiency, a family counter:
 * col_counter); 0 when cell is not one. */
static int cp_report_table_format_predicted(const cp_row *row, cp_report_cell cell,
                                            size_t col_counter, char *buf, size_t len)
{
    const cp_config *c = &row->config;
    const cp_prediction *p = &row->predicted;
    double x;
    switch (cell) {
    case CP_REPORT_CELL_PRED_LOAD_EFF: /* in percent */
    case CP_REPORT_CELL_PRED_STORE_EFF:
        x = cp_counts_efficiency(cell == CP_REPORT_CELL_PRED_LOAD_EFF ? &p->load : &p->store);
        cp_report_table_format_number(buf, len, x, 100, 1, "%");
        return 1;
    case CP_REPORT_CELL_PRED_LOAD_SPR:
        x = cp_counts_sectors_per_request(&p->load);
        break;
    case CP_REPORT_CELL_PRED_STORE_SPR:
        x = cp_counts_sectors_per_request(&p->store);
        break;
    case CP_REPORT_CELL_PRED_A_SPR:
    case CP_REPORT_CELL_PRED_B_SPR:
    case CP_REPORT_CELL_PRED_C_SPR: {
        size_t a = (size_t)(cell - CP_REPORT_CELL_PRED_A_SPR);
        x = a < p->naccesses && p->modelled ? cp_counts_sectors_per_request(&p->accesses[a].counts)
                                            : NAN;
        break;
    }
    case CP_REPORT_CELL_PRED_SH_LD_WF:
    case CP_REPORT_CELL_PRED_SH_ST_WF: {
        const cp_counts *sh =
            cell == CP_REPORT_CELL_PRED_SH_LD_WF ? &p->shared_load : &p->shared_store;
        x = p->modelled && p->shared_modelled ? cp_counts_wavefronts_per_request(sh) : NAN;
        break;
    }
    case CP_REPORT_CELL_PRED_TMA_SPR:
        x = cp_counts_sectors_per_request(&p->tma_load);
        break;
    case CP_REPORT_CELL_PRED_REGIME:
        snprintf(buf, len, "%s", cp_regime_letters(p->regime));
        return 1;
    case CP_REPORT_CELL_PRED_FAMILY: /* a count */
        x = p->modelled && col_counter < p->nfamily ? p->family[col_counter] : NAN;
        cp_report_table_format_number(buf, len, x, 1, 0, "");
        return 1;
    case CP_REPORT_CELL_PRED_SHARED_WF:
    case CP_REPORT_CELL_PRED_SHARED_CONF: {
        const cp_counts *sh = cp_config_op(c) == CP_OP_LOAD ? &p->shared_load : &p->shared_store;
        x = cell == CP_REPORT_CELL_PRED_SHARED_WF ? cp_counts_wavefronts_per_request(sh)
                                                  : cp_counts_conflicts_per_request(sh);
        break;
    }
    default:
        return 0;
    }
    cp_report_table_format_number(buf, len, x, 1, 2, "");
    return 1;
}

/* "50/45": the kernel's theoretical / achieved occupancy in percent; "-" when neither is known. */
static void cp_report_table_format_occupancy(const cp_measurement *m, char *buf, size_t len)
{
    char th[16], ach[16];
    cp_report_table_format_number(
        th, sizeof th, m->resources.known ? m->resources.theoretical_occupancy : NAN, 100, 0, "");
    cp_report_table_format_number(ach, sizeof ach, m->counters.achieved_occupancy, 100, 0, "");
    if (!strcmp(th, "-") && !strcmp(ach, "-"))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%s/%s", th, ach);
}

/* The measured cells of the counters v of a row of configuration c, per request: requests and
 * what they cost (sectors, wavefronts, conflicts); 0 when cell is not one. */
static int cp_report_table_format_per_request(const cp_config *c, const cp_counter_values *v,
                                              cp_report_cell cell, char *buf, size_t len)
{
    int load = cp_config_op(c) == CP_OP_LOAD;
    double req, x;
    switch (cell) {
    case CP_REPORT_CELL_MEAS_LOAD_SPR:
        req = v->load_requests, x = v->load_sectors;
        break;
    case CP_REPORT_CELL_MEAS_STORE_SPR:
        req = v->store_requests, x = v->store_sectors;
        break;
    case CP_REPORT_CELL_MEAS_SH_LD_WF:
        req = v->shared_load_requests, x = v->shared_load_wavefronts;
        break;
    case CP_REPORT_CELL_MEAS_SH_ST_WF:
        req = v->shared_store_requests, x = v->shared_store_wavefronts;
        break;
    case CP_REPORT_CELL_MEAS_SHARED_WF: /* smem: the side of the pattern (op) */
        req = load ? v->shared_load_requests : v->shared_store_requests;
        x = load ? v->shared_load_wavefronts : v->shared_store_wavefronts;
        break;
    case CP_REPORT_CELL_MEAS_SHARED_CONF:
        req = load ? v->shared_load_requests : v->shared_store_requests;
        x = load ? v->shared_load_conflicts : v->shared_store_conflicts;
        break;
    case CP_REPORT_CELL_MEAS_TMA_SPR:
        req = v->tma_load_requests, x = v->tma_load_sectors;
        break;
    default:
        return 0;
    }
    cp_report_table_format_number(buf, len, cp_report_compute_per_request(req, x), 1, 2, "");
    return 1;
}

/* The measured cells that show one number of the measurement: its offset in cp_measurement, the
 * scale it is shown in, its decimals and its suffix. */
static const struct {
    cp_report_cell cell;
    size_t offset;
    double scale;
    int decimals;
    const char *suffix;
} cp_report_table_numbers[] = {
    {CP_REPORT_CELL_MEAS_TIME, offsetof(cp_measurement, time_median_s), 1e6, 1, ""},
    {CP_REPORT_CELL_MEAS_GBS, offsetof(cp_measurement, useful_bytes_per_s), 1e-9, 1, ""},
    {CP_REPORT_CELL_MEAS_DRAM_GBS, offsetof(cp_measurement, dram_bytes_per_s), 1e-9, 1, ""},
    {CP_REPORT_CELL_MEAS_TIME_MS, offsetof(cp_measurement, time_median_s), 1e3, 2, ""},
    {CP_REPORT_CELL_MEAS_GFLOPS, offsetof(cp_measurement, flop_per_s), 1e-9, 0, ""},
    {CP_REPORT_CELL_MEAS_PCT_CUBLAS, offsetof(cp_measurement, pct_of_cublas), 1, 1, "%"},
};

/* The other measured cells of row: times, rates, match, registers and occupancy. */
static void cp_report_table_format_measured(const cp_row *row, cp_report_cell cell,
                                            size_t col_counter, char *buf, size_t len)
{
    cp_measurement scratch;
    const cp_measurement *m = cp_report_get_measurement(row, &scratch);
    if (cp_report_table_format_per_request(&row->config, &m->counters, cell, buf, len))
        return;
    for (size_t i = 0; i < CP_COUNT_OF(cp_report_table_numbers); i++) {
        if (cp_report_table_numbers[i].cell != cell)
            continue;
        double v;
        memcpy(&v, (const char *)m + cp_report_table_numbers[i].offset, sizeof v);
        cp_report_table_format_number(buf, len, v, cp_report_table_numbers[i].scale,
                                      cp_report_table_numbers[i].decimals,
                                      cp_report_table_numbers[i].suffix);
        int time = cell == CP_REPORT_CELL_MEAS_TIME || cell == CP_REPORT_CELL_MEAS_TIME_MS;
        if (time && m->noisy && strlen(buf) + 1 < len) { /* "~1369.1": digits stay aligned */
            memmove(buf + 1, buf, strlen(buf) + 1);
            buf[0] = '~';
        }
        return;
    }
    switch (cell) {
    case CP_REPORT_CELL_MEAS_MATCH:
        snprintf(buf, len, "%s", m->counts_match == 1 ? "yes" : m->counts_match == 0 ? "NO" : "-");
        break;
    case CP_REPORT_CELL_MEAS_REGS:
        if (m->resources.known)
            snprintf(buf, len, "%u", (unsigned)m->resources.registers_per_thread);
        else
            snprintf(buf, len, "-");
        break;
    case CP_REPORT_CELL_MEAS_OCCUPANCY:
        cp_report_table_format_occupancy(m, buf, len);
        break;
    case CP_REPORT_CELL_MEAS_L1_HIT: /* in percent */
        cp_report_table_format_number(buf, len, m->counters.l1_load_hit_rate, 100, 0, "%");
        break;
    case CP_REPORT_CELL_MEAS_L2_HIT:
        cp_report_table_format_number(buf, len, m->counters.l2_read_hit_rate, 100, 0, "%");
        break;
    case CP_REPORT_CELL_MEAS_SM_ACTIVE:
        cp_report_table_format_number(buf, len, m->counters.sm_active, 100, 0, "%");
        break;
    case CP_REPORT_CELL_MEAS_FAMILY:
        cp_report_table_format_number(
            buf, len, col_counter < CP_FAMILY_COUNTERS_MAX ? m->counters.family[col_counter] : NAN,
            1, 0, "");
        break;
    case CP_REPORT_CELL_MEAS_OPCODE:
        snprintf(buf, len, "%s", m->load_opcode[0] ? m->load_opcode : "-");
        break;
    case CP_REPORT_CELL_MEAS_GPU: /* 'fail': its GPU failed; '!': slower or faster elsewhere */
        if (row->device)
            snprintf(buf, len, "%d%s", row->device->index,
                     row->failed          ? " fail"
                     : row->other_differs ? "!"
                                          : "");
        else
            snprintf(buf, len, "-");
        break;
    default:
        break;
    }
}

static void cp_report_table_format_cell(const cp_row *row, const cp_report_column *col, char *buf,
                                        size_t len)
{
    if (col->cell == CP_REPORT_CELL_FIELD)
        cp_report_table_format_field(&row->config, col->field, buf, len);
    else if (!cp_report_table_format_predicted(row, col->cell, col->counter, buf, len))
        cp_report_table_format_measured(row, col->cell, col->counter, buf, len);
}

/* The columns of counts and times after the parameters, by cp_family_counts: predicted, then
 * measured. */
static const struct {
    const cp_report_column *predicted, *measured;
    size_t npredicted, nmeasured;
} cp_report_counts_columns[] = {
#define CP_REPORT_PARTS(p, m)                                                                      \
    {                                                                                              \
        p, m, CP_COUNT_OF(p), CP_COUNT_OF(m)                                                       \
    }
    [CP_COUNTS_SIDES] = CP_REPORT_PARTS(cp_report_common_predicted, cp_report_common_measured),
    [CP_COUNTS_ACCESSES] = CP_REPORT_PARTS(cp_report_accesses_predicted, cp_report_common_measured),
    [CP_COUNTS_OPERANDS] =
        CP_REPORT_PARTS(cp_report_operands_predicted, cp_report_operands_measured),
    [CP_COUNTS_SHARED] = CP_REPORT_PARTS(cp_report_shared_predicted, cp_report_shared_measured),
    [CP_COUNTS_SIDES_SHARED] =
        CP_REPORT_PARTS(cp_report_sides_shared_predicted, cp_report_sides_shared_measured),
    [CP_COUNTS_PATH] = CP_REPORT_PARTS(cp_report_path_predicted, cp_report_path_measured),
    [CP_COUNTS_COPIES] = CP_REPORT_PARTS(cp_report_copies_predicted, cp_report_copies_measured),
    /* the family's own counters come first (cp_report_table_init_shape) */
    [CP_COUNTS_FAMILY] = {NULL, cp_report_family_measured, 0,
                          CP_COUNT_OF(cp_report_family_measured)},
#undef CP_REPORT_PARTS
};

/* The columns of `family`, each as wide as its header. */
static void cp_report_table_init_shape(cp_report_shape *lay, cp_family family, int with_gpu)
{
    /* each family: its parameters (text left-aligned), then its predicted and measured columns */
    const cp_family_desc *d = cp_family_get(family);
    size_t nparams = 0;
    for (size_t i = 0; d && i < CP_SHOWN_MAX && d->table[i]; i++) {
        const cp_family_field *f = cp_family_field_of(d, d->table[i]);
        lay->params[nparams++] = (cp_report_column){CP_REPORT_CELL_FIELD,
                                                    "",
                                                    cp_family_field_label(f),
                                                    CP_REPORT_GROUP_PARAMS,
                                                    !cp_family_field_number(f),
                                                    f,
                                                    0};
    }
    cp_family_counts counts = d ? d->table_counts : CP_COUNTS_SIDES;
    /* the family's own counters (CP_COUNTS_FAMILY): each predicted, each a metric measures */
    size_t npred = 0, nmeas = 0;
    for (size_t i = 0; counts == CP_COUNTS_FAMILY && i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX;
         i++) {
        const cp_family_counter *k = &d->counters[i];
        lay->family_pred[npred++] = (cp_report_column){
            CP_REPORT_CELL_PRED_FAMILY, k->label, k->unit, CP_REPORT_GROUP_PREDICTED, 0, NULL, i};
        if (k->metric)
            lay->family_meas[nmeas++] = (cp_report_column){CP_REPORT_CELL_MEAS_FAMILY,
                                                           k->label,
                                                           k->unit,
                                                           CP_REPORT_GROUP_MEASURED,
                                                           0,
                                                           NULL,
                                                           i};
    }
    struct {
        const cp_report_column *cols;
        size_t n;
    } parts[6] = {
        {lay->params, nparams},
        {lay->family_pred, npred},
        {cp_report_counts_columns[counts].predicted, cp_report_counts_columns[counts].npredicted},
        {&cp_report_gpu_column, with_gpu ? 1u : 0u},
        {lay->family_meas, nmeas},
        {cp_report_counts_columns[counts].measured, cp_report_counts_columns[counts].nmeasured},
    };
    /* never past CP_REPORT_TABLE_COLS: a family whose parts add up to more would lose its last
     * columns, which the goldens show, instead of writing past the layout */
    lay->ncols = 0;
    for (size_t p = 0; p < CP_COUNT_OF(parts); p++)
        for (size_t i = 0; i < parts[p].n && lay->ncols < CP_REPORT_TABLE_COLS; i++)
            lay->cols[lay->ncols++] = &parts[p].cols[i];
    for (size_t i = 0; i < lay->ncols; i++) {
        size_t top = strlen(lay->cols[i]->top), bottom = strlen(lay->cols[i]->bottom);
        lay->width[i] = top > bottom ? top : bottom;
        lay->all[i] = lay->cols[i];
    }
    lay->nall = lay->ncols;
}

/* The colour of a cell with colours on: the verdict of the match column; NULL for none. */
static const char *cp_report_table_color(const cp_report_column *col, const char *cell)
{
    if (col->cell != CP_REPORT_CELL_MEAS_MATCH)
        return NULL;
    return strcmp(cell, "yes") == 0 ? CP_TERM_GREEN : strcmp(cell, "NO") == 0 ? CP_TERM_RED : NULL;
}

/* One line of one row's cells (or, with row NULL, of the headers' top or bottom halves). */
static void cp_report_table_write_line(FILE *out, const cp_report_shape *lay, const cp_row *row,
                                       int top, int color)
{
    cp_report_line line = {.len = 0};
    for (size_t i = 0; i < lay->ncols; i++) {
        const cp_report_column *col = lay->cols[i];
        char cell[CP_REPORT_TABLE_CELL];
        if (row)
            cp_report_table_format_cell(row, col, cell, sizeof cell);
        else
            snprintf(cell, sizeof cell, "%s", top ? col->top : col->bottom);
        cp_report_table_append(&line, i ? " " : "", 0, 0);
        cp_report_table_append_colored(&line, cell, lay->width[i], col->left,
                                       row && color ? cp_report_table_color(col, cell) : NULL);
    }
    cp_report_table_emit(out, &line);
}

/* The group of columns that starts at column *i (the columns after it of the same group): the
 * characters it spans, its columns and the spaces between them, and its label (NULL for the
 * parameters); *i moves past it. */
static size_t cp_report_table_group(const cp_report_shape *lay, size_t *i, const char **label)
{
    cp_report_group group = lay->cols[*i]->group;
    size_t span = lay->width[(*i)++];
    while (*i < lay->ncols && lay->cols[*i]->group == group)
        span += 1 + lay->width[(*i)++];
    *label = cp_report_group_labels[group];
    return span;
}

/* The line above the headers: "--- predicted ---" centred over its group's columns. */
static void cp_report_table_write_groups(FILE *out, const cp_report_shape *lay)
{
    cp_report_line line = {.len = 0};
    for (size_t i = 0; i < lay->ncols;) {
        size_t first = i;
        const char *label;
        size_t span = cp_report_table_group(lay, &i, &label);
        size_t len = label ? strlen(label) : 0;
        size_t dashes = label && span >= len + 6 ? span - len - 2 : 0; /* 2 a side at least */
        cp_report_table_append(&line, first ? " " : "", 0, 0);
        if (!dashes) {
            cp_report_table_append(&line, label ? label : "", span, 1);
            continue;
        }
        cp_report_table_repeat(&line, '-', dashes / 2);
        cp_report_table_append(&line, " ", 0, 0);
        cp_report_table_append(&line, label, 0, 0);
        cp_report_table_append(&line, " ", 0, 0);
        cp_report_table_repeat(&line, '-', dashes - dashes / 2);
    }
    cp_report_table_emit(out, &line);
}

/* Each column's width from the cells of rows [0, n), and whether one of them shows a value. */
static void cp_report_table_measure(cp_report_shape *lay, const cp_row *rows, size_t n)
{
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < lay->ncols; i++) {
            char cell[CP_REPORT_TABLE_CELL];
            cp_report_table_format_cell(&rows[r], lay->cols[i], cell, sizeof cell);
            size_t len = strlen(cell);
            if (len > lay->width[i])
                lay->width[i] = len;
            if (strcmp(cell, "-") != 0)
                lay->has_value[i] = 1;
        }
}

/* Removes column i from the layout. */
static void cp_report_table_remove(cp_report_shape *lay, size_t i)
{
    for (size_t k = i; k + 1 < lay->ncols; k++) {
        lay->cols[k] = lay->cols[k + 1];
        lay->width[k] = lay->width[k + 1];
        lay->has_value[k] = lay->has_value[k + 1];
    }
    lay->ncols--;
}

/* The characters a line of the table takes: its columns and the spaces between them, each group
 * at least as wide as its label over it. */
static size_t cp_report_table_width(const cp_report_shape *lay)
{
    size_t total = 0;
    for (size_t i = 0; i < lay->ncols;) {
        const char *label;
        size_t span = cp_report_table_group(lay, &i, &label);
        size_t len = label ? strlen(label) : 0;
        total += (total ? 1 : 0) + (span > len ? span : len);
    }
    return total;
}

/* How much a column tells at a glance, for the width rule: the lowest is left out first (the
 * rightmost of equals), the parameters never. */
static int cp_report_table_priority(cp_report_cell cell)
{
    switch (cell) {
    case CP_REPORT_CELL_FIELD:
    case CP_REPORT_CELL_MEAS_GPU: /* a row's numbers belong to its GPU */
        return 100;
    case CP_REPORT_CELL_MEAS_REGS:
    case CP_REPORT_CELL_MEAS_OCCUPANCY:
        return 1;
    case CP_REPORT_CELL_MEAS_DRAM_GBS:
    case CP_REPORT_CELL_MEAS_L1_HIT:
    case CP_REPORT_CELL_MEAS_SM_ACTIVE:
        return 2;
    case CP_REPORT_CELL_PRED_STORE_EFF:
    case CP_REPORT_CELL_MEAS_L2_HIT:
    case CP_REPORT_CELL_MEAS_OPCODE:
        return 3;
    case CP_REPORT_CELL_PRED_LOAD_EFF:
    case CP_REPORT_CELL_MEAS_STORE_SPR:
    case CP_REPORT_CELL_MEAS_PCT_CUBLAS:
    case CP_REPORT_CELL_PRED_REGIME:
        return 4;
    case CP_REPORT_CELL_MEAS_GBS:
    case CP_REPORT_CELL_MEAS_GFLOPS:
        return 6;
    case CP_REPORT_CELL_MEAS_TIME:
    case CP_REPORT_CELL_MEAS_TIME_MS:
    case CP_REPORT_CELL_MEAS_MATCH: /* the verdict: the prediction holds */
        return 7;
    default: /* the predicted and measured counts per request: the lesson itself */
        return 8;
    }
}

/* The view's rules: without --wide, the columns empty in every row go, then the least telling
 * ones until the table fits view->width (those are recorded in lay->dropped). */
static void cp_report_table_fit(cp_report_shape *lay, const cp_report_view *view)
{
    if (!view || view->wide)
        return;
    for (size_t i = lay->ncols; i-- > 0;)
        if (lay->cols[i]->cell != CP_REPORT_CELL_FIELD && !lay->has_value[i])
            cp_report_table_remove(lay, i);
    while (view->width && cp_report_table_width(lay) > view->width) {
        size_t worst = lay->ncols;
        int lowest = cp_report_table_priority(CP_REPORT_CELL_FIELD);
        for (size_t i = 0; i < lay->ncols; i++) {
            int p = cp_report_table_priority(lay->cols[i]->cell);
            if (p <= lowest && p < cp_report_table_priority(CP_REPORT_CELL_FIELD))
                worst = i, lowest = p;
        }
        if (worst == lay->ncols)
            return; /* the parameters alone: kept, however wide */
        lay->dropped[lay->ndropped++] = lay->cols[worst];
        cp_report_table_remove(lay, worst);
    }
}

/* Widens the first column of a group narrower than its label, so that the label fits over it. */
static void cp_report_table_widen_groups(cp_report_shape *lay)
{
    for (size_t i = 0; i < lay->ncols;) {
        size_t first = i;
        const char *label;
        size_t span = cp_report_table_group(lay, &i, &label);
        if (label && strlen(label) > span)
            lay->width[first] += strlen(label) - span;
    }
}

/* "(left out to fit 100 columns: predicted st eff; measured DRAM GB/s, regs; --wide shows
 * them)", wrapped at the width. */
static void cp_report_table_write_dropped(FILE *out, const cp_report_shape *lay,
                                          const cp_report_view *view)
{
    cp_strbuf b = {0};
    cp_strbuf_printf(&b, "(left out to fit %zu columns:", view->width);
    for (int g = CP_REPORT_GROUP_PREDICTED; g <= CP_REPORT_GROUP_MEASURED; g++) {
        const char *sep = " ";
        for (size_t i = 0; i < lay->nall; i++) { /* in the table's order */
            const cp_report_column *c = lay->all[i];
            int dropped = 0;
            for (size_t k = 0; k < lay->ndropped; k++)
                dropped |= lay->dropped[k] == c;
            if ((int)c->group != g || !dropped)
                continue;
            if (*sep == ' ' && b.len && b.data[b.len - 1] != ':')
                cp_strbuf_str(&b, ";");
            cp_strbuf_printf(&b, "%s%s%s%s%s", sep, *sep == ' ' ? cp_report_group_labels[g] : "",
                             *sep == ' ' ? " " : "", c->top, *c->top ? " " : "");
            cp_strbuf_str(&b, c->bottom);
            sep = ", ";
        }
    }
    cp_strbuf_str(&b, "; --wide shows them)");
    if (b.failed) {
        cp_strbuf_free(&b);
        return;
    }
    if (view->color)
        fputs(CP_TERM_DIM, out);
    cp_text_wrap(out, b.data, view->width, "  ");
    if (view->color)
        fputs(CP_TERM_RESET, out);
    cp_strbuf_free(&b);
}

/* Rows [0, n) of one family: widths from their content, the columns the view keeps, the
 * headers, the rows, and which columns were left out. */
static void cp_report_table_write_run(FILE *out, const cp_row *rows, size_t n,
                                      const cp_report_view *view)
{
    cp_report_shape lay;
    memset(&lay, 0, sizeof lay);
    int with_gpu = 0;
    for (size_t r = 0; r < n && !with_gpu; r++)
        with_gpu = rows[r].device != NULL;
    cp_report_table_init_shape(&lay, rows[0].config.family, with_gpu);
    cp_report_table_measure(&lay, rows, n);
    cp_report_table_fit(&lay, view);
    cp_report_table_widen_groups(&lay);
    int color = view && view->color;
    cp_report_table_write_groups(out, &lay);
    cp_report_table_write_line(out, &lay, NULL, 1, color);
    cp_report_table_write_line(out, &lay, NULL, 0, color);
    for (size_t r = 0; r < n; r++)
        cp_report_table_write_line(out, &lay, &rows[r], 0, color);
    if (lay.ndropped)
        cp_report_table_write_dropped(out, &lay, view);
}

/* Under the table, when some row is noisy (its time marked ~): how many, and what that means. */
static void cp_report_table_write_noisy(FILE *out, const cp_report *r)
{
    size_t noisy = 0;
    for (size_t i = 0; i < r->nrows; i++)
        noisy += r->rows[i].measured && r->rows[i].measured->noisy;
    if (!noisy)
        return;
    int color = r->view && r->view->color;
    fprintf(out,
            "%s(~: %zu noisy row%s: %s timed launches stayed noisier than --max-noise until "
            "--max-time stopped them;\n the JSON and CSV give every row's launches and noise)%s\n",
            color ? CP_TERM_YELLOW : "", noisy, noisy == 1 ? "" : "s", noisy == 1 ? "its" : "their",
            color ? CP_TERM_RESET : "");
}

int cp_report_write_table(FILE *out, const cp_report *r, cp_status *st)
{
    CP_TRY(cp_report_check_report(r, st));
    for (size_t i = 0; i < r->nrows;) {
        size_t n = 1;
        while (i + n < r->nrows && r->rows[i + n].config.family == r->rows[i].config.family)
            n++;
        if (i)
            fputc('\n', out);
        cp_report_table_write_run(out, &r->rows[i], n, r->view);
        i += n;
    }
    if (r->ndevices > 0)
        fprintf(out,
                "(gpu: the GPU that measured the row; 'fail': that GPU failed first, the JSON "
                "report says why;\n '!': its time differs from the other GPUs' beyond their "
                "noise (--check)%s)\n",
                r->mixed_devices ? "; GPUs of different kinds: each row's numbers are its GPU's"
                                 : "");
    cp_report_table_write_noisy(out, r);
    if (r->incomplete) {
        int color = r->view && r->view->color;
        fprintf(out, "%s(incomplete: the sweep was interrupted)%s\n", color ? CP_TERM_YELLOW : "",
                color ? CP_TERM_RESET : "");
    }
    return cp_report_check_stream(out, st);
}
