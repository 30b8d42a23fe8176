/* test_report.c: the report writers (table, JSON, CSV, JSON error) against golden files, the
 * JSON read back with cJSON, and the row-by-row stream against the whole report. CP_UPDATE_GOLDEN=1
 * rewrites the golden files. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "report/cp_report.h"
#include "cp_test_model.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_ROWS 8

/* A report and the storage it points to. */
typedef struct fixture {
    cp_device_info device;
    cp_row rows[MAX_ROWS];
    cp_measurement meas[MAX_ROWS];
    cp_sampling sampling;
    cp_report report;
} fixture;

/* ---- building fixtures by hand ---------------------------------------------------------- */

static cp_counts counts(uint64_t requests, uint64_t sectors, uint64_t lines, uint64_t bytes,
                        uint64_t ideal, uint64_t footprint)
{
    cp_counts c = {requests, sectors, lines, bytes, ideal, footprint, 0, 0, 0};
    return c;
}

static void counts_add(cp_counts *acc, const cp_counts *c)
{
    acc->requests += c->requests;
    acc->sectors += c->sectors;
    acc->lines += c->lines;
    acc->bytes_requested += c->bytes_requested;
    acc->ideal_sectors += c->ideal_sectors;
    acc->footprint_sectors += c->footprint_sectors;
}

/* Appends an access to row's prediction and adds its counts to the load or store sums. */
static void add_access(cp_row *row, const char *name, cp_op op, uint32_t lane_bytes,
                       uint32_t instructions, uint64_t iterations, uint64_t buffer_bytes,
                       int strided, cp_counts c)
{
    cp_prediction *p = &row->predicted;
    cp_access_prediction *a = &p->accesses[p->naccesses++];
    a->name = name, a->op = op, a->strided = strided;
    a->lane_bytes = lane_bytes, a->instructions = instructions, a->iterations = iterations;
    a->buffer_bytes = buffer_bytes, a->counts = c;
    counts_add(op == CP_OP_LOAD ? &p->load : &p->store, &c);
}

static cp_row *new_row(fixture *f, uint64_t threads)
{
    cp_row *row = &f->rows[f->report.nrows++];
    memset(row, 0, sizeof *row);
    row->predicted.modelled = 1;
    row->predicted.threads = threads;
    row->predicted.warps = (threads + 31) / 32;
    return row;
}

/* A row of the stride family; its config as the model tests build it. */
static cp_row *stride_row(fixture *f, uint64_t stride, uint64_t offset, uint32_t width, cp_op op,
                          uint64_t elements)
{
    cp_row *row = new_row(f, elements);
    row->config = stride_cfg(stride, offset, width, op, elements);
    return row;
}

static cp_row *layout_row(fixture *f, cp_layout layout, uint32_t fields, uint32_t field,
                          uint64_t elements)
{
    cp_row *row = new_row(f, elements);
    row->config = layout_cfg(layout, fields, field, elements);
    return row;
}

static cp_row *gemm_row(fixture *f, cp_gemm_variant variant, uint64_t dim)
{
    cp_row *row = new_row(f, dim * dim);
    row->config = gemm_cfg(variant, dim, dim, dim);
    return row;
}

/* The two accesses of a stride or layout row, "in" (load) and "out" (store), each lanes of
 * lane_bytes in instructions per element; the one the row's op names is the strided one. */
static void add_in_out(cp_row *r, uint32_t lane_bytes, uint32_t instructions, uint64_t in_buffer,
                       cp_counts in, uint64_t out_buffer, cp_counts out)
{
    int load = cp_config_op(&r->config) == CP_OP_LOAD;
    add_access(r, "in", CP_OP_LOAD, lane_bytes, instructions, 1, in_buffer, load, in);
    add_access(r, "out", CP_OP_STORE, lane_bytes, instructions, 1, out_buffer, !load, out);
}

/* The three accesses of a GEMM row of k steps over matrices of mat bytes. */
static void add_gemm_accesses(cp_row *r, uint64_t k, uint64_t mat, cp_counts a, cp_counts b,
                              cp_counts c)
{
    add_access(r, "A", CP_OP_LOAD, 4, 1, k, mat, 1, a);
    add_access(r, "B", CP_OP_LOAD, 4, 1, k, mat, 1, b);
    add_access(r, "C", CP_OP_STORE, 4, 1, 1, mat, 1, c);
}

/* A timed, verified measurement of row (the storage of the row's index). */
static cp_measurement *measure(fixture *f, cp_row *row, uint32_t reps, double median, double min,
                               double max)
{
    cp_measurement *m = &f->meas[row - f->rows];
    cp_measurement_clear(m);
    m->timed = 1;
    m->reps = reps;
    m->time_median_s = median, m->time_min_s = min, m->time_max_s = max;
    m->useful_bytes =
        (double)(row->predicted.load.bytes_requested + row->predicted.store.bytes_requested);
    m->useful_bytes_per_s = m->useful_bytes / median;
    m->pct_of_peak = 100.0 * m->useful_bytes_per_s / f->device.peak_measured_bytes_per_s;
    m->verified = 1;
    row->measured = m;
    return m;
}

/* Counters read successfully; match says whether they equal the model's counts. */
static void set_counters(cp_measurement *m, double ld_req, double ld_sec, double st_req,
                         double st_sec, double l2_read, double l2_write, double dram_read,
                         double dram_write, double dram_pct, int match)
{
    cp_counter_values *v = &m->counters;
    m->counters_status = CP_COUNTERS_OK;
    v->load_requests = ld_req, v->load_sectors = ld_sec;
    v->store_requests = st_req, v->store_sectors = st_sec;
    v->l2_read_sectors = l2_read, v->l2_write_sectors = l2_write;
    v->dram_read_bytes = dram_read, v->dram_write_bytes = dram_write;
    v->dram_throughput_pct = dram_pct;
    /* the fixtures' requests are full warps of 4-byte lanes: 128 bytes each */
    v->load_bytes_requested = 128.0 * ld_req;
    v->store_bytes_requested = 128.0 * st_req;
    m->dram_bytes_per_s = (dram_read + dram_write) / m->time_median_s;
    m->counts_match = match;
}

/* The GEMM fields of a measurement: flop/s from the flops, % of cuBLAS from its time. */
static void gemm_results(cp_measurement *m, double flops, double cublas_s, double rel_error)
{
    m->flop_per_s = flops / m->time_median_s;
    m->pct_of_cublas = 100.0 * cublas_s / m->time_median_s;
    m->rel_error = rel_error;
    if (m->counts_match == -1) { /* not modelled: no useful bytes either */
        m->useful_bytes = m->useful_bytes_per_s = m->pct_of_peak = NAN;
    }
}

