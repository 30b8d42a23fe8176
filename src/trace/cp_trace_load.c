/* cp_trace_load.c: reads the raw trace files (cp_trace_raw.h) that the injection library wrote
 * into an in-memory trace: processes, devices, kernels and their instructions, source lines,
 * dropped records, refusals and notes. A file cut off mid-line or holding lines that are not
 * what the format says is read as far as it makes sense: bad lines are skipped and counted.
 * Every record type is read here, against one reader state (cp_trace_reader): the joins between
 * records (sources, launches and kernel records that name instructions and functions read
 * elsewhere in the file) are resolved through its tables. One file over 1,500 lines for that
 * reason: the reader state stays private to it. */
#define _POSIX_C_SOURCE 200809L
#include "cp_trace_report.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cp_cupti_util.h"
#include "inject/cp_inject.h"

#define CP_TRACE_MAX_FIELDS 64
/* 2^64: a count at or past it does not fit uint64_t */
#define CP_TRACE_TWO_TO_64 18446744073709551616.0

#define CP_TRACE_METRIC_NAME(id, name) [CP_TRACE_M_##id] = name,
static const char *const cp_trace_metric_names[CP_TRACE_NRAW_METRICS] = {
    CP_TRACE_RAW_METRICS(CP_TRACE_METRIC_NAME)};
#undef CP_TRACE_METRIC_NAME
#define CP_TRACE_METRIC_COUNT(id, name) +1
_Static_assert(0 CP_TRACE_RAW_METRICS(CP_TRACE_METRIC_COUNT) == CP_TRACE_NRAW_METRICS,
               "one CP_TRACE_M_ index per metric of the raw files");
#undef CP_TRACE_METRIC_COUNT

int cp_trace_metric_index(const char *name)
{
    for (int m = 0; m < CP_TRACE_NRAW_METRICS; m++)
        if (strcmp(name, cp_trace_metric_names[m]) == 0)
            return m;
    return -1;
}

/* CP_TRACE_K_* are CUPTI's kernel metrics (base/cp_cupti_util.h) under the report's names. */
#define CP_TRACE_SAME_KERNEL_METRIC(trace, cupti)                                                  \
    _Static_assert((int)CP_TRACE_K_##trace == (int)CP_CUPTI_KM_##cupti, "CP_TRACE_K_" #trace)
CP_TRACE_SAME_KERNEL_METRIC(LD_REQUESTS, GLOBAL_LD_REQUESTS);
CP_TRACE_SAME_KERNEL_METRIC(ST_REQUESTS, GLOBAL_ST_REQUESTS);
CP_TRACE_SAME_KERNEL_METRIC(LD_SECTORS, GLOBAL_LD_SECTORS);
CP_TRACE_SAME_KERNEL_METRIC(ST_SECTORS, GLOBAL_ST_SECTORS);
CP_TRACE_SAME_KERNEL_METRIC(LD_BYTES, GLOBAL_LD_BYTES);
CP_TRACE_SAME_KERNEL_METRIC(ST_BYTES, GLOBAL_ST_BYTES);
CP_TRACE_SAME_KERNEL_METRIC(SHARED_LD, SHARED_LD_REQUESTS);
CP_TRACE_SAME_KERNEL_METRIC(SHARED_ST, SHARED_ST_REQUESTS);
CP_TRACE_SAME_KERNEL_METRIC(LD_WAVEFRONTS, SHARED_LD_WAVEFRONTS);
CP_TRACE_SAME_KERNEL_METRIC(ST_WAVEFRONTS, SHARED_ST_WAVEFRONTS);
CP_TRACE_SAME_KERNEL_METRIC(LD_CONFLICTS, SHARED_LD_CONFLICTS);
CP_TRACE_SAME_KERNEL_METRIC(ST_CONFLICTS, SHARED_ST_CONFLICTS);
CP_TRACE_SAME_KERNEL_METRIC(LD_INSTRUCTIONS, GLOBAL_LD_INSTRUCTIONS);
CP_TRACE_SAME_KERNEL_METRIC(ST_INSTRUCTIONS, GLOBAL_ST_INSTRUCTIONS);
CP_TRACE_SAME_KERNEL_METRIC(DURATION, DURATION);
CP_TRACE_SAME_KERNEL_METRIC(LOCAL, LOCAL_SECTORS);
CP_TRACE_SAME_KERNEL_METRIC(TMA_LD, TMA_LD_SECTORS);
CP_TRACE_SAME_KERNEL_METRIC(TMA_ST, TMA_ST_SECTORS);
_Static_assert((int)CP_TRACE_KNMETRICS == (int)CP_CUPTI_KM_COUNT, "CP_TRACE_KNMETRICS");

int cp_trace_kernel_metric_index(const char *name)
{
    for (int m = 0; m < CP_TRACE_KNMETRICS; m++)
        if (strcmp(name, cp_cupti_kernel_metric_name(m)) == 0)
            return m;
    return -1;
}

/* ---- string keys to positions in the trace's arrays ------------------------------------ */

/* The position kept under key, or SIZE_MAX. */
static size_t cp_trace_map_find(const cp_table *m, const char *key)
{
    cp_table_entry *e = cp_table_find(m, key);
    return e ? e->index : SIZE_MAX;
}

/* The position kept under key, found or inserted in one lookup: when key is new (copied), next
 * is kept under it and *created set. SIZE_MAX when out of memory. */
static size_t cp_trace_map_get(cp_table *m, const char *key, size_t next, int *created)
{
    cp_table_entry *e = cp_table_get(m, key, created);
    if (!e)
        return SIZE_MAX;
    if (*created)
        e->index = next;
    return e->index;
}

/* ---- small helpers ------------------------------------------------------------------------ */

/* Grows *array (of elem bytes) to hold n + 1 items; -1 when out of memory. */
static int cp_trace_grow(void **array, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t want = *cap ? *cap * 2 : 8;
    void *grown = realloc(*array, want * elem);
    if (!grown)
        return -1;
    memset((char *)grown + *cap * elem, 0, (want - *cap) * elem);
    *array = grown;
    *cap = want;
    return 0;
}

/* Appends a malloc'd string to a list; -1 when out of memory (s is freed). */
static int cp_trace_push_string(char ***list, size_t *n, char *s)
{
    char **grown = s ? realloc(*list, (*n + 1) * sizeof **list) : NULL;
    if (!grown) {
        free(s);
        return -1;
    }
    grown[(*n)++] = s;
    *list = grown;
    return 0;
}

static char *cp_trace_vformat(const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 0)))
#endif
    ;

/* A malloc'd printf-style string; NULL when out of memory. */
static char *cp_trace_vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

void cp_trace_add_note(cp_trace *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = cp_trace_vformat(fmt, ap);
    va_end(ap);
    (void)cp_trace_push_string(&t->notes, &t->nnotes, s);
}

/* A decimal number without sign or spaces, at most max (leading zeros read as decimal). */
static int cp_trace_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    return cp_number_u64(s, strlen(s), max, 1, out) == CP_NUMBER_OK ? 0 : -1;
}

/* A signed decimal number in [-max, max]. */
static int cp_trace_parse_long(const char *s, long max, long *out)
{
    return cp_number_long(s, max, out) == CP_NUMBER_OK ? 0 : -1;
}

/* 1..8 hex digits (with "0x" first when prefixed). */
static int cp_trace_parse_hex32(const char *s, int prefixed, uint32_t *out)
{
    return cp_number_hex32(s, prefixed, out) == CP_NUMBER_OK ? 0 : -1;
}

/* Undoes the raw format's escapes in place (\\, \t, \n, \r; any other backslash stays). */
static void cp_trace_unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1]) {
            char c = r[1] == '\\'  ? '\\'
                     : r[1] == 't' ? '\t'
                     : r[1] == 'n' ? '\n'
                     : r[1] == 'r' ? '\r'
                                   : 0;
            if (c) {
                *w++ = c;
                r++;
                continue;
            }
        }
        *w++ = *r;
    }
    *w = '\0';
}

/* ---- one file ---------------------------------------------------------------------------- */

/* Records waiting for the end of the file: they may come before the instructions they name. */
typedef struct cp_trace_pending_source {
    char *key; /* CRC \t FUNCTION \t PC */
    char *file;
    uint32_t line;
} cp_trace_pending_source;

/* launch and kernel records of one (device, cubin, function), added up until the end */
typedef struct cp_trace_pending_launch {
    uint32_t device;
    uint32_t crc; /* the records' cubin, 0 where they name none */
    char *function;
    uint64_t count;              /* launch records */
    cp_trace_kernel_counters kc; /* kernel records */
    uint64_t seen;               /* its launches_seen record, when has_seen */
    int has_seen;
    int used;
    size_t kernel; /* the kernel it became (cp_trace_finish) */
} cp_trace_pending_launch;

/* A kernel_tmap record, until the kernels are known. */
typedef struct cp_trace_pending_tmap {
    uint32_t device, crc; /* crc 0: the record names no cubin */
    char *function;
    int64_t map; /* -1: unseen; -2: the launches compared ("*") */
    uint64_t launches;
} cp_trace_pending_tmap;

