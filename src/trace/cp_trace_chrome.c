/* cp_trace_chrome.c: the trace as a timeline in the Trace Event format (chrome://tracing,
 * Perfetto; docs/schema/coalprobe-chrome-trace.schema.json), built with cJSON: per process a
 * process_name, per device a thread_name "GPU N", and one complete event per launch that has a
 * kernel_time record, placed at the host time of its launch call and as long as its GPU time. */
#include "cp_trace_report.h"
#include "report/cp_report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Above any Linux pid (PID_MAX_LIMIT): the pid given to a process whose pid an earlier process
 * of the trace has (several hosts or directories), plus its position. */
#define CP_TRACE_CHROME_PID_BASE 4194304.0

/* Timeline ids for one process: the pid, unless an earlier process has it. */
static double cp_trace_chrome_pid(const cp_trace *t, size_t i)
{
    for (size_t e = 0; e < i; e++)
        if (t->procs[e].pid == t->procs[i].pid)
            return CP_TRACE_CHROME_PID_BASE + (double)i;
    return (double)t->procs[i].pid;
}

/* A metadata event: name ("process_name" or "thread_name") of pid (and tid when >= 0). */
static void cp_trace_chrome_meta(cp_json *j, cJSON *events, const char *name, double pid,
                                 double tid, const char *value)
{
    cJSON *e = cp_json_append(j, events);
    cp_json_string(j, e, "name", name);
    cp_json_string(j, e, "ph", "M");
    cp_json_number(j, e, "pid", pid);
    if (tid >= 0)
        cp_json_number(j, e, "tid", tid);
    cJSON *args = cp_json_object(j, e, "args");
    cp_json_string(j, args, "name", value);
}

/* The thread names of p: one per device record, and one per other device of its timed launches
 * (devices are few: each launch is looked up among those named so far). */
static void cp_trace_chrome_threads(cp_json *j, cJSON *events, const cp_trace_process *p,
                                    double pid)
{
    char name[32];
    uint32_t extra[64]; /* devices named without a device record; more are not named */
    size_t nextra = 0;
    for (size_t d = 0; d < p->ndevices; d++) {
        snprintf(name, sizeof name, "GPU %u", p->devices[d].ordinal);
        cp_trace_chrome_meta(j, events, "thread_name", pid, p->devices[d].ordinal, name);
    }
    for (size_t i = 0; i < p->ntimed; i++) {
        uint32_t dev = p->timed[i].device;
        int seen = 0;
        for (size_t d = 0; d < p->ndevices && !seen; d++)
            seen = p->devices[d].ordinal == dev;
        for (size_t e = 0; e < nextra && !seen; e++)
            seen = extra[e] == dev;
        if (!seen && nextra < CP_COUNT_OF(extra)) {
            extra[nextra++] = dev;
            snprintf(name, sizeof name, "GPU %u", dev);
            cp_trace_chrome_meta(j, events, "thread_name", pid, dev, name);
        }
    }
}

/* p's kernels by the address of their function string (a timed launch points to it). -1 when
 * out of memory. */
static int cp_trace_chrome_kernels(const cp_trace_process *p, cp_table *by_function)
{
    for (size_t k = 0; k < p->nkernels; k++) {
        char key[32];
        snprintf(key, sizeof key, "%p", (const void *)p->kernels[k].function);
        int created;
        cp_table_entry *e = cp_table_get(by_function, key, &created);
        if (!e)
            return -1;
        e->value = (void *)&p->kernels[k];
    }
    return 0;
}

/* The kernel of a timed launch: the one whose function string it points to. */
static const cp_trace_kernel *cp_trace_chrome_kernel(const cp_table *by_function,
                                                     const cp_trace_timed_launch *l)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (const void *)l->function);
    const cp_table_entry *e = l->function ? cp_table_find(by_function, key) : NULL;
    return e ? e->value : NULL;
}

/* Kernel k's excess bytes apportioned to a launch of `sectors` sectors: by its share of the
 * kernel's sectors; NAN when either is not known. */
static double cp_trace_chrome_excess(const cp_trace_kernel *k, double sectors)
{
    if (isnan(sectors) || isnan(k->d.excess_bytes))
        return NAN;
    if (k->d.excess_bytes == 0)
        return 0;
    return k->d.sectors > 0 ? k->d.excess_bytes * sectors / k->d.sectors : NAN;
}

