/* cp_report_csv.c: the tidy CSV report, a header line and one line per configuration, written
 * line by line. */
#include "cp_report.h"
#include "cp_report_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cp_model.h"

/* The columns after the configuration's. */
static const char *const cp_report_csv_columns[] = {
    "pred_load_requests",
    "pred_load_sectors",
    "pred_load_sectors_per_request",
    "pred_load_efficiency",
    "pred_load_bytes_requested",
    "pred_store_requests",
    "pred_store_sectors",
    "pred_store_sectors_per_request",
    "pred_store_efficiency",
    "pred_store_bytes_requested",
    "pred_shared_load_requests",
    "pred_shared_load_wavefronts",
    "pred_shared_load_bank_conflicts",
    "pred_shared_store_requests",
    "pred_shared_store_wavefronts",
    "pred_shared_store_bank_conflicts",
    "meas_time_median_s",
    "meas_time_min_s",
    "meas_time_max_s",
    "meas_useful_bytes_per_s",
    "meas_dram_bytes_per_s",
    "meas_load_requests",
    "meas_load_sectors",
    "meas_store_requests",
    "meas_store_sectors",
    "meas_l2_read_sectors",
    "meas_l2_write_sectors",
    "meas_dram_read_bytes",
    "meas_dram_write_bytes",
    "meas_shared_load_requests",
    "meas_shared_load_wavefronts",
    "meas_shared_load_bank_conflicts",
    "meas_shared_store_requests",
    "meas_shared_store_wavefronts",
    "meas_shared_store_bank_conflicts",
    "meas_load_efficiency",
    "meas_store_efficiency",
    "meas_flop_per_s",
    "meas_pct_of_cublas",
    "meas_rel_error_vs_cublas",
    "match",
    "source",
    /* added after the first release, so appended: the kernel's resources and occupancy */
    "meas_registers_per_thread",
    "meas_static_shared_bytes",
    "meas_dynamic_shared_bytes",
    "meas_threads_per_block",
    "meas_blocks_per_sm",
    "meas_theoretical_occupancy",
    "meas_achieved_occupancy",
    "meas_occupancy_limited_by",
};

/* Appended after the first release: the TMA copies and the memory path's counters (the sweeps
 * that read them; empty for the others), and the estimate of where a working set is served from
 * (empty where there is none). */
static const char *const cp_report_csv_appended_columns[] = {
    "pred_tma_load_requests",
    "pred_tma_load_sectors",
    "meas_l1_load_hit_rate",
    "meas_l2_read_hit_rate",
    "meas_sm_active",
    "meas_constant_load_requests",
    "meas_ldgsts_requests",
    "meas_tma_load_requests",
    "meas_tma_load_sectors",
    "meas_load_opcode",
    "pred_shared_exact",
    "pred_regime_estimate",
    "pred_working_set_bytes",
    /* appended with the stopping rule: the timed launches a row took, their noise, and whether it
     * stopped at --max-time above --max-noise */
    "meas_reps",
    "meas_noise",
    "meas_noisy",
};

/* The columns of a run over several GPUs (--devices), after all others: the GPU that measured
 * the row, why it failed, and the same configuration's median time on the other GPUs (--check). */
static const char *const cp_report_csv_device_columns[] = {
    "device_index",         "device_uuid", "device_failed", "other_devices_time_median_s",
    "other_devices_differ",
};

/* v when `present`, an empty cell otherwise. */
static void cp_report_csv_cell_u64(cp_text_csv_line *l, int present, uint64_t v)
{
    char buf[32] = "";
    if (present)
        snprintf(buf, sizeof buf, "%" PRIu64, v);
    cp_text_csv_cell(l, buf);
}

/* A double: empty when NAN or infinite, an integer when integral, otherwise the shortest of
 * 15, 16 or 17 significant digits that reads back as the same double. */
static void cp_report_csv_cell_double(cp_text_csv_line *l, double v)
{
    char buf[64] = "";
    if (!isfinite(v)) {
        /* empty */
    } else if (v == floor(v) && fabs(v) < 1e18) {
        snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);
    } else {
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buf, sizeof buf, "%.*g", digits, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
    cp_text_csv_cell(l, buf);
}

