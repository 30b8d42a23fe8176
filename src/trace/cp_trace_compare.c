/* cp_trace_compare.c: coalprobe compare on two trace reports: the instructions of each, summed
 * per process command, kernel name and source line (or PC without line information), are the
 * items of the comparison (src/report/cp_compare_core.c), judged on excess bytes, sectors per
 * request and wavefronts per request (lower is better, within the tolerance); the program's
 * total excess and bank conflicts too. */
#include "cp_trace.h"
#include "cp_trace_report.h"
#include "report/cp_report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CP_TRACE_CMP_HINT "compare reads the reports that coalprobe trace --format json writes"
#define CP_TRACE_CMP_SEP '\x1f'
/* the longest description of an instruction in an error message */
#define CP_TRACE_CMP_LABEL_MAX 160
/* room for ":LINE" or "pc ..." of any double, all of its digits (DBL_MAX has 309) */
#define CP_TRACE_CMP_WHERE_MAX 400
/* PCs below this print in hex; beyond, as decimal digits (no cast out of range) */
#define CP_TRACE_CMP_PC_HEX_BELOW 18446744073709551616.0

/* ---- loading ------------------------------------------------------------------------------- */

/* The document at path, read strictly (cp_json_read); NULL when it cannot be read or is not
 * JSON (st says why when it was refused or could not be read). */
static cJSON *cp_trace_cmp_parse(const char *path, cp_status *st)
{
    cp_json_read_result r;
    int rc = cp_json_read(path, 0, &r, st);
    cJSON *root = rc == CP_EXIT_OK ? r.root : NULL;
    if (rc == CP_EXIT_OK)
        r.root = NULL; /* kept */
    cp_json_read_free(&r);
    return root;
}

static int cp_trace_cmp_kind_is_trace(const cJSON *root)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
    return cJSON_IsObject(root) && cJSON_IsString(kind) && strcmp(kind->valuestring, "trace") == 0;
}

int cp_trace_compare_is_trace(const char *path)
{
    cp_status st;
    cp_status_clear(&st);
    cJSON *root = cp_trace_cmp_parse(path, &st);
    int yes = root && cp_trace_cmp_kind_is_trace(root);
    cJSON_Delete(root);
    return yes;
}

/* One matched unit: the instructions of one key, summed. */
typedef struct cp_trace_cmp_entry {
    char *key; /* process SEP kernel SEP where */
    double requests, sectors, ideal_sectors, excess_bytes;
    double shared_requests, wavefronts, ideal_wavefronts;
    unsigned has; /* bit per field above: present as a number at least once */
    size_t instructions;
} cp_trace_cmp_entry;

enum { CP_TRACE_CMP_NFIELDS = 7 };
static const char *const cp_trace_cmp_fields[CP_TRACE_CMP_NFIELDS] = {
    "requests",        "sectors",    "ideal_sectors",   "excess_bytes",
    "shared_requests", "wavefronts", "ideal_wavefronts"};

static double *cp_trace_cmp_field(cp_trace_cmp_entry *e, int i)
{
    double *f[CP_TRACE_CMP_NFIELDS] = {&e->requests,        &e->sectors,         &e->ideal_sectors,
                                       &e->excess_bytes,    &e->shared_requests, &e->wavefronts,
                                       &e->ideal_wavefronts};
    return f[i];
}

typedef struct cp_trace_cmp_doc {
    const char *path;
    cJSON *root;
    cp_trace_cmp_entry *entries;
    size_t n;
    int complete;
    double total_excess; /* totals.excess_bytes, NAN when null */
    double total_conflicts;
} cp_trace_cmp_doc;

static int cp_trace_cmp_not_trace(const cp_trace_cmp_doc *d, const char *why, cp_status *st)
{
    cp_status_set(st, CP_EXIT_USAGE, "'%s' is not a coalprobe trace report: %s", d->path, why);
    cp_status_hint(st, "%s; a trace report is compared only with another trace report",
                   CP_TRACE_CMP_HINT);
    return CP_EXIT_USAGE;
}

static const char *cp_trace_cmp_string(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : fallback;
}

