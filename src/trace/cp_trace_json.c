/* cp_trace_json.c: the trace report as JSON (kind "trace",
 * docs/schema/coalprobe-trace.schema.json), built with cJSON: the program, processes, kernels,
 * every instruction of the selected kernels in rank order, the gate, dropped records, refusals and
 * notes. */
#include "cp_trace_report.h"
#include "cp_trace_where.h"
#include "report/cp_report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <string.h>

/* The derived counts, as the schema's "counts" fields: the one list of their keys, which the
 * writer and the reader of a saved report (coalprobe show) share. */
#define CP_TRACE_JSON_COUNT(name) CP_JSON_FIELD(cp_trace_derived, name)
static const cp_json_field cp_trace_json_count_fields[] = {
    CP_TRACE_JSON_COUNT(requests),
    CP_TRACE_JSON_COUNT(sectors),
    CP_TRACE_JSON_COUNT(ideal_sectors),
    CP_TRACE_JSON_COUNT(excess_sectors),
    CP_TRACE_JSON_COUNT(excess_bytes),
    CP_TRACE_JSON_COUNT(sectors_per_request),
    CP_TRACE_JSON_COUNT(ideal_sectors_per_request),
    CP_TRACE_JSON_COUNT(excess_pct),
    CP_TRACE_JSON_COUNT(shared_requests),
    CP_TRACE_JSON_COUNT(wavefronts),
    CP_TRACE_JSON_COUNT(ideal_wavefronts),
    CP_TRACE_JSON_COUNT(bank_conflicts),
    CP_TRACE_JSON_COUNT(wavefronts_per_request),
    CP_TRACE_JSON_COUNT(ideal_wavefronts_per_request),
    CP_TRACE_JSON_COUNT(conflict_pct),
    CP_TRACE_JSON_COUNT(ldgsts_requests),
    CP_TRACE_JSON_COUNT(fill_wavefronts),
    CP_TRACE_JSON_COUNT(ideal_fill_wavefronts),
    CP_TRACE_JSON_COUNT(fill_wavefronts_per_request),
    CP_TRACE_JSON_COUNT(ideal_fill_wavefronts_per_request),
    CP_TRACE_JSON_COUNT(atomic_requests),
    CP_TRACE_JSON_COUNT(local_requests),
    CP_TRACE_JSON_COUNT(tma_requests),
    CP_TRACE_JSON_COUNT(gmma_requests),
    CP_TRACE_JSON_COUNT(gmma_wavefronts),
};
#undef CP_TRACE_JSON_COUNT

static void cp_trace_json_counts(cp_json *j, cJSON *o, const cp_trace_derived *d)
{
    cp_json_doubles(j, o, d, cp_trace_json_count_fields, CP_COUNT_OF(cp_trace_json_count_fields));
}

void cp_trace_json_read_counts(const cJSON *o, cp_trace_derived *d)
{
    for (size_t i = 0; i < CP_COUNT_OF(cp_trace_json_count_fields); i++)
        *(double *)((char *)d + cp_trace_json_count_fields[i].offset) =
            cp_show_num(o, cp_trace_json_count_fields[i].key);
}

static void cp_trace_json_program(cp_json *j, cJSON *root, const cp_trace_run *run)
{
    cJSON *prog = cp_json_object(j, root, "program");
    cp_json_string(j, prog, "command", run->program);
    cp_json_number(j, prog, "exit_code", run->exited ? run->exit_code : NAN);
    cp_json_number(j, prog, "signal", run->signaled ? run->term_signal : NAN);
    cp_json_number(j, prog, "wall_time_s", run->wall_seconds);
    cp_json_string(j, root, "from_raw", run->from_raw);
    if (!run->from_raw || run->nfrom_raw == 0) {
        cp_json_null(j, root, "from_raw_dirs");
        return;
    }
    cJSON *dirs = cp_json_array(j, root, "from_raw_dirs");
    for (size_t i = 0; dirs && i < run->nfrom_raw; i++)
        cp_json_append_string(j, dirs, run->from_raw_dirs[i]);
}