/* The H100's SM: 2048 threads, 32 blocks, 65536 registers, 228 KiB of shared memory. */
static cp_sm_limits h100_sm(void)
{
    cp_sm_limits sm = {32, 2048, 32, 65536, 256, 4, 233472, 128, 1024};
    return sm;
}

/* The kernel's resources as the backend reads them; occupancy from the occupancy API's blocks. */
static void set_resources(cp_measurement *m, uint32_t regs, uint64_t static_shared,
                          uint32_t threads, uint32_t blocks, double achieved)
{
    cp_resources *r = &m->resources;
    r->known = 1;
    r->registers_per_thread = regs;
    r->static_shared_bytes = static_shared, r->dynamic_shared_bytes = 0;
    r->threads_per_block = threads, r->blocks_per_sm = blocks;
    r->theoretical_occupancy = blocks * (threads / 32.0) / 64.0;
    r->sm = h100_sm();
    m->counters.achieved_occupancy = achieved;
}

static void init_fixture(fixture *f, const char *command)
{
    memset(f, 0, sizeof *f);
    f->report.tool_version = "0.1.0";
    f->report.command = command;
    f->report.rows = f->rows;
}

static void init_h100(cp_device_info *d)
{
    d->index = 0;
    snprintf(d->name, sizeof d->name, "NVIDIA H100 80GB HBM3");
    d->cc_major = 9, d->cc_minor = 0;
    d->sm_count = 132;
    d->l2_bytes = 52428800;
    d->memory_bytes = 84929347584ull;
    d->driver_version = d->runtime_version = 13000;
    snprintf(d->driver_release, sizeof d->driver_release, "580.95.05");
    d->sm_clock_hz = 1.98e9;
    d->memory_clock_hz = 2.619e9;
    d->memory_bus_bits = 5120;
    d->peak_theoretical_bytes_per_s = 2.0 * d->memory_clock_hz * d->memory_bus_bits / 8.0;
    d->peak_measured_bytes_per_s = 2.9137e12;
    d->kernel_kind = CP_ARCH_RUN_SASS;
    d->kernel_arch = 90;
    d->sm = h100_sm();
}

/* The counters a stride sweep leaves out, and why. */
static const cp_counter_gap stride_gaps[] = {
    {"shared_load", "not read: the sweep's kernels use no shared memory (fewer profiler passes)"},
    {"shared_store", "not read: the sweep's kernels use no shared memory (fewer profiler passes)"}};

/* Model only, no GPU: stride rows (one with 32-byte elements issued as two 16-byte
 * instructions), then layout rows (a second table section). 4 MiB per side. */
static void build_model(fixture *f)
{
    init_fixture(f, "coalprobe stride --stride 1,2 --offset 0,1 --model-only");
    const uint64_t n = 1048576, bytes = 4 * n;
    const cp_counts dense = counts(32768, 131072, 32768, bytes, 131072, 131072);
    cp_row *r = stride_row(f, 1, 0, 4, CP_OP_LOAD, n);
    add_in_out(r, 4, 1, bytes, dense, bytes, dense);

    r = stride_row(f, 2, 0, 4, CP_OP_LOAD, n); /* 8 sectors of 32 bytes for 128 bytes */
    add_in_out(r, 4, 1, 8388604, counts(32768, 262144, 65536, bytes, 131072, 262144), bytes, dense);

    r = stride_row(f, 1, 1, 4, CP_OP_LOAD, n); /* misaligned by 4 bytes: 5 sectors, 2 lines */
    add_in_out(r, 4, 1, bytes + 4, counts(32768, 163840, 65536, bytes, 131072, 131073), bytes,
               dense);

    /* 32-byte elements: two 16-byte instructions per lane, each 32 sectors over 8 lines */
    const cp_counts wide = counts(8192, 262144, 65536, bytes, 131072, 131072);
    r = stride_row(f, 1, 0, 32, CP_OP_STORE, n / 8);
    add_in_out(r, 16, 2, bytes, wide, bytes, wide);

    r = layout_row(f, CP_LAYOUT_AOS, 4, 1, n); /* 16-byte records: 16 sectors, 4 lines */
    add_in_out(r, 4, 1, 4 * bytes, counts(32768, 524288, 131072, bytes, 131072, 524288), bytes,
               dense);

    r = layout_row(f, CP_LAYOUT_SOA, 4, 1, n);
    add_in_out(r, 4, 1, 4 * bytes, dense, bytes, dense);
}

/* Measured on an H100 (256 MiB per side): a match, a mismatch, counters refused, and a last
 * row that the interrupted sweep never measured. */
static void build_measured(fixture *f)
{
    init_fixture(f, "coalprobe stride --stride 1,2,32 --op load,store --format json");
    init_h100(&f->device);
    f->report.device = &f->device;
    f->report.incomplete = 1;
    cp_sampling_defaults(&f->sampling); /* the stopping rule */
    f->report.sampling = &f->sampling;
    const uint64_t n = 67108864, bytes = 4 * n;
    const cp_counts dense = counts(2097152, 8388608, 2097152, bytes, 8388608, 8388608);

    cp_row *r = stride_row(f, 1, 0, 4, CP_OP_LOAD, n);
    add_in_out(r, 4, 1, bytes, dense, bytes, dense);
    cp_measurement *m = measure(f, r, 5, 192.512e-6, 191.488e-6, 195.584e-6);
    m->noise = 0.0031; /* quiet at the minimum count */
    set_counters(m, 2097152, 8388608, 2097152, 8388608, 8388608, 8388608, 268439552, 268443648,
                 91.37, 1);
    m->counter_gaps = stride_gaps;
    m->ncounter_gaps = sizeof stride_gaps / sizeof stride_gaps[0];
    set_resources(m, 16, 0, 256, 8, 0.912);

    r = stride_row(f, 2, 0, 4, CP_OP_LOAD, n);
    add_in_out(r, 4, 1, 2 * bytes - 4, counts(2097152, 16777216, 4194304, bytes, 8388608, 16777216),
               bytes, dense);
    m = measure(f, r, 1580, 287.744e-6, 286.72e-6, 290.816e-6);
    m->noise = 0.0071, m->noisy = 1; /* stopped at --max-time */
    set_counters(m, 2097152, 16777344, 2097152, 8388608, 16777344, 8388608, 536875008, 268443648,
                 94.02, 0);

    r = stride_row(f, 32, 0, 4, CP_OP_STORE, n); /* every lane in its own sector and line */
    add_in_out(r, 4, 1, bytes, dense, (32 * (n - 1) + 1) * 4,
               counts(2097152, 67108864, 67108864, bytes, 8388608, 67108864));
    m = measure(f, r, 7, 1.369088e-3, 1.366016e-3, 1.374208e-3);
    m->noise = 0.0028;
    m->counters_status = CP_COUNTERS_REFUSED;
    snprintf(m->counters_reason, sizeof m->counters_reason,
             "ERR_NVGPUCTRPERM: reading GPU performance counters needs permission");

    r = stride_row(f, 1, 1, 8, CP_OP_LOAD, n / 2); /* 8 bytes off: 9 sectors, 3 lines */
    add_in_out(r, 8, 1, bytes + 8, counts(1048576, 9437184, 3145728, bytes, 8388608, 8388609),
               bytes, counts(1048576, 8388608, 2097152, bytes, 8388608, 8388608));
}