/* The state of one file being read. */
typedef struct cp_trace_reader {
    cp_trace_process *p;
    int columns[CP_TRACE_MAX_FIELDS]; /* metric index of each value column, -1 unknown */
    size_t ncolumns;
    int kcolumns[CP_TRACE_MAX_FIELDS]; /* the same for kernel records */
    size_t nkcolumns;
    int have_metrics, have_kernel_metrics, have_process;
    cp_table kernels; /* ORDINAL \t CRC \t FUNCTION -> kernel index */
    cp_table instrs;  /* KERNEL \t PC -> instruction index */
    cp_trace_pending_source *sources;
    size_t nsources, scap;
    cp_table nosource; /* CRC \t FUNCTION */
    cp_trace_pending_launch *launches;
    size_t nlaunches, lcap;
    cp_table launch_keys; /* ORDINAL \t CRC \t FUNCTION -> pending launch index */
    cp_table frame_ids, range_ids, site_ids; /* ID -> index in the process's array */
    int kernel_before; /* the line before this one was a kernel record (kernel_at pairs it) */
    int kernel_now;    /* this line is one */
    cp_trace_pending_tmap *tmap_uses; /* kernel_tmap records */
    size_t ntmap_uses;
    int cubin_before; /* the line before was a kernel_cubin record, of the cubin below */
    int cubin_now;
    uint32_t cubin;
    int timeable_before;  /* the line before was a kernel record or the kernel_at paired with one */
    int timeable_now;     /* this line is either (a kernel_time pairs with it) */
    size_t last_pending;  /* that kernel record's pending launch */
    size_t last_site;     /* its kernel_at's site index, or SIZE_MAX */
    uint32_t last_device; /* that kernel record's device, function and values */
    const char *last_function;
    cp_trace_kernel_counters last; /* that kernel record's values, one record */
    char key[512];
    char *bigkey; /* for a key that does not fit key[] */
    int oom;
    const char *too_large; /* a count past 2^64 on this line (the field's text): refused */
} cp_trace_reader;

/* A count: a decimal whole number that fits 64 bits; one past them is recorded in r->too_large
 * (the file is refused, not the line skipped: a count never gets there). */
static int cp_trace_parse_count(cp_trace_reader *r, const char *s, uint64_t *out)
{
    int found = cp_number_u64(s, strlen(s), UINT64_MAX, 1, out);
    if (found == CP_NUMBER_TOO_LARGE)
        r->too_large = s;
    return found == CP_NUMBER_OK ? 0 : -1;
}

/* A key made of printf-style parts, in r->key (or r->bigkey); NULL when out of memory. */
static const char *cp_trace_key(cp_trace_reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static const char *cp_trace_key(cp_trace_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->key, sizeof r->key, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof r->key)
        return r->key;
    free(r->bigkey);
    va_start(ap, fmt);
    r->bigkey = n >= 0 ? cp_trace_vformat(fmt, ap) : NULL;
    va_end(ap);
    if (!r->bigkey)
        r->oom = 1;
    return r->bigkey;
}

static char *cp_trace_dup(cp_trace_reader *r, const char *s)
{
    char *d = strdup(s);
    if (!d)
        r->oom = 1;
    return d;
}

/* The position of key's item in *array (n items of elem bytes), found or added in one lookup: a
 * new key is given position n, *array grown to hold it (zeroed) and *created set. SIZE_MAX
 * (r->oom set) when out of memory. */
static size_t cp_trace_item(cp_trace_reader *r, cp_table *m, const char *key, void **array,
                            size_t *cap, size_t n, size_t elem, int *created)
{
    size_t at = cp_trace_map_get(m, key, n, created);
    if (at == SIZE_MAX || (*created && cp_trace_grow(array, cap, n, elem) != 0)) {
        r->oom = 1;
        return SIZE_MAX;
    }
    return at;
}

/* The kernel (device, crc, function), created when new; NULL when out of memory. */
static cp_trace_kernel *cp_trace_kernel_get(cp_trace_reader *r, uint32_t device, int has_crc,
                                            uint32_t crc, const char *function)
{
    cp_trace_process *p = r->p;
    const char *key = has_crc ? cp_trace_key(r, "%u\t%08x\t%s", device, crc, function)
                              : cp_trace_key(r, "%u\t-\t%s", device, function);
    if (!key)
        return NULL;
    int created;
    size_t at = cp_trace_item(r, &r->kernels, key, (void **)&p->kernels, &p->kcap, p->nkernels,
                              sizeof *p->kernels, &created);
    if (at == SIZE_MAX)
        return NULL;
    if (!created)
        return &p->kernels[at];
    cp_trace_kernel *k = &p->kernels[p->nkernels];
    memset(k, 0, sizeof *k);
    k->device = device;
    k->has_crc = has_crc;
    k->crc = crc;
    k->function = cp_trace_dup(r, function);
    if (!k->function)
        return NULL;
    p->nkernels++;
    return k;
}

/* pc ORDINAL CRC FINDEX FUNCTION PC VALUE... */
static int cp_trace_read_pc(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t device, findex;
    uint32_t crc, pc;
    if (!r->have_metrics || nf != 6 + r->ncolumns ||
        cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0 ||
        cp_trace_parse_hex32(f[2], 0, &crc) != 0 ||
        cp_trace_parse_u64(f[3], UINT32_MAX, &findex) != 0 ||
        cp_trace_parse_hex32(f[5], 1, &pc) != 0)
        return -1;
    cp_trace_counts add = {0};
    for (size_t c = 0; c < r->ncolumns; c++) {
        const char *v = f[6 + c];
        if (strcmp(v, "-") == 0)
            continue;
        uint64_t x;
        if (cp_trace_parse_count(r, v, &x) != 0)
            return -1;
        int m = r->columns[c];
        if (m >= 0) {
            add.value[m] = x;
            add.has |= 1u << m;
        }
    }
    cp_trace_kernel *k = cp_trace_kernel_get(r, (uint32_t)device, 1, crc, f[4]);
    if (!k)
        return 0; /* out of memory: r->oom says so */
    size_t kindex = (size_t)(k - r->p->kernels);
    const char *key = cp_trace_key(r, "%zu\t%x", kindex, pc);
    if (!key)
        return 0;
    int created;
    size_t at = cp_trace_item(r, &r->instrs, key, (void **)&k->instrs, &k->cap, k->ninstrs,
                              sizeof *k->instrs, &created);
    if (at == SIZE_MAX)
        return 0;
    if (created) {
        k->ninstrs++;
        memset(&k->instrs[at], 0, sizeof k->instrs[at]);
        k->instrs[at].pc = pc;
        k->instrs[at].function_index = (uint32_t)findex;
    }
    cp_trace_counts *c = &k->instrs[at].counts;
    for (int m = 0; m < CP_TRACE_NMETRICS; m++) {
        if (!(add.has & (1u << m)))
            continue;
        /* sums saturate rather than wrap: a count near 2^64 is not a real count anyway */
        c->value[m] =
            c->value[m] > UINT64_MAX - add.value[m] ? UINT64_MAX : c->value[m] + add.value[m];
        c->has |= 1u << m;
    }
    return 0;
}

/* metrics NAME... (kernel = 0), or kernel_metrics NAME... (kernel = 1) */
static int cp_trace_read_metrics(cp_trace_reader *r, char **f, size_t nf, int kernel)
{
    if (nf < 2 || nf - 1 > CP_TRACE_MAX_FIELDS - 6)
        return -1;
    for (size_t i = 1; i < nf; i++) {
        if (kernel)
            r->kcolumns[i - 1] = cp_trace_kernel_metric_index(f[i]);
        else
            r->columns[i - 1] = cp_trace_metric_index(f[i]);
    }
    if (kernel) {
        r->nkcolumns = nf - 1;
        r->have_kernel_metrics = 1;
    } else {
        r->ncolumns = nf - 1;
        r->have_metrics = 1;
    }
    return 0;
}

/* The pending launch and kernel records of (device, cubin crc, function), created when new (crc
 * 0: records that name no cubin). */
static cp_trace_pending_launch *cp_trace_pending(cp_trace_reader *r, uint32_t device, uint32_t crc,
                                                 const char *function)
{
    const char *key = cp_trace_key(r, "%u\t%08x\t%s", (unsigned)device, crc, function);
    if (!key)
        return NULL;
    int created;
    size_t at = cp_trace_item(r, &r->launch_keys, key, (void **)&r->launches, &r->lcap,
                              r->nlaunches, sizeof *r->launches, &created);
    if (at == SIZE_MAX)
        return NULL;
    if (created) {
        r->nlaunches++;
        cp_trace_pending_launch *l = &r->launches[at];
        l->device = device;
        l->crc = crc;
        l->function = cp_trace_dup(r, function);
    }
    return &r->launches[at];
}

/* The optional CRC field of a launch or launches_seen record: 0 when absent. */
static int cp_trace_optional_crc(char **f, size_t nf, size_t at, uint32_t *crc)
{
    *crc = 0;
    return nf == at + 1 ? cp_trace_parse_hex32(f[at], 0, crc) : nf == at ? 0 : -1;
}

