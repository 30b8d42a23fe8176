/* cp_trace_compare.c: coalprobe compare on two trace reports: instructions matched by process
 * command, kernel name and source line (or PC without line information), summed per match,
 * and judged on excess bytes, sectors per request and wavefronts per request (lower is
 * better, within the tolerance); the program's total excess too. */
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

static cJSON *cp_trace_cmp_parse(const char *path, int *read_error)
{
    size_t len = 0;
    char *text = cp_text_read_file(path, &len);
    *read_error = text ? 0 : errno ? errno : EIO;
    if (!text)
        return NULL;
    cJSON *root = strlen(text) == len ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    return root;
}

static int cp_trace_cmp_kind_is_trace(const cJSON *root)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
    return cJSON_IsObject(root) && cJSON_IsString(kind) && strcmp(kind->valuestring, "trace") == 0;
}

int cp_trace_compare_is_trace(const char *path)
{
    int err;
    cJSON *root = cp_trace_cmp_parse(path, &err);
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

/* The command of the process pid in processes[]. */
static const char *cp_trace_cmp_command(const cJSON *processes, double pid)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, processes)
    {
        if (cp_trace_cmp_number(p, "pid") == pid)
            return cp_trace_cmp_string(p, "command", "?");
    }
    return "?";
}

static int cp_trace_cmp_key_order(const void *a, const void *b)
{
    return strcmp(((const cp_trace_cmp_entry *)a)->key, ((const cp_trace_cmp_entry *)b)->key);
}