/* GEMM: naive and coalesced 1024^3 measured (no driver release, copy peak not measured), and
 * a 65536^3 naive prediction whose counts pass 2^53 bytes. */
static void build_gemm(fixture *f)
{
    init_fixture(f, "coalprobe gemm --variant all --m 1024 --n 1024 --k 1024");
    init_h100(&f->device);
    f->device.driver_release[0] = '\0';
    f->device.peak_measured_bytes_per_s = NAN;
    f->report.device = &f->device;
    cp_sampling_defaults(&f->sampling); /* --reps 10: no rule, noise still recorded */
    f->sampling.reps = 10;
    f->report.sampling = &f->sampling;
    const uint64_t mat = 1024 * 1024 * 4, req = 32768ull * 1024;

    /* naive: a warp walks down a column: A 32 sectors per request, B one broadcast sector */
    cp_row *r = gemm_row(f, CP_GEMM_NAIVE, 1024);
    /* B: a broadcast's 4 bytes count once */
    add_gemm_accesses(r, 1024, mat, counts(req, 32 * req, 32 * req, 1024 * mat, 4 * req, 131072),
                      counts(req, req, req, 4 * req, req, 131072),
                      counts(32768, 1048576, 1048576, mat, 131072, 131072));
    cp_measurement *m = measure(f, r, 10, 2.31424e-3, 2.30912e-3, 2.33472e-3);
    m->noise = 0.0044;
    set_counters(m, 67108864, 1107296256, 32768, 1048576, 1075838976, 1048576, 12582912, 4194304,
                 2.1, 1);
    m->counters.load_bytes_requested = (double)r->predicted.load.bytes_requested;
    gemm_results(m, 2.0 * 1024 * 1024 * 1024, 0.8e-3, 3e-7);
    set_resources(m, 40, 0, 1024, 1, 0.4871); /* 40 registers: one block per SM */

    /* coalesced: a warp covers 32 columns of a row: A broadcast, B and C 4 sectors */
    r = gemm_row(f, CP_GEMM_COALESCED, 1024);
    /* A: a broadcast's 4 bytes count once */
    add_gemm_accesses(r, 1024, mat, counts(req, req, req, 4 * req, req, 131072),
                      counts(req, 4 * req, req, 1024 * mat, 4 * req, 131072),
                      counts(32768, 131072, 32768, mat, 131072, 131072));
    m = measure(f, r, 10, 0.90112e-3, 0.897024e-3, 0.91136e-3);
    set_counters(m, 67108864, 167772160, 32768, 131072, 41943040, 131072, 8650752, 4194304, 5.4, 1);
    m->counters.load_bytes_requested = (double)r->predicted.load.bytes_requested;
    gemm_results(m, 2.0 * 1024 * 1024 * 1024, 0.8e-3, 2e-7);
    set_resources(m, 32, 0, 1024, 2, 0.9632);

    /* cuBLAS: measured, not modelled (its accesses are listed for the buffers only) */
    r = gemm_row(f, CP_GEMM_CUBLAS, 1024);
    r->predicted.modelled = 0;
    m = measure(f, r, 10, 0.8e-3, 0.79e-3, 0.81e-3);
    set_counters(m, 33554432, 100663296, 32768, 131072, 52428800, 131072, 8388608, 4194304, 6.0,
                 -1);
    gemm_results(m, 2.0 * 1024 * 1024 * 1024, 0.8e-3, 0.0);
    snprintf(m->resources.reason, sizeof m->resources.reason,
             "not coalprobe's kernel: cuBLAS chooses its own kernels");
    m->counters.achieved_occupancy = 0.25;

    const uint64_t big = 65536ull * 65536 * 4, breq = 1ull << 43;
    r = gemm_row(f, CP_GEMM_NAIVE, 65536);
    add_gemm_accesses(r, 65536, big,
                      counts(breq, 32 * breq, 32 * breq, 1ull << 50, 4 * breq, 1ull << 29),
                      counts(breq, breq, breq, 4 * breq, breq, 1ull << 29),
                      counts(1ull << 27, 1ull << 32, 1ull << 32, big, 1ull << 29, 1ull << 29));
}

/* ---- rendering and golden files --------------------------------------------------------- */

/* The text a writer produced (NULL on failure); fmt -1 means the JSON error document. */
static char *render(const cp_report *r, int fmt, const cp_status *failure)
{
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    cp_status st;
    cp_status_clear(&st);
    int rc = fmt < 0 ? cp_report_write_json_error(f, "0.1.0", r->command, failure)
                     : cp_report_write(f, (cp_format)fmt, r, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "writer failed (%d): %s\n", rc, st.message);
    rewind(f);
    char *text = rc == CP_EXIT_OK ? cp_test_read_stream(f) : NULL;
    fclose(f);
    return text;
}

static void check_golden(const char *name, const char *got)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/golden/%s", CP_TEST_DATA_DIR, name);
    cp_test_check_golden(path, name, got);
}

/* ---- checks of the JSON read back ------------------------------------------------------- */

/* The item at a dotted path ("predicted.load.requests", "accesses.0.name"). */
static const cJSON *jget(const cJSON *o, const char *path)
{
    while (o && *path) {
        char key[64];
        size_t n = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, path);
        o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(key))
                             : cJSON_GetObjectItemCaseSensitive(o, key);
        path += n + (path[n] == '.');
    }
    return o;
}

static int jis_u64(const cJSON *o, const char *path, uint64_t v)
{
    const cJSON *item = jget(o, path);
    return cJSON_IsNumber(item) && item->valuedouble == (double)v;
}

static int jis_str(const cJSON *o, const char *path, const char *s)
{
    const cJSON *item = jget(o, path);
    return cJSON_IsString(item) && strcmp(item->valuestring, s) == 0;
}