/* launch ORDINAL FUNCTION COUNT [CRC]: added up per (device, cubin, function) until the end. */
static int cp_trace_read_launch(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t device, count;
    uint32_t crc;
    if ((nf != 4 && nf != 5) || cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0 ||
        cp_trace_parse_count(r, f[3], &count) != 0 || cp_trace_optional_crc(f, nf, 4, &crc) != 0)
        return -1;
    cp_trace_pending_launch *l = cp_trace_pending(r, (uint32_t)device, crc, f[2]);
    if (l)
        l->count = l->count > UINT64_MAX - count ? UINT64_MAX : l->count + count;
    return 0;
}

/* launches_seen ORDINAL FUNCTION SEEN COUNTED SAMPLED [CRC]: the library's count of every launch it
 * saw (SEEN), of those counted (as the launch records) and of those with counters (as the kernel
 * records); one record per function, at the end. */
static int cp_trace_read_launches_seen(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t device, seen, counted, sampled;
    uint32_t crc;
    if ((nf != 6 && nf != 7) || cp_trace_optional_crc(f, nf, 6, &crc) != 0 ||
        cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0 ||
        cp_trace_parse_u64(f[3], UINT64_MAX, &seen) != 0 ||
        cp_trace_parse_u64(f[4], UINT64_MAX, &counted) != 0 ||
        cp_trace_parse_u64(f[5], UINT64_MAX, &sampled) != 0 || counted > seen || sampled > counted)
        return -1;
    cp_trace_pending_launch *l = cp_trace_pending(r, (uint32_t)device, crc, f[2]);
    if (l) {
        l->seen = l->seen > UINT64_MAX - seen ? UINT64_MAX : l->seen + seen;
        l->has_seen = 1;
    }
    return 0;
}

/* selection KEY VALUE: what the process was asked to count (cp_trace_raw.h). */
static int cp_trace_read_selection(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_selection *s = &r->p->selection;
    if (nf != 3)
        return -1;
    if (!s->present) {
        s->present = 1;
        s->launch_count = UINT64_MAX;
    }
    uint64_t v;
    if (strcmp(f[1], "counter_launches") == 0) {
        if (strcmp(f[2], "all") == 0) {
            s->every_launch = 1;
            return 0;
        }
        if (cp_trace_parse_u64(f[2], UINT64_MAX, &v) != 0)
            return -1;
        s->every_launch = 0;
        s->counter_launches = v;
    } else if (strcmp(f[1], "launch_skip") == 0) {
        if (cp_trace_parse_u64(f[2], UINT64_MAX, &v) != 0)
            return -1;
        s->launch_skip = v;
    } else if (strcmp(f[1], "launch_count") == 0) {
        if (cp_trace_parse_u64(f[2], UINT64_MAX, &v) != 0)
            return -1;
        s->launch_count = v;
    } else if (strcmp(f[1], "kernel") == 0 || strcmp(f[1], "nvtx_include") == 0) {
        char **to = f[1][0] == 'k' ? &s->kernel : &s->nvtx_include;
        char *copy = cp_trace_dup(r, f[2]);
        if (!copy)
            return 0; /* out of memory: said by the reader */
        free(*to);
        *to = copy;
    } else if (strcmp(f[1], "capture_range") == 0) {
        if (strcmp(f[2], "profiler-api") != 0)
            return -1;
        s->capture_profiler_api = 1;
    } else if (strcmp(f[1], "instructions") == 0) {
        /* --instructions sampled: the pc records cover the launches with kernel records only */
        if (strcmp(f[2], "sampled") != 0 && strcmp(f[2], "every") != 0)
            return -1;
        s->instructions_sampled = f[2][0] == 's';
    }
    /* a key of a later library: skipped, as unknown records are */
    return 0;
}