static void cp_trace_cmp_free_doc(cp_trace_cmp_doc *d)
{
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

/* Loads one report: its instructions summed per key, sorted by key. */
static int cp_trace_cmp_load(cp_trace_cmp_doc *d, cp_status *st)
{
    int err = 0;
    d->root = cp_trace_cmp_parse(d->path, &err);
    if (err)
        return cp_text_read_failed(d->path, err, st);
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
    CP_TRY(cp_trace_cmp_check_schema(d, st));
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
    const cJSON *next_instr = instrs->child;
    const cJSON *next_kernel = cJSON_IsArray(kernels) ? kernels->child : NULL;
    for (;;) {
        const cJSON *in;
        int whole = 0;
        if (next_instr) {
            in = next_instr;
            next_instr = next_instr->next;
        } else { /* then the kernels counted as a whole */
            while (next_kernel &&
                   strcmp(cp_trace_cmp_string(next_kernel, "counts_from", ""), "kernel_counters"))
                next_kernel = next_kernel->next;
            if (!next_kernel)
                break;
            in = next_kernel;
            next_kernel = next_kernel->next;
            whole = 1;
        }
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
        size_t len = strlen(command) + strlen(kernel) +
                     (file && isfinite(line) ? strlen(file) : 0) + strlen(where) + 4;
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
    }
    if (d->n > 1)
        qsort(d->entries, d->n, sizeof *d->entries, cp_trace_cmp_key_order);
    /* the instructions of one key (one source line) add up */
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
    return CP_EXIT_OK;
}

/* ---- judging ------------------------------------------------------------------------------- */

typedef enum {
    CP_TRACE_CMP_SAME,
    CP_TRACE_CMP_IMPROVED,
    CP_TRACE_CMP_REGRESSED
} cp_trace_cmp_verdict;
static const char *const cp_trace_cmp_verdict_json[] = {"same", "improved", "regressed"};
static const char *const cp_trace_cmp_verdict_text[] = {"same", "improved", "REGRESSED"};

typedef struct cp_trace_cmp_metric {
    const char *name;
    double base, now;
    cp_trace_cmp_verdict verdict;
} cp_trace_cmp_metric;

/* Lower is better: above base * (1 + tolerance) regressed, below base * (1 - tolerance)
 * improved. A base of 0 makes any rise a regression. */
static cp_trace_cmp_verdict cp_trace_cmp_judge(double base, double now, double tolerance)
{
    if (now > base * (1 + tolerance))
        return CP_TRACE_CMP_REGRESSED;
    if (now < base * (1 - tolerance))
        return CP_TRACE_CMP_IMPROVED;
    return CP_TRACE_CMP_SAME;
}

static double cp_trace_cmp_per(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

/* The judged metrics of a matched pair; returns how many (up to 3) and the worst verdict. */
static size_t cp_trace_cmp_metrics(const cp_trace_cmp_entry *b, const cp_trace_cmp_entry *n,
                                   double tolerance, cp_trace_cmp_metric *m,
                                   cp_trace_cmp_verdict *worst)
{
    const struct {
        const char *name;
        double base, now;
    } all[] = {
        {"excess_bytes", (b->has & 8u) ? b->excess_bytes : NAN,
         (n->has & 8u) ? n->excess_bytes : NAN},
        {"sectors_per_request", cp_trace_cmp_per(b->sectors, b->requests),
         cp_trace_cmp_per(n->sectors, n->requests)},
        {"wavefronts_per_request", cp_trace_cmp_per(b->wavefronts, b->shared_requests),
         cp_trace_cmp_per(n->wavefronts, n->shared_requests)},
    };
    size_t k = 0;
    *worst = CP_TRACE_CMP_SAME;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (!isfinite(all[i].base) || !isfinite(all[i].now))
            continue;
        m[k] = (cp_trace_cmp_metric){all[i].name, all[i].base, all[i].now,
                                     cp_trace_cmp_judge(all[i].base, all[i].now, tolerance)};
        if (m[k].verdict > *worst)
            *worst = m[k].verdict;
        k++;
    }
    return k;
}

/* ---- writing ------------------------------------------------------------------------------- */

typedef struct cp_trace_cmp_writer {
    FILE *out;
    int json, failed;
    double tolerance;
    char tol[32];
    cJSON *root, *rows;
    size_t nstatus[3], text_rows;
} cp_trace_cmp_writer;

static cJSON *cp_trace_cmp_check(cp_trace_cmp_writer *w, cJSON *item)
{
    if (!item)
        w->failed = 1;
    return item;
}

static void cp_trace_cmp_json_number(cp_trace_cmp_writer *w, cJSON *o, const char *key, double v)
{
    cp_trace_cmp_check(w, isfinite(v) ? cJSON_AddNumberToObject(o, key, v)
                                      : cJSON_AddNullToObject(o, key));
}

/* A number for the text: digits when whole, else 4 significant digits. */
static void cp_trace_cmp_format(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

/* "process | kernel | where" of a key, whole, escaped for a terminal, then a newline. */
static void cp_trace_cmp_put_key(FILE *out, const char *key)
{
    const char *s = key;
    for (int i = 0; i < 3; i++) {
        const char *sep = i < 2 ? strchr(s, CP_TRACE_CMP_SEP) : NULL;
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        char *part = malloc(len + 1);
        if (part) {
            memcpy(part, s, len);
            part[len] = '\0';
            cp_text_put_printable(out, part);
            free(part);
        } else {
            fputs("?", out);
        }
        if (!sep)
            break;
        fputs(" | ", out);
        s = sep + 1;
    }
    fputc('\n', out);
}

/* {"process", "kernel", "where"} of a key, in o. */
static void cp_trace_cmp_json_key(cp_trace_cmp_writer *w, cJSON *o, const char *key)
{
    const char *names[3] = {"process", "kernel", "where"};
    const char *s = key;
    for (int i = 0; i < 3; i++) {
        const char *sep = i < 2 ? strchr(s, CP_TRACE_CMP_SEP) : NULL;
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        char *part = malloc(len + 1);
        if (!part) {
            w->failed = 1;
            return;
        }
        memcpy(part, s, len);
        part[len] = '\0';
        cp_trace_cmp_check(w, cJSON_AddStringToObject(o, names[i], part));
        free(part);
        s = sep ? sep + 1 : s + len;
    }
}

/* key: the matched unit (NULL for the whole program, titled title). */
static void cp_trace_cmp_write_metrics(cp_trace_cmp_writer *w, cJSON *o, const char *key,
                                       const char *title, const cp_trace_cmp_metric *m, size_t nm,
                                       cp_trace_cmp_verdict status)
{
    if (w->json) {
        cp_trace_cmp_check(w,
                           cJSON_AddStringToObject(o, "status", cp_trace_cmp_verdict_json[status]));
        cJSON *list = cp_trace_cmp_check(w, cJSON_AddArrayToObject(o, "metrics"));
        for (size_t i = 0; i < nm; i++) {
            cJSON *item = cp_trace_cmp_check(w, cJSON_CreateObject());
            if (!item || !cJSON_AddItemToArray(list, item)) {
                cJSON_Delete(item);
                w->failed = 1;
                continue;
            }
            cp_trace_cmp_check(w, cJSON_AddStringToObject(item, "name", m[i].name));
            cp_trace_cmp_json_number(w, item, "base", m[i].base);
            cp_trace_cmp_json_number(w, item, "new", m[i].now);
            cp_trace_cmp_json_number(w, item, "change",
                                     m[i].base != 0 ? (m[i].now - m[i].base) / m[i].base : NAN);
            cp_trace_cmp_check(w, cJSON_AddStringToObject(item, "verdict",
                                                          cp_trace_cmp_verdict_json[m[i].verdict]));
        }
        return;
    }
    if (status == CP_TRACE_CMP_SAME)
        return;
    if (w->text_rows++ == 0)
        fputc('\n', w->out);
    if (key)
        cp_trace_cmp_put_key(w->out, key);
    else
        fprintf(w->out, "%s\n", title);
    for (size_t i = 0; i < nm; i++) {
        if (m[i].verdict == CP_TRACE_CMP_SAME)
            continue;
        char a[48], b[48];
        cp_trace_cmp_format(a, sizeof a, m[i].base);
        cp_trace_cmp_format(b, sizeof b, m[i].now);
        fprintf(w->out, "  %-22s  %s -> %s (", m[i].name, a, b);
        /* the change printed straight to out: all of its digits, and the % sign */
        if (m[i].base != 0)
            fprintf(w->out, "%+.1f%%", 100 * (m[i].now - m[i].base) / m[i].base);
        else
            fputs("n/a", w->out);
        fprintf(w->out, ")  %s\n", cp_trace_cmp_verdict_text[m[i].verdict]);
    }
}

/* The rows only one report has. */
static size_t cp_trace_cmp_unmatched(cp_trace_cmp_writer *w, const cp_trace_cmp_doc *d,
                                     const unsigned char *matched, const char *title,
                                     const char *key)
{
    size_t count = 0;
    for (size_t i = 0; i < d->n; i++)
        count += !matched[i];
    cJSON *list = w->json ? cp_trace_cmp_check(w, cJSON_AddArrayToObject(w->root, key)) : NULL;
    if (!w->json && count)
        fprintf(w->out, "\n%s: %zu\n", title, count);
    for (size_t i = 0; i < d->n; i++) {
        if (matched[i])
            continue;
        if (w->json) {
            cJSON *o = cp_trace_cmp_check(w, cJSON_CreateObject());
            if (!o || !cJSON_AddItemToArray(list, o)) {
                cJSON_Delete(o);
                w->failed = 1;
                continue;
            }
            cp_trace_cmp_json_key(w, o, d->entries[i].key);
        } else {
            fputs("  ", w->out);
            cp_trace_cmp_put_key(w->out, d->entries[i].key);
        }
    }
    return count;
}

static int cp_trace_cmp_write(cp_trace_cmp_writer *w, const cp_trace_cmp_doc *b,
                              const cp_trace_cmp_doc *n, cp_status *st)
{
    unsigned char *mb = calloc(b->n ? b->n : 1, 1), *mn = calloc(n->n ? n->n : 1, 1);
    if (!mb || !mn) {
        free(mb);
        free(mn);
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory comparing trace reports");
    }
    if (w->json) {
        w->root = cp_trace_cmp_check(w, cJSON_CreateObject());
        cp_trace_cmp_json_number(w, w->root, "schema_version", CP_TRACE_SCHEMA_VERSION);
        cp_trace_cmp_check(w, cJSON_AddStringToObject(w->root, "kind", "trace_compare"));
        cJSON *tool = cp_trace_cmp_check(w, cJSON_AddObjectToObject(w->root, "tool"));
        cp_trace_cmp_check(w, cJSON_AddStringToObject(tool, "name", "coalprobe"));
        cp_trace_cmp_check(w, cJSON_AddStringToObject(tool, "version", CP_VERSION));
        cp_trace_cmp_check(w, cJSON_AddStringToObject(w->root, "base", b->path));
        cp_trace_cmp_check(w, cJSON_AddStringToObject(w->root, "new", n->path));
        cp_trace_cmp_json_number(w, w->root, "tolerance", w->tolerance);
        cp_trace_cmp_check(w, cJSON_AddBoolToObject(w->root, "base_incomplete", !b->complete));
        cp_trace_cmp_check(w, cJSON_AddBoolToObject(w->root, "new_incomplete", !n->complete));
        w->rows = cp_trace_cmp_check(w, cJSON_AddArrayToObject(w->root, "rows"));
    } else {
        fputs("base: ", w->out);
        cp_text_put_printable(w->out, b->path);
        fprintf(w->out, "%s\nnew:  ", b->complete ? "" : " (incomplete trace)");
        cp_text_put_printable(w->out, n->path);
        fprintf(w->out, "%s\n", n->complete ? "" : " (incomplete trace)");
    }
    size_t matched = 0;
    for (size_t i = 0, j = 0; i < b->n && j < n->n;) {
        int c = strcmp(b->entries[i].key, n->entries[j].key);
        if (c == 0) {
            cp_trace_cmp_metric m[3];
            cp_trace_cmp_verdict status;
            size_t nm =
                cp_trace_cmp_metrics(&b->entries[i], &n->entries[j], w->tolerance, m, &status);
            cJSON *o = NULL;
            if (w->json) {
                o = cp_trace_cmp_check(w, cJSON_CreateObject());
                if (o && !cJSON_AddItemToArray(w->rows, o)) {
                    cJSON_Delete(o);
                    o = NULL;
                    w->failed = 1;
                }
                cp_trace_cmp_json_key(w, o, b->entries[i].key);
            }
            cp_trace_cmp_write_metrics(w, o, b->entries[i].key, NULL, m, nm, status);
            w->nstatus[status]++;
            mb[i] = mn[j] = 1;
            matched++;
        }
        i += c <= 0;
        j += c >= 0;
    }
    /* the program's total excess: waste that moved to a line of its own is still waste */
    cp_trace_cmp_metric total[2];
    size_t ntotal = 0;
    cp_trace_cmp_verdict total_status = CP_TRACE_CMP_SAME;
    if (isfinite(b->total_excess) && isfinite(n->total_excess))
        total[ntotal++] = (cp_trace_cmp_metric){
            "excess_bytes", b->total_excess, n->total_excess,
            cp_trace_cmp_judge(b->total_excess, n->total_excess, w->tolerance)};
    if (isfinite(b->total_conflicts) && isfinite(n->total_conflicts))
        total[ntotal++] = (cp_trace_cmp_metric){
            "bank_conflicts", b->total_conflicts, n->total_conflicts,
            cp_trace_cmp_judge(b->total_conflicts, n->total_conflicts, w->tolerance)};
    for (size_t i = 0; i < ntotal; i++)
        if (total[i].verdict > total_status)
            total_status = total[i].verdict;
    cJSON *prog =
        w->json ? cp_trace_cmp_check(w, cJSON_AddObjectToObject(w->root, "program")) : NULL;
    cp_trace_cmp_write_metrics(w, prog, NULL, "the whole program", total, ntotal, total_status);
    size_t same = w->nstatus[CP_TRACE_CMP_SAME];
    if (!w->json) {
        if (matched == 0)
            fprintf(w->out, "\nno instruction of one report matches one of the other\n");
        else if (same)
            fprintf(w->out, "%s%zu %smatched source line%s or PC%s the same within %s\n",
                    w->text_rows ? "" : "\n", same, same == matched ? "" : "other ",
                    same == 1 ? "" : "s", same == 1 ? " is" : "s are", w->tol);
    }
    size_t only_base =
        cp_trace_cmp_unmatched(w, b, mb, "only in base (missing in new)", "only_in_base");
    size_t only_new = cp_trace_cmp_unmatched(w, n, mn, "only in new", "only_in_new");
    size_t regressed =
        w->nstatus[CP_TRACE_CMP_REGRESSED] + (total_status == CP_TRACE_CMP_REGRESSED);
    if (w->json) {
        cJSON *sum = cp_trace_cmp_check(w, cJSON_AddObjectToObject(w->root, "summary"));
        cp_trace_cmp_json_number(w, sum, "regressed", (double)w->nstatus[CP_TRACE_CMP_REGRESSED]);
        cp_trace_cmp_json_number(w, sum, "improved", (double)w->nstatus[CP_TRACE_CMP_IMPROVED]);
        cp_trace_cmp_json_number(w, sum, "same", (double)same);
        cp_trace_cmp_json_number(w, sum, "only_in_base", (double)only_base);
        cp_trace_cmp_json_number(w, sum, "only_in_new", (double)only_new);
        cp_trace_cmp_check(w, cJSON_AddBoolToObject(w->root, "regressed", regressed != 0));
        char *text = w->failed ? NULL : cJSON_Print(w->root);
        cJSON_Delete(w->root);
        w->root = NULL;
        if (!text) {
            free(mb);
            free(mn);
            return cp_status_set(st, CP_EXIT_RUNTIME,
                                 "out of memory while building the comparison");
        }
        fputs(text, w->out);
        fputc('\n', w->out);
        cJSON_free(text);
    } else {
        fprintf(w->out,
                "\ncompare: %zu regressed, %zu improved, %zu same, %zu only in base, %zu only in "
                "new; the program's total %s (tolerance %s)\n",
                w->nstatus[CP_TRACE_CMP_REGRESSED], w->nstatus[CP_TRACE_CMP_IMPROVED], same,
                only_base, only_new, cp_trace_cmp_verdict_text[total_status], w->tol);
    }
    free(mb);
    free(mn);
    if (fflush(w->out) != 0 || ferror(w->out))
        return cp_status_set(st, CP_EXIT_RUNTIME, "cannot write the comparison: %s",
                             strerror(errno ? errno : EIO));
    if (regressed) {
        cp_status_set(st, CP_EXIT_MISMATCH,
                      "%zu of %zu matched source lines or PCs regressed%s (tolerance %s)",
                      w->nstatus[CP_TRACE_CMP_REGRESSED], matched,
                      total_status == CP_TRACE_CMP_REGRESSED ? ", and the program's total" : "",
                      w->tol);
        cp_status_hint(st, "the comparison lists every regressed value");
        return CP_EXIT_MISMATCH;
    }
    return CP_EXIT_OK;
}

int cp_trace_compare_files(const char *base_path, const char *new_path, double tolerance, int json,
                           FILE *out, cp_status *st)
{
    if (!(tolerance >= 0 && tolerance <= 1))
        return cp_status_set(st, CP_EXIT_USAGE, "tolerance %g is outside 0..1 (0%%..100%%)",
                             tolerance);
    cp_trace_cmp_doc b = {.path = base_path}, n = {.path = new_path};
    int rc = cp_trace_cmp_load(&b, st);
    if (rc == CP_EXIT_OK)
        rc = cp_trace_cmp_load(&n, st);
    if (rc == CP_EXIT_OK) {
        cp_trace_cmp_writer w = {.out = out, .json = json, .tolerance = tolerance};
        snprintf(w.tol, sizeof w.tol, "%g%%", tolerance * 100);
        errno = 0;
        rc = cp_trace_cmp_write(&w, &b, &n, st);
    }
    cp_trace_cmp_free_doc(&b);
    cp_trace_cmp_free_doc(&n);
    return rc;
}