/* A number within 1e-12 relative of v, or null when v is NAN. */
static int jis_double(const cJSON *o, const char *path, double v)
{
    const cJSON *item = jget(o, path);
    if (isnan(v))
        return cJSON_IsNull(item);
    return cJSON_IsNumber(item) && fabs(item->valuedouble - v) <= 1e-12 * fabs(v);
}

static double ratio(double num, double den)
{
    return den != 0 && !isnan(num) && !isnan(den) ? num / den : NAN;
}

/* A path and the number it must hold, for the table-driven checks below. */
typedef struct json_number {
    const char *path;
    double v;
} json_number;

/* Each path holds its number: with integers set, an integer (jis_u64: the table's double names
 * the same one, as jis_u64 compares through a double); else jis_double's number (null for NAN).
 * A failure names the path. */
static void check_json_numbers(const cJSON *o, const json_number *want, size_t n, int integers)
{
    for (size_t i = 0; i < n; i++) {
        int ok = integers ? jis_u64(o, want[i].path, (uint64_t)want[i].v)
                          : jis_double(o, want[i].path, want[i].v);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  at %s\n", want[i].path);
    }
}

static void check_json_counts(const cJSON *o, const cp_counts *c)
{
    const json_number ints[] = {{"requests", c->requests},
                                {"sectors", c->sectors},
                                {"lines", c->lines},
                                {"bytes_requested", c->bytes_requested},
                                {"sector_bytes", c->sectors * 32},
                                {"ideal_sectors", c->ideal_sectors},
                                {"footprint_sectors", c->footprint_sectors},
                                {"footprint_bytes", c->footprint_sectors * 32}};
    check_json_numbers(o, ints, sizeof ints / sizeof *ints, 1);
    const json_number ratios[] = {
        {"sectors_per_request", ratio(c->sectors, c->requests)},
        {"ideal_sectors_per_request", ratio(c->ideal_sectors, c->requests)},
        {"lines_per_request", ratio(c->lines, c->requests)},
        {"efficiency", ratio(c->bytes_requested, 32.0 * c->sectors)}};
    check_json_numbers(o, ratios, sizeof ratios / sizeof *ratios, 0);
}

static void check_json_measured(const cJSON *o, const cp_measurement *m)
{
    const cp_counter_values *v = &m->counters;
    CHECK(jis_u64(o, "reps", m->reps));
    CHECK(jis_double(o, "noise", m->noise));
    CHECK(m->noisy ? cJSON_IsTrue(jget(o, "noisy")) : cJSON_IsFalse(jget(o, "noisy")));
    const json_number times[] = {{"time_s.median", m->time_median_s},
                                 {"time_s.min", m->time_min_s},
                                 {"time_s.max", m->time_max_s},
                                 {"useful_bytes_per_s", m->useful_bytes_per_s},
                                 {"dram_bytes_per_s", m->dram_bytes_per_s},
                                 {"pct_of_peak", m->pct_of_peak}};
    check_json_numbers(o, times, sizeof times / sizeof *times, 0);
    CHECK(cJSON_IsBool(jget(o, "verified")));
    CHECK(jis_str(o, "counters.status",
                  m->counters_status == CP_COUNTERS_OK        ? "ok"
                  : m->counters_status == CP_COUNTERS_REFUSED ? "refused"
                                                              : "not_run"));
    CHECK(m->counters_reason[0] ? jis_str(o, "counters.reason", m->counters_reason)
                                : cJSON_IsNull(jget(o, "counters.reason")));
    const json_number counters[] = {
        {"counters.load.requests", v->load_requests},
        {"counters.load.sectors_per_request", ratio(v->load_sectors, v->load_requests)},
        {"counters.store.sectors_per_request", ratio(v->store_sectors, v->store_requests)},
        {"counters.dram_read_bytes", v->dram_read_bytes},
        {"flop_per_s", m->flop_per_s},
        {"pct_of_cublas", m->pct_of_cublas},
        {"rel_error_vs_cublas", m->rel_error},
        {"counters.load.bytes_requested", v->load_bytes_requested},
        {"counters.load.efficiency", ratio(v->load_bytes_requested, 32.0 * v->load_sectors)},
        {"counters.store.efficiency", ratio(v->store_bytes_requested, 32.0 * v->store_sectors)},
        {"counters.achieved_occupancy", v->achieved_occupancy}};
    check_json_numbers(o, counters, sizeof counters / sizeof *counters, 0);
    const cp_resources *r = &m->resources;
    if (!r->known) {
        CHECK(cJSON_IsNull(jget(o, "resources")));
        CHECK(r->reason[0] ? jis_str(o, "resources_reason", r->reason)
                           : cJSON_IsNull(jget(o, "resources_reason")));
    } else {
        CHECK(cJSON_IsNull(jget(o, "resources_reason")));
        const json_number sizes[] = {{"resources.registers_per_thread", r->registers_per_thread},
                                     {"resources.static_shared_bytes", r->static_shared_bytes},
                                     {"resources.dynamic_shared_bytes", r->dynamic_shared_bytes},
                                     {"resources.threads_per_block", r->threads_per_block},
                                     {"resources.blocks_per_sm", r->blocks_per_sm}};
        check_json_numbers(o, sizes, sizeof sizes / sizeof *sizes, 1);
        CHECK(jis_double(o, "resources.theoretical_occupancy", r->theoretical_occupancy));
        cp_occupancy occ;
        CHECK(cp_occupancy_compute(&r->sm, r->threads_per_block, r->registers_per_thread,
                                   r->static_shared_bytes + r->dynamic_shared_bytes, &occ));
        CHECK(jis_u64(o, "resources.blocks_per_sm_by_limit.threads",
                      occ.blocks_by[CP_LIMIT_THREADS]));
        CHECK(jis_u64(o, "resources.blocks_per_sm_by_limit.registers",
                      occ.blocks_by[CP_LIMIT_REGISTERS]));
        CHECK(cJSON_IsNull(jget(o, "resources.blocks_per_sm_by_limit.shared_memory")));
        CHECK(jis_u64(o, "resources.blocks_per_sm_by_limit.blocks", 32));
        const cJSON *lim = jget(o, "resources.limited_by");
        int n = 0;
        for (int l = 0; l < CP_LIMIT_COUNT; l++)
            if (occ.limiters & (1u << l))
                CHECK(jis_str(lim,
                              n++ == 0 ? "0"
                              : n == 2 ? "1"
                                       : "2",
                              cp_limit_name((cp_limit)l)));
        CHECK(cJSON_IsArray(lim) && cJSON_GetArraySize(lim) == n);
    }
    const cJSON *match = jget(o, "match");
    CHECK(m->counts_match == 1   ? cJSON_IsTrue(match)
          : m->counts_match == 0 ? cJSON_IsFalse(match)
                                 : cJSON_IsNull(match));
}