static void cp_trace_json_options(cp_json *j, cJSON *root, const cp_trace_options *o)
{
    cJSON *opt = cp_json_object(j, root, "options");
    cp_json_number(j, opt, "top", (double)o->top);
    cp_json_string(j, opt, "kernel_regex", o->kernel_regex);
    cp_json_number(j, opt, "min_requests", (double)o->min_requests);
    cp_json_number(j, opt, "max_sectors_per_request", o->max_sectors_per_request);
    cp_json_number(j, opt, "max_excess_pct", o->max_excess_pct);
    cp_json_number(j, opt, "min_coverage", o->min_coverage);
    cp_json_string(j, opt, "group_by", cp_trace_group_name(o->group_by));
    cp_json_number(j, opt, "rank_spread", o->rank_spread);
}

/* n numbers as an array under key. */
static void cp_trace_json_u64s(cp_json *j, cJSON *o, const char *key, const uint64_t *v, size_t n)
{
    cJSON *a = cp_json_array(j, o, key);
    for (size_t i = 0; a && i < n; i++) {
        cJSON *x = cp_json_check(j, cJSON_CreateNumber((double)v[i]));
        if (x && !cJSON_AddItemToArray(a, x)) {
            cJSON_Delete(x);
            j->failed = 1;
        }
    }
}

/* The tensor maps the process encoded on the host, when its library watched them. */
static void cp_trace_json_tmaps(cp_json *j, cJSON *o, const cp_trace_process *p)
{
    if (!p->tmaps_watched)
        return;
    cJSON *list = cp_json_array(j, o, "tensor_maps");
    for (size_t i = 0; i < p->ntmaps; i++) {
        const cp_trace_tmap *m = &p->tmaps[i];
        cp_trace_tmap_judgement jm;
        cp_trace_tmap_judge(m, &jm);
        cJSON *x = cp_json_append(j, list);
        cp_json_u64(j, x, "count", m->count);
        cp_json_string(j, x, "kind", m->kind);
        cp_json_string(j, x, "data_type", m->data_type);
        cp_json_number(j, x, "element_size_bytes", m->element_bits ? m->element_bits / 8.0 : NAN);
        cp_json_number(j, x, "rank", m->rank);
        cp_trace_json_u64s(j, x, "global_dims", m->dims, m->rank);
        cp_trace_json_u64s(j, x, "global_strides_bytes", m->strides, m->rank - 1);
        cp_trace_json_u64s(j, x, "box_dims", m->box, m->nbox);
        cp_trace_json_u64s(j, x, "element_strides", m->element_strides, m->rank);
        cp_json_string(j, x, "interleave", m->interleave);
        cp_json_string(j, x, "swizzle", m->swizzle);
        cp_json_string(j, x, "l2_promotion", m->l2_promotion);
        cp_json_string(j, x, "oob_fill", m->oob_fill);
        cp_json_u64(j, x, "address_alignment_bytes", m->alignment);
        if (jm.known)
            cp_json_bool(j, x, "whole_sectors", jm.whole_sectors);
        else
            cp_json_null(j, x, "whole_sectors");
        cp_json_number(j, x, "row_bytes", jm.known ? (double)jm.row_bytes : NAN);
        cp_json_number(j, x, "row_sectors_bytes", jm.known ? (double)jm.row_sectors_bytes : NAN);
        cp_json_string(j, x, "whole_sectors_reason", jm.reason);
    }
    cp_json_u64(j, o, "tensor_map_encodes", p->tmap_encodes);
    cp_json_u64(j, o, "tensor_map_encodes_unrecorded", p->tmap_unrecorded);
    cp_json_u64(j, o, "tensor_map_address_replacements", p->tmap_replaced);
}

/* A pair (cp_trace_pair) as the object {ka: a, kb: b} at o. */
static void cp_trace_json_pair(cp_json *j, cJSON *o, const char *ka, const char *kb,
                               const cp_trace_pair *pair)
{
    cp_json_string(j, o, ka, pair->a);
    cp_json_string(j, o, kb, pair->b);
}