/* A finite number that is not negative, as strtod reads it, with nothing after it. */
static int cp_trace_parse_real(const char *s, double *out)
{
    if (!((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    double v;
    if (cp_number_real(s, &v) == CP_NUMBER_BAD || v < 0)
        return -1;
    *out = v;
    return 0;
}

/* kernel ORDINAL FUNCTION VALUE...: one launch's counters, added up per (device, function). */
static int cp_trace_read_kernel(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t device;
    if (!r->have_kernel_metrics || nf != 3 + r->nkcolumns ||
        cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0)
        return -1;
    double v[CP_TRACE_MAX_FIELDS];
    for (size_t c = 0; c < r->nkcolumns; c++) {
        v[c] = NAN;
        if (strcmp(f[3 + c], "-") != 0 && cp_trace_parse_real(f[3 + c], &v[c]) != 0)
            return -1;
        if (v[c] >= CP_TRACE_TWO_TO_64) { /* a count past 64 bits: refused, never rounded */
            r->too_large = f[3 + c];
            return -1;
        }
    }
    cp_trace_pending_launch *l =
        cp_trace_pending(r, (uint32_t)device, r->cubin_before ? r->cubin : 0, f[2]);
    if (!l)
        return 0;
    memset(&r->last, 0, sizeof r->last);
    r->last.records = 1;
    for (size_t c = 0; c < r->nkcolumns; c++) {
        int m = r->kcolumns[c];
        if (m < 0 || isnan(v[c]))
            continue;
        r->last.value[m] = v[c];
        r->last.has |= 1u << m;
    }
    cp_trace_kc_add(&l->kc, &r->last);
    r->kernel_now = r->timeable_now = 1;
    r->last_pending = (size_t)(l - r->launches);
    r->last_site = SIZE_MAX;
    r->last_device = (uint32_t)device;
    r->last_function = f[2]; /* the line's text lives until the file is read */
    return 0;
}

/* source CRC FUNCTION PC FILE LINE */
static int cp_trace_read_source(cp_trace_reader *r, char **f, size_t nf)
{
    uint32_t crc, pc;
    uint64_t line;
    if (nf != 6 || cp_trace_parse_hex32(f[1], 0, &crc) != 0 ||
        cp_trace_parse_hex32(f[3], 1, &pc) != 0 ||
        cp_trace_parse_u64(f[5], UINT32_MAX, &line) != 0 || !f[4][0])
        return -1;
    if (cp_trace_grow((void **)&r->sources, &r->scap, r->nsources, sizeof *r->sources) != 0) {
        r->oom = 1;
        return 0;
    }
    const char *key = cp_trace_key(r, "%08x\t%s\t%x", crc, f[2], pc);
    if (!key)
        return 0;
    cp_trace_pending_source *s = &r->sources[r->nsources++];
    s->key = cp_trace_dup(r, key);
    s->file = cp_trace_dup(r, f[4]);
    s->line = (uint32_t)line;
    return 0;
}

/* Appends one uninitialised item of elem bytes to *list: the item, or NULL (r->oom set) when out
 * of memory. */
static void *cp_trace_append(cp_trace_reader *r, void **list, size_t *n, size_t elem)
{
    char *grown = realloc(*list, (*n + 1) * elem);
    if (!grown) {
        r->oom = 1;
        return NULL;
    }
    *list = grown;
    return grown + (*n)++ * elem;
}

static int cp_trace_read_pair(cp_trace_reader *r, cp_trace_pair **list, size_t *n, const char *a,
                              const char *b)
{
    cp_trace_pair *x = cp_trace_append(r, (void **)list, n, sizeof *x);
    if (!x)
        return 0;
    x->a = cp_trace_dup(r, a);
    x->b = cp_trace_dup(r, b);
    return 0;
}

static int cp_trace_read_process(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    long pid, ppid;
    if (nf != 4 || r->have_process || cp_trace_parse_long(f[1], 0x7fffffffL, &pid) != 0 ||
        cp_trace_parse_long(f[2], 0x7fffffffL, &ppid) != 0)
        return -1;
    p->pid = pid;
    p->ppid = ppid;
    free(p->command);
    p->command = cp_trace_dup(r, f[3]);
    r->have_process = 1;
    return 0;
}

static int cp_trace_read_device(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t ordinal;
    if (nf != 5 || cp_trace_parse_u64(f[1], UINT32_MAX, &ordinal) != 0)
        return -1;
    cp_trace_device *d = cp_trace_append(r, (void **)&p->devices, &p->ndevices, sizeof *d);
    if (!d)
        return 0;
    d->ordinal = (uint32_t)ordinal;
    d->chip = cp_trace_dup(r, f[2]);
    d->name = cp_trace_dup(r, f[3]);
    d->cc = cp_trace_dup(r, f[4]);
    d->every_launch = 0; /* until a counting record says so */
    return 0;
}

static int cp_trace_read_counting(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t ordinal;
    if (nf != 3 || cp_trace_parse_u64(f[1], UINT32_MAX, &ordinal) != 0 ||
        (strcmp(f[2], "every_launch") != 0 && strcmp(f[2], "replayed") != 0))
        return -1;
    for (size_t i = 0; i < p->ndevices; i++)
        if (p->devices[i].ordinal == ordinal)
            p->devices[i].every_launch = strcmp(f[2], "every_launch") == 0;
    return 0;
}

static int cp_trace_read_missing(cp_trace_reader *r, char **f, size_t nf)
{
    return nf != 3 ? -1 : cp_trace_read_pair(r, &r->p->missing, &r->p->nmissing, f[1], f[2]);
}

static int cp_trace_read_cubin(cp_trace_reader *r, char **f, size_t nf)
{
    uint32_t crc;
    if (nf != 3 || cp_trace_parse_hex32(f[1], 0, &crc) != 0 || !f[2][0] || strchr(f[2], '/'))
        return -1;
    char crc_text[16];
    snprintf(crc_text, sizeof crc_text, "%08x", crc);
    return cp_trace_read_pair(r, &r->p->cubins, &r->p->ncubins, crc_text, f[2]);
}

static int cp_trace_read_nosource(cp_trace_reader *r, char **f, size_t nf)
{
    uint32_t crc;
    if (nf != 3 || cp_trace_parse_hex32(f[1], 0, &crc) != 0)
        return -1;
    const char *key = cp_trace_key(r, "%08x\t%s", crc, f[2]);
    int created;
    if (key && cp_trace_map_get(&r->nosource, key, 1, &created) == SIZE_MAX)
        r->oom = 1;
    return 0;
}

static int cp_trace_read_refused(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    long code;
    if (nf != 5 || cp_trace_parse_long(f[2], 0x7fffffffL, &code) != 0)
        return -1;
    cp_trace_refusal *x = cp_trace_append(r, (void **)&p->refusals, &p->nrefusals, sizeof *x);
    if (!x)
        return 0;
    x->call = cp_trace_dup(r, f[1]);
    x->code = (int)code;
    x->name = cp_trace_dup(r, f[3]);
    x->message = cp_trace_dup(r, f[4]);
    return 0;
}

static int cp_trace_read_dropped(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t device, count;
    if (nf != 4 || cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0 ||
        cp_trace_parse_count(r, f[2], &count) != 0)
        return -1;
    cp_trace_dropped *x = cp_trace_append(r, (void **)&p->dropped, &p->ndropped, sizeof *x);
    if (!x)
        return 0;
    x->device = (uint32_t)device;
    x->count = count;
    x->reason = cp_trace_dup(r, f[3]);
    return 0;
}

/* unmatched ORDINAL REASON: one kernel record that belongs to no known launch */
static int cp_trace_read_unmatched(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t device;
    if (nf != 3 || cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0)
        return -1;
    for (size_t i = 0; i < p->nunmatched; i++)
        if (p->unmatched[i].device == device && strcmp(p->unmatched[i].reason, f[2]) == 0) {
            p->unmatched[i].count++;
            return 0;
        }
    cp_trace_dropped *x = cp_trace_append(r, (void **)&p->unmatched, &p->nunmatched, sizeof *x);
    if (!x)
        return 0;
    x->device = (uint32_t)device;
    x->count = 1;
    x->reason = cp_trace_dup(r, f[2]);
    return 0;
}

static int cp_trace_read_note(cp_trace_reader *r, char **f, size_t nf)
{
    if (nf != 2)
        return -1;
    if (cp_trace_push_string(&r->p->notes, &r->p->nnotes, strdup(f[1])) != 0)
        r->oom = 1;
    return 0;
}

static int cp_trace_read_time(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t count;
    if (nf != 4) /* before f[2] is read: a shorter record has none */
        return -1;
    double seconds = 0;
    if (cp_number_real(f[2], &seconds) == CP_NUMBER_BAD || seconds < 0 ||
        cp_trace_parse_count(r, f[3], &count) != 0)
        return -1;
    cp_trace_time *x = cp_trace_append(r, (void **)&p->times, &p->ntimes, sizeof *x);
    if (!x)
        return 0;
    x->phase = cp_trace_dup(r, f[1]);
    x->seconds = seconds;
    x->count = count;
    return 0;
}

static int cp_trace_read_end(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t flushes, launches;
    if (nf != 3 || cp_trace_parse_count(r, f[1], &flushes) != 0 ||
        cp_trace_parse_count(r, f[2], &launches) != 0)
        return -1;
    p->complete = 1;
    p->flushes = flushes;
    p->end_launches = launches;
    return 0;
}

/* n (exactly) comma-separated decimal numbers of 1..max into v; "-" is the empty list. */
static int cp_trace_parse_list(const char *s, uint64_t max, uint64_t *v, size_t n)
{
    if (strcmp(s, "-") == 0)
        return n == 0 ? 0 : -1;
    size_t i = 0;
    for (const char *at = s;; i++) {
        const char *comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        if (i == n || cp_number_u64(at, len, max, 1, &v[i]) != CP_NUMBER_OK || v[i] == 0)
            return -1;
        if (!comma)
            break;
        at = comma + 1;
    }
    return i + 1 == n ? 0 : -1;
}

/* kernel_tmap ORDINAL FUNCTION MAP LAUNCHES [CRC]: MAP an index among the tensor_map records
 * before it, "-" (a parameter that is no recorded map) or "*" (launches compared) */
static int cp_trace_read_kernel_tmap(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t device, map = 0, launches;
    uint32_t crc;
    if (nf != 5 && nf != 6)
        return -1;
    int unseen = strcmp(f[3], "-") == 0, checked = strcmp(f[3], "*") == 0;
    if (cp_trace_parse_u64(f[1], UINT32_MAX, &device) != 0 || !f[2][0] ||
        (!unseen && !checked &&
         (cp_trace_parse_u64(f[3], UINT32_MAX, &map) != 0 || map >= r->p->ntmaps)) ||
        cp_trace_parse_count(r, f[4], &launches) != 0 || launches == 0 ||
        cp_trace_optional_crc(f, nf, 5, &crc) != 0)
        return -1;
    cp_trace_pending_tmap *u =
        cp_trace_append(r, (void **)&r->tmap_uses, &r->ntmap_uses, sizeof *u);
    if (!u)
        return 0;
    *u = (cp_trace_pending_tmap){(uint32_t)device, crc, cp_trace_dup(r, f[2]),
                                 unseen    ? -1
                                 : checked ? -2
                                           : (int64_t)map,
                                 launches};
    return 0;
}

/* The kernel_tmap records onto their kernels: the kernel of their cubin, else the first of their
 * function's name on their device. */
static void cp_trace_finish_tmaps(cp_trace_reader *r)
{
    cp_trace_process *p = r->p;
    for (size_t i = 0; i < r->ntmap_uses && !r->oom; i++) {
        const cp_trace_pending_tmap *u = &r->tmap_uses[i];
        cp_trace_kernel *k = NULL;
        for (size_t j = 0; j < p->nkernels && u->function && !k; j++) {
            cp_trace_kernel *c = &p->kernels[j];
            if (c->device == u->device && strcmp(c->function, u->function) == 0 &&
                (!u->crc || (c->has_crc && c->crc == u->crc)))
                k = c;
        }
        if (!k) /* a function launched but not counted: no kernel to name it */
            continue;
        if (u->map < 0) {
            *(u->map == -1 ? &k->tmap_unseen : &k->tmap_checked) += u->launches;
            continue;
        }
        cp_trace_kernel_tmap *x = cp_trace_append(r, (void **)&k->tmaps, &k->ntmaps, sizeof *x);
        if (x)
            *x = (cp_trace_kernel_tmap){(size_t)u->map, u->launches};
    }
}

/* tensor_map COUNT KIND TYPE BITS RANK DIMS STRIDES BOX ESTRIDES INTERLEAVE SWIZZLE L2 OOB ALIGN */
static int cp_trace_read_tensor_map(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_tmap m = {0};
    uint64_t rank = 0, bits = 0;
    if (nf != 15 || cp_trace_parse_count(r, f[1], &m.count) != 0 || /* 0: replaced only */
        (strcmp(f[2], "tiled") != 0 && strcmp(f[2], "im2col") != 0 &&
         strcmp(f[2], "im2col_wide") != 0) ||
        !f[3][0] ||
        (strcmp(f[4], "-") != 0 && (cp_trace_parse_u64(f[4], 64, &bits) != 0 || bits == 0)) ||
        cp_trace_parse_u64(f[5], CP_TRACE_TMAP_RANK, &rank) != 0 || rank == 0)
        return -1;
    m.rank = (unsigned)rank;
    m.nbox = strcmp(f[2], "tiled") == 0 ? m.rank : 2;
    if (cp_trace_parse_list(f[6], UINT64_MAX, m.dims, m.rank) != 0 ||
        cp_trace_parse_list(f[7], UINT64_MAX, m.strides, m.rank - 1) != 0 ||
        cp_trace_parse_list(f[8], UINT32_MAX, m.box, m.nbox) != 0 ||
        cp_trace_parse_list(f[9], UINT32_MAX, m.element_strides, m.rank) != 0 ||
        cp_trace_parse_u64(f[14], 256, &m.alignment) != 0 || m.alignment == 0 ||
        (m.alignment & (m.alignment - 1)) != 0)
        return -1;
    for (int i = 10; i < 14; i++)
        if (!f[i][0])
            return -1;
    m.element_bits = (unsigned)bits;
    cp_trace_tmap *x = cp_trace_append(r, (void **)&r->p->tmaps, &r->p->ntmaps, sizeof *x);
    if (!x)
        return 0;
    *x = m;
    x->kind = cp_trace_dup(r, f[2]);
    x->data_type = cp_trace_dup(r, f[3]);
    x->interleave = cp_trace_dup(r, f[10]);
    x->swizzle = cp_trace_dup(r, f[11]);
    x->l2_promotion = cp_trace_dup(r, f[12]);
    x->oob_fill = cp_trace_dup(r, f[13]);
    return 0;
}

/* tensor_map_calls ENCODES UNRECORDED REPLACED */
static int cp_trace_read_tensor_map_calls(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint64_t encodes, unrecorded, replaced;
    if (nf != 4 || cp_trace_parse_count(r, f[1], &encodes) != 0 ||
        cp_trace_parse_count(r, f[2], &unrecorded) != 0 ||
        cp_trace_parse_count(r, f[3], &replaced) != 0 || unrecorded > encodes)
        return -1;
    p->tmaps_watched = 1;
    p->tmap_encodes += encodes;
    p->tmap_unrecorded += unrecorded;
    p->tmap_replaced += replaced;
    return 0;
}

/* ---- where the launches come from ------------------------------------------------------ */

/* An ID of a frame, range or site record: a decimal from 1 to UINT32_MAX. */
static int cp_trace_parse_id(const char *s, uint32_t *out)
{
    uint64_t v;
    if (cp_trace_parse_u64(s, UINT32_MAX, &v) != 0 || v == 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* A new item of ID id in *array (n items of elem bytes, kept in ids): its position, SIZE_MAX
 * when the ID was seen before (-2 in *bad) or out of memory. */
static size_t cp_trace_new_id(cp_trace_reader *r, cp_table *ids, uint32_t id, void **array,
                              size_t *cap, size_t *n, size_t elem, int *bad)
{
    char key[16];
    snprintf(key, sizeof key, "%u", id);
    int created;
    size_t at = cp_trace_item(r, ids, key, array, cap, *n, elem, &created);
    if (at != SIZE_MAX && !created) {
        *bad = 1;
        return SIZE_MAX;
    }
    if (at != SIZE_MAX)
        (*n)++;
    return at;
}

/* The position kept under ID id, or SIZE_MAX. */
static size_t cp_trace_find_id(const cp_table *ids, uint32_t id)
{
    char key[16];
    snprintf(key, sizeof key, "%u", id);
    return cp_trace_map_find(ids, key);
}

/* interrupted REASON, once: the writer ended its trace early (a region's exception) */
static int cp_trace_read_interrupted(cp_trace_reader *r, char **f, size_t nf)
{
    if (nf != 2 || !f[1][0] || r->p->interrupted)
        return -1;
    r->p->interrupted = cp_trace_dup(r, f[1]);
    return 0;
}

/* host NAME, once */
static int cp_trace_read_host(cp_trace_reader *r, char **f, size_t nf)
{
    if (nf != 2 || !f[1][0] || r->p->host)
        return -1;
    r->p->host = cp_trace_dup(r, f[1]);
    return 0;
}

/* rank KEY VALUE: KEY one of the launchers' rank variables */
static int cp_trace_read_rank(cp_trace_reader *r, char **f, size_t nf)
{
    static const char *const keys[] = {"RANK",         "LOCAL_RANK",   "WORLD_SIZE",
                                       "SLURM_PROCID", "SLURM_NODEID", "OMPI_COMM_WORLD_RANK",
                                       "PMI_RANK"};
    int known = 0;
    for (size_t i = 0; nf == 3 && i < CP_COUNT_OF(keys); i++)
        known |= strcmp(f[1], keys[i]) == 0;
    if (!known)
        return -1;
    return cp_trace_read_pair(r, &r->p->envs, &r->p->nenvs, f[1], f[2]);
}

/* frame ID FILE LINE FUNCTION PARENT */
static int cp_trace_read_frame(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint32_t id;
    uint64_t line, parent;
    if (nf != 6 || cp_trace_parse_id(f[1], &id) != 0 || !f[2][0] ||
        cp_trace_parse_u64(f[3], UINT32_MAX, &line) != 0 ||
        cp_trace_parse_u64(f[5], UINT32_MAX, &parent) != 0)
        return -1;
    int bad = 0;
    size_t at = cp_trace_new_id(r, &r->frame_ids, id, (void **)&p->frames, &p->fcap, &p->nframes,
                                sizeof *p->frames, &bad);
    if (at == SIZE_MAX)
        return bad ? -1 : 0;
    cp_trace_frame *x = &p->frames[at];
    x->id = id;
    x->file = cp_trace_dup(r, f[2]);
    x->line = (uint32_t)line;
    x->function = cp_trace_dup(r, f[4]);
    x->parent_id = (uint32_t)parent;
    x->parent = SIZE_MAX;
    return 0;
}

/* range ID DOMAIN NAME PARENT */
static int cp_trace_read_range(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint32_t id;
    uint64_t parent;
    if (nf != 5 || cp_trace_parse_id(f[1], &id) != 0 || !f[2][0] ||
        cp_trace_parse_u64(f[4], UINT32_MAX, &parent) != 0)
        return -1;
    int bad = 0;
    size_t at = cp_trace_new_id(r, &r->range_ids, id, (void **)&p->ranges, &p->rcap, &p->nranges,
                                sizeof *p->ranges, &bad);
    if (at == SIZE_MAX)
        return bad ? -1 : 0;
    cp_trace_range *x = &p->ranges[at];
    x->id = id;
    x->domain = strcmp(f[2], "-") == 0 ? NULL : cp_trace_dup(r, f[2]);
    x->name = cp_trace_dup(r, f[3]);
    x->parent_id = (uint32_t)parent;
    x->parent = SIZE_MAX;
    return 0;
}

/* A site's FRAME field: a frame ID, or a word saying why there is none; -1 when neither. */
static int cp_trace_parse_site_frame(const char *s, cp_trace_site_kind *kind, uint32_t *id)
{
    static const struct {
        const char *word;
        cp_trace_site_kind kind;
    } words[] = {{"-", CP_TRACE_SITE_NOPYTHON},
                 {"nogil", CP_TRACE_SITE_NOGIL},
                 {"none", CP_TRACE_SITE_NOUSER},
                 {"overflow", CP_TRACE_SITE_OVERFLOW}};
    *id = 0;
    for (size_t i = 0; i < CP_COUNT_OF(words); i++)
        if (strcmp(s, words[i].word) == 0) {
            *kind = words[i].kind;
            return 0;
        }
    *kind = CP_TRACE_SITE_FRAME;
    return cp_trace_parse_id(s, id);
}

/* site ID ORDINAL FUNCTION FRAME RANGE */
static int cp_trace_read_site(cp_trace_reader *r, char **f, size_t nf)
{
    cp_trace_process *p = r->p;
    uint32_t id, frame;
    uint64_t device, range;
    cp_trace_site_kind kind;
    if (nf != 6 || cp_trace_parse_id(f[1], &id) != 0 ||
        cp_trace_parse_u64(f[2], UINT32_MAX, &device) != 0 || !f[3][0] ||
        cp_trace_parse_site_frame(f[4], &kind, &frame) != 0 ||
        cp_trace_parse_u64(f[5], UINT32_MAX, &range) != 0)
        return -1;
    int bad = 0;
    size_t at = cp_trace_new_id(r, &r->site_ids, id, (void **)&p->sites, &p->scap, &p->nsites,
                                sizeof *p->sites, &bad);
    if (at == SIZE_MAX)
        return bad ? -1 : 0;
    cp_trace_site *x = &p->sites[at];
    x->id = id;
    x->device = (uint32_t)device;
    x->function = cp_trace_dup(r, f[3]);
    x->kind = kind;
    x->frame_id = frame;
    x->range_id = (uint32_t)range;
    x->frame = x->range = SIZE_MAX;
    return 0;
}

/* launches_at SITE COUNT: added up per site */
static int cp_trace_read_launches_at(cp_trace_reader *r, char **f, size_t nf)
{
    uint32_t id;
    uint64_t count;
    size_t at;
    if (nf != 3 || cp_trace_parse_id(f[1], &id) != 0 ||
        cp_trace_parse_count(r, f[2], &count) != 0 ||
        (at = cp_trace_find_id(&r->site_ids, id)) == SIZE_MAX)
        return -1;
    cp_trace_site *x = &r->p->sites[at];
    x->launches = x->launches > UINT64_MAX - count ? UINT64_MAX : x->launches + count;
    return 0;
}

/* kernel_cubin CRC: the kernel record that follows is of that cubin's function */
static int cp_trace_read_kernel_cubin(cp_trace_reader *r, char **f, size_t nf)
{
    if (nf != 2 || cp_trace_parse_hex32(f[1], 0, &r->cubin) != 0)
        return -1;
    r->cubin_now = 1;
    return 0;
}

/* kernel_at SITE: the kernel record just before was a launch of that site */
static int cp_trace_read_kernel_at(cp_trace_reader *r, char **f, size_t nf)
{
    uint32_t id;
    size_t at;
    if (nf != 2 || !r->kernel_before || cp_trace_parse_id(f[1], &id) != 0 ||
        (at = cp_trace_find_id(&r->site_ids, id)) == SIZE_MAX)
        return -1;
    cp_trace_site *x = &r->p->sites[at];
    if (x->device != r->last_device || !x->function || strcmp(x->function, r->last_function) != 0)
        return -1; /* a site of another kernel */
    cp_trace_kc_add(&x->kc, &r->last);
    r->timeable_now = 1;
    r->last_site = at;
    return 0;
}

/* kernel_time NS: the host time of the launch of the kernel record just before (or of the one
 * before its kernel_at) */
static int cp_trace_read_kernel_time(cp_trace_reader *r, char **f, size_t nf)
{
    uint64_t ns;
    if (nf != 2 || !r->timeable_before || cp_trace_parse_count(r, f[1], &ns) != 0)
        return -1;
    cp_trace_process *p = r->p;
    if (cp_trace_grow((void **)&p->timed, &p->tcap, p->ntimed, sizeof *p->timed) != 0) {
        r->oom = 1;
        return 0;
    }
    cp_trace_timed_launch *t = &p->timed[p->ntimed++];
    t->pending = r->last_pending; /* its kernel is named by cp_trace_finish */
    t->site = r->last_site;
    t->host_ns = ns;
    t->duration_ns = cp_trace_kc_value(&r->last, CP_TRACE_K_DURATION);
    t->sectors = cp_trace_kc_sum2(&r->last, CP_TRACE_K_LD_SECTORS, CP_TRACE_K_ST_SECTORS);
    return 0;
}

static int cp_trace_read_process_metrics(cp_trace_reader *r, char **f, size_t nf)
{
    return cp_trace_read_metrics(r, f, nf, 0);
}

static int cp_trace_read_kernel_metrics(cp_trace_reader *r, char **f, size_t nf)
{
    return cp_trace_read_metrics(r, f, nf, 1);
}

/* Each record type and its reader (fields split and unescaped; -1 when malformed). */
static const struct {
    const char *type;
    int (*read)(cp_trace_reader *r, char **f, size_t nf);
} cp_trace_records[] = {
    {"pc", cp_trace_read_pc},
    {"launch", cp_trace_read_launch},
    {"source", cp_trace_read_source},
    {"kernel", cp_trace_read_kernel},
    {"metrics", cp_trace_read_process_metrics},
    {"kernel_metrics", cp_trace_read_kernel_metrics},
    {"process", cp_trace_read_process},
    {"device", cp_trace_read_device},
    {"counting", cp_trace_read_counting},
    {"missing", cp_trace_read_missing},
    {"cubin", cp_trace_read_cubin},
    {"nosource", cp_trace_read_nosource},
    {"refused", cp_trace_read_refused},
    {"dropped", cp_trace_read_dropped},
    {"unmatched", cp_trace_read_unmatched},
    {"note", cp_trace_read_note},
    {"time", cp_trace_read_time},
    {"end", cp_trace_read_end},
    {"tensor_map", cp_trace_read_tensor_map},
    {"tensor_map_calls", cp_trace_read_tensor_map_calls},
    {"kernel_tmap", cp_trace_read_kernel_tmap},
    {"host", cp_trace_read_host},
    {"interrupted", cp_trace_read_interrupted},
    {"rank", cp_trace_read_rank},
    {"frame", cp_trace_read_frame},
    {"range", cp_trace_read_range},
    {"site", cp_trace_read_site},
    {"launches_at", cp_trace_read_launches_at},
    {"kernel_at", cp_trace_read_kernel_at},
    {"kernel_cubin", cp_trace_read_kernel_cubin},
    {"kernel_time", cp_trace_read_kernel_time},
    {"selection", cp_trace_read_selection},
    {"launches_seen", cp_trace_read_launches_seen},
};

/* One line, split into fields and unescaped: -1 when it is malformed. */
static int cp_trace_read_record(cp_trace_reader *r, char **f, size_t nf)
{
    r->kernel_before = r->kernel_now;
    r->kernel_now = 0;
    r->cubin_before = r->cubin_now;
    r->cubin_now = 0;
    r->timeable_before = r->timeable_now;
    r->timeable_now = 0;
    if (!f[0][0])
        return -1; /* an empty line */
    for (size_t i = 0; i < CP_COUNT_OF(cp_trace_records); i++)
        if (strcmp(f[0], cp_trace_records[i].type) == 0)
            return cp_trace_records[i].read(r, f, nf);
    return 0; /* a record type of a later format: skipped */
}

/* One line (NUL-terminated, changed in place): split into fields at tabs, unescaped and read;
 * -1 when it is malformed. */
static int cp_trace_read_line(cp_trace_reader *r, char *line)
{
    char *f[CP_TRACE_MAX_FIELDS] = {0}; /* past nf: NULL, never a stale field */
    size_t nf = 0;
    for (char *s = line;;) {
        if (nf == CP_TRACE_MAX_FIELDS)
            return -1; /* too many fields */
        f[nf++] = s;
        char *tab = strchr(s, '\t');
        if (!tab)
            break;
        *tab = '\0';
        s = tab + 1;
    }
    for (size_t i = 0; i < nf; i++)
        cp_trace_unescape(f[i]);
    return cp_trace_read_record(r, f, nf);
}

/* The process's rank: the first of RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK and PMI_RANK that
 * its rank records hold as a number; -1 when none. */
static long cp_trace_rank_of(const cp_trace_process *p)
{
    static const char *const keys[] = {"RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"};
    for (size_t k = 0; k < CP_COUNT_OF(keys); k++)
        for (size_t i = 0; i < p->nenvs; i++) {
            long v;
            if (strcmp(p->envs[i].a, keys[k]) == 0 && p->envs[i].b &&
                cp_trace_parse_long(p->envs[i].b, 0x7fffffffL, &v) == 0 && v >= 0)
                return v;
        }
    return -1;
}

/* Resolves the IDs that frames, ranges and sites name into positions (SIZE_MAX: not read). */
static void cp_trace_finish_sites(cp_trace_reader *r)
{
    cp_trace_process *p = r->p;
    for (size_t i = 0; i < p->nframes; i++)
        if (p->frames[i].parent_id)
            p->frames[i].parent = cp_trace_find_id(&r->frame_ids, p->frames[i].parent_id);
    for (size_t i = 0; i < p->nranges; i++)
        if (p->ranges[i].parent_id)
            p->ranges[i].parent = cp_trace_find_id(&r->range_ids, p->ranges[i].parent_id);
    for (size_t i = 0; i < p->nsites; i++) {
        cp_trace_site *s = &p->sites[i];
        if (s->kind == CP_TRACE_SITE_FRAME)
            s->frame = cp_trace_find_id(&r->frame_ids, s->frame_id);
        if (s->range_id)
            s->range = cp_trace_find_id(&r->range_ids, s->range_id);
    }
    p->rank = cp_trace_rank_of(p);
}

/* Applies the records that name instructions and functions: source lines, nosource, launches
 * (a function launched but never counted becomes a kernel without instructions). */
static void cp_trace_finish(cp_trace_reader *r)
{
    cp_trace_process *p = r->p;
    cp_table sources = {0};
    int created; /* a key's first record is the one kept */
    for (size_t i = 0; i < r->nsources && !r->oom; i++)
        if (r->sources[i].key &&
            cp_trace_map_get(&sources, r->sources[i].key, i, &created) == SIZE_MAX)
            r->oom = 1;
    size_t nkernels = p->nkernels; /* kernels of launch records only are added below */
    for (size_t k = 0; k < nkernels && !r->oom; k++) {
        cp_trace_kernel *kk = &p->kernels[k];
        for (size_t i = 0; i < p->ndevices; i++)
            if (p->devices[i].ordinal == kk->device)
                kk->every_launch = p->devices[i].every_launch;
        const char *key = cp_trace_key(r, "%08x\t%s", kk->crc, kk->function);
        if (key && cp_trace_map_find(&r->nosource, key) != SIZE_MAX)
            kk->nosource = 1;
        for (size_t i = 0; i < kk->ninstrs && !r->oom; i++) {
            cp_trace_instr *in = &kk->instrs[i];
            key = cp_trace_key(r, "%08x\t%s\t%x", kk->crc, kk->function, in->pc);
            size_t at = key ? cp_trace_map_find(&sources, key) : SIZE_MAX;
            if (at != SIZE_MAX && r->sources[at].file) {
                in->file = cp_trace_dup(r, r->sources[at].file);
                in->line = r->sources[at].line;
            }
        }
        /* its cubin's launch records, else those that name no cubin */
        size_t at = SIZE_MAX;
        for (int known = kk->has_crc; known >= 0 && at == SIZE_MAX; known--) {
            key = cp_trace_key(r, "%u\t%08x\t%s", kk->device, known ? kk->crc : 0, kk->function);
            at = key ? cp_trace_map_find(&r->launch_keys, key) : SIZE_MAX;
            if (at != SIZE_MAX && r->launches[at].used)
                at = SIZE_MAX;
        }
        if (at != SIZE_MAX) {
            kk->launches = r->launches[at].count;
            kk->kc = r->launches[at].kc;
            kk->launches_seen = r->launches[at].seen;
            kk->has_seen = r->launches[at].has_seen;
            if (!kk->launches) /* no launch records: the Range Profiler counted every launch */
                kk->launches = kk->kc.records;
            r->launches[at].used = 1;
            r->launches[at].kernel = k;
        }
    }
    cp_table_free(&sources, NULL);
    for (size_t i = 0; i < r->nlaunches && !r->oom; i++) {
        cp_trace_pending_launch *l = &r->launches[i];
        if (l->used || !l->function)
            continue;
        cp_trace_kernel *k = cp_trace_kernel_get(r, l->device, l->crc != 0, l->crc, l->function);
        if (k) {
            k->launches = l->count ? l->count : l->kc.records;
            k->kc = l->kc;
            k->launches_seen = l->seen;
            k->has_seen = l->has_seen;
            l->kernel = (size_t)(k - p->kernels);
        }
    }
    /* the timed launches' pending launches become kernels; none when out of memory */
    for (size_t i = 0; i < p->ntimed && !r->oom; i++) {
        cp_trace_timed_launch *t = &p->timed[i];
        const cp_trace_kernel *k = &p->kernels[r->launches[t->pending].kernel];
        t->device = k->device;
        t->function = k->function;
    }
}

static void cp_trace_reader_free(cp_trace_reader *r)
{
    for (size_t i = 0; i < r->ntmap_uses; i++)
        free(r->tmap_uses[i].function);
    free(r->tmap_uses);
    cp_table_free(&r->kernels, NULL);
    cp_table_free(&r->instrs, NULL);
    cp_table_free(&r->nosource, NULL);
    cp_table_free(&r->launch_keys, NULL);
    cp_table_free(&r->frame_ids, NULL);
    cp_table_free(&r->range_ids, NULL);
    cp_table_free(&r->site_ids, NULL);
    for (size_t i = 0; i < r->nsources; i++) {
        free(r->sources[i].key);
        free(r->sources[i].file);
    }
    free(r->sources);
    for (size_t i = 0; i < r->nlaunches; i++)
        free(r->launches[i].function);
    free(r->launches);
    free(r->bigkey);
}

/* An array of n pairs (cp_trace_read_pair), their strings too. */
static void cp_trace_pairs_free(cp_trace_pair *pairs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(pairs[i].a);
        free(pairs[i].b);
    }
    free(pairs);
}

static void cp_trace_process_free(cp_trace_process *p)
{
    for (size_t i = 0; i < p->ntimes; i++)
        free(p->times[i].phase);
    free(p->times);
    free(p->file);
    free(p->command);
    for (size_t i = 0; i < p->ndevices; i++) {
        free(p->devices[i].chip);
        free(p->devices[i].name);
        free(p->devices[i].cc);
    }
    free(p->devices);
    cp_trace_pairs_free(p->missing, p->nmissing);
    cp_trace_pairs_free(p->cubins, p->ncubins);
    for (size_t k = 0; k < p->nkernels; k++) {
        cp_trace_kernel *kk = &p->kernels[k];
        for (size_t i = 0; i < kk->ninstrs; i++) {
            free(kk->instrs[i].file);
            free(kk->instrs[i].opcode);
        }
        free(kk->instrs);
        free(kk->tmaps);
        free(kk->function);
        free(kk->name);
        cp_trace_inductor_free(&kk->inductor);
    }
    free(p->kernels);
    for (size_t i = 0; i < p->nrefusals; i++) {
        free(p->refusals[i].call);
        free(p->refusals[i].name);
        free(p->refusals[i].message);
    }
    free(p->refusals);
    for (size_t i = 0; i < p->ndropped; i++)
        free(p->dropped[i].reason);
    free(p->dropped);
    for (size_t i = 0; i < p->nunmatched; i++)
        free(p->unmatched[i].reason);
    free(p->unmatched);
    for (size_t i = 0; i < p->nnotes; i++)
        free(p->notes[i]);
    free(p->notes);
    for (size_t i = 0; i < p->ntmaps; i++) {
        cp_trace_tmap *m = &p->tmaps[i];
        free(m->kind), free(m->data_type), free(m->interleave), free(m->swizzle);
        free(m->l2_promotion), free(m->oob_fill);
    }
    free(p->tmaps);
    free(p->dir);
    free(p->host);
    free(p->interrupted);
    free(p->selection.kernel);
    free(p->selection.nvtx_include);
    cp_trace_pairs_free(p->envs, p->nenvs);
    for (size_t i = 0; i < p->nframes; i++)
        free(p->frames[i].file), free(p->frames[i].function);
    free(p->frames);
    for (size_t i = 0; i < p->nranges; i++)
        free(p->ranges[i].domain), free(p->ranges[i].name);
    free(p->ranges);
    for (size_t i = 0; i < p->nsites; i++)
        free(p->sites[i].function);
    free(p->sites);
    free(p->timed);
    memset(p, 0, sizeof *p);
}

/* A raw file that cannot be read as a whole: "NAME: why" joins t->unreadable (the caller warns
 * on stderr) and a note says it was skipped. Out of memory loses the entry silently. */
static void cp_trace_unreadable(cp_trace *t, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void cp_trace_unreadable(cp_trace *t, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *why = cp_trace_vformat(fmt, ap);
    va_end(ap);
    if (!why)
        return;
    size_t len = strlen(name) + strlen(why) + 3;
    char *entry = malloc(len);
    if (entry) {
        snprintf(entry, len, "%s: %s", name, why);
        if (cp_trace_push_string(&t->unreadable, &t->nunreadable, entry) == 0)
            cp_trace_add_note(t, "%s: skipped", entry);
    }
    free(why);
}

/* The first line: the magic word and a version this reader knows. 1: good; 0: the file is
 * unreadable (listed with the reason). */
static int cp_trace_check_header(cp_trace *t, const char *name, char *line)
{
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\r') {
        cp_trace_unreadable(t, name,
                            "CRLF line endings (a raw file has LF line endings; it was converted "
                            "as text on the way here)");
        return 0;
    }
    char *tab = strchr(line, '\t');
    uint64_t version = 0;
    if (!tab || (size_t)(tab - line) != strlen(CP_TRACE_RAW_MAGIC) ||
        strncmp(line, CP_TRACE_RAW_MAGIC, (size_t)(tab - line)) != 0 ||
        cp_trace_parse_u64(tab + 1, UINT32_MAX, &version) != 0 || version == 0) {
        cp_trace_unreadable(t, name, "not a coalprobe raw trace (its first line is not '%s\\tN')",
                            CP_TRACE_RAW_MAGIC);
        return 0;
    }
    if (version < 1 || version > CP_TRACE_RAW_VERSION) { /* 1: a file without LDGSTS counts */
        cp_trace_unreadable(t, name,
                            "raw format version %llu, this coalprobe reads 1 to %d (report it "
                            "with the coalprobe that traced it)",
                            (unsigned long long)version, CP_TRACE_RAW_VERSION);
        return 0;
    }
    return 1;
}

int cp_trace_load_text(cp_trace *t, const char *name, const char *text, size_t len, cp_status *st)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading %s", name);
    memcpy(copy, text, len);
    copy[len] = '\0';
    /* a NUL inside the text ends it there: nothing after it is a record; one in the first line
     * (or no line break before it) is a binary file */
    size_t n = strlen(copy);
    if (n < len && !memchr(copy, '\n', n)) {
        cp_trace_unreadable(t, name, "binary, not text (a NUL byte at offset %zu)", n);
        free(copy);
        return CP_EXIT_OK;
    }
    int truncated = n > 0 && copy[n - 1] != '\n';
    if (truncated) { /* the partial last line is dropped */
        char *last = strrchr(copy, '\n');
        n = last ? (size_t)(last - copy) + 1 : 0;
        copy[n] = '\0';
    }
    char *line = copy, *nl = strchr(line, '\n');
    if (!nl) {
        cp_trace_unreadable(t, name, "%s", truncated ? "its first line is cut off" : "empty");
        free(copy);
        return CP_EXIT_OK;
    }
    *nl = '\0';
    if (!cp_trace_check_header(t, name, line)) {
        free(copy);
        return CP_EXIT_OK;
    }
    cp_trace_process proc = {0};
    cp_trace_reader r = {.p = &proc};
    proc.file = cp_trace_dup(&r, name);
    proc.truncated = truncated;
    proc.pid = -1;
    proc.ppid = -1;
    proc.rank = -1;
    size_t lineno = 1;
    for (line = nl + 1; *line && !r.oom && !r.too_large; line = nl + 1) {
        lineno++;
        nl = strchr(line, '\n');
        *nl = '\0';
        if (cp_trace_read_line(&r, line) != 0)
            proc.malformed++;
    }
    if (r.too_large) {
        char shown[64];
        cp_text_printable(shown, sizeof shown, r.too_large);
        cp_status_set(st, CP_EXIT_RUNTIME, "trace: %s:%zu: the count %s does not fit 64 bits", name,
                      lineno, shown);
        cp_status_hint(st, "the raw file is damaged, or was not written by coalprobe's injection "
                           "library: no count reaches 2^64");
        cp_trace_reader_free(&r);
        cp_trace_process_free(&proc);
        free(copy);
        return CP_EXIT_RUNTIME;
    }
    if (!r.oom) {
        cp_trace_finish(&r);
        cp_trace_finish_sites(&r);
        cp_trace_finish_tmaps(&r);
    }
    cp_trace_reader_free(&r);
    free(copy);
    cp_trace_process *grown = r.oom ? NULL : realloc(t->procs, (t->nprocs + 1) * sizeof *grown);
    if (!grown) {
        cp_trace_process_free(&proc);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading %s", name);
    }
    t->procs = grown;
    t->procs[t->nprocs++] = proc;
    return CP_EXIT_OK;
}

static int cp_trace_process_order(const void *a, const void *b)
{
    const cp_trace_process *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return strcmp(x->file ? x->file : "", y->file ? y->file : "");
}

void cp_trace_sort_processes(cp_trace *t)
{
    if (t->nprocs > 1)
        qsort(t->procs, t->nprocs, sizeof *t->procs, cp_trace_process_order);
}

static int cp_trace_name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when name is PREFIX...SUFFIX with something between them. */
static int cp_trace_name_is(const char *name, const char *prefix, const char *suffix)
{
    size_t n = strlen(name), p = strlen(prefix), q = strlen(suffix);
    return n > p + q && strncmp(name, prefix, p) == 0 && strcmp(name + n - q, suffix) == 0;
}

int cp_trace_is_raw_tsv_name(const char *name)
{
    return cp_trace_name_is(name, CP_TRACE_RAW_PREFIX, CP_TRACE_RAW_SUFFIX);
}

int cp_trace_is_raw_name(const char *name)
{
    return cp_trace_is_raw_tsv_name(name) || cp_trace_name_is(name, "cubin-", ".cubin");
}

/* The raw files read so far, by device and inode: a file reached twice (a second name for a
 * directory, a link) counts once. */
typedef struct cp_trace_seen {
    struct cp_trace_seen_file {
        dev_t dev;
        ino_t ino;
    } * files;
    size_t n, cap;
} cp_trace_seen;

/* 1 when path is a file already read (or memory ran out); records it otherwise. */
static int cp_trace_seen_before(cp_trace_seen *seen, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0; /* the reading says what it is */
    for (size_t i = 0; i < seen->n; i++)
        if (seen->files[i].dev == sb.st_dev && seen->files[i].ino == sb.st_ino)
            return 1;
    if (cp_trace_grow((void **)&seen->files, &seen->cap, seen->n, sizeof *seen->files) != 0)
        return 0;
    seen->files[seen->n++] = (struct cp_trace_seen_file){sb.st_dev, sb.st_ino};
    return 0;
}

static int cp_trace_load_dir_seen(const char *dir, cp_trace *t, const volatile sig_atomic_t *stop,
                                  cp_trace_seen *seen, cp_status *st);

int cp_trace_load_dir(const char *dir, cp_trace *t, const volatile sig_atomic_t *stop,
                      cp_status *st)
{
    cp_trace_seen seen = {0};
    int rc = cp_trace_load_dir_seen(dir, t, stop, &seen, st);
    free(seen.files);
    return rc;
}

static int cp_trace_load_dir_seen(const char *dir, cp_trace *t, const volatile sig_atomic_t *stop,
                                  cp_trace_seen *seen, cp_status *st)
{
    memset(t, 0, sizeof *t);
    t->stop = stop;
    DIR *d = opendir(dir);
    if (!d)
        return cp_status_set(st, CP_EXIT_RUNTIME,
                             "trace: cannot read the raw trace directory %s: %s", dir,
                             strerror(errno));
    char **names = NULL;
    size_t nnames = 0;
    int rc = CP_EXIT_OK;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!cp_trace_is_raw_tsv_name(e->d_name))
            continue;
        if (cp_trace_push_string(&names, &nnames, strdup(e->d_name)) != 0) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading %s", dir);
            break;
        }
    }
    closedir(d);
    if (nnames > 1)
        qsort(names, nnames, sizeof *names, cp_trace_name_order);
    t->nfiles = nnames;
    for (size_t i = 0; i < nnames && rc == CP_EXIT_OK; i++) {
        if (t->stop && *t->stop) {
            t->stopped |= CP_TRACE_STOPPED_LOAD;
            break;
        }
        size_t plen = strlen(dir) + strlen(names[i]) + 2, len = 0;
        char *path = malloc(plen);
        if (!path) {
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading %s", dir);
            break;
        }
        snprintf(path, plen, "%s/%s", dir, names[i]);
        if (cp_trace_seen_before(seen, path)) { /* the same file by another name: once */
            t->nfiles--;
            free(path);
            continue;
        }
        char *text = cp_text_read_file(path, &len);
        if (!text && errno == EFBIG)
            cp_trace_unreadable(t, names[i],
                                "it is larger than the %zu-byte limit for inputs (set "
                                "COALPROBE_MAX_INPUT_BYTES to read it)",
                                cp_text_read_limit());
        else if (!text && errno == ESPIPE) /* a FIFO is not waited for */
            cp_trace_unreadable(t, names[i], "it is not a regular file (%s)",
                                cp_text_file_kind(path));
        else if (!text)
            cp_trace_unreadable(t, names[i], "it cannot be read: %s", strerror(errno));
        else
            rc = cp_trace_load_text(t, names[i], text, len, st);
        free(text);
        free(path);
    }
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    if (rc != CP_EXIT_OK) {
        cp_trace_free(t);
        return rc;
    }
    cp_trace_sort_processes(t);
    return CP_EXIT_OK;
}