static double cp_trace_cmp_number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The process pid in processes[], NULL when none; its command, "?" when none. */
static const cJSON *cp_trace_cmp_process(const cJSON *processes, double pid)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, processes)
    {
        if (cp_trace_cmp_number(p, "pid") == pid)
            return p;
    }
    return NULL;
}
static const char *cp_trace_cmp_command(const cJSON *processes, double pid)
{
    return cp_trace_cmp_string(cp_trace_cmp_process(processes, pid), "command", "?");
}

static int cp_trace_cmp_key_order(const void *a, const void *b)
{
    return strcmp(((const cp_trace_cmp_entry *)a)->key, ((const cp_trace_cmp_entry *)b)->key);
}

static void cp_trace_cmp_free_doc(void *report)
{
    cp_trace_cmp_doc *d = report;
    for (size_t i = 0; i < d->n; i++)
        free(d->entries[i].key);
    free(d->entries);
    cJSON_Delete(d->root);
}

/* "pc 0x1a2b" of a PC (the schema keeps it a whole number from 0). */
static void cp_trace_cmp_pc(char *where, size_t size, double pc)
{
    if (pc >= 0 && pc < CP_TRACE_CMP_PC_HEX_BELOW)
        snprintf(where, size, "pc 0x%04llx", (unsigned long long)pc);
    else
        snprintf(where, size, "pc %.0f", pc);
}

/* An element of instructions[], kernels[] or processes[] in words, for an error message: its
 * kernel or command and its place, escaped for a terminal; "" when it has none of them. */
static void cp_trace_cmp_label(const cJSON *item, char *out, size_t size)
{
    const char *name = cp_trace_cmp_string(item, "kernel", NULL);
    if (!name)
        name = cp_trace_cmp_string(item, "name", NULL);
    if (!name)
        name = cp_trace_cmp_string(item, "command", NULL);
    const char *file = cp_trace_cmp_string(item, "file", NULL);
    double line = cp_trace_cmp_number(item, "line"), pc = cp_trace_cmp_number(item, "pc");
    char where[CP_TRACE_CMP_WHERE_MAX] = "";
    if (file && isfinite(line))
        snprintf(where, sizeof where, ":%.0f", line);
    else if (isfinite(pc))
        cp_trace_cmp_pc(where, sizeof where, pc);
    size_t len =
        strlen(name ? name : "") + strlen(file && isfinite(line) ? file : "") + strlen(where) + 4;
    char *text = malloc(len);
    out[0] = '\0';
    if (!text)
        return;
    snprintf(text, len, "%s%s%s%s", name ? name : "", name && *where ? ", " : "",
             file && isfinite(line) ? file : "", where);
    size_t need = cp_text_printable(out, size, text);
    if (need >= size && size > 4) { /* cut: said so, at a character's start */
        size_t at = strlen(out) >= 3 ? strlen(out) - 3 : 0;
        while (at > 0 && ((unsigned char)out[at] & 0xc0) == 0x80)
            at--;
        memcpy(out + at, "...", 4);
    }
    free(text);
}

/* A report that fails docs/schema/coalprobe-trace.schema.json is not compared: the error names
 * the file, the element (its index, kernel and line), the key, what was expected and found. */
static int cp_trace_cmp_check_schema(const cp_trace_cmp_doc *d, cp_status *st)
{
    cp_schema_error err;
    int rc = cp_schema_validate(CP_SCHEMA_TRACE, d->root, &err, st);
    if (rc != CP_EXIT_USAGE)
        return rc;
    char label[CP_TRACE_CMP_LABEL_MAX + 1] = "";
    if (err.array)
        cp_trace_cmp_label(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d->root, err.array),
                                              (int)err.index),
                           label, sizeof label);
    rc = cp_schema_status(st, d->path, CP_SCHEMA_TRACE, &err, label[0] ? label : NULL);
    cp_schema_error_free(&err);
    return rc;
}

/* Reads d->path and checks that it is a trace report of this schema version that passes its
 * schema; d->root holds the document. */