/* A ratio with 6 significant digits; empty when NAN. */
static void cp_report_csv_cell_ratio(cp_text_csv_line *l, double v)
{
    char buf[32] = "";
    if (isfinite(v))
        snprintf(buf, sizeof buf, "%.6g", v);
    cp_text_csv_cell(l, buf);
}

/* pred_<side>_requests, _sectors, _sectors_per_request, _efficiency, _bytes_requested. */
/* The predicted cells of one side; empty for a kernel that is not modelled (cuBLAS). */
static void cp_report_csv_write_counts(cp_text_csv_line *l, const cp_counts *c, int modelled)
{
    cp_report_csv_cell_u64(l, modelled, c->requests);
    cp_report_csv_cell_u64(l, modelled, c->sectors);
    cp_report_csv_cell_ratio(l, modelled ? cp_counts_sectors_per_request(c) : NAN);
    cp_report_csv_cell_ratio(l, modelled ? cp_counts_efficiency(c) : NAN);
    cp_report_csv_cell_u64(l, modelled, c->bytes_requested);
}

/* The CSV column of field f: its column, or its key. */
static const char *cp_report_csv_column(const cp_family_field *f)
{
    return f->column ? f->column : f->key;
}

/* The field of d shown in CSV column `column`, NULL when d has none. */
static const cp_family_field *cp_report_csv_field(const cp_family_desc *d, const char *column)
{
    for (size_t i = 0; d && i < d->nfields; i++)
        if (strcmp(cp_report_csv_column(&d->fields[i]), column) == 0)
            return &d->fields[i];
    return NULL;
}

/* The cell of field f of c; empty without a field. */
static void cp_report_csv_write_field(cp_text_csv_line *l, const cp_config *c,
                                      const cp_family_field *f)
{
    char params[CP_EXPR_MAX_PARAMS * 64] = "";
    if (!f || cp_family_field_number(f)) {
        cp_report_csv_cell_u64(l, f != NULL, f ? f->get(c) : 0);
    } else if (f->kind == CP_FIELD_NAME) {
        cp_text_csv_cell(l, cp_family_field_name(f, c));
    } else if (f->kind == CP_FIELD_INDEX) {
        cp_text_csv_cell(l, c->expr ? cp_expr_text(c->expr) : "");
    } else {
        cp_config_format_params(c, ";", params, sizeof params);
        cp_text_csv_cell(l, params);
    }
}

/* The columns appended after the first release: the TMA copies predicted, the memory path's
 * counters, the load's SASS opcode, the working set's estimate and the stopping rule's. */
static void cp_report_csv_write_appended(cp_text_csv_line *l, const cp_row *row,
                                         const cp_measurement *m)
{
    const cp_prediction *p = &row->predicted;
    const cp_counter_values *v = &m->counters;
    cp_report_csv_cell_u64(l, p->modelled, p->tma_load.requests);
    cp_report_csv_cell_u64(l, p->modelled, p->tma_load.sectors);
    cp_report_csv_cell_ratio(l, v->l1_load_hit_rate);
    cp_report_csv_cell_ratio(l, v->l2_read_hit_rate);
    cp_report_csv_cell_ratio(l, v->sm_active);
    const double path[] = {v->constant_requests, v->ldgsts_requests, v->tma_load_requests,
                           v->tma_load_sectors};
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++)
        cp_report_csv_cell_double(l, path[i]);
    cp_text_csv_cell(l, m->load_opcode);
    cp_text_csv_cell(l, p->modelled && p->shared_modelled && p->shared_exact ? "true" : "false");
    const char *regime = cp_regime_name(p->regime);
    cp_text_csv_cell(l, regime ? regime : "");
    cp_report_csv_cell_u64(l, p->working_set_bytes != 0, p->working_set_bytes);
    cp_report_csv_cell_u64(l, m->timed, m->reps);
    cp_report_csv_cell_ratio(l, m->noise);
    cp_text_csv_cell(l, !m->timed ? "" : m->noisy ? "true" : "false");
}