static void cp_trace_json_processes(cp_json *j, cJSON *root, const cp_trace *t)
{
    cJSON *list = cp_json_array(j, root, "processes");
    for (size_t p = 0; p < t->nprocs; p++) {
        const cp_trace_process *proc = &t->procs[p];
        cJSON *o = cp_json_append(j, list);
        cp_json_number(j, o, "pid", proc->pid >= 0 ? (double)proc->pid : NAN);
        cp_json_number(j, o, "ppid", proc->ppid >= 0 ? (double)proc->ppid : NAN);
        cp_json_string(j, o, "command", proc->command);
        cp_json_string(j, o, "raw_file", proc->file);
        cp_json_bool(j, o, "complete", proc->complete && !proc->truncated);
        cp_json_number(j, o, "flushes", proc->complete ? (double)proc->flushes : NAN);
        cp_json_number(j, o, "launches", proc->complete ? (double)proc->end_launches : NAN);
        cp_json_number(j, o, "malformed_lines", (double)proc->malformed);
        cp_json_bool(j, o, "truncated", proc->truncated);
        cp_trace_where_json_process(j, o, proc);
        cJSON *devices = cp_json_array(j, o, "devices");
        for (size_t i = 0; i < proc->ndevices; i++) {
            cJSON *d = cp_json_append(j, devices);
            cp_json_number(j, d, "ordinal", proc->devices[i].ordinal);
            cp_json_string(j, d, "chip", proc->devices[i].chip);
            cp_json_string(j, d, "name", proc->devices[i].name);
            cp_json_string(j, d, "compute_capability", proc->devices[i].cc);
        }
        cp_trace_json_tmaps(j, o, proc);
        cJSON *missing = cp_json_array(j, o, "missing_metrics");
        for (size_t i = 0; i < proc->nmissing; i++)
            cp_trace_json_pair(j, cp_json_append(j, missing), "name", "reason", &proc->missing[i]);
    }
}

/* "inductor": a torch.compile kernel's origin (source_nodes, original_aten, wrapper), or null. */
static void cp_trace_json_inductor(cp_json *j, cJSON *o, const cp_trace_inductor *in)
{
    cJSON *x = cp_json_object_if(j, o, "inductor", in->wrapper != NULL);
    if (!x)
        return;
    cp_json_string(j, x, "source_nodes", in->nodes);
    cp_json_string(j, x, "original_aten", in->aten);
    cp_json_string(j, x, "wrapper", in->wrapper);
}

static void cp_trace_json_line_info(cp_json *j, cJSON *o, const cp_trace_kernel *k)
{
    int any = 0;
    for (size_t i = 0; i < k->ninstrs && !any; i++)
        any = k->instrs[i].file != NULL;
    if (any || k->nosource)
        cp_json_bool(j, o, "line_info", any);
    else
        cp_json_null(j, o, "line_info");
}

/* "kernel_counters": the kernel records added up, as counted (null without kernel records). */
static void cp_trace_json_kernel_counters(cp_json *j, cJSON *o, const cp_trace_kernel_counters *kc)
{
    cJSON *c = cp_json_object_if(j, o, "kernel_counters", kc->records != 0);
    if (!c)
        return;
    cp_json_number(j, c, "launches", (double)kc->records);
    /* each key: its load and its store metric, added up */
    static const struct {
        const char *key;
        int load, store;
    } sums[] = {
        {"requests", CP_TRACE_K_LD_REQUESTS, CP_TRACE_K_ST_REQUESTS},
        {"sectors", CP_TRACE_K_LD_SECTORS, CP_TRACE_K_ST_SECTORS},
        {"bytes_requested", CP_TRACE_K_LD_BYTES, CP_TRACE_K_ST_BYTES},
        {"instructions", CP_TRACE_K_LD_INSTRUCTIONS, CP_TRACE_K_ST_INSTRUCTIONS},
        {"shared_requests", CP_TRACE_K_SHARED_LD, CP_TRACE_K_SHARED_ST},
        {"wavefronts", CP_TRACE_K_LD_WAVEFRONTS, CP_TRACE_K_ST_WAVEFRONTS},
        {"bank_conflicts", CP_TRACE_K_LD_CONFLICTS, CP_TRACE_K_ST_CONFLICTS},
        {"tma_sectors", CP_TRACE_K_TMA_LD, CP_TRACE_K_TMA_ST},
    };
    for (size_t i = 0; i < CP_COUNT_OF(sums); i++)
        cp_json_number(j, c, sums[i].key, cp_trace_kc_sum2(kc, sums[i].load, sums[i].store));
    cp_json_number(j, c, "gpu_time_s", cp_trace_kc_value(kc, CP_TRACE_K_DURATION) * 1e-9);
    cp_json_number(j, c, "local_sectors", cp_trace_kc_value(kc, CP_TRACE_K_LOCAL));
}

