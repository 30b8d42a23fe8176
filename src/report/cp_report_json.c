/* cp_report_json.c: the JSON report, written row by row (one cJSON object per row, printed and
 * freed), and the JSON error document, built with cJSON. */
#define _POSIX_C_SOURCE 200809L /* pread, pwrite */
#include "cp_report.h"
#include "cp_report_util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cp_model.h"

#define CP_REPORT_PEAK_METHOD "cudaMemcpy device to device; bytes read plus bytes written"

/* A string that is null when empty as well. */
static void cp_report_json_add_optional_string(cp_json *j, cJSON *obj, const char *key,
                                               const char *s)
{
    cp_json_string(j, obj, key, s && *s ? s : NULL);
}

/* true, false or null for 1, 0 or anything else. */
static void cp_report_json_add_tristate(cp_json *j, cJSON *obj, const char *key, int v)
{
    if (v == 0 || v == 1)
        cp_json_bool(j, obj, key, v);
    else
        cp_json_null(j, obj, key);
}

/* The COUNTS fields of c, added to obj. */
static void cp_report_json_add_counts(cp_json *j, cJSON *obj, const cp_counts *c)
{
    cp_json_u64(j, obj, "requests", c->requests);
    cp_json_u64(j, obj, "sectors", c->sectors);
    cp_json_u64(j, obj, "lines", c->lines);
    cp_json_u64(j, obj, "bytes_requested", c->bytes_requested);
    cp_json_u64(j, obj, "sector_bytes", c->sectors * CP_SECTOR_BYTES);
    cp_json_u64(j, obj, "ideal_sectors", c->ideal_sectors);
    cp_json_u64(j, obj, "footprint_sectors", c->footprint_sectors);
    cp_json_u64(j, obj, "footprint_bytes", c->footprint_sectors * CP_SECTOR_BYTES);
    cp_json_number(j, obj, "sectors_per_request", cp_counts_sectors_per_request(c));
    cp_json_number(j, obj, "ideal_sectors_per_request", cp_counts_ideal_sectors_per_request(c));
    cp_json_number(j, obj, "lines_per_request", cp_counts_lines_per_request(c));
    cp_json_number(j, obj, "efficiency", cp_counts_efficiency(c));
}

/* The shared-memory counts of c: requests, bytes, wavefronts and bank conflicts. */
static void cp_report_json_add_shared_counts(cp_json *j, cJSON *obj, const cp_counts *c)
{
    cp_json_u64(j, obj, "requests", c->requests);
    cp_json_u64(j, obj, "bytes_requested", c->bytes_requested);
    cp_json_u64(j, obj, "wavefronts", c->wavefronts);
    cp_json_u64(j, obj, "ideal_wavefronts", c->ideal_wavefronts);
    cp_json_u64(j, obj, "bank_conflicts", c->bank_conflicts);
    cp_json_number(j, obj, "wavefronts_per_request", cp_counts_wavefronts_per_request(c));
    cp_json_number(j, obj, "bank_conflicts_per_request", cp_counts_conflicts_per_request(c));
}

/* The device's architecture, the kernels it runs, and each hardware fact with whether it is
 * verified there (src/model/cp_arch.c). */
static void cp_report_json_add_arch(cp_json *j, cJSON *o, const cp_device_info *d)
{
    int arch = cp_arch_from_cc(d->cc_major, d->cc_minor);
    char name[32];
    snprintf(name, sizeof name, "sm_%d", arch);
    cp_json_string(j, o, "arch", name);
    static const char *const kinds[] = {"sass", "sass_compatible", "ptx_jit", "none"};
    cJSON *k = cp_json_object(j, o, "kernel_image");
    cp_json_string(j, k, "kind", kinds[d->kernel_kind]);
    snprintf(name, sizeof name, "%s_%d", d->kernel_kind == CP_ARCH_RUN_PTX ? "compute" : "sm",
             d->kernel_arch);
    cp_json_string(j, k, "arch", d->kernel_arch ? name : NULL);
    cJSON *facts = cp_json_array(j, o, "facts");
    for (int f = 0; f < CP_FACT_COUNT; f++) {
        const cp_fact_info *info = cp_arch_fact((cp_fact)f);
        cJSON *fo = cp_json_append(j, facts);
        cp_json_string(j, fo, "name", info->key);
        if (info->value)
            cp_json_u64(j, fo, "value", info->value);
        else
            cp_json_null(j, fo, "value");
        cp_json_bool(j, fo, "verified", cp_arch_fact_verified((cp_fact)f, arch));
        cp_json_string(j, fo, "evidence",
                       cp_arch_evidence_name(cp_arch_fact_evidence((cp_fact)f, arch, NULL)));
    }
}