/* One complete event for launch l of kernel k in process p. */
static void cp_trace_chrome_launch(cp_json *j, cJSON *events, const cp_trace_process *p, double pid,
                                   const cp_trace_kernel *k, const cp_trace_timed_launch *l,
                                   uint64_t origin_ns)
{
    cJSON *e = cp_json_append(j, events);
    cp_json_string(j, e, "name", k->name ? k->name : k->function);
    cp_json_string(j, e, "ph", "X");
    cp_json_number(j, e, "ts", (double)(l->host_ns - origin_ns) / 1000.0);
    cp_json_number(j, e, "dur", isnan(l->duration_ns) ? 0 : l->duration_ns / 1000.0);
    cp_json_number(j, e, "pid", pid);
    cp_json_number(j, e, "tid", l->device);
    cJSON *args = cp_json_object(j, e, "args");
    cp_json_number(j, args, "sectors", l->sectors);
    cp_json_number(j, args, "excess_bytes_apportioned", cp_trace_chrome_excess(k, l->sectors));
    cp_json_number(j, args, "gpu_duration_ns", l->duration_ns);
    const cp_trace_site *s = l->site < p->nsites ? &p->sites[l->site] : NULL;
    char text[4096] = "-";
    if (s)
        cp_trace_site_line(p, s, text, sizeof text);
    cp_json_string(j, args, "call_site", strcmp(text, "-") != 0 ? text : NULL);
    text[0] = '\0';
    if (s)
        cp_trace_site_range(p, s, text, sizeof text);
    cp_json_string(j, args, "range", text[0] ? text : NULL);
    cp_json_string(j, args, "launch_time", "host");
}

/* The earliest kernel_time of the trace (the timeline's 0); 0 when there is none. */
static uint64_t cp_trace_chrome_origin(const cp_trace *t)
{
    uint64_t origin = UINT64_MAX;
    for (size_t i = 0; i < t->nprocs; i++)
        for (size_t l = 0; l < t->procs[i].ntimed; l++)
            if (t->procs[i].timed[l].host_ns < origin)
                origin = t->procs[i].timed[l].host_ns;
    return origin == UINT64_MAX ? 0 : origin;
}

int cp_trace_write_chrome(FILE *out, const cp_trace_report *r, cp_status *st)
{
    const cp_trace *t = r->trace;
    cp_json j = {0};
    cJSON *root = cp_json_check(&j, cJSON_CreateObject());
    cJSON *events = cp_json_array(&j, root, "traceEvents");
    uint64_t origin = cp_trace_chrome_origin(t);
    uint64_t records = 0, drawn = 0, unselected = 0;
    for (size_t i = 0; i < t->nprocs; i++) {
        const cp_trace_process *p = &t->procs[i];
        double pid = cp_trace_chrome_pid(t, i);
        char label[512];
        cp_trace_process_label(p, label, sizeof label);
        cp_trace_chrome_meta(&j, events, "process_name", pid, -1, label);
        cp_trace_chrome_threads(&j, events, p, pid);
        for (size_t k = 0; k < p->nkernels; k++)
            records += p->kernels[k].kc.records;
        cp_table by_function = {0};
        if (cp_trace_chrome_kernels(p, &by_function) != 0)
            j.failed = 1;
        for (size_t l = 0; l < p->ntimed && !j.failed; l++) {
            const cp_trace_kernel *k = cp_trace_chrome_kernel(&by_function, &p->timed[l]);
            if (k && !k->selected)
                unselected++;
            else if (k) {
                cp_trace_chrome_launch(&j, events, p, pid, k, &p->timed[l], origin);
                drawn++;
            }
        }
        cp_table_free(&by_function, NULL);
    }
    cp_json_string(&j, root, "displayTimeUnit", "ns");
    cJSON *other = cp_json_object(&j, root, "otherData");
    cp_json_string(&j, other, "tool", "coalprobe");
    cp_json_string(&j, other, "version", r->run->tool_version);
    cp_json_string(&j, other, "command", r->run->command);
    cp_json_u64(&j, other, "time_origin_ns", origin);
    cp_json_string(&j, other, "time_clock", "CLOCK_REALTIME");
    cp_json_u64(&j, other, "launches_drawn", drawn);
    cp_json_u64(&j, other, "launches_without_time",
                records > drawn + unselected ? records - drawn - unselected : 0);
    cp_json_u64(&j, other, "launches_not_selected", unselected);
    char *text = cp_json_finish(&j, root);
    if (!text)
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot build the timeline: %s", cp_json_why(&j));
    errno = 0;
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    if (fflush(out) != 0 || ferror(out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the timeline: %s",
                             strerror(errno ? errno : EIO));
    return CP_EXIT_OK;
}