/* "coverage": how much of the L1-L2 traffic the counts cover (null when not counted). */
static void cp_trace_json_coverage(cp_json *j, cJSON *o, const cp_trace_coverage *c, int present)
{
    cJSON *x = cp_json_object_if(j, o, "coverage", present);
    if (!x)
        return;
    cp_json_number(j, x, "fraction", c->fraction);
    cp_json_string(j, x, "basis", c->basis);
    cp_json_number(j, x, "attributed_bytes", c->attributed_bytes);
    cp_json_number(j, x, "tma_load_bytes", c->tma_load_bytes);
    cp_json_number(j, x, "tma_store_bytes", c->tma_store_bytes);
    cp_json_number(j, x, "local_bytes", c->local_bytes);
    cp_json_bool(j, x, "excess_known", c->excess_known);
    /* by tensor-map geometry (basis tensor_map_geometry): null otherwise */
    cp_json_number(j, x, "tma_excess_bytes", c->tma_excess_bytes);
    cp_json_number(j, x, "tma_copies", c->tma_copies);
    if (isfinite(c->tma_excess_bytes))
        cp_json_bool(j, x, "tma_excess_estimate", c->tma_edge);
    else
        cp_json_null(j, x, "tma_excess_estimate");
    cp_json_string(j, x, "reason", c->reason[0] ? c->reason : NULL);
}

/* "collection": what the traced program was asked to count and what was (docs/trace.md, "What
 * is counted"): null fields where the raw files do not say. */
static void cp_trace_json_collection(cp_json *j, cJSON *root, const cp_trace_report *r)
{
    cJSON *o = cp_json_object(j, root, "collection");
    const cp_trace_selection *s = r->selection;
    if (s && s->every_launch)
        cp_json_string(j, o, "counter_launches", "all");
    else if (s)
        cp_json_number(j, o, "counter_launches", (double)s->counter_launches);
    else
        cp_json_null(j, o, "counter_launches");
    cp_json_string(j, o, "kernel", s ? s->kernel : NULL);
    cp_json_number(j, o, "launch_skip", s ? (double)s->launch_skip : NAN);
    cp_json_number(j, o, "launch_count",
                   s && s->launch_count != UINT64_MAX ? (double)s->launch_count : NAN);
    cp_json_string(j, o, "nvtx_include", s ? s->nvtx_include : NULL);
    cp_json_string(j, o, "capture_range", s && s->capture_profiler_api ? "profiler-api" : NULL);
    cp_json_string(j, o, "instructions", !s ? NULL : s->instructions_sampled ? "sampled" : "every");
    cp_json_number(j, o, "launches_seen", r->seen_known ? (double)r->launches_seen : NAN);
    cp_json_number(j, o, "launches_counted", (double)r->launches_counted);
    cp_json_number(j, o, "launches_with_counters", (double)r->launches_with_counters);
    cp_json_number(j, o, "kernels_sampled", (double)r->nsampled);
}

/* The tensor maps a kernel's launches passed ("tensor_maps": each map's index in its process's
 * "tensor_maps" and the launches that passed it; "tensor_map_launches_unseen": launches that
 * passed a 128-byte parameter that is no map encoded on the host while traced); null both where
 * the process's library did not watch the maps. */
