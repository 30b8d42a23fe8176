/* test_table_width.c: the table of every family fits 100 columns by default, with measured values
 * as wide as they come (every counter read, times of five digits, the longest SASS opcode) and
 * model only, and a terminal of 72 columns; it keeps the family's parameter columns; it names
 * what it left out under it; --wide shows every column; a model-only table shows no measured
 * column. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "app/cp_cli.h"
#include "app/cp_plan.h"
#include "cp_test.h"
#include "report/cp_report.h"

#define MAX_ROWS 48

/* The command line of each family's sweep: its defaults, sized to predict quickly. */
static const char *const *family_args(cp_family f, int *n)
{
    static const char *const args[CP_FAMILY_COUNT][8] = {
        [CP_FAMILY_STRIDE] = {"--stride", "1..32", "--width", "4,32", "--op", "all"},
        [CP_FAMILY_GATHER] = {"--size", "1M"},
        [CP_FAMILY_EXPR] = {"--index", "(i * s) % n", "--param", "s=1..4", "--size", "1M"},
        [CP_FAMILY_READONLY] = {"--size", "1M", "--index", "all"},
        [CP_FAMILY_ASYNC] = {"--size", "1M"},
    };
    for (*n = 0; *n < 8 && args[f][*n];)
        (*n)++;
    return args[f];
}

/* Every value a row's measured columns show, as wide as it comes. */
static void measure_wide(cp_measurement *m)
{
    cp_measurement_clear(m);
    m->timed = 1;
    m->reps = 20;
    m->time_median_s = m->time_min_s = m->time_max_s = 0.0123456; /* 12345.6 us, 12.35 ms */
    m->useful_bytes_per_s = m->dram_bytes_per_s = 3.35e12;        /* 3350.0 GB/s */
    m->flop_per_s = 5.2e13;                                       /* 52000 GFLOP/s */
    m->pct_of_cublas = 100;
    m->counters_status = CP_COUNTERS_OK;
    cp_counter_values *v = &m->counters;
    v->load_requests = v->store_requests = v->tma_load_requests = 1e6;
    v->load_sectors = v->store_sectors = v->tma_load_sectors = 32e6;
    v->shared_load_requests = v->shared_store_requests = 1e6;
    v->shared_load_wavefronts = v->shared_store_wavefronts = 32e6;
    v->shared_load_conflicts = v->shared_store_conflicts = 31e6;
    v->l1_load_hit_rate = v->l2_read_hit_rate = v->sm_active = v->achieved_occupancy = 1;
    for (size_t i = 0; i < CP_FAMILY_COUNTERS_MAX; i++) /* a family's own counters */
        v->family[i] = 32e6;
    m->counts_match = 0; /* "NO" */
    m->resources.known = 1;
    m->resources.registers_per_thread = 255;
    m->resources.theoretical_occupancy = 1;
    snprintf(m->load_opcode, sizeof m->load_opcode, "LDG.E.CONSTANT");
}

/* The table of r with view (NULL: every column) into a string the caller frees. */
static char *render(const cp_report *r, const cp_report_view *view)
{
    cp_report copy = *r;
    copy.view = view;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cp_status st;
    cp_status_clear(&st);
    CHECK(f && cp_report_write_table(f, &copy, &st) == CP_EXIT_OK);
    if (f)
        fclose(f);
    return text;
}

/* The longest line of text. */
static size_t widest(const char *text)
{
    size_t most = 0;
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, "\n");
        most = len > most ? len : most;
        p += len + (p[len] == '\n');
    }
    return most;
}

/* The configurations of family f's sweep, at most MAX_ROWS, predicted into rows. */
static size_t build_rows(cp_family f, cp_row *rows, cp_options *o)
{
    const char *argv[16] = {"coalprobe", cp_config_family_name(f)};
    int n, argc = 2;
    const char *const *extra = family_args(f, &n);
    for (int i = 0; i < n; i++)
        argv[argc++] = extra[i];
    argv[argc++] = "--model";
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_cli_parse(argc, (char **)argv, o, &st) == CP_EXIT_OK);
    cp_config *configs = NULL;
    size_t count = 0;
    cp_plan_absent absent;
    CHECK(cp_plan_build(o, &configs, &count, &absent, &st) == CP_EXIT_OK);
    size_t k = 0;
    for (size_t i = 0; i < count && k < MAX_ROWS; i++) {
        rows[k].config = configs[i];
        rows[k].measured = NULL;
        if (cp_model_predict(&configs[i], &rows[k].predicted, &st) == CP_EXIT_OK)
            k++;
    }
    free(configs);
    return k;
}

static void test_family(cp_family f)
{
    static cp_row rows[MAX_ROWS];
    static cp_measurement meas[MAX_ROWS];
    cp_options o;
    size_t n = build_rows(f, rows, &o);
    CHECK(n > 0);
    cp_report r = {.tool_version = "test", .command = "test", .rows = rows, .nrows = n};
    const cp_report_view fit = {.width = 100};
    /* model only: the predictions alone, within 100 columns */
    char *model = render(&r, &fit);
    CHECK(widest(model) <= 100);
    CHECK_STR_CONTAINS(model, "predicted");
    CHECK(!strstr(model, "measured"));
    /* measured, every counter: within 100 columns, the parameters and predictions kept */
    for (size_t i = 0; i < n; i++) {
        measure_wide(&meas[i]);
        rows[i].measured = &meas[i];
    }
    const cp_report_view narrow = {.width = 72}; /* a terminal of 72 columns */
    char *small = render(&r, &narrow);
    CHECK(widest(small) <= 72);
    free(small);
    char *fitted = render(&r, &fit), *wide = render(&r, NULL);
    size_t w = widest(fitted);
    if (w > 100)
        fprintf(stderr, "%s: the table is %zu columns wide:\n%s", cp_config_family_name(f), w,
                fitted);
    CHECK(w <= 100);
    CHECK_STR_CONTAINS(fitted, "measured");
    const cp_family_desc *d = cp_family_get(f);
    for (size_t i = 0; i < CP_SHOWN_MAX && d->table[i]; i++) /* every parameter's column */
        CHECK_STR_CONTAINS(fitted, cp_family_field_label(cp_family_field_of(d, d->table[i])));
    /* what did not fit is named under the table, and --wide shows it */
    if (widest(wide) > 100)
        CHECK_STR_CONTAINS(fitted, "--wide shows them)");
    else
        CHECK(strcmp(fitted, wide) == 0);
    CHECK(widest(wide) >= w);
    free(model);
    free(fitted);
    free(wide);
    cp_cli_free(&o);
}

int main(void)
{
    for (int f = 0; f < CP_FAMILY_COUNT; f++)
        test_family((cp_family)f);
    return cp_test_finish();
}