/* A count that is null when 0 (not known). */
static void cp_report_json_add_count_or_null(cp_json *j, cJSON *obj, const char *key, uint64_t v)
{
    if (v)
        cp_json_u64(j, obj, key, v);
    else
        cp_json_null(j, obj, key);
}

/* What one SM offers (the limits occupancy is computed against); each null when unknown. */
static void cp_report_json_add_sm(cp_json *j, cJSON *o, const cp_sm_limits *sm)
{
    cJSON *s = cp_json_object(j, o, "sm");
    cp_report_json_add_count_or_null(j, s, "warp_size", sm->warp_size);
    cp_report_json_add_count_or_null(j, s, "max_threads", sm->max_threads_per_sm);
    cp_report_json_add_count_or_null(j, s, "max_blocks", sm->max_blocks_per_sm);
    cp_report_json_add_count_or_null(j, s, "registers", sm->registers_per_sm);
    cp_report_json_add_count_or_null(j, s, "register_unit", sm->register_unit);
    cp_report_json_add_count_or_null(j, s, "register_partitions", sm->register_partitions);
    cp_report_json_add_count_or_null(j, s, "shared_bytes", sm->shared_bytes_per_sm);
    cp_report_json_add_count_or_null(j, s, "shared_unit", sm->shared_unit);
    /* 0 is a real value here (sm_75 reserves nothing) once the other limits are known */
    if (sm->max_threads_per_sm)
        cp_json_u64(j, s, "shared_reserved_per_block", sm->shared_reserved_per_block);
    else
        cp_json_null(j, s, "shared_reserved_per_block");
}

/* The facts of device d into the object o. */
static void cp_report_json_fill_device(cp_json *j, cJSON *o, const cp_device_info *d)
{
    char cc[32];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cp_json_number(j, o, "index", d->index);
    cp_json_string(j, o, "name", d->name);
    cp_report_json_add_optional_string(j, o, "uuid", d->uuid);
    cp_json_string(j, o, "compute_capability", cc);
    cp_json_number(j, o, "sm_count", d->sm_count);
    cp_json_u64(j, o, "l2_bytes", d->l2_bytes);
    cp_json_u64(j, o, "memory_bytes", d->memory_bytes);
    cp_json_number(j, o, "driver_version", d->driver_version);
    cp_json_number(j, o, "runtime_version", d->runtime_version);
    cp_report_json_add_optional_string(j, o, "driver_release", d->driver_release);
    cp_json_number(j, o, "sm_clock_hz", d->sm_clock_hz);
    cp_json_number(j, o, "memory_clock_hz", d->memory_clock_hz);
    cp_json_number(j, o, "memory_bus_bits", d->memory_bus_bits);
    cp_json_number(j, o, "peak_theoretical_bytes_per_s", d->peak_theoretical_bytes_per_s);
    cp_json_number(j, o, "peak_measured_bytes_per_s", d->peak_measured_bytes_per_s);
    cp_json_string(j, o, "peak_measured_method",
                   isfinite(d->peak_measured_bytes_per_s) ? CP_REPORT_PEAK_METHOD : NULL);
    cp_report_json_add_arch(j, o, d);
    cp_report_json_add_sm(j, o, &d->sm);
}

/* "device" (null without a GPU) and, in a run over several GPUs, "devices": every one of them
 * and whether they are of different kinds. */
static void cp_report_json_add_device(cp_json *j, cJSON *root, const cp_report *r)
{
    cJSON *o = cp_json_object_if(j, root, "device", r->device != NULL);
    if (o)
        cp_report_json_fill_device(j, o, r->device);
    if (r->ndevices == 0)
        return;
    cJSON *all = cp_json_array(j, root, "devices");
    for (size_t i = 0; all && i < r->ndevices; i++) {
        cJSON *d = cp_json_append(j, all);
        if (d)
            cp_report_json_fill_device(j, d, &r->devices[i]);
    }
    cp_json_bool(j, root, "mixed_devices", r->mixed_devices);
}

/* How many timed launches each row took: --reps, or the stopping rule's settings ("timing"; absent
 * when nothing was measured). */
static void cp_report_json_add_timing(cp_json *j, cJSON *root, const cp_report *r)
{
    const cp_sampling *s = r->sampling;
    if (!s)
        return;
    cJSON *o = cp_json_object(j, root, "timing");
    if (s->reps)
        cp_json_u64(j, o, "reps", s->reps);
    else
        cp_json_null(j, o, "reps");
    cp_json_u64(j, o, "min_samples", s->min_samples);
    cp_json_number(j, o, "max_noise", s->max_noise);
    cp_json_number(j, o, "min_time_s", s->min_time_s);
    cp_json_number(j, o, "max_time_s", s->max_time_s);
    cp_json_number(j, o, "confidence", CP_SAMPLING_CONFIDENCE);
}