static int cp_trace_cmp_open(cp_trace_cmp_doc *d, cp_status *st)
{
    cp_status_clear(st);
    d->root = cp_trace_cmp_parse(d->path, st);
    if (!d->root && st->code != CP_EXIT_OK)
        return st->code;
    if (!d->root) {
        cp_status_set(st, CP_EXIT_USAGE, "'%s' is not JSON", d->path);
        cp_status_hint(st, "%s", CP_TRACE_CMP_HINT);
        return CP_EXIT_USAGE;
    }
    if (!cp_trace_cmp_kind_is_trace(d->root))
        return cp_trace_cmp_not_trace(d, "its \"kind\" is not \"trace\"", st);
    if (cp_trace_cmp_number(d->root, "schema_version") != CP_TRACE_SCHEMA_VERSION) {
        cp_status_set(st, CP_EXIT_USAGE,
                      "'%s' is not a trace report of schema_version %d, which this coalprobe "
                      "(%s) reads",
                      d->path, CP_TRACE_SCHEMA_VERSION, CP_VERSION);
        cp_status_hint(st, "compare reports of the same schema");
        return CP_EXIT_USAGE;
    }
    return cp_trace_cmp_check_schema(d, st);
}

/* Adds the entry of one item: an instruction, or a kernel counted as a whole; its key is the
 * process's command, the kernel and the source line (or PC, or "(whole kernel)"). */
static int cp_trace_cmp_add(cp_trace_cmp_doc *d, const cJSON *procs, const cJSON *in, int whole,
                            cp_status *st)
{
    if (!cJSON_IsObject(in))
        return cp_trace_cmp_not_trace(d, "an instruction is not an object", st);
    const char *command = cp_trace_cmp_command(procs, cp_trace_cmp_number(in, "pid"));
    const char *kernel = cp_trace_cmp_string(in, whole ? "name" : "kernel", "?");
    const char *file = whole ? NULL : cp_trace_cmp_string(in, "file", NULL);
    double line = cp_trace_cmp_number(in, "line"), pc = cp_trace_cmp_number(in, "pc");
    char where[CP_TRACE_CMP_WHERE_MAX];
    if (whole)
        snprintf(where, sizeof where, "(whole kernel)");
    else if (file && isfinite(line))
        snprintf(where, sizeof where, ":%.0f", line);
    else if (isfinite(pc))
        cp_trace_cmp_pc(where, sizeof where, pc);
    else
        snprintf(where, sizeof where, "?");
    size_t len = strlen(command) + strlen(kernel) + (file && isfinite(line) ? strlen(file) : 0) +
                 strlen(where) + 4;
    cp_trace_cmp_entry *e = &d->entries[d->n];
    e->key = malloc(len);
    if (!e->key)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    snprintf(e->key, len, "%s%c%s%c%s%s", command, CP_TRACE_CMP_SEP, kernel, CP_TRACE_CMP_SEP,
             file && isfinite(line) ? file : "", where);
    d->n++;
    e->instructions = 1;
    for (int f = 0; f < CP_TRACE_CMP_NFIELDS; f++) {
        double v = cp_trace_cmp_number(in, cp_trace_cmp_fields[f]);
        *cp_trace_cmp_field(e, f) = isfinite(v) ? v : 0;
        if (isfinite(v))
            e->has |= 1u << f;
    }
    return CP_EXIT_OK;
}

/* Sorts the entries by key and adds up those of one key (the instructions of one source line). */
static void cp_trace_cmp_sum_keys(cp_trace_cmp_doc *d)
{
    if (d->n > 1)
        qsort(d->entries, d->n, sizeof *d->entries, cp_trace_cmp_key_order);
    size_t w = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (w > 0 && strcmp(d->entries[w - 1].key, d->entries[i].key) == 0) {
            cp_trace_cmp_entry *into = &d->entries[w - 1];
            for (int f = 0; f < CP_TRACE_CMP_NFIELDS; f++)
                *cp_trace_cmp_field(into, f) += *cp_trace_cmp_field(&d->entries[i], f);
            into->has |= d->entries[i].has;
            into->instructions++;
            free(d->entries[i].key);
        } else {
            d->entries[w++] = d->entries[i];
        }
    }
    d->n = w;
}