static void check_json_row(const cJSON *o, const cp_row *row)
{
    const cp_config *c = &row->config;
    const cp_prediction *p = &row->predicted;
    CHECK(jis_str(o, "pattern", cp_config_family_name(c->family)));
    if (c->family == CP_FAMILY_STRIDE) {
        const cp_stride_config *s = cp_stride_config_of(c);
        CHECK(jis_u64(o, "config.offset_bytes", s->offset * s->width_bytes));
        CHECK(jis_str(o, "config.op", cp_config_op_name(s->op)));
    } else if (c->family == CP_FAMILY_GEMM) {
        CHECK(jis_str(o, "config.variant", cp_gemm_variant_names[cp_gemm_config_of(c)->variant]));
        CHECK(jis_u64(o, "config.k", cp_gemm_config_of(c)->k));
    } else {
        CHECK(jis_u64(o, "config.fields", cp_layout_config_of(c)->fields));
    }
    if (!p->modelled) {
        CHECK(cJSON_IsNull(jget(o, "predicted")));
    } else {
        CHECK(jis_u64(o, "predicted.threads", p->threads));
        CHECK(jis_u64(o, "predicted.warps", p->warps));
        check_json_counts(jget(o, "predicted.load"), &p->load);
        check_json_counts(jget(o, "predicted.store"), &p->store);
        const cJSON *accesses = jget(o, "predicted.accesses");
        CHECK(cJSON_IsArray(accesses) && (size_t)cJSON_GetArraySize(accesses) == p->naccesses);
        for (size_t i = 0; i < p->naccesses; i++) {
            const cJSON *a = cJSON_GetArrayItem(accesses, (int)i);
            CHECK(jis_str(a, "name", p->accesses[i].name));
            CHECK(cJSON_IsBool(jget(a, "strided")));
            CHECK(jis_u64(a, "buffer_bytes", p->accesses[i].buffer_bytes));
            check_json_counts(a, &p->accesses[i].counts);
        }
    }
    if (row->measured)
        check_json_measured(jget(o, "measured"), row->measured);
    else
        CHECK(cJSON_IsNull(jget(o, "measured")));
    CHECK(jis_str(o, "source", row->measured && row->measured->timed ? "measured" : "model"));
}

static void check_json_report(const char *text, const cp_report *r)
{
    cJSON *doc = cJSON_Parse(text);
    CHECK(doc != NULL);
    if (!doc)
        return;
    CHECK(jis_u64(doc, "schema_version", CP_REPORT_SCHEMA_VERSION));
    CHECK(jis_str(doc, "tool.name", "coalprobe"));
    CHECK(jis_str(doc, "tool.version", r->tool_version));
    CHECK(jis_str(doc, "command", r->command));
    CHECK(r->incomplete ? cJSON_IsTrue(jget(doc, "incomplete"))
                        : cJSON_IsFalse(jget(doc, "incomplete")));
    const cp_device_info *d = r->device;
    if (!d) {
        CHECK(cJSON_IsNull(jget(doc, "device")));
    } else {
        CHECK(jis_str(doc, "device.compute_capability", "9.0"));
        CHECK(jis_u64(doc, "device.memory_bytes", d->memory_bytes));
        CHECK(d->driver_release[0] ? jis_str(doc, "device.driver_release", d->driver_release)
                                   : cJSON_IsNull(jget(doc, "device.driver_release")));
        CHECK(jis_double(doc, "device.peak_measured_bytes_per_s", d->peak_measured_bytes_per_s));
        CHECK(isnan(d->peak_measured_bytes_per_s)
                  ? cJSON_IsNull(jget(doc, "device.peak_measured_method"))
                  : cJSON_IsString(jget(doc, "device.peak_measured_method")));
        CHECK(jis_u64(doc, "device.sm.max_threads", d->sm.max_threads_per_sm));
        CHECK(jis_u64(doc, "device.sm.registers", d->sm.registers_per_sm));
        CHECK(jis_u64(doc, "device.sm.shared_bytes", d->sm.shared_bytes_per_sm));
        CHECK(jis_u64(doc, "device.sm.shared_reserved_per_block", d->sm.shared_reserved_per_block));
    }
    const cp_sampling *t = r->sampling;
    CHECK(t ? cJSON_IsObject(jget(doc, "timing")) : jget(doc, "timing") == NULL);
    if (t) {
        CHECK(t->reps ? jis_u64(doc, "timing.reps", t->reps)
                      : cJSON_IsNull(jget(doc, "timing.reps")));
        CHECK(jis_u64(doc, "timing.min_samples", t->min_samples));
        CHECK(jis_double(doc, "timing.max_noise", t->max_noise));
        CHECK(jis_double(doc, "timing.max_time_s", t->max_time_s));
        CHECK(jis_double(doc, "timing.confidence", CP_SAMPLING_CONFIDENCE));
    }
    const cJSON *rows = jget(doc, "rows");
    CHECK(cJSON_IsArray(rows) && (size_t)cJSON_GetArraySize(rows) == r->nrows);
    for (size_t i = 0; i < r->nrows; i++)
        check_json_row(cJSON_GetArrayItem(rows, (int)i), &r->rows[i]);
    cJSON_Delete(doc);
}

/* ---- checks of the table and the CSV ---------------------------------------------------- */