/* A row of a run over several GPUs: the GPU that measured it ("device": index, name, uuid),
 * why that GPU failed ("failed"), and the same configuration on the other GPUs
 * ("other_devices", --check). */
static void cp_report_json_add_row_device(cp_json *j, cJSON *o, const cp_row *row)
{
    if (!row->device)
        return;
    cJSON *d = cp_json_object(j, o, "device");
    cp_json_number(j, d, "index", row->device->index);
    cp_json_string(j, d, "name", row->device->name);
    cp_report_json_add_optional_string(j, d, "uuid", row->device->uuid);
    cp_json_string(j, o, "failed", row->failed);
    cJSON *other = cp_json_object_if(j, o, "other_devices", row->other_checked);
    if (other) {
        cp_json_number(j, other, "time_median_s", row->other_median_s);
        cp_json_bool(j, other, "differs", row->other_differs);
    }
}

static void cp_report_json_add_config(cp_json *j, cJSON *row, const cp_config *c)
{
    cJSON *o = cp_json_object(j, row, "config");
    const cp_family_desc *d = cp_family_get(c->family);
    for (size_t i = 0; d && i < d->nfields; i++) { /* cp_report_check_report refused others */
        const cp_family_field *f = &d->fields[i];
        if (cp_family_field_number(f)) {
            cp_json_u64(j, o, f->key, f->get(c));
        } else if (f->kind == CP_FIELD_NAME) {
            cp_json_string(j, o, f->key, cp_family_field_name(f, c));
        } else if (f->kind == CP_FIELD_INDEX) {
            cp_json_string(j, o, f->key, c->expr ? cp_expr_text(c->expr) : NULL);
        } else {
            cJSON *params = cp_json_object(j, o, f->key);
            for (uint32_t k = 0; k < c->nexpr_params; k++)
                cp_json_check(j, cJSON_AddNumberToObject(params, cp_expr_param_name(c->expr, k),
                                                         (double)c->expr_params[k]));
        }
    }
}

/* A load from __constant__ memory: its requests and the constant cache's passes. */
static void cp_report_json_add_constant_counts(cp_json *j, cJSON *obj, const cp_counts *c)
{
    cp_json_u64(j, obj, "requests", c->requests);
    cp_json_u64(j, obj, "bytes_requested", c->bytes_requested);
    cp_json_u64(j, obj, "wavefronts", c->wavefronts);
    cp_json_u64(j, obj, "ideal_wavefronts", c->ideal_wavefronts);
    cp_json_number(j, obj, "wavefronts_per_request", cp_counts_wavefronts_per_request(c));
}

static const char *cp_report_json_space_name(cp_space s)
{
    switch (s) {
    case CP_SPACE_SHARED:
        return "shared";
    case CP_SPACE_CONSTANT:
        return "constant";
    case CP_SPACE_TMA:
        return "tma";
    default:
        return "global";
    }
}

/* {"level", "working_set_bytes", "l1_bytes_per_sm", "constant_cache_bytes_per_sm", "l2_bytes"}:
 * the estimate of where the working set is served from; null where there is none. */
static void cp_report_json_add_regime(cp_json *j, cJSON *o, const cp_prediction *p)
{
    cJSON *r = cp_json_object_if(j, o, "regime_estimate", p->regime != CP_REGIME_UNKNOWN);
    if (!r)
        return;
    cp_json_string(j, r, "level", cp_regime_name(p->regime));
    cp_json_u64(j, r, "working_set_bytes", p->working_set_bytes);
    cp_json_u64(j, r, "l1_bytes_per_sm", p->caches.l1_per_sm);
    cp_json_u64(j, r, "constant_cache_bytes_per_sm", p->caches.constant_cache_per_sm);
    cp_json_u64(j, r, "l2_bytes", p->caches.l2);
}

/* {"KEY": value, ...}: the predicted values of c's family's own counters (cp_family_desc
 * .counters), written only for a family that declares some. */
static void cp_report_json_add_family_predicted(cp_json *j, cJSON *o, const cp_config *c,
                                                const cp_prediction *p)
{
    const cp_family_desc *d = cp_family_get(c->family);
    if (!d || !d->ncounters)
        return;
    cJSON *f = cp_json_object(j, o, "family_counters");
    for (size_t i = 0; i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++)
        cp_json_number(j, f, d->counters[i].key, i < p->nfamily ? p->family[i] : NAN);
}

