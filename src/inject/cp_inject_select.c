/* cp_inject_select.c: which launches the traced program's injection library counts and samples
 * (cp_inject_select.h): the options, each kernel's launches seen, counted and sampled. */
#define _GNU_SOURCE
#include "cp_inject_select.h"

#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_inject_format.h"

/* libstdc++'s demangler (the injection library is linked with it for cp_inject_kernels.cpp) */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

typedef struct cp_inject_select_kernel {
    uint64_t eligible; /* launches --kernel, --nvtx-include and --capture-range let through */
    int match;         /* --kernel: 1 or 0 */
} cp_inject_select_kernel;

/* The launches of one function of one cubin: seen, counted and sampled. */
typedef struct cp_inject_select_tally {
    uint64_t seen, counted, sampled;
} cp_inject_select_tally;

/* What one launch's lookups found, kept by the caller for the next launch of the same function
 * (cp_inject_select.h): a launch-heavy program pays them once a function, not once a launch. */
struct cp_inject_select_memo {
    cp_inject_select_kernel *kernel;
    cp_inject_select_tally *tally;
    cp_inject_shape shape;   /* the shape of the last launch sampled or not */
    uint64_t *shape_sampled; /* its count of sampled launches; NULL: none yet */
};

static struct {
    cp_inject_select_options o;
    char *kernel_regex, *nvtx_include; /* owned copies */
    regex_t re;
    int have_re;
    int capturing;    /* between cudaProfilerStart and Stop (or no --capture-range) */
    cp_table kernels; /* "ORDINAL\tFUNCTION" -> cp_inject_select_kernel */
    cp_table tallies; /* "ORDINAL\tCRC\tFUNCTION" -> cp_inject_select_tally */
    cp_table shapes;  /* "ORDINAL\tCRC\tFUNCTION\tSHAPE" or "graph\tEXEC" -> uint64_t sampled */
    cp_inject_select_memo **memos; /* every memo handed out, to free */
    size_t nmemos, memo_cap;
} cp_inject_select = {.o = {.launch_count = CP_INJECT_SELECT_ALL,
                            .counter_launches = CP_INJECT_SELECT_DEFAULT_SAMPLES},
                      .capturing = 1};

/* Reads a decimal count from the environment variable name into *v; "all" is
 * CP_INJECT_SELECT_ALL where all_ok. 0, or -1 with why filled (*v unchanged). */