/* No "nan" or "inf" in any case anywhere. */
static void check_no_nonfinite(const char *text)
{
    int found = 0;
    for (const char *s = text; *s; s++) {
        char w[4] = {(char)tolower((unsigned char)s[0]), 0, 0, 0};
        w[1] = s[1] ? (char)tolower((unsigned char)s[1]) : 0;
        w[2] = w[1] && s[2] ? (char)tolower((unsigned char)s[2]) : 0;
        if (strcmp(w, "nan") == 0 || strcmp(w, "inf") == 0)
            found = 1;
    }
    CHECK(!found);
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* The CSV report of r: "pattern", then the first row's family's fields as its configuration's
 * columns (their CSV column, or key, in the descriptor's order), then 66 columns of counts and
 * measurements, on every line. */
static void check_csv(const char *text, const cp_report *r)
{
    const cp_family_desc *d = cp_family_get(r->rows[0].config.family);
    char want[256] = "pattern";
    for (size_t i = 0; i < d->nfields; i++) {
        strcat(want, ",");
        strcat(want, d->fields[i].column ? d->fields[i].column : d->fields[i].key);
    }
    strcat(want, ",pred_load_requests,");
    CHECK(strncmp(text, want, strlen(want)) == 0);
    CHECK_EQ_U64(count_lines(text), r->nrows + 1);
    size_t commas = 0;
    for (const char *s = text; *s; s++) {
        if (*s == ',')
            commas++;
        if (*s == '\n') {
            CHECK_EQ_U64(commas + 1, 1 + d->nfields + 66); /* every line has every column */
            commas = 0;
        }
    }
}

/* The chart of a report in its JSON form (a saved report), as cp_report_write_vegalite_doc writes
 * it; NULL when it fails. */
static char *render_chart_of_json(const char *json)
{
    cJSON *doc = cJSON_Parse(json);
    FILE *f = tmpfile();
    cp_status st;
    cp_status_clear(&st);
    int rc = doc && f ? cp_report_write_vegalite_doc(f, doc, &st) : CP_EXIT_RUNTIME;
    char *text = NULL;
    if (f && rc == CP_EXIT_OK) {
        rewind(f);
        text = cp_test_read_stream(f);
    }
    if (f)
        fclose(f);
    cJSON_Delete(doc);
    return text;
}

/* A Vega-Lite spec: valid JSON, its data inline, a measured datum for each measured row whose
 * counters were read; panels one above the other, each with its marks and both axes titled; and
 * the same spec from the report's JSON (a saved report's chart is the run's). */
static void check_vegalite(const char *text, const cp_report *r)
{
    cJSON *doc = cJSON_Parse(text);
    CHECK(doc != NULL);
    if (!doc)
        return;
    CHECK(jis_str(doc, "$schema", "https://vega.github.io/schema/vega-lite/v5.json"));
    const cJSON *values = jget(doc, "data.values");
    CHECK(cJSON_IsArray(values));
    size_t measured = 0, expected = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, values)
    {
        CHECK(cJSON_IsNumber(jget(d, "value")) && cJSON_IsString(jget(d, "panel")));
        CHECK(cJSON_IsNumber(jget(d, "row")) && jget(d, "row")->valuedouble < (double)r->nrows);
        measured += jis_str(d, "source", "measured");
    }
    for (size_t i = 0; i < r->nrows; i++)
        expected += r->rows[i].measured && r->rows[i].measured->counters_status == CP_COUNTERS_OK;
    CHECK(expected == 0 ? measured == 0 : measured >= expected);
    const cJSON *panels = jget(doc, "vconcat"), *p;
    CHECK(cJSON_GetArraySize(panels) >= 3);
    cJSON_ArrayForEach(p, panels)
    {
        CHECK(cJSON_GetArraySize(jget(p, "layer")) >= 1);
        CHECK(cJSON_IsString(jget(p, "encoding.x.title")));
        CHECK(cJSON_GetArraySize(jget(p, "encoding.y.title")) == 2);
    }
    cJSON_Delete(doc);
    char *json = render(r, CP_FORMAT_JSON, NULL);
    char *again = json ? render_chart_of_json(json) : NULL;
    CHECK(again && strcmp(again, text) == 0);
    free(again);
    free(json);
}

static void check_table(const char *text, const cp_report *r)
{
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        CHECK(len <= 100 || r->rows[0].config.family != CP_FAMILY_STRIDE);
        CHECK(len == 0 || s[len - 1] != ' ');
        s += len + (s[len] == '\n');
    }
    if (r->incomplete)
        CHECK_STR_CONTAINS(text, "\n(incomplete: the sweep was interrupted)\n");
    else
        CHECK(strstr(text, "incomplete") == NULL);
}

/* The page: one table row per report row, the report embedded. */
static void check_page(const char *text, const cp_report *r)
{
    CHECK(strncmp(text, "<!DOCTYPE html>\n", 16) == 0);
    CHECK_STR_CONTAINS(text, "<script type=\"application/json\" id=\"cp-report\">");
    size_t rows = 0;
    for (const char *s = text; (s = strstr(s, "<tr data-row=")) != NULL; s++)
        rows++;
    CHECK_EQ_U64(rows, r->nrows);
}

/* ---- the tests -------------------------------------------------------------------------- */

static void test_report_goldens(const char *name, void (*build)(fixture *))
{
    static fixture f;
    build(&f);
    static const char *const ext[CP_FORMAT_COUNT] = {"txt", "json", "csv", "vl.json", NULL};
    for (int fmt = 0; fmt < CP_FORMAT_COUNT; fmt++) {
        char *text = render(&f.report, fmt, NULL);
        CHECK(text != NULL);
        if (!text)
            continue;
        if (fmt == CP_FORMAT_HTML) { /* no golden: the page says when and where it was written */
            check_page(text, &f.report);
            free(text);
            continue;
        }
        char golden[64];
        snprintf(golden, sizeof golden, "report_%s.%s", name, ext[fmt]);
        check_golden(golden, text);
        check_no_nonfinite(text);
        if (fmt == CP_FORMAT_JSON)
            check_json_report(text, &f.report);
        else if (fmt == CP_FORMAT_VEGALITE)
            check_vegalite(text, &f.report);
        else if (fmt == CP_FORMAT_CSV)
            check_csv(text, &f.report);
        else
            check_table(text, &f.report);
        free(text);
    }
}

/* Integers stay integers past 1e15 (cJSON alone would print 1e+15 style). */
static void test_large_integers(void)
{
    static fixture f;
    build_gemm(&f);
    char *text = render(&f.report, CP_FORMAT_JSON, NULL);
    CHECK_STR_CONTAINS(text, "\"bytes_requested\":\t1161084278931456,"); /* load: 2^50 + 2^45 */
    CHECK_STR_CONTAINS(text,
                       "\"sector_bytes\":\t9288674231451648,"); /* load sector_bytes, over 2^53 */
    CHECK(text && strstr(text, "e+") == NULL);
    free(text);
    text = render(&f.report, CP_FORMAT_CSV, NULL);
    CHECK_STR_CONTAINS(text, ",290271069732864,"); /* pred_load_sectors */
    free(text);
}

/* The regime estimate: an object with the caches compared in JSON, two CSV cells; null and empty
 * cells where there is none. */