/* Loads the report at path into report: its instructions summed per key, sorted by key. */
static int cp_trace_cmp_load(void *report, const char *path, cp_status *st)
{
    cp_trace_cmp_doc *d = report;
    d->path = path;
    CP_TRY(cp_trace_cmp_open(d, st));
    const cJSON *instrs = cJSON_GetObjectItemCaseSensitive(d->root, "instructions");
    const cJSON *procs = cJSON_GetObjectItemCaseSensitive(d->root, "processes");
    if (!cJSON_IsArray(instrs) || !cJSON_IsArray(procs))
        return cp_trace_cmp_not_trace(d, "it has no \"instructions\" and \"processes\" arrays", st);
    d->complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d->root, "complete"));
    const cJSON *totals = cJSON_GetObjectItemCaseSensitive(d->root, "totals");
    d->total_excess = cp_trace_cmp_number(totals, "excess_bytes");
    d->total_conflicts = cp_trace_cmp_number(totals, "bank_conflicts");
    /* kernels counted only as a whole are compared as a whole, beside the instructions */
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(d->root, "kernels");
    size_t count = (size_t)cJSON_GetArraySize(instrs) + (size_t)cJSON_GetArraySize(kernels);
    d->entries = calloc(count ? count : 1, sizeof *d->entries);
    if (!d->entries)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    for (const cJSON *in = instrs->child; in; in = in->next)
        CP_TRY(cp_trace_cmp_add(d, procs, in, 0, st));
    for (const cJSON *k = cJSON_IsArray(kernels) ? kernels->child : NULL; k; k = k->next)
        if (strcmp(cp_trace_cmp_string(k, "counts_from", ""), "kernel_counters") == 0)
            CP_TRY(cp_trace_cmp_add(d, procs, k, 1, st));
    cp_trace_cmp_sum_keys(d);
    return CP_EXIT_OK;
}

/* ---- the report's items ------------------------------------------------------------------- */

static const cp_compare_metric_def cp_trace_cmp_excess = {"excess_bytes", CP_COMPARE_LOWER, "", 1};
static const cp_compare_metric_def cp_trace_cmp_sectors = {"sectors_per_request", CP_COMPARE_LOWER,
                                                           "", 1};
static const cp_compare_metric_def cp_trace_cmp_wavefronts = {"wavefronts_per_request",
                                                              CP_COMPARE_LOWER, "", 1};
static const cp_compare_metric_def cp_trace_cmp_conflicts = {"bank_conflicts", CP_COMPARE_LOWER, "",
                                                             1};