static void cp_trace_json_kernel_tmaps(cp_json *j, cJSON *o, const cp_trace_process *p,
                                       const cp_trace_kernel *k)
{
    if (!p->tmaps_watched) {
        cp_json_null(j, o, "tensor_maps");
        cp_json_null(j, o, "tensor_map_launches_unseen");
        cp_json_null(j, o, "tensor_map_launches_checked");
        return;
    }
    cJSON *list = cp_json_array(j, o, "tensor_maps");
    for (size_t i = 0; i < k->ntmaps; i++) {
        cJSON *x = cp_json_append(j, list);
        cp_json_u64(j, x, "map", k->tmaps[i].map);
        cp_json_u64(j, x, "launches", k->tmaps[i].launches);
    }
    cp_json_u64(j, o, "tensor_map_launches_unseen", k->tmap_unseen);
    cp_json_u64(j, o, "tensor_map_launches_checked", k->tmap_checked);
}

static void cp_trace_json_kernels(cp_json *j, cJSON *root, const cp_trace_report *r)
{
    const cp_trace *t = r->trace;
    cJSON *list = cp_json_array(j, root, "kernels");
    for (size_t p = 0; p < t->nprocs; p++)
        for (size_t k = 0; k < t->procs[p].nkernels; k++) {
            const cp_trace_kernel *kk = &t->procs[p].kernels[k];
            if (!kk->selected)
                continue;
            cJSON *o = cp_json_append(j, list);
            cp_json_number(j, o, "index", (double)kk->index);
            cp_json_number(j, o, "pid", t->procs[p].pid >= 0 ? (double)t->procs[p].pid : NAN);
            cp_json_number(j, o, "device", kk->device);
            char crc[16];
            snprintf(crc, sizeof crc, "%08x", kk->crc);
            cp_json_string(j, o, "cubin_crc", kk->has_crc ? crc : NULL);
            cp_json_string(j, o, "function", kk->function);
            cp_json_string(j, o, "name", kk->name ? kk->name : kk->function);
            cp_json_number(j, o, "launches", (double)kk->launches);
            cp_json_number(j, o, "launches_seen", kk->has_seen ? (double)kk->launches_seen : NAN);
            cp_json_number(j, o, "counter_launches", (double)kk->kc.records);
            cp_json_bool(j, o, "counters_sampled", cp_trace_kernel_sampled(kk));
            cp_json_number(j, o, "instruction_launches",
                           cp_trace_kernel_instructions_sampled(kk) ? (double)kk->kc.records : NAN);
            cp_json_bool(j, o, "counted", kk->from != CP_TRACE_FROM_NONE);
            cp_json_string(j, o, "counts_from",
                           kk->from == CP_TRACE_FROM_INSTRUCTIONS ? "instructions"
                           : kk->from == CP_TRACE_FROM_KERNEL     ? "kernel_counters"
                                                                  : NULL);
            cp_json_bool(j, o, "instructions_zero", kk->instructions_zero);
            cp_json_number(j, o, "instruction_scale", kk->scale);
            cp_trace_json_line_info(j, o, kk);
            cp_trace_json_inductor(j, o, &kk->inductor);
            cp_json_number(j, o, "instructions", (double)kk->ninstrs);
            cp_trace_json_counts(j, o, &kk->d);
            cp_trace_json_kernel_counters(j, o, &kk->kc);
            cp_json_bool(j, o, "gate_failed", kk->gate_failed);
            cp_json_number(
                j, o, "excess_share",
                r->program.excess_bytes > 0 ? kk->d.excess_bytes / r->program.excess_bytes : NAN);
            cp_trace_json_coverage(j, o, &kk->cov, kk->from != CP_TRACE_FROM_NONE);
            cp_trace_json_kernel_tmaps(j, o, &t->procs[p], kk);
            cp_trace_where_json_kernel(j, o, &t->procs[p], kk);
        }
}