/* The header family's own counters (cp_family_desc.counters), after the appended columns:
 * pred_KEY of each, meas_KEY of each a metric measures; written only for a family that declares
 * some (header NULL: the header line's names). A row of another family has empty cells. */
static void cp_report_csv_write_family(cp_text_csv_line *l, const cp_family_desc *h,
                                       const cp_row *row, const cp_measurement *m)
{
    char name[96];
    int same = row && cp_family_get(row->config.family) == h;
    for (size_t i = 0; h && i < h->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        const cp_family_counter *k = &h->counters[i];
        if (!row) {
            snprintf(name, sizeof name, "pred_%s", k->key);
            cp_text_csv_cell(l, name);
        } else {
            int known = same && row->predicted.modelled && i < row->predicted.nfamily;
            cp_report_csv_cell_double(l, known ? row->predicted.family[i] : NAN);
        }
    }
    for (size_t i = 0; h && i < h->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++) {
        const cp_family_counter *k = &h->counters[i];
        if (!k->metric)
            continue;
        if (!row) {
            snprintf(name, sizeof name, "meas_%s", k->key);
            cp_text_csv_cell(l, name);
        } else {
            cp_report_csv_cell_double(l, same ? m->counters.family[i] : NAN);
        }
    }
}

/* The columns of a run over several GPUs (cp_report_csv_device_columns). */
static void cp_report_csv_write_device(cp_text_csv_line *l, const cp_row *row)
{
    const cp_device_info *d = row->device;
    cp_report_csv_cell_u64(l, d != NULL, d ? (uint64_t)d->index : 0);
    cp_text_csv_cell(l, d ? d->uuid : "");
    cp_text_csv_cell(l, row->failed ? row->failed : "");
    cp_report_csv_cell_double(l, row->other_checked ? row->other_median_s : NAN);
    cp_text_csv_cell(l, !row->other_checked ? "" : row->other_differs ? "true" : "false");
}

static void cp_report_csv_write_row(cp_text_csv_line *l, const cp_report_stream *s,
                                    const cp_row *row)
{
    const cp_config *c = &row->config;
    cp_text_csv_cell(l, cp_config_family_name(c->family));
    /* the configuration's columns, the header's family's fields: the row's value (a row of
     * another family, which a saved report may hold, has the cells of the columns it shares) */
    const cp_family_desc *d = cp_family_get(c->family), *h = s->csv_family;
    for (size_t i = 0; h && i < h->nfields; i++)
        cp_report_csv_write_field(
            l, c,
            d == h ? &h->fields[i] : cp_report_csv_field(d, cp_report_csv_column(&h->fields[i])));

    const cp_prediction *p = &row->predicted;
    cp_report_csv_write_counts(l, &p->load, p->modelled);
    cp_report_csv_write_counts(l, &p->store, p->modelled);
    const cp_counts *shared[] = {&p->shared_load, &p->shared_store};
    for (int side = 0; side < 2; side++) {
        int known = p->modelled && p->shared_modelled;
        cp_report_csv_cell_u64(l, known, shared[side]->requests);
        cp_report_csv_cell_u64(l, known, shared[side]->wavefronts);
        cp_report_csv_cell_u64(l, known, shared[side]->bank_conflicts);
    }

    cp_measurement scratch;
    const cp_measurement *m = cp_report_get_measurement(row, &scratch);
    const cp_counter_values *v = &m->counters;
    const double measured[] = {
        m->time_median_s,
        m->time_min_s,
        m->time_max_s,
        m->useful_bytes_per_s,
        m->dram_bytes_per_s,
        v->load_requests,
        v->load_sectors,
        v->store_requests,
        v->store_sectors,
        v->l2_read_sectors,
        v->l2_write_sectors,
        v->dram_read_bytes,
        v->dram_write_bytes,
        v->shared_load_requests,
        v->shared_load_wavefronts,
        v->shared_load_conflicts,
        v->shared_store_requests,
        v->shared_store_wavefronts,
        v->shared_store_conflicts,
    };
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
        cp_report_csv_cell_double(l, measured[i]);
    /* ratios as the predicted ones are printed, so that equal counts print equal ratios */
    cp_report_csv_cell_ratio(
        l, cp_report_compute_efficiency(v->load_bytes_requested, v->load_sectors));
    cp_report_csv_cell_ratio(
        l, cp_report_compute_efficiency(v->store_bytes_requested, v->store_sectors));
    cp_report_csv_cell_double(l, m->flop_per_s);
    cp_report_csv_cell_double(l, m->pct_of_cublas);
    cp_report_csv_cell_double(l, m->rel_error);
    cp_text_csv_cell(l, m->counts_match == 1 ? "true" : m->counts_match == 0 ? "false" : "");
    cp_text_csv_cell(l, cp_report_get_source(row));
    const cp_resources *res = &m->resources;
    cp_report_csv_cell_u64(l, res->known, res->registers_per_thread);
    cp_report_csv_cell_u64(l, res->known, res->static_shared_bytes);
    cp_report_csv_cell_u64(l, res->known, res->dynamic_shared_bytes);
    cp_report_csv_cell_u64(l, res->known, res->threads_per_block);
    cp_report_csv_cell_u64(l, res->known, res->blocks_per_sm);
    cp_report_csv_cell_ratio(l, res->known ? res->theoretical_occupancy : NAN);
    cp_report_csv_cell_ratio(l, v->achieved_occupancy);
    char limits[96] = "";
    cp_occupancy occ;
    if (cp_report_compute_occupancy(res, &occ)) /* "threads;registers" */
        cp_occupancy_describe_limiters(occ.limiters, ";", limits, sizeof limits);
    cp_text_csv_cell(l, limits);
    cp_report_csv_write_appended(l, row, m);
    cp_report_csv_write_family(l, s->csv_family, row, m);
    if (s->devices)
        cp_report_csv_write_device(l, row);
    cp_text_csv_end_line(l);
}