static double cp_trace_cmp_per(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

/* v of def appended to item's values (room for it made by the caller), when it is finite. */
static void cp_trace_cmp_value(cp_compare_item *item, const cp_compare_metric_def *def, double v)
{
    if (isfinite(v))
        item->values[item->nvalues++] = (cp_compare_value){def, v, NULL};
}

/* A number for the text: digits when whole, else 4 significant digits. */
static void cp_trace_cmp_format(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

static void cp_trace_cmp_text_values(cp_strbuf *b, const cp_compare_metric *m)
{
    char base[48], now[48];
    cp_trace_cmp_format(base, sizeof base, m->base);
    cp_trace_cmp_format(now, sizeof now, m->now);
    cp_strbuf_printf(b, "%s -> %s (", base, now);
    if (m->base != 0)
        cp_strbuf_printf(b, "%+.1f%%", 100 * (m->now - m->base) / m->base);
    else
        cp_strbuf_str(b, "n/a");
}

/* The process, kernel and where of a key: a copy of it cut at its separators, parts[] pointing
 * into it (the caller frees it); a part after the last separator there is is "", at the very
 * end of the part before it. NULL when memory runs out. */
static char *cp_trace_cmp_split(const char *key, const char *parts[3])
{
    size_t len = strlen(key);
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, key, len + 1);
    char *s = copy;
    for (int i = 0; i < 3; i++) {
        parts[i] = s;
        char *sep = i < 2 ? strchr(s, CP_TRACE_CMP_SEP) : NULL;
        if (sep)
            *sep = '\0';
        s = sep ? sep + 1 : s + strlen(s);
    }
    return copy;
}

/* "process | kernel | where" of an item's key, escaped for a terminal. */
static void cp_trace_cmp_text_id(cp_strbuf *b, const cp_compare_item *item)
{
    const char *parts[3];
    char *copy = cp_trace_cmp_split(item->key, parts);
    if (!copy) {
        b->failed = 1;
        return;
    }
    for (int i = 0; i < 3; i++) {
        cp_strbuf_printable(b, parts[i]);
        if (i < 2 && parts[i + 1] != parts[i] + strlen(parts[i])) /* a separator follows */
            cp_strbuf_str(b, " | ");
    }
    free(copy);
}

/* {"process", "kernel", "where"} of an item's key. */
static void cp_trace_cmp_json_id(cp_json *j, cJSON *o, const cp_compare_item *item)
{
    static const char *const names[3] = {"process", "kernel", "where"};
    const char *parts[3];
    char *copy = cp_trace_cmp_split(item->key, parts);
    if (!copy) {
        j->failed = 1;
        return;
    }
    for (int i = 0; i < 3; i++)
        cp_json_string(j, o, names[i], parts[i]);
    free(copy);
}

static void cp_trace_cmp_text_same(FILE *out, size_t same, size_t matched, const char *tolerance)
{
    fprintf(out, "%zu %smatched source line%s or PC%s the same within %s\n", same,
            same == matched ? "" : "other ", same == 1 ? "" : "s", same == 1 ? " is" : "s are",
            tolerance);
}

/* The summed instructions of d as items (their keys taken over from d), and the program's
 * totals. */
static int cp_trace_cmp_side(void *report, cp_compare_side *s, cp_status *st)
{
    cp_trace_cmp_doc *d = report;
    s->incomplete = !d->complete;
    cp_compare_devices_of(d->root, s->device, sizeof s->device);
    s->items = calloc(d->n ? d->n : 1, sizeof *s->items);
    s->total.values = malloc(2 * sizeof *s->total.values);
    if (!s->items || !s->total.values)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
    for (; s->n < d->n; s->n++) {
        cp_trace_cmp_entry *e = &d->entries[s->n];
        cp_compare_item *item = &s->items[s->n];
        item->values = malloc(3 * sizeof *item->values);
        if (!item->values)
            return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing '%s'", d->path);
        item->key = e->key;
        e->key = NULL;
        cp_trace_cmp_value(item, &cp_trace_cmp_excess, (e->has & 8u) ? e->excess_bytes : NAN);
        cp_trace_cmp_value(item, &cp_trace_cmp_sectors, cp_trace_cmp_per(e->sectors, e->requests));
        cp_trace_cmp_value(item, &cp_trace_cmp_wavefronts,
                           cp_trace_cmp_per(e->wavefronts, e->shared_requests));
    }
    /* the program's total excess: waste that moved to a line of its own is still waste */
    cp_trace_cmp_value(&s->total, &cp_trace_cmp_excess, d->total_excess);
    cp_trace_cmp_value(&s->total, &cp_trace_cmp_conflicts, d->total_conflicts);
    return CP_EXIT_OK;
}

/* ---- what changed in each kernel's tensor maps and verdict (issue 45) ----------------------- */

/* A map's geometry in words, as the text table says it: "tiled float32 rank 1: box 12 of 1000,
 * 4 B elements, swizzle none". */
static void cp_trace_cmp_geometry(char *buf, size_t n, const cJSON *m)
{
    char box[128] = "", dims[160] = "";
    const cJSON *v;
    size_t b = 0, d = 0;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(m, "box_dims"))
    {
        if (b < sizeof box)
            b += (size_t)snprintf(box + b, sizeof box - b, "%s%.0f", b ? "x" : "", v->valuedouble);
    }
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(m, "global_dims"))
    {
        if (d < sizeof dims)
            d +=
                (size_t)snprintf(dims + d, sizeof dims - d, "%s%.0f", d ? "x" : "", v->valuedouble);
    }
    snprintf(buf, n, "%s %s rank %.0f: box %s of %s, %.0f B elements, swizzle %s",
             cp_trace_cmp_string(m, "kind", "?"), cp_trace_cmp_string(m, "data_type", "?"),
             cp_trace_cmp_number(m, "rank"), box, dims,
             cp_trace_cmp_number(m, "element_size_bytes"), cp_trace_cmp_string(m, "swizzle", "?"));
}

/* The kernel of root named name in a process running command; NULL when none. */
static const cJSON *cp_trace_cmp_kernel(const cJSON *root, const char *command, const char *name)
{
    const cJSON *k, *procs = cJSON_GetObjectItemCaseSensitive(root, "processes");
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(root, "kernels"))
    {
        if (!strcmp(cp_trace_cmp_string(k, "name", ""), name) &&
            !strcmp(cp_trace_cmp_command(procs, cp_trace_cmp_number(k, "pid")), command))
            return k;
    }
    return NULL;
}