/* {"KEY": value or null, ...}: the measured values of c's family's own counters that a metric
 * measures, written only for a family that declares some. */
static void cp_report_json_add_family_measured(cp_json *j, cJSON *o, const cp_config *c,
                                               const cp_counter_values *v)
{
    const cp_family_desc *d = cp_family_get(c->family);
    if (!d || !d->ncounters)
        return;
    cJSON *f = cp_json_object(j, o, "family_counters");
    for (size_t i = 0; i < d->ncounters && i < CP_FAMILY_COUNTERS_MAX; i++)
        if (d->counters[i].metric)
            cp_json_number(j, f, d->counters[i].key, v->family[i]);
}

static void cp_report_json_add_predicted(cp_json *j, cJSON *row, const cp_config *c,
                                         const cp_prediction *p)
{
    /* null when not modelled (cuBLAS: measured, never predicted) */
    cJSON *o = cp_json_object_if(j, row, "predicted", p->modelled);
    if (!o)
        return;
    cp_json_u64(j, o, "threads", p->threads);
    cp_json_u64(j, o, "warps", p->warps);
    cp_report_json_add_counts(j, cp_json_object(j, o, "load"), &p->load);
    cp_report_json_add_counts(j, cp_json_object(j, o, "store"), &p->store);
    cp_report_json_add_counts(j, cp_json_object(j, o, "tma_load"), &p->tma_load);
    cp_json_bool(j, o, "shared_exact", p->shared_modelled && p->shared_exact);
    cp_report_json_add_regime(j, o, p);
    if (p->shared_modelled) {
        cp_report_json_add_shared_counts(j, cp_json_object(j, o, "shared_load"), &p->shared_load);
        cp_report_json_add_shared_counts(j, cp_json_object(j, o, "shared_store"), &p->shared_store);
    } else {
        cp_json_null(j, o, "shared_load");
        cp_json_null(j, o, "shared_store");
    }
    cJSON *accesses = cp_json_array(j, o, "accesses");
    for (size_t i = 0; i < p->naccesses; i++) {
        const cp_access_prediction *a = &p->accesses[i];
        cJSON *ao = cp_json_append(j, accesses);
        cp_json_string(j, ao, "name", a->name);
        cp_json_string(j, ao, "op", cp_config_op_name(a->op));
        cp_json_string(j, ao, "space", cp_report_json_space_name(a->space));
        cp_json_u64(j, ao, "lane_bytes", a->lane_bytes);
        cp_json_u64(j, ao, "instructions", a->instructions);
        cp_json_u64(j, ao, "iterations", a->iterations);
        cp_json_u64(j, ao, "buffer_bytes", a->buffer_bytes);
        cp_json_bool(j, ao, "strided", a->strided);
        if (a->space == CP_SPACE_SHARED)
            cp_report_json_add_shared_counts(j, ao, &a->counts);
        else if (a->space == CP_SPACE_CONSTANT)
            cp_report_json_add_constant_counts(j, ao, &a->counts);
        else
            cp_report_json_add_counts(j, ao, &a->counts);
        cp_report_json_add_lane_map(j, ao, c, i, p);
    }
    cp_report_json_add_family_predicted(j, o, c, p);
}

/* {"requests","sectors","sectors_per_request","bytes_requested","efficiency"} of one side of
 * the measured counters. */
static void cp_report_json_add_counter_side(cp_json *j, cJSON *obj, const char *key,
                                            double requests, double sectors, double bytes)
{
    cJSON *o = cp_json_object(j, obj, key);
    cp_json_number(j, o, "requests", requests);
    cp_json_number(j, o, "sectors", sectors);
    cp_json_number(j, o, "sectors_per_request", cp_report_compute_per_request(requests, sectors));
    cp_json_number(j, o, "bytes_requested", bytes);
    cp_json_number(j, o, "efficiency", cp_report_compute_efficiency(bytes, sectors));
}

/* The measured shared-memory counters of one side. */
static void cp_report_json_add_shared_side(cp_json *j, cJSON *obj, const char *key, double requests,
                                           double wavefronts, double conflicts)
{
    cJSON *o = cp_json_object(j, obj, key);
    cp_json_number(j, o, "requests", requests);
    cp_json_number(j, o, "wavefronts", wavefronts);
    cp_json_number(j, o, "bank_conflicts", conflicts);
    cp_json_number(j, o, "wavefronts_per_request",
                   cp_report_compute_per_request(requests, wavefronts));
    cp_json_number(j, o, "bank_conflicts_per_request",
                   cp_report_compute_per_request(requests, conflicts));
}