static void test_regime(void)
{
    static fixture f;
    build_model(&f);
    f.report.nrows = 1;
    f.rows[0].predicted.working_set_bytes = 4096;
    cp_model_estimate_regime(&f.rows[0].predicted, 90, 50u << 20);
    char *text = render(&f.report, CP_FORMAT_JSON, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    CHECK(jis_str(doc, "rows.0.predicted.regime_estimate.level", "l1"));
    CHECK(cJSON_GetNumberValue(jget(doc, "rows.0.predicted.regime_estimate.working_set_bytes")) ==
          4096);
    CHECK(cJSON_GetNumberValue(jget(doc, "rows.0.predicted.regime_estimate.l2_bytes")) ==
          (double)(50u << 20));
    cJSON_Delete(doc);
    free(text);
    text = render(&f.report, CP_FORMAT_CSV, NULL);
    CHECK_STR_CONTAINS(text, ",false,l1,4096,,,\n"); /* then no launches, noise or noisy */
    free(text);
    f.rows[0].predicted.working_set_bytes = 0;
    cp_model_estimate_regime(&f.rows[0].predicted, 90, 50u << 20);
    text = render(&f.report, CP_FORMAT_JSON, NULL);
    doc = text ? cJSON_Parse(text) : NULL;
    CHECK(cJSON_IsNull(jget(doc, "rows.0.predicted.regime_estimate")));
    cJSON_Delete(doc);
    free(text);
}

/* A measurement record that was never timed: the row stays a model row. */
static void test_untimed(void)
{
    static fixture f;
    build_model(&f);
    f.report.nrows = 1;
    cp_measurement_clear(&f.meas[0]);
    f.rows[0].measured = &f.meas[0];
    char *text = render(&f.report, CP_FORMAT_JSON, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    CHECK(cJSON_IsObject(jget(doc, "rows.0.measured")));
    CHECK(jis_str(doc, "rows.0.source", "model"));
    CHECK(cJSON_IsNull(jget(doc, "rows.0.measured.time_s.median")));
    CHECK(cJSON_IsNull(jget(doc, "rows.0.measured.match")));
    CHECK(jis_str(doc, "rows.0.measured.counters.status", "not_run"));
    cJSON_Delete(doc);
    free(text);
    text = render(&f.report, CP_FORMAT_CSV, NULL);
    /* no resources: 8 empty cells; no TMA copy predicted; nothing of the memory path measured;
     * no working set, so no regime; not timed: no launches, noise or noisy */
    CHECK_STR_CONTAINS(text, ",,,,,,,,,,,,,,model,,,,,,,,,0,0,,,,,,,,,false,,,,,\n");
    free(text);
}

static void test_empty(void)
{
    static fixture f;
    init_fixture(&f, "coalprobe stride");
    f.report.rows = NULL;
    f.report.incomplete = 1;
    char *text = render(&f.report, CP_FORMAT_TABLE, NULL);
    CHECK(text && strcmp(text, "(incomplete: the sweep was interrupted)\n") == 0);
    free(text);
    text = render(&f.report, CP_FORMAT_CSV, NULL);
    CHECK_EQ_U64(text ? count_lines(text) : 0, 1);
    free(text);
    text = render(&f.report, CP_FORMAT_JSON, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    CHECK(cJSON_IsArray(jget(doc, "rows")) && cJSON_GetArraySize(jget(doc, "rows")) == 0);
    cJSON_Delete(doc);
    free(text);
}

static void test_error_json(void)
{
    fixture f;
    init_fixture(&f, "coalprobe stride --stride 32..1 --format json");
    cp_status st;
    cp_status_clear(&st);
    cp_status_set(&st, CP_EXIT_USAGE, "--stride: '32..1' is an empty range (start above end)");
    cp_status_hint(&st, "write the smaller value first, e.g. \"1..32\"");
    char *text = render(&f.report, -1, &st);
    CHECK(text != NULL);
    if (text) {
        check_golden("error.json", text);
        cJSON *doc = cJSON_Parse(text);
        CHECK(jis_u64(doc, "schema_version", CP_REPORT_SCHEMA_VERSION));
        CHECK(jis_u64(doc, "error.code", CP_EXIT_USAGE));
        CHECK(jis_str(doc, "error.kind", "usage"));
        CHECK(jis_str(doc, "error.message", st.message));
        CHECK(jis_str(doc, "error.hint", st.hint));
        CHECK(cJSON_IsArray(jget(doc, "rows")) && cJSON_GetArraySize(jget(doc, "rows")) == 0);
        cJSON_Delete(doc);
        free(text);
    }
    static const struct {
        int code;
        const char *kind;
    } kinds[] = {{CP_EXIT_RUNTIME, "runtime"}, {CP_EXIT_MISMATCH, "mismatch"}};
    for (size_t i = 0; i < 2; i++) {
        cp_status_set(&st, kinds[i].code, "failed");
        text = render(&f.report, -1, &st);
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        CHECK(jis_str(doc, "error.kind", kinds[i].kind));
        CHECK(cJSON_IsNull(jget(doc, "error.hint")));
        cJSON_Delete(doc);
        free(text);
    }
}

static void test_failures(void)
{
    static fixture f;
    build_model(&f);
    cp_status st;
    cp_status_clear(&st);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        for (int fmt = 0; fmt < CP_FORMAT_COUNT; fmt++) {
            cp_status_clear(&st);
            CHECK(cp_report_write(full, (cp_format)fmt, &f.report, &st) == CP_EXIT_RUNTIME);
            CHECK_STR_CONTAINS(st.message, "cannot write the report");
            clearerr(full);
        }
        CHECK(cp_report_write_json_error(full, "0.1.0", "x", &st) == CP_EXIT_RUNTIME);
        fclose(full);
    }
    FILE *sink = tmpfile();
    CHECK(sink != NULL);
    if (!sink)
        return;
    CHECK(cp_report_write(sink, CP_FORMAT_COUNT, &f.report, &st) == CP_EXIT_USAGE);
    f.rows[1].config.family = CP_FAMILY_COUNT;
    CHECK(cp_report_write(sink, CP_FORMAT_JSON, &f.report, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "row 1");
    fclose(sink);
}

static void test_format_names(void)
{
    for (int fmt = 0; fmt < CP_FORMAT_COUNT; fmt++)
        CHECK(cp_report_format_parse(cp_report_format_name((cp_format)fmt)) == fmt);
    CHECK(strcmp(cp_report_format_name(CP_FORMAT_JSON), "json") == 0);
    CHECK(cp_report_format_parse("xml") == -1);
    CHECK(cp_report_format_parse("JSON") == -1);
    CHECK(cp_report_format_parse(NULL) == -1);
    CHECK(strcmp(cp_report_format_name(CP_FORMAT_COUNT), "?") == 0);
}

/* ---- the stream, row by row ------------------------------------------------------------- */

/* The report streamed to a new temporary file (its path in path, PATH_MAX bytes): begin, one
 * row at a time, end; then, when mark is set, marked incomplete. The file's text, or NULL. */
static char *render_streamed(const cp_report *r, cp_format fmt, int mark, char *path)
{
    strcpy(path, "/tmp/cp_test_stream_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!f)
        return NULL;
    cp_status st;
    cp_status_clear(&st);
    cp_report_stream s;
    int rc = cp_report_stream_begin(&s, f, fmt, r, &st);
    for (size_t i = 0; i < r->nrows && rc == CP_EXIT_OK; i++) {
        rc = cp_report_stream_row(&s, &r->rows[i], &st);
        CHECK_EQ_U64(s.nrows, i + (rc == CP_EXIT_OK));
    }
    if (rc == CP_EXIT_OK)
        rc = cp_report_stream_end(&s, &st);
    if (rc == CP_EXIT_OK && mark)
        rc = cp_report_stream_mark_incomplete(&s, path, &st);
    if (rc != CP_EXIT_OK)
        fprintf(stderr, "stream failed (%d): %s\n", rc, st.message);
    fclose(f);
    f = fopen(path, "r");
    char *text = rc == CP_EXIT_OK && f ? cp_test_read_stream(f) : NULL;
    if (f)
        fclose(f);
    return text;
}

/* A report streamed complete and marked incomplete afterwards is the report written incomplete,
 * byte for byte, and holds needle; r is left complete. */
static void check_marked_incomplete(cp_report *r, const char *name, const char *needle)
{
    char path[64];
    r->incomplete = 1;
    char *want = render(r, CP_FORMAT_JSON, NULL);
    r->incomplete = 0;
    char *got = render_streamed(r, CP_FORMAT_JSON, 1, path);
    unlink(path);
    CHECK(want && got && strcmp(want, got) == 0);
    CHECK_STR_CONTAINS(got, needle);
    if (want && got && strcmp(want, got) != 0)
        fprintf(stderr, "%s: marked incomplete differs from the incomplete report\n", name);
    free(want);
    free(got);
}

/* Rows written one at a time equal the whole report byte for byte (JSON and CSV), and equal
 * cJSON's own printing of the whole document read back; a stream begun complete and marked
 * incomplete afterwards equals the report written incomplete. */
static void test_stream_equals_whole(const char *name, void (*build)(fixture *), int reprint)
{
    static fixture f;
    build(&f);
    char path[64];
    for (int incomplete = 0; incomplete <= 1; incomplete++) {
        f.report.incomplete = incomplete;
        for (int fmt = CP_FORMAT_JSON; fmt <= CP_FORMAT_CSV; fmt++) {
            char *whole = render(&f.report, fmt, NULL);
            char *streamed = render_streamed(&f.report, (cp_format)fmt, 0, path);
            unlink(path);
            CHECK(whole && streamed && strcmp(whole, streamed) == 0);
            if (fmt == CP_FORMAT_JSON && reprint && streamed) {
                cJSON *doc = cJSON_Parse(streamed);
                char *again = doc ? cJSON_Print(doc) : NULL;
                size_t len = again ? strlen(again) : 0;
                CHECK(again && strncmp(again, streamed, len) == 0 && streamed[len] == '\n' &&
                      streamed[len + 1] == '\0');
                if (!(again && strncmp(again, streamed, len) == 0))
                    fprintf(stderr, "%s: the stream differs from cJSON_Print\n", name);
                cJSON_free(again);
                cJSON_Delete(doc);
            }
            free(whole);
            free(streamed);
        }
    }
    /* written complete, then marked: the bytes of the incomplete report */
    check_marked_incomplete(&f.report, name, "\n\t\"incomplete\":\ttrue,\n");
}

/* The stream's edges: no rows, formats that do not stream, marking what cannot be marked, a
 * bad row reported by its index. */
static void test_stream_edges(void)
{
    static fixture f;
    build_model(&f);
    size_t nrows = f.report.nrows;
    char path[64];
    f.report.nrows = 0;
    check_marked_incomplete(&f.report, "no rows", "\"rows\":\t[]\n}\n");
    f.report.nrows = nrows;

    cp_status st;
    cp_status_clear(&st);
    cp_report_stream s;
    FILE *sink = tmpfile();
    CHECK(sink != NULL);
    if (!sink)
        return;
    CHECK(cp_report_stream_begin(&s, sink, CP_FORMAT_TABLE, &f.report, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "table");
    CHECK(cp_report_stream_begin(&s, sink, CP_FORMAT_CSV, &f.report, &st) == CP_EXIT_OK);
    CHECK(s.incomplete_at == -1);
    CHECK(cp_report_stream_mark_incomplete(&s, "/nonexistent", &st) == CP_EXIT_RUNTIME);
    CHECK(cp_report_stream_begin(&s, sink, CP_FORMAT_JSON, &f.report, &st) == CP_EXIT_OK);
    CHECK(s.incomplete_at > 0);
    CHECK(cp_report_stream_row(&s, &f.rows[0], &st) == CP_EXIT_OK);
    cp_row bad = f.rows[1];
    bad.config.family = CP_FAMILY_COUNT;
    CHECK(cp_report_stream_row(&s, &bad, &st) == CP_EXIT_RUNTIME);
    CHECK_STR_CONTAINS(st.message, "row 1");
    CHECK_EQ_U64(s.nrows, 1);
    fclose(sink);
    /* a file that does not hold the stream is refused, not garbled */
    CHECK(cp_report_stream_mark_incomplete(&s, "/nonexistent/x.json", &st) == CP_EXIT_RUNTIME);
    strcpy(path, "/tmp/cp_test_stream_XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        static const char other[] = "{\"something\": \"else entirely, and long enough\"}\n";
        CHECK(write(fd, other, sizeof other - 1) == (ssize_t)(sizeof other - 1));
        close(fd);
        CHECK(cp_report_stream_mark_incomplete(&s, path, &st) == CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(st.message, "cannot mark the report incomplete");
        FILE *f2 = fopen(path, "r");
        char *text = f2 ? cp_test_read_stream(f2) : NULL;
        CHECK(text && strcmp(text, other) == 0);
        free(text);
        if (f2)
            fclose(f2);
        unlink(path);
    }
}

int main(void)
{
    test_format_names();
    test_report_goldens("model", build_model);
    test_report_goldens("measured", build_measured);
    test_report_goldens("gemm", build_gemm);
    test_error_json();
    test_large_integers();
    test_untimed();
    test_regime();
    test_empty();
    test_failures();
    test_stream_equals_whole("model", build_model, 1);
    test_stream_equals_whole("measured", build_measured, 1);
    test_stream_equals_whole("gemm", build_gemm, 0); /* integers past 1e15: cJSON reprints */
    test_stream_edges();
    return cp_test_finish();
}