static int cp_inject_select_env_count(const char *name, uint64_t *v, int all_ok, char *why,
                                      size_t why_size)
{
    const char *s = getenv(name);
    if (!s || !s[0])
        return 0;
    if (all_ok && strcmp(s, "all") == 0) {
        *v = CP_INJECT_SELECT_ALL;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long n = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
    if (!end || *end || errno) {
        snprintf(why, why_size, "%s=%s is not a whole number: left at its default", name, s);
        return -1;
    }
    *v = (uint64_t)n;
    return 0;
}

int cp_inject_select_from_env(cp_inject_select_options *o, char *why, size_t why_size)
{
    memset(o, 0, sizeof *o);
    o->launch_count = CP_INJECT_SELECT_ALL;
    o->counter_launches = CP_INJECT_SELECT_DEFAULT_SAMPLES;
    const char *kernel = getenv("COALPROBE_TRACE_KERNEL");
    o->kernel_regex = kernel && kernel[0] ? kernel : NULL;
    const char *nvtx = getenv("COALPROBE_TRACE_NVTX_INCLUDE");
    o->nvtx_include = nvtx && nvtx[0] ? nvtx : NULL;
    const char *capture = getenv("COALPROBE_TRACE_CAPTURE_RANGE");
    o->capture_profiler_api = capture && strcmp(capture, "profiler-api") == 0;
    const char *instructions = getenv("COALPROBE_TRACE_INSTRUCTIONS");
    o->instructions_sampled = instructions && strcmp(instructions, "sampled") == 0;
    int rc = 0;
    rc |= cp_inject_select_env_count("COALPROBE_TRACE_LAUNCH_SKIP", &o->launch_skip, 0, why,
                                     why_size);
    rc |= cp_inject_select_env_count("COALPROBE_TRACE_LAUNCH_COUNT", &o->launch_count, 0, why,
                                     why_size);
    rc |= cp_inject_select_env_count("COALPROBE_TRACE_COUNTER_LAUNCHES", &o->counter_launches, 1,
                                     why, why_size);
    return rc ? -1 : 0;
}

int cp_inject_select_configure(const cp_inject_select_options *o, char *why, size_t why_size)
{
    cp_inject_select_free();
    cp_inject_select.o = *o;
    cp_inject_select.kernel_regex = o->kernel_regex ? strdup(o->kernel_regex) : NULL;
    cp_inject_select.nvtx_include = o->nvtx_include ? strdup(o->nvtx_include) : NULL;
    cp_inject_select.o.kernel_regex = cp_inject_select.kernel_regex;
    cp_inject_select.o.nvtx_include = cp_inject_select.nvtx_include;
    cp_inject_select.capturing = !o->capture_profiler_api;
    if (!cp_inject_select.kernel_regex)
        return 0;
    int e = regcomp(&cp_inject_select.re, cp_inject_select.kernel_regex, REG_EXTENDED | REG_NOSUB);
    if (e != 0) {
        char msg[200];
        regerror(e, &cp_inject_select.re, msg, sizeof msg);
        snprintf(why, why_size, "--kernel '%s' does not compile (%s): every kernel is counted",
                 cp_inject_select.kernel_regex, msg);
        return -1;
    }
    cp_inject_select.have_re = 1;
    return 0;
}

const cp_inject_select_options *cp_inject_select_options_used(void)
{
    return &cp_inject_select.o;
}

int cp_inject_select_filters(void)
{
    const cp_inject_select_options *o = &cp_inject_select.o;
    return cp_inject_select.have_re || o->launch_skip || o->launch_count != CP_INJECT_SELECT_ALL ||
           o->nvtx_include || o->capture_profiler_api;
}

/* The entry of function on ordinal, created (its --kernel match decided) when new; NULL when
 * memory runs out. */
static cp_inject_select_kernel *cp_inject_select_kernel_of(uint32_t ordinal, const char *function)
{
    char buf[512];
    const char *fn = function ? function : "?";
    char *key = cp_table_key(buf, sizeof buf, "%" PRIu32 "\t%s", ordinal, fn);
    if (!key)
        return NULL;
    int created = 0;
    cp_table_entry *e = cp_table_get(&cp_inject_select.kernels, key, &created);
    if (key != buf)
        free(key);
    if (!e)
        return NULL;
    if (!e->value) {
        cp_inject_select_kernel *k = calloc(1, sizeof *k);
        if (!k)
            return NULL;
        k->match = 1;
        if (cp_inject_select.have_re) {
            int status = -1;
            char *name = __cxa_demangle(fn, NULL, NULL, &status);
            /* the name the report shows: demangled where it is C++, else as CUPTI names it */
            k->match =
                regexec(&cp_inject_select.re, status == 0 && name ? name : fn, 0, NULL, 0) == 0;
            free(name);
        }
        e->value = k;
    }
    return e->value;
}

int cp_inject_select_matches(uint32_t ordinal, const char *function)
{
    if (!cp_inject_select.have_re)
        return 1;
    const cp_inject_select_kernel *k = cp_inject_select_kernel_of(ordinal, function);
    return !k || k->match;
}

/* The tally of function of cubin crc (0: unknown) on ordinal, created when new; NULL when memory
 * runs out. */
static cp_inject_select_tally *cp_inject_select_tally_of(uint32_t ordinal, const char *function,
                                                         uint32_t crc)
{
    char buf[512];
    const char *fn = function ? function : "?";
    char *key = cp_table_key(buf, sizeof buf, "%" PRIu32 "\t%08" PRIx32 "\t%s", ordinal, crc, fn);
    if (!key)
        return NULL;
    cp_table_entry *e = cp_table_get(&cp_inject_select.tallies, key, NULL);
    if (key != buf)
        free(key);
    if (e && !e->value)
        e->value = calloc(1, sizeof(cp_inject_select_tally));
    return e ? e->value : NULL;
}

/* The count of sampled launches of key (created at 0); NULL when memory runs out. */
static uint64_t *cp_inject_select_shape(const char *key)
{
    cp_table_entry *e = cp_table_get(&cp_inject_select.shapes, key, NULL);
    if (e && !e->value)
        e->value = calloc(1, sizeof(uint64_t));
    return e ? e->value : NULL;
}

/* One more launch of a shape whose sampled launches n counts: 1 when it is within
 * --counter-launches. */
static int cp_inject_select_take(uint64_t *n)
{
    if (cp_inject_select.o.counter_launches == CP_INJECT_SELECT_ALL)
        return 1;
    if (!n || *n >= cp_inject_select.o.counter_launches)
        return 0;
    ++*n;
    return 1;
}

/* A new memo, kept for freeing; NULL when memory runs out. */
static cp_inject_select_memo *cp_inject_select_new_memo(void)
{
    if (cp_inject_select.nmemos == cp_inject_select.memo_cap) {
        size_t cap = cp_inject_select.memo_cap ? 2 * cp_inject_select.memo_cap : 64;
        cp_inject_select_memo **grown = realloc(cp_inject_select.memos, cap * sizeof *grown);
        if (!grown)
            return NULL;
        cp_inject_select.memos = grown;
        cp_inject_select.memo_cap = cap;
    }
    cp_inject_select_memo *m = calloc(1, sizeof *m);
    if (m)
        cp_inject_select.memos[cp_inject_select.nmemos++] = m;
    return m;
}

/* Whether launch shapes a and b are the same. */
static int cp_inject_select_same_shape(const cp_inject_shape *a, const cp_inject_shape *b)
{
    return memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
           memcmp(a->block, b->block, sizeof a->block) == 0 && a->shared_bytes == b->shared_bytes;
}

/* The sampled count of the shape s of function (cubin crc) on ordinal: memo's when it is the
 * shape memo saw last, else looked up (and kept in memo). */
static uint64_t *cp_inject_select_shape_of(uint32_t ordinal, const char *function, uint32_t crc,
                                           const cp_inject_shape *s, cp_inject_select_memo *memo)
{
    if (memo && memo->shape_sampled && cp_inject_select_same_shape(&memo->shape, s))
        return memo->shape_sampled;
    char buf[640];
    char *key = cp_table_key(buf, sizeof buf,
                             "%" PRIu32 "\t%08" PRIx32 "\t%s\t%" PRIu32 ",%" PRIu32 ",%" PRIu32
                             "\t%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\t%" PRIu32,
                             ordinal, crc, function ? function : "?", s->grid[0], s->grid[1],
                             s->grid[2], s->block[0], s->block[1], s->block[2], s->shared_bytes);
    if (!key)
        return NULL;
    uint64_t *n = cp_inject_select_shape(key);
    if (key != buf)
        free(key);
    if (memo && n) {
        memo->shape = *s;
        memo->shape_sampled = n;
    }
    return n;
}

void cp_inject_select_launch(uint32_t ordinal, const char *function, uint32_t crc,
                             const cp_inject_shape *s, int in_nvtx, cp_inject_select_memo **memo,
                             int *counted, int *sampled)
{
    *counted = *sampled = 0;
    cp_inject_select_memo *m = memo ? *memo : NULL;
    cp_inject_select_kernel *k = m ? m->kernel : cp_inject_select_kernel_of(ordinal, function);
    cp_inject_select_tally *t = m ? m->tally : cp_inject_select_tally_of(ordinal, function, crc);
    if (!k || !t) { /* out of memory: counted as it always was, without counters */
        *counted = 1;
        return;
    }
    if (memo && !m && (m = cp_inject_select_new_memo()) != NULL) {
        m->kernel = k;
        m->tally = t;
        *memo = m;
    }
    t->seen++;
    const cp_inject_select_options *o = &cp_inject_select.o;
    if (!k->match || !cp_inject_select.capturing || (o->nvtx_include && !in_nvtx))
        return;
    uint64_t i = k->eligible++;
    if (i < o->launch_skip ||
        (o->launch_count != CP_INJECT_SELECT_ALL && i - o->launch_skip >= o->launch_count))
        return;
    *counted = 1;
    t->counted++;
    if (o->counter_launches == 0) /* the default: no ranges, no shapes to keep */
        return;
    cp_inject_shape none = {{0, 0, 0}, {0, 0, 0}, 0};
    *sampled =
        cp_inject_select_take(cp_inject_select_shape_of(ordinal, function, crc, s ? s : &none, m));
    t->sampled += (uint64_t)*sampled;
}

int cp_inject_select_graph(const void *exec)
{
    char key[64];
    snprintf(key, sizeof key, "graph\t%p", exec);
    return cp_inject_select_take(cp_inject_select_shape(key));
}

void cp_inject_select_node(uint32_t ordinal, const char *function, uint32_t crc, int sampled)
{
    cp_inject_select_kernel *k = cp_inject_select_kernel_of(ordinal, function);
    cp_inject_select_tally *t = cp_inject_select_tally_of(ordinal, function, crc);
    if (!k || !t)
        return;
    k->eligible++;
    t->seen++;
    t->counted++;
    t->sampled += (uint64_t)(sampled != 0);
}

void cp_inject_select_profiler(int on)
{
    if (cp_inject_select.o.capture_profiler_api)
        cp_inject_select.capturing = on;
}

int cp_inject_select_capturing(void)
{
    return cp_inject_select.capturing;
}

void cp_inject_select_write_options(FILE *raw)
{
    const cp_inject_select_options *o = &cp_inject_select.o;
    if (o->counter_launches == CP_INJECT_SELECT_ALL)
        fputs("selection\tcounter_launches\tall\n", raw);
    else
        fprintf(raw, "selection\tcounter_launches\t%" PRIu64 "\n", o->counter_launches);
    if (o->kernel_regex) {
        fputs("selection\tkernel\t", raw);
        cp_inject_format_text(raw, o->kernel_regex);
        fputc('\n', raw);
    }
    if (o->launch_skip)
        fprintf(raw, "selection\tlaunch_skip\t%" PRIu64 "\n", o->launch_skip);
    if (o->launch_count != CP_INJECT_SELECT_ALL)
        fprintf(raw, "selection\tlaunch_count\t%" PRIu64 "\n", o->launch_count);
    if (o->nvtx_include) {
        fputs("selection\tnvtx_include\t", raw);
        cp_inject_format_text(raw, o->nvtx_include);
        fputc('\n', raw);
    }
    if (o->capture_profiler_api)
        fputs("selection\tcapture_range\tprofiler-api\n", raw);
    if (o->instructions_sampled) /* only then: the default's records stay as they were */
        fputs("selection\tinstructions\tsampled\n", raw);
}

void cp_inject_select_write_counts(FILE *raw)
{
    for (size_t i = 0; i < cp_inject_select.tallies.capacity; i++) {
        const cp_table_entry *e = &cp_inject_select.tallies.slots[i];
        const cp_inject_select_tally *t = e->key ? e->value : NULL;
        if (!t || !t->seen)
            continue;
        const char *tab = strchr(e->key, '\t'), *crc = tab + 1, *fn = strchr(crc, '\t') + 1;
        fprintf(raw, "launches_seen\t%.*s\t", (int)(tab - e->key), e->key);
        cp_inject_format_text(raw, fn);
        fprintf(raw, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, t->seen, t->counted, t->sampled);
        if (strncmp(crc, "00000000\t", 9) != 0) /* the cubin, where known */
            fprintf(raw, "\t%.8s", crc);
        fputc('\n', raw);
    }
}

void cp_inject_select_free(void)
{
    cp_table_free(&cp_inject_select.kernels, free);
    cp_table_free(&cp_inject_select.tallies, free);
    cp_table_free(&cp_inject_select.shapes, free);
    for (size_t i = 0; i < cp_inject_select.nmemos; i++)
        free(cp_inject_select.memos[i]);
    free(cp_inject_select.memos);
    cp_inject_select.memos = NULL;
    cp_inject_select.nmemos = cp_inject_select.memo_cap = 0;
    if (cp_inject_select.have_re)
        regfree(&cp_inject_select.re);
    cp_inject_select.have_re = 0;
    free(cp_inject_select.kernel_regex);
    free(cp_inject_select.nvtx_include);
    cp_inject_select.kernel_regex = cp_inject_select.nvtx_include = NULL;
    cp_inject_select.o.kernel_regex = cp_inject_select.o.nvtx_include = NULL;
}