void cp_trace_free(cp_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nprocs; i++)
        cp_trace_process_free(&t->procs[i]);
    free(t->procs);
    for (size_t i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->notes);
    for (size_t i = 0; i < t->nunreadable; i++)
        free(t->unreadable[i]);
    free(t->unreadable);
    memset(t, 0, sizeof *t);
}

/* Moves the processes, notes and unreadable files of one directory's trace from into t; the
 * processes' files become DIR/NAME. -1 when out of memory (from is freed either way). */
static int cp_trace_merge(cp_trace *t, cp_trace *from, const char *dir)
{
    int bad = 0;
    cp_trace_process *grown = realloc(t->procs, (t->nprocs + from->nprocs + 1) * sizeof *grown);
    if (grown)
        t->procs = grown;
    for (size_t i = 0; i < from->nprocs; i++) {
        cp_trace_process *p = &from->procs[i];
        size_t len = strlen(dir) + strlen(p->file ? p->file : "") + 2;
        char *file = malloc(len), *d = strdup(dir);
        if (!grown || !file || !d) {
            free(file), free(d);
            cp_trace_process_free(p);
            bad = 1;
            continue;
        }
        snprintf(file, len, "%s/%s", dir, p->file ? p->file : "");
        free(p->file), free(p->dir);
        p->file = file;
        p->dir = d;
        t->procs[t->nprocs++] = *p;
    }
    from->nprocs = 0;
    for (size_t i = 0; i < from->nnotes; i++)
        bad |= cp_trace_push_string(&t->notes, &t->nnotes, from->notes[i]) != 0;
    from->nnotes = 0;
    for (size_t i = 0; i < from->nunreadable; i++)
        bad |= cp_trace_push_string(&t->unreadable, &t->nunreadable, from->unreadable[i]) != 0;
    from->nunreadable = 0;
    t->nfiles += from->nfiles;
    t->stopped |= from->stopped;
    cp_trace_free(from);
    return bad ? -1 : 0;
}

int cp_trace_load_dirs(const char *const *dirs, size_t n, cp_trace *t,
                       const volatile sig_atomic_t *stop, cp_status *st)
{
    if (n == 1)
        return cp_trace_load_dir(dirs[0], t, stop, st);
    memset(t, 0, sizeof *t);
    t->stop = stop;
    cp_trace_seen seen = {0};
    for (size_t i = 0; i < n; i++) {
        cp_trace one;
        int rc = cp_trace_load_dir_seen(dirs[i], &one, stop, &seen, st);
        if (rc == CP_EXIT_OK && cp_trace_merge(t, &one, dirs[i]) != 0)
            rc = cp_status_set(st, CP_EXIT_RUNTIME, "out of memory reading %s", dirs[i]);
        if (rc != CP_EXIT_OK) {
            free(seen.files);
            cp_trace_free(t);
            return rc;
        }
    }
    free(seen.files);
    cp_trace_sort_processes(t);
    return CP_EXIT_OK;
}