/* The line of column names: "pattern", the fields of family d (none for NULL: a report without
 * rows), the counts and measurements, the appended columns, the GPUs' of a run over several. */
static void cp_report_csv_write_header(cp_report_stream *s, const cp_family_desc *d)
{
    s->csv_family = d;
    s->csv_header = 1;
    cp_text_csv_line line = {.out = s->out, .ncells = 0};
    cp_text_csv_cell(&line, "pattern");
    for (size_t i = 0; d && i < d->nfields; i++)
        cp_text_csv_cell(&line, cp_report_csv_column(&d->fields[i]));
    for (size_t i = 0; i < CP_COUNT_OF(cp_report_csv_columns); i++)
        cp_text_csv_cell(&line, cp_report_csv_columns[i]);
    for (size_t i = 0; i < CP_COUNT_OF(cp_report_csv_appended_columns); i++)
        cp_text_csv_cell(&line, cp_report_csv_appended_columns[i]);
    cp_report_csv_write_family(&line, d, NULL, NULL);
    for (size_t i = 0; s->devices && i < CP_COUNT_OF(cp_report_csv_device_columns); i++)
        cp_text_csv_cell(&line, cp_report_csv_device_columns[i]);
    cp_text_csv_end_line(&line);
}

int cp_report_csv_begin(cp_report_stream *s, cp_status *st)
{
    (void)st; /* the header waits for the first row, whose family gives the columns */
    s->csv_header = 0;
    return CP_EXIT_OK;
}

int cp_report_csv_row(cp_report_stream *s, const cp_row *row, cp_status *st)
{
    (void)st;
    if (!s->csv_header)
        cp_report_csv_write_header(s, cp_family_get(row->config.family));
    cp_text_csv_line line = {.out = s->out, .ncells = 0};
    cp_report_csv_write_row(&line, s, row);
    return CP_EXIT_OK;
}

int cp_report_csv_end(cp_report_stream *s, cp_status *st)
{
    (void)st;
    if (!s->csv_header)
        cp_report_csv_write_header(s, NULL);
    return CP_EXIT_OK;
}

int cp_report_write_csv(FILE *out, const cp_report *r, cp_status *st)
{
    return cp_report_stream_all(out, CP_FORMAT_CSV, r, st);
}