/* One side of a change: a string, a yes or no (0, 1; -1: unknown), or a map's entry. */
typedef struct cp_trace_cmp_was {
    const char *text; /* a string, or a map's geometry in words; NULL: null */
    int yes;          /* -1: not a yes or no */
    const cJSON *map; /* a map: its entry of the process's tensor_maps; NULL: none */
    double id;        /* its index there */
    int bytes;        /* 1: a number of bytes, in id (NAN: null) */
} cp_trace_cmp_was;

/* One side of a change as JSON, under key of o. */
static void cp_trace_cmp_was_json(const cp_trace_cmp_was *w, cp_json *j, cJSON *o, const char *key)
{
    const cJSON *whole = cJSON_GetObjectItemCaseSensitive(w->map, "whole_sectors");
    if (w->map) {
        cJSON *m = cp_json_object(j, o, key);
        cp_json_number(j, m, "map", w->id);
        cp_json_string(j, m, "geometry", w->text);
        if (cJSON_IsBool(whole))
            cp_json_bool(j, m, "whole_sectors", cJSON_IsTrue(whole));
        else
            cp_json_null(j, m, "whole_sectors");
        cp_json_string(j, m, "whole_sectors_reason",
                       cp_trace_cmp_string(w->map, "whole_sectors_reason", NULL));
    } else if (w->yes >= 0) {
        cp_json_bool(j, o, key, w->yes);
    } else if (w->bytes) {
        cp_json_number(j, o, key, w->id); /* NAN: null */
    } else {
        cp_json_string(j, o, key, w->text);
    }
}

/* One side of a change in words, escaped for a terminal, into b: "#1 tiled float32 rank 1: box
 * 12 of 1000, 4 B elements, swizzle none (whole sectors: no: rows of 48 B ...)", "yes", "none". */
static void cp_trace_cmp_was_text(const cp_trace_cmp_was *w, cp_strbuf *b)
{
    const cJSON *whole = cJSON_GetObjectItemCaseSensitive(w->map, "whole_sectors");
    const char *reason = cp_trace_cmp_string(w->map, "whole_sectors_reason", NULL);
    cp_strbuf_reset(b);
    if (w->bytes) {
        char n[32];
        cp_trace_format_bytes(n, sizeof n, w->id);
        cp_strbuf_str(b, isfinite(w->id) ? n : "none");
        return;
    }
    if (!w->map) {
        cp_strbuf_printable(b, w->yes >= 0 ? (w->yes ? "yes" : "no") : w->text ? w->text : "none");
        return;
    }
    cp_strbuf_printf(b, "#%.0f ", w->id);
    cp_strbuf_printable(b, w->text);
    cp_strbuf_printf(b, " (whole sectors: %s",
                     !cJSON_IsBool(whole)  ? "unknown"
                     : cJSON_IsTrue(whole) ? "yes"
                                           : "no");
    if (reason && !cJSON_IsTrue(whole)) {
        cp_strbuf_str(b, ": ");
        cp_strbuf_printable(b, reason);
    }
    cp_strbuf_str(b, ")");
}

/* What the comparison writes while it goes through the kernels. */
typedef struct cp_trace_cmp_says {
    int json;
    FILE *out;
    cp_json *j;
    cJSON *list;    /* JSON: kernel_changes */
    cJSON *changes; /* JSON: the current kernel's changes; NULL until it has one */
    int said;       /* text: the section's heading written */
    int named;      /* text: the current kernel's line written */
    const char *command, *kernel;
    cp_strbuf line; /* text: a side in words */
} cp_trace_cmp_says;

/* One change of the current kernel: what (its JSON name key and its words), the map's position
 * in the kernel's list (-1: not a map), base and new. The text: "  excess known  yes -> no", or
 * for a map its base and new on lines of their own, wrapped at the table's width. */