static void cp_trace_json_instructions(cp_json *j, cJSON *root, const cp_trace_report *r)
{
    cJSON *list = cp_json_array(j, root, "instructions");
    for (size_t i = 0; i < r->ninstrs; i++) {
        const cp_trace_instr *in = r->instrs[i];
        const cp_trace_kernel *k = r->instr_kernel[i];
        cJSON *o = cp_json_append(j, list);
        cp_json_number(j, o, "rank", in->rank ? (double)in->rank : NAN);
        cp_json_number(j, o, "kernel_index", (double)k->index);
        cp_json_number(j, o, "pid",
                       r->instr_proc[i]->pid >= 0 ? (double)r->instr_proc[i]->pid : NAN);
        cp_json_string(j, o, "kernel", k->name ? k->name : k->function);
        cp_json_number(j, o, "pc", in->pc);
        cp_json_string(j, o, "file", in->file);
        cp_json_number(j, o, "line", in->file ? (double)in->line : NAN);
        cp_json_string(j, o, "opcode", in->opcode);
        cp_json_string(j, o, "op", cp_trace_op_name(in));
        cp_json_string(j, o, "space", cp_trace_space_name(in));
        cp_json_string(j, o, "kind", cp_trace_kind_name(in));
        cp_trace_json_counts(j, o, &in->d);
        cp_json_number(j, o, "excess_share", in->excess_share);
        cp_json_number(j, o, "conflict_share", in->conflict_share);
        char meaning[700];
        cp_trace_meaning(&in->d, meaning, sizeof meaning);
        cp_json_string(j, o, "meaning", meaning[0] ? meaning : NULL);
        cp_json_bool(j, o, "gate_failed", in->gate_failed);
    }
}

static void cp_trace_json_gate(cp_json *j, cJSON *root, const cp_trace_report *r)
{
    cJSON *gate = cp_json_object(j, root, "gate");
    cp_json_bool(j, gate, "checked", r->gate_checked);
    if (r->gate_checked && !r->gate_empty) /* null: judged nothing, neither passed nor failed */
        cp_json_bool(j, gate, "passed", r->nviolations == 0);
    else
        cp_json_null(j, gate, "passed");
    cp_json_number(j, gate, "judged", (double)r->gate_judged);
    cp_json_number(j, gate, "judged_kernels", (double)r->gate_judged_kernels);
    cp_json_number(j, gate, "judged_coverage", (double)r->gate_judged_coverage);
    cJSON *list = cp_json_array(j, gate, "violations");
    for (size_t i = 0; i < r->nviolations; i++) {
        const cp_trace_violation *v = &r->violations[i];
        cJSON *o = cp_json_append(j, list);
        const cp_trace_instr *in = v->instr; /* NULL: the kernel counted as a whole */
        cp_json_string(j, o, "level", in ? "instruction" : "kernel");
        cp_json_number(j, o, "rank", in ? (double)in->rank : NAN);
        cp_json_number(j, o, "pid", v->proc->pid >= 0 ? (double)v->proc->pid : NAN);
        cp_json_string(j, o, "kernel", v->kernel->name ? v->kernel->name : v->kernel->function);
        cp_json_number(j, o, "pc", in ? in->pc : NAN);
        cp_json_string(j, o, "file", in ? in->file : NULL);
        cp_json_number(j, o, "line", in && in->file ? (double)in->line : NAN);
        cp_json_string(j, o, "metric", v->what);
        cp_json_number(j, o, "value", v->value);
        cp_json_number(j, o, "limit", v->limit);
    }
}

/* {"pid", "device", "count", "reason"} of each of list[0..n) (dropped or unmatched records). */
static void cp_trace_json_counted(cp_json *j, cJSON *array, double pid,
                                  const cp_trace_dropped *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cp_json_append(j, array);
        cp_json_number(j, o, "pid", pid);
        cp_json_number(j, o, "device", list[i].device);
        cp_json_number(j, o, "count", (double)list[i].count);
        cp_json_string(j, o, "reason", list[i].reason);
    }
}