/* The memory path's counters (readonly and async sweeps; null for the others): L1 and L2 hit
 * rates, SM active, constant, cp.async and TMA loads. */
static void cp_report_json_add_path_counters(cp_json *j, cJSON *c, const cp_counter_values *v)
{
    cp_json_number(j, c, "l1_load_hit_rate", v->l1_load_hit_rate);
    cp_json_number(j, c, "l2_read_hit_rate", v->l2_read_hit_rate);
    cp_json_number(j, c, "sm_active", v->sm_active);
    cJSON *k = cp_json_object(j, c, "constant_load");
    cp_json_number(j, k, "requests", v->constant_requests);
    cp_json_number(j, c, "ldgsts_requests", v->ldgsts_requests);
    cJSON *t = cp_json_object(j, c, "tma_load");
    cp_json_number(j, t, "requests", v->tma_load_requests);
    cp_json_number(j, t, "sectors", v->tma_load_sectors);
    cp_json_number(j, t, "sectors_per_request",
                   cp_report_compute_per_request(v->tma_load_requests, v->tma_load_sectors));
}

static const char *cp_report_json_counters_status(cp_counters_status s)
{
    switch (s) {
    case CP_COUNTERS_OK:
        return "ok";
    case CP_COUNTERS_REFUSED:
        return "refused";
    default:
        return "not_run";
    }
}

/* The kernel's resources and occupancy (null when unknown, with resources_reason), and the
 * blocks per SM each of the SM's limits allows with those that bind (cp_occupancy_compute). */
static void cp_report_json_add_resources(cp_json *j, cJSON *o, const cp_resources *r)
{
    if (!r->known) {
        cp_json_null(j, o, "resources");
        cp_report_json_add_optional_string(j, o, "resources_reason", r->reason);
        return;
    }
    cJSON *x = cp_json_object(j, o, "resources");
    cp_json_u64(j, x, "registers_per_thread", r->registers_per_thread);
    cp_json_u64(j, x, "static_shared_bytes", r->static_shared_bytes);
    cp_json_u64(j, x, "dynamic_shared_bytes", r->dynamic_shared_bytes);
    cp_json_u64(j, x, "threads_per_block", r->threads_per_block);
    cp_json_u64(j, x, "blocks_per_sm", r->blocks_per_sm);
    cp_json_number(j, x, "theoretical_occupancy", r->theoretical_occupancy);
    cp_occupancy occ;
    if (cp_report_compute_occupancy(r, &occ)) {
        cJSON *by = cp_json_object(j, x, "blocks_per_sm_by_limit");
        for (int l = 0; l < CP_LIMIT_COUNT; l++) {
            if (occ.blocks_by[l] == UINT32_MAX)
                cp_json_null(j, by, cp_limit_name((cp_limit)l));
            else
                cp_json_u64(j, by, cp_limit_name((cp_limit)l), occ.blocks_by[l]);
        }
        cJSON *lim = cp_json_array(j, x, "limited_by");
        for (int l = 0; l < CP_LIMIT_COUNT; l++) {
            if (!(occ.limiters & (1u << l)))
                continue;
            cJSON *name = cJSON_CreateString(cp_limit_name((cp_limit)l));
            if (!name || !lim || !cJSON_AddItemToArray(lim, name)) {
                cJSON_Delete(name);
                j->failed = 1;
            }
        }
    } else {
        cp_json_null(j, x, "blocks_per_sm_by_limit");
        cp_json_null(j, x, "limited_by");
    }
    cp_json_null(j, o, "resources_reason");
}