static void cp_trace_cmp_say(cp_trace_cmp_says *s, const char *key, const char *words, int position,
                             const cp_trace_cmp_was *b, const cp_trace_cmp_was *n)
{
    if (s->json) {
        if (!s->changes) {
            cJSON *k = cp_json_append(s->j, s->list);
            cp_json_string(s->j, k, "process", s->command);
            cp_json_string(s->j, k, "kernel", s->kernel);
            s->changes = cp_json_array(s->j, k, "changes");
        }
        cJSON *c = cp_json_append(s->j, s->changes);
        cp_json_string(s->j, c, "what", key);
        if (position >= 0)
            cp_json_number(s->j, c, "position", position);
        cp_trace_cmp_was_json(b, s->j, c, "base");
        cp_trace_cmp_was_json(n, s->j, c, "new");
        return;
    }
    if (!s->said++)
        fputs("\nkernels whose tensor maps or verdict changed (not judged: docs/trace.md)\n",
              s->out);
    if (!s->named++) {
        cp_text_put_printable(s->out, s->command);
        fputs(" | ", s->out);
        cp_text_put_printable(s->out, s->kernel);
        fputc('\n', s->out);
    }
    if (position >= 0) {
        fprintf(s->out, "  %s %d\n", words, position);
        cp_trace_cmp_was_text(b, &s->line);
        cp_trace_table_wrap(s->out, "    base: ", "      ", cp_strbuf_text(&s->line, "?"));
        cp_trace_cmp_was_text(n, &s->line);
        cp_trace_table_wrap(s->out, "    new:  ", "      ", cp_strbuf_text(&s->line, "?"));
        return;
    }
    fprintf(s->out, "  %-22s  ", words);
    cp_trace_cmp_was_text(b, &s->line);
    fputs(cp_strbuf_text(&s->line, "?"), s->out);
    fputs(" -> ", s->out);
    cp_trace_cmp_was_text(n, &s->line);
    fputs(cp_strbuf_text(&s->line, "?"), s->out);
    fputc('\n', s->out);
}

/* The tensor_maps of kernel k's process in root (by its pid), NULL when none. */
static const cJSON *cp_trace_cmp_process_maps(const cJSON *root, const cJSON *k)
{
    const cJSON *p = cp_trace_cmp_process(cJSON_GetObjectItemCaseSensitive(root, "processes"),
                                          cp_trace_cmp_number(k, "pid"));
    return cJSON_GetObjectItemCaseSensitive(p, "tensor_maps");
}

/* Map i of kernel k's list of maps passed (NULL map when it has none there), an entry of its
 * process's maps. */
static cp_trace_cmp_was cp_trace_cmp_map_of(const cJSON *maps, const cJSON *k, int i, char *buf,
                                            size_t n)
{
    cp_trace_cmp_was w = {NULL, -1, NULL, NAN, 0};
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(k, "tensor_maps"), i);
    w.id = cp_trace_cmp_number(e, "map");
    if (e && isfinite(w.id) && w.id >= 0 && w.id < 1e9)
        w.map = cJSON_GetArrayItem(maps, (int)w.id);
    if (w.map) {
        cp_trace_cmp_geometry(buf, n, w.map);
        w.text = buf;
    }
    return w;
}

/* A kernel's coverage basis and whether its excess is known, for the comparison. */
static cp_trace_cmp_was cp_trace_cmp_basis(const cJSON *k)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(k, "coverage");
    return (cp_trace_cmp_was){cp_trace_cmp_string(c, "basis", NULL), -1, NULL, NAN, 0};
}
/* The bytes a kernel's TMA copies moved past their boxes' by its maps' geometry (NAN: none). */
static cp_trace_cmp_was cp_trace_cmp_tma_excess(const cJSON *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(k, "coverage"), "tma_excess_bytes");
    return (cp_trace_cmp_was){
        .text = NULL, .yes = -1, .id = cJSON_IsNumber(v) ? v->valuedouble : NAN, .bytes = 1};
}
static cp_trace_cmp_was cp_trace_cmp_known(const cJSON *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(k, "coverage"), "excess_known");
    return (cp_trace_cmp_was){NULL, cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1, NULL, NAN, 0};
}

/* The changes of one kernel matched in both reports: its coverage basis, whether its excess is
 * known, and the maps its launches passed, by their place in its list (the maps' indices are
 * each report's own): another geometry, or a map that became whole sectors or stopped being. */