static void cp_trace_json_records(cp_json *j, cJSON *root, const cp_trace *t)
{
    cJSON *dropped = cp_json_array(j, root, "dropped");
    cJSON *unmatched = cp_json_array(j, root, "unmatched");
    cJSON *refusals = cp_json_array(j, root, "refusals");
    cJSON *notes = cp_json_array(j, root, "notes");
    for (size_t i = 0; i < t->nnotes; i++) {
        cJSON *o = cp_json_append(j, notes);
        cp_json_null(j, o, "pid");
        cp_json_string(j, o, "text", t->notes[i]);
    }
    for (size_t p = 0; p < t->nprocs; p++) {
        const cp_trace_process *proc = &t->procs[p];
        double pid = proc->pid >= 0 ? (double)proc->pid : NAN;
        cp_trace_json_counted(j, dropped, pid, proc->dropped, proc->ndropped);
        cp_trace_json_counted(j, unmatched, pid, proc->unmatched, proc->nunmatched);
        for (size_t i = 0; i < proc->nrefusals; i++) {
            const cp_trace_refusal *x = &proc->refusals[i];
            const char *cause;
            char fix[512];
            cp_trace_refusal_text(x->code, &cause, fix, sizeof fix);
            cJSON *o = cp_json_append(j, refusals);
            cp_json_number(j, o, "pid", pid);
            cp_json_string(j, o, "call", x->call);
            cp_json_number(j, o, "code", x->code);
            cp_json_string(j, o, "name", x->name);
            cp_json_string(j, o, "message", x->message);
            cp_json_string(j, o, "cause", cause);
            cp_json_string(j, o, "hint", fix);
        }
        if (proc->malformed) {
            char text[512];
            snprintf(text, sizeof text, "%s: %zu malformed line%s skipped", proc->file,
                     proc->malformed, proc->malformed == 1 ? "" : "s");
            cJSON *o = cp_json_append(j, notes);
            cp_json_number(j, o, "pid", pid);
            cp_json_string(j, o, "text", text);
        }
        for (size_t i = 0; i < proc->nnotes; i++) {
            cJSON *o = cp_json_append(j, notes);
            cp_json_number(j, o, "pid", pid);
            cp_json_string(j, o, "text", proc->notes[i]);
        }
    }
}

/* The report as a JSON document; j->failed set when memory ran out. */
static cJSON *cp_trace_json_document(cp_json *j, const cp_trace_report *r)
{
    cJSON *root = cp_json_check(j, cJSON_CreateObject());
    cp_json_number(j, root, "schema_version", CP_TRACE_SCHEMA_VERSION);
    cp_json_string(j, root, "kind", "trace");
    cJSON *tool = cp_json_object(j, root, "tool");
    cp_json_string(j, tool, "name", "coalprobe");
    cp_json_string(j, tool, "version", r->run->tool_version);
    cp_json_string(j, root, "command", r->run->command);
    cp_trace_json_program(j, root, r->run);
    cp_json_bool(j, root, "complete", r->complete);
    cp_json_string(j, root, "incomplete_reason", r->complete ? NULL : r->incomplete_reason);
    cp_json_bool(j, root, "counted", r->counted);
    cp_json_string(j, root, "no_counts_reason", r->counted ? NULL : r->no_counts_reason);
    cp_json_string(j, root, "no_counts_hint",
                   !r->counted && r->no_counts_fix[0] ? r->no_counts_fix : NULL);
    cp_json_bool(j, root, "opcodes", r->have_opcodes);
    cp_trace_json_options(j, root, r->options);
    cJSON *totals = cp_json_object(j, root, "totals");
    cp_trace_json_counts(j, totals, &r->program);
    cp_trace_json_coverage(j, totals, &r->program_coverage, r->counted);
    cp_trace_json_collection(j, root, r);
    cp_trace_json_gate(j, root, r);
    cp_trace_json_processes(j, root, r->trace);
    cp_trace_json_kernels(j, root, r);
    cp_trace_json_instructions(j, root, r);
    cp_trace_where_json(j, root, r);
    cp_trace_json_records(j, root, r->trace);
    return root;
}

int cp_trace_write_json(FILE *out, const cp_trace_report *r, cp_status *st)
{
    cp_json j = {0};
    cJSON *root = cp_trace_json_document(&j, r);
    char *text = cp_json_finish(&j, root);
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the JSON report: %s",
                             cp_json_why(&j));
    errno = 0;
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the trace report: %s",
                             strerror(errno ? errno : EIO));
    return CP_EXIT_OK;
}

int cp_trace_write_vegalite(FILE *out, const cp_trace_report *r, cp_status *st)
{
    cp_json j = {0};
    cJSON *root = cp_trace_json_document(&j, r);
    int rc = j.failed ? cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the JSON report: %s",
                                      cp_json_why(&j))
                      : cp_report_write_vegalite_trace(out, root, st);
    cJSON_Delete(root);
    return rc;
}