static void cp_report_json_add_measured(cp_json *j, cJSON *row, const cp_config *cfg,
                                        const cp_measurement *m)
{
    cJSON *o = cp_json_object_if(j, row, "measured", m != NULL);
    if (!o)
        return;
    cp_json_u64(j, o, "reps", m->reps);
    cJSON *t = cp_json_object(j, o, "time_s");
    cp_json_number(j, t, "median", m->time_median_s);
    cp_json_number(j, t, "min", m->time_min_s);
    cp_json_number(j, t, "max", m->time_max_s);
    cp_json_number(j, o, "noise", m->noise);
    cp_json_bool(j, o, "noisy", m->noisy);
    cp_json_number(j, o, "useful_bytes", m->useful_bytes);
    cp_json_number(j, o, "useful_bytes_per_s", m->useful_bytes_per_s);
    cp_json_number(j, o, "dram_bytes_per_s", m->dram_bytes_per_s);
    cp_json_number(j, o, "pct_of_peak", m->pct_of_peak);
    cp_json_bool(j, o, "verified", m->verified);
    cp_json_number(j, o, "flop_per_s", m->flop_per_s);
    cp_json_number(j, o, "pct_of_cublas", m->pct_of_cublas);
    cp_json_number(j, o, "rel_error_vs_cublas", m->rel_error);

    const cp_counter_values *v = &m->counters;
    cJSON *c = cp_json_object(j, o, "counters");
    cp_json_string(j, c, "status", cp_report_json_counters_status(m->counters_status));
    cp_report_json_add_optional_string(j, c, "reason", m->counters_reason);
    cp_report_json_add_counter_side(j, c, "load", v->load_requests, v->load_sectors,
                                    v->load_bytes_requested);
    cp_report_json_add_counter_side(j, c, "store", v->store_requests, v->store_sectors,
                                    v->store_bytes_requested);
    cp_json_number(j, c, "l2_read_sectors", v->l2_read_sectors);
    cp_json_number(j, c, "l2_write_sectors", v->l2_write_sectors);
    cp_json_number(j, c, "dram_read_bytes", v->dram_read_bytes);
    cp_json_number(j, c, "dram_write_bytes", v->dram_write_bytes);
    cp_json_number(j, c, "dram_throughput_pct", v->dram_throughput_pct);
    cp_report_json_add_shared_side(j, c, "shared_load", v->shared_load_requests,
                                   v->shared_load_wavefronts, v->shared_load_conflicts);
    cp_report_json_add_shared_side(j, c, "shared_store", v->shared_store_requests,
                                   v->shared_store_wavefronts, v->shared_store_conflicts);
    cp_json_number(j, c, "achieved_occupancy", v->achieved_occupancy);
    cp_report_json_add_path_counters(j, c, v);
    cp_report_json_add_family_measured(j, c, cfg, v);
    if (m->counters_status == CP_COUNTERS_OK) { /* the counters that are null, and why */
        cJSON *u = cp_json_object(j, c, "unavailable");
        for (size_t g = 0; g < m->ncounter_gaps; g++)
            cp_json_string(j, u, m->counter_gaps[g].counter, m->counter_gaps[g].reason);
    }
    cp_report_json_add_tristate(j, o, "match", m->counts_match);
    cp_report_json_add_resources(j, o, &m->resources);
    cp_report_json_add_optional_string(j, o, "load_opcode", m->load_opcode);
    cp_report_json_add_optional_string(j, o, "load_opcode_reason", m->load_opcode_reason);
}

/* One row as its own object (the caller prints and frees it). */
static cJSON *cp_report_json_new_row(cp_json *j, const cp_row *row)
{
    cJSON *o = cp_json_check(j, cJSON_CreateObject());
    cp_json_string(j, o, "pattern", cp_config_family_name(row->config.family));
    cp_report_json_add_config(j, o, &row->config);
    cp_report_json_add_predicted(j, o, &row->config, &row->predicted);
    cp_report_json_add_measured(j, o, &row->config, row->measured);
    cp_json_string(j, o, "source", cp_report_get_source(row));
    cp_report_json_add_row_device(j, o, row);
    return o;
}

cJSON *cp_report_json_row_object(const cp_row *row, int full)
{
    cp_json j = {0};
    cJSON *o;
    if (full) {
        o = cp_report_json_new_row(&j, row);
    } else {
        o = cp_json_check(&j, cJSON_CreateObject());
        cp_json_string(&j, o, "pattern", cp_config_family_name(row->config.family));
        cp_report_json_add_config(&j, o, &row->config);
    }
    if (j.failed) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The members every document starts with: schema_version, tool and command. */
static cJSON *cp_report_json_new_document(cp_json *j, const char *tool_version, const char *command)
{
    cJSON *root = cp_json_check(j, cJSON_CreateObject());
    cp_json_number(j, root, "schema_version", CP_REPORT_SCHEMA_VERSION);
    cJSON *tool = cp_json_object(j, root, "tool");
    cp_json_string(j, tool, "name", "coalprobe");
    cp_json_string(j, tool, "version", tool_version);
    cp_json_string(j, root, "command", command);
    return root;
}

/* Prints root (pretty, then a newline) to out and frees it. */
static int cp_report_json_emit(FILE *out, cJSON *root, const cp_json *j, cp_status *st)
{
    char *text = cp_json_finish(j, root);
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the JSON report: %s",
                             cp_json_why(j));
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return cp_report_check_stream(out, st);
}

/* The document j describes could not be built: why (memory, or a member without a parent). */
static int cp_report_json_failed(const cp_json *j, cp_status *st)
{
    return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the JSON report: %s", cp_json_why(j));
}