static void cp_trace_cmp_kernel_changes(cp_trace_cmp_says *s, const cJSON *broot, const cJSON *kb,
                                        const cJSON *nroot, const cJSON *kn)
{
    cp_trace_cmp_was b = cp_trace_cmp_basis(kb), n = cp_trace_cmp_basis(kn);
    if ((b.text == NULL) != (n.text == NULL) || (b.text && strcmp(b.text, n.text)))
        cp_trace_cmp_say(s, "coverage_basis", "coverage basis", -1, &b, &n);
    b = cp_trace_cmp_known(kb), n = cp_trace_cmp_known(kn);
    if (b.yes != n.yes)
        cp_trace_cmp_say(s, "excess_known", "excess known", -1, &b, &n);
    b = cp_trace_cmp_tma_excess(kb), n = cp_trace_cmp_tma_excess(kn);
    if (isfinite(b.id) != isfinite(n.id) || (isfinite(b.id) && b.id != n.id))
        cp_trace_cmp_say(s, "tma_excess_bytes", "TMA excess by maps", -1, &b, &n);
    int nb = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(kb, "tensor_maps"));
    int nn = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(kn, "tensor_maps"));
    const cJSON *mb = cp_trace_cmp_process_maps(broot, kb),
                *mn = cp_trace_cmp_process_maps(nroot, kn);
    for (int i = 0; i < nb || i < nn; i++) {
        char gb[400], gn[400];
        b = cp_trace_cmp_map_of(mb, kb, i, gb, sizeof gb);
        n = cp_trace_cmp_map_of(mn, kn, i, gn, sizeof gn);
        const cJSON *wb = cJSON_GetObjectItemCaseSensitive(b.map, "whole_sectors");
        const cJSON *wn = cJSON_GetObjectItemCaseSensitive(n.map, "whole_sectors");
        if ((b.map == NULL) != (n.map == NULL) || (b.map && strcmp(gb, gn)) ||
            cJSON_IsTrue(wb) != cJSON_IsTrue(wn) || cJSON_IsBool(wb) != cJSON_IsBool(wn))
            cp_trace_cmp_say(s, "tensor_map", "tensor map", i, &b, &n);
    }
}

/* cp_compare_kind's changes: the kernels of both reports (matched by process command and name)
 * whose tensor maps or verdict changed; JSON: kernel_changes, [] when none did. */
static int cp_trace_cmp_changes(const void *base, const void *now, int json, FILE *out, cp_json *j,
                                cJSON *root)
{
    const cp_trace_cmp_doc *b = base, *n = now;
    cp_trace_cmp_says s = {.json = json, .out = out, .j = j};
    s.list = json ? cp_json_array(j, root, "kernel_changes") : NULL;
    const cJSON *procs = cJSON_GetObjectItemCaseSensitive(b->root, "processes"), *kb;
    cJSON_ArrayForEach(kb, cJSON_GetObjectItemCaseSensitive(b->root, "kernels"))
    {
        s.command = cp_trace_cmp_command(procs, cp_trace_cmp_number(kb, "pid"));
        s.kernel = cp_trace_cmp_string(kb, "name", "?");
        const cJSON *kn = cp_trace_cmp_kernel(n->root, s.command, s.kernel);
        s.changes = NULL;
        s.named = 0;
        if (kn)
            cp_trace_cmp_kernel_changes(&s, b->root, kb, n->root, kn);
    }
    int failed = s.line.failed || (json && j->failed);
    cp_strbuf_free(&s.line);
    return !failed;
}

static const cp_compare_kind cp_trace_cmp_kind = {
    .report_size = sizeof(cp_trace_cmp_doc),
    .load = cp_trace_cmp_load,
    .items = cp_trace_cmp_side,
    .unload = cp_trace_cmp_free_doc,
    .schema_version = CP_TRACE_SCHEMA_VERSION,
    .json_kind = "trace_compare",
    .incomplete_note = " (incomplete trace)",
    .items_words = "source lines or PCs",
    .none_matched = "no instruction of one report matches one of the other",
    .count_words = {"", ""},
    .hint = "the comparison lists every regressed value",
    .total_title = "the whole program",
    .total_words = "the program's total",
    .total_json_key = "program",
    .name_width = 22, /* the longest name, wavefronts_per_request */
    .text_id = cp_trace_cmp_text_id,
    .json_id = cp_trace_cmp_json_id,
    .text_values = cp_trace_cmp_text_values,
    .text_same = cp_trace_cmp_text_same,
    .changes = cp_trace_cmp_changes,
};

int cp_trace_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                           FILE *out, cp_status *st)
{
    return cp_compare_run(&cp_trace_cmp_kind, base_path, new_path, tolerance, json, out, st);
}