/* The document printed whole by cJSON_Print ends its header with these bytes when it has no
 * rows; a row of the "rows" array is an object printed two tabs deeper, the rows separated by
 * ", ", the last followed by "]" and the root's closing brace. The stream prints the same. */
#define CP_REPORT_JSON_ROWS_KEY "\n\t\"rows\":\t["
#define CP_REPORT_JSON_INCOMPLETE_KEY "\n\t\"incomplete\":\t"

int cp_report_json_begin(cp_report_stream *s, const cp_report *r, cp_status *st)
{
    cp_json j = {.static_keys = 1}; /* built and deleted here */
    cJSON *root = cp_report_json_new_document(&j, r->tool_version, r->command);
    cp_report_json_add_device(&j, root, r);
    cp_report_json_add_timing(&j, root, r);
    cp_json_bool(&j, root, "incomplete", r->incomplete);
    cp_json_array(&j, root, "rows");
    char *text = cp_json_finish(&j, root);
    if (!text)
        return cp_report_json_failed(&j, st);
    /* strings are printed escaped, so a line break followed by a tab is the document's own */
    const char *rows = strstr(text, CP_REPORT_JSON_ROWS_KEY);
    const char *flag = strstr(text, CP_REPORT_JSON_INCOMPLETE_KEY);
    if (!rows || !flag || strcmp(rows + strlen(CP_REPORT_JSON_ROWS_KEY), "]\n}") != 0) {
        cJSON_free(text);
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: unexpected layout of the JSON report's header");
    }
    s->incomplete_at = (long long)(flag - text) + (long long)strlen(CP_REPORT_JSON_INCOMPLETE_KEY);
    fwrite(text, 1, (size_t)(rows - text) + strlen(CP_REPORT_JSON_ROWS_KEY), s->out);
    cJSON_free(text);
    return CP_EXIT_OK;
}

int cp_report_json_row(cp_report_stream *s, const cp_row *row, cp_status *st)
{
    cp_json j = {.static_keys = 1}; /* built and deleted here */
    cJSON *o = cp_report_json_new_row(&j, row);
    char *text = cp_json_finish_frozen(&j, o);
    if (!text)
        return cp_report_json_failed(&j, st);
    if (s->nrows)
        fputs(", ", s->out);
    for (const char *p = text; *p;) { /* every line after the first two tabs deeper */
        size_t len = strcspn(p, "\n");
        fwrite(p, 1, len, s->out);
        p += len;
        if (*p) {
            fputs("\n\t\t", s->out);
            p++;
        }
    }
    cJSON_free(text);
    return CP_EXIT_OK;
}

int cp_report_json_end(cp_report_stream *s, cp_status *st)
{
    fputs("]\n}\n", s->out);
    return cp_report_check_stream(s->out, st);
}

int cp_report_write_json(FILE *out, const cp_report *r, cp_status *st)
{
    return cp_report_stream_all(out, CP_FORMAT_JSON, r, st);
}

/* The rows' objects built over the CPUs (a page's rows: a third of its time), each worker with
 * its own cp_json; keys outlive them all (static_keys). */
#define CP_REPORT_JSON_ROWS_GRAIN 64
typedef struct cp_report_json_rows_job {
    const cp_report *r;
    cJSON **items;
    cp_json *js; /* one a worker */
} cp_report_json_rows_job;

static void cp_report_json_rows_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    cp_report_json_rows_job *job = arg;
    for (uint64_t i = begin; i < end; i++)
        job->items[i] = cp_report_json_new_row(&job->js[worker], &job->r->rows[i]);
}

/* Every row's object appended to rows in order; a failure is recorded in j. */
static void cp_report_json_add_rows(cp_json *j, cJSON *rows, const cp_report *r)
{
    unsigned workers = cp_parallel_workers(r->nrows, CP_REPORT_JSON_ROWS_GRAIN);
    cp_report_json_rows_job job = {r, calloc(r->nrows ? r->nrows : 1, sizeof *job.items),
                                   calloc(workers, sizeof *job.js)};
    if (job.items && job.js) {
        for (unsigned w = 0; w < workers; w++)
            job.js[w].static_keys = 1;
        cp_parallel_for(workers, r->nrows, CP_REPORT_JSON_ROWS_GRAIN, cp_report_json_rows_chunk,
                        &job);
        for (unsigned w = 0; w < workers && !j->failed; w++)
            if (job.js[w].failed)
                *j = job.js[w];
    }
    for (size_t i = 0; i < r->nrows && rows; i++) {
        /* the rows a signal left unbuilt (or all of them, without memory for the job): here */
        cJSON *item =
            job.items && job.items[i] ? job.items[i] : cp_report_json_new_row(j, &r->rows[i]);
        if (!cJSON_AddItemToArray(rows, item)) {
            cJSON_Delete(item);
            j->failed = 1;
        }
    }
    free(job.items);
    free(job.js);
}

int cp_report_write_html(FILE *out, const cp_report *r, cp_status *st)
{
    CP_TRY(cp_report_check_report(r, st));
    /* the document the JSON stream prints, built whole */
    cp_json j = {.static_keys = 1}; /* built and deleted here */
    cJSON *root = cp_report_json_new_document(&j, r->tool_version, r->command);
    cp_report_json_add_device(&j, root, r);
    cp_report_json_add_timing(&j, root, r);
    cp_json_bool(&j, root, "incomplete", r->incomplete);
    cJSON *rows = cp_json_array(&j, root, "rows");
    if (rows)
        cp_report_json_add_rows(&j, rows, r);
    if (j.failed) {
        cJSON_Delete(root);
        return cp_report_json_failed(&j, st);
    }
    return cp_html_write_owned(out, root, NULL, st); /* which deletes root */
}

/* "cannot mark the report incomplete in 'PATH': reason". */
static int cp_report_json_mark_error(const char *path, int err, cp_status *st)
{
    int code = cp_status_set(st, CP_EXIT_RUNTIME, "cannot mark the report incomplete in '%s': %s",
                             path, strerror(err));
    cp_status_hint(st, "check that the output is writable and its disk is not full");
    return code;
}

int cp_report_stream_mark_incomplete(const cp_report_stream *s, const char *path, cp_status *st)
{
    if (!path)
        return cp_report_stream_mark_incomplete_fd(s, -1, path, st); /* says why */
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return cp_report_json_mark_error(path, errno, st);
    int rc = cp_report_stream_mark_incomplete_fd(s, fd, path, st);
    if (close(fd) != 0 && rc == CP_EXIT_OK)
        rc = cp_report_json_mark_error(path, errno, st);
    return rc;
}

int cp_report_stream_mark_incomplete_fd(const cp_report_stream *s, int fd, const char *name,
                                        cp_status *st)
{
    if (s->format != CP_FORMAT_JSON || s->incomplete_at < 0 || fd < 0)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "internal error: only a JSON report written to a file can be "
                             "marked incomplete afterwards");
    if (s->incomplete)
        return CP_EXIT_OK;
    /* "false" becomes "true": everything after it moves one byte back */
    enum { CHUNK = 1 << 20 };
    char *buf = malloc(CHUNK);
    off_t at = (off_t)s->incomplete_at;
    char flag[5];
    int err = buf ? 0 : ENOMEM;
    if (!err && (pread(fd, flag, 5, at) != 5 || memcmp(flag, "false", 5) != 0))
        err = EINVAL; /* not the stream this describes */
    errno = 0;
    if (!err && pwrite(fd, "true", 4, at) != 4)
        err = errno ? errno : EIO;
    for (off_t from = at + 5; !err;) {
        ssize_t got = pread(fd, buf, CHUNK, from);
        if (got < 0) {
            err = errno;
        } else if (got == 0) {
            if (ftruncate(fd, from - 1) != 0)
                err = errno;
            break;
        } else if ((errno = 0, pwrite(fd, buf, (size_t)got, from - 1)) != got) {
            err = errno ? errno : EIO;
        }
        from += got > 0 ? got : 0;
    }
    free(buf);
    return err ? cp_report_json_mark_error(name, err, st) : CP_EXIT_OK;
}

static const char *cp_report_json_error_kind(int code)
{
    switch (code) {
    case CP_EXIT_USAGE:
        return "usage";
    case CP_EXIT_MISMATCH:
        return "mismatch";
    default:
        return "runtime";
    }
}

/* Returns CP_EXIT_OK, or CP_EXIT_RUNTIME when the document could not be built or written. */
int cp_report_write_json_error(FILE *out, const char *tool_version, const char *command,
                               const cp_status *failure)
{
    if (!failure)
        return CP_EXIT_RUNTIME;
    cp_json j = {0};
    cp_status st;
    cJSON *root = cp_report_json_new_document(&j, tool_version, command);
    cJSON *e = cp_json_object(&j, root, "error");
    cp_json_number(&j, e, "code", failure->code);
    cp_json_string(&j, e, "kind", cp_report_json_error_kind(failure->code));
    cp_json_string(&j, e, "message", failure->message);
    cp_report_json_add_optional_string(&j, e, "hint", failure->hint);
    cp_json_array(&j, root, "rows");
    return cp_report_json_emit(out, root, &j, &st);
}
