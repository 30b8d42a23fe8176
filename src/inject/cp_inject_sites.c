/* cp_inject_sites.c: call sites interned in a table keyed by "ORDINAL\tFRAME\tRANGE\tFUNCTION"
 * (the key built on the stack for the usual function name: no allocation for a site already
 * known), their launches counted in an array indexed by ID - 1. */
#define _GNU_SOURCE
#include "cp_inject_sites.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cp_base.h"
#include "cp_inject_format.h"
#include "cp_inject_nvtx.h"
#include "cp_inject_python.h"

typedef struct cp_inject_site {
    uint64_t launches; /* since the last launches_at records */
    int overflow;      /* the site of launches that lost their call site */
} cp_inject_site;

static struct {
    cp_table ids; /* key -> index: the site's ID */
    cp_inject_site *site;
    size_t n, capacity;
    uint64_t lost; /* launches at overflow sites */
    size_t cap;    /* CP_INJECT_WHERE_CAP; lowered by tests */
} cp_inject_sites = {.cap = CP_INJECT_WHERE_CAP};

/* The FRAME field of a site. */
static void cp_inject_sites_frame_text(char *buf, size_t n, int64_t frame)
{
    switch (frame) {
    case CP_INJECT_FRAME_NOPYTHON:
        snprintf(buf, n, "-");
        break;
    case CP_INJECT_FRAME_NOGIL:
        snprintf(buf, n, "nogil");
        break;
    case CP_INJECT_FRAME_NONE:
        snprintf(buf, n, "none");
        break;
    case CP_INJECT_FRAME_OVERFLOW:
        snprintf(buf, n, "overflow");
        break;
    default:
        snprintf(buf, n, "%" PRId64, frame);
    }
}

/* The ID of the site of key, made (and its record written) when new and allowed: 0 when it is
 * not (past the cap unless overflow) or memory ran out. */
static uint32_t cp_inject_sites_find(FILE *raw, const char *key, uint32_t ordinal,
                                     const char *function, const char *frame, int64_t range,
                                     int overflow)
{
    cp_table_entry *e = cp_table_find(&cp_inject_sites.ids, key);
    if (e)
        return (uint32_t)e->index;
    if (!overflow && cp_inject_sites.n >= cp_inject_sites.cap)
        return 0;
    if (cp_inject_sites.n == cp_inject_sites.capacity) {
        size_t capacity = cp_inject_sites.capacity ? 2 * cp_inject_sites.capacity : 64;
        cp_inject_site *grown = realloc(cp_inject_sites.site, capacity * sizeof *grown);
        if (!grown)
            return 0;
        cp_inject_sites.site = grown;
        cp_inject_sites.capacity = capacity;
    }
    e = cp_table_get(&cp_inject_sites.ids, key, NULL);
    if (!e)
        return 0;
    cp_inject_site s = {0, overflow};
    cp_inject_sites.site[cp_inject_sites.n++] = s;
    e->index = cp_inject_sites.n;
    if (raw) {
        fprintf(raw, "site\t%zu\t%" PRIu32 "\t", e->index, ordinal);
        cp_inject_format_text(raw, function);
        fprintf(raw, "\t%s\t%" PRId64 "\n", frame, range);
    }
    return (uint32_t)e->index;
}

/* The site of (ordinal, frame, range, function) as cp_inject_sites_find answers. */
static uint32_t cp_inject_sites_lookup(FILE *raw, uint32_t ordinal, const char *function,
                                       int64_t frame, int64_t range, int overflow)
{
    char frame_text[32], small[1024];
    cp_inject_sites_frame_text(frame_text, sizeof frame_text, frame);
    char *key = cp_table_key(small, sizeof small, "%" PRIu32 "\t%s\t%" PRId64 "\t%s", ordinal,
                             frame_text, range, function);
    if (!key)
        return 0;
    uint32_t id = cp_inject_sites_find(raw, key, ordinal, function, frame_text, range, overflow);
    if (key != small)
        free(key);
    return id;
}

uint32_t cp_inject_sites_get(FILE *raw, uint32_t ordinal, const char *function, int64_t frame,
                             int64_t range)
{
    if (!function)
        function = "?";
    uint32_t id = 0;
    if (frame != CP_INJECT_FRAME_OVERFLOW && range != CP_INJECT_RANGE_OVERFLOW)
        id = cp_inject_sites_lookup(raw, ordinal, function, frame, range, 0);
    if (!id) /* past a cap, or memory ran out */
        id = cp_inject_sites_lookup(raw, ordinal, function, CP_INJECT_FRAME_OVERFLOW, 0, 1);
    return id;
}

void cp_inject_sites_count(uint32_t site, uint64_t n)
{
    if (site == 0 || site > cp_inject_sites.n)
        return;
    cp_inject_sites.site[site - 1].launches += n;
    if (cp_inject_sites.site[site - 1].overflow)
        cp_inject_sites.lost += n;
}

void cp_inject_sites_write_counts(FILE *raw)
{
    for (size_t i = 0; i < cp_inject_sites.n; i++) {
        if (cp_inject_sites.site[i].launches == 0)
            continue;
        fprintf(raw, "launches_at\t%zu\t%" PRIu64 "\n", i + 1, cp_inject_sites.site[i].launches);
        cp_inject_sites.site[i].launches = 0;
    }
}

void cp_inject_sites_write_lost(FILE *raw)
{
    if (cp_inject_sites.lost == 0)
        return;
    fprintf(raw,
            "note\t%" PRIu64 " launches lost their call site: the process had more than %d "
            "distinct call sites, Python frames or NVTX ranges (they are filed under a site of "
            "frame \"overflow\" for their function)\n",
            cp_inject_sites.lost, CP_INJECT_WHERE_CAP);
}

void cp_inject_sites_write_host(FILE *raw)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        snprintf(host, sizeof host, "?");
    fputs("host\t", raw);
    cp_inject_format_text(raw, host);
    fputc('\n', raw);
    static const char *const keys[] = {"RANK",         "LOCAL_RANK",   "WORLD_SIZE",
                                       "SLURM_PROCID", "SLURM_NODEID", "OMPI_COMM_WORLD_RANK",
                                       "PMI_RANK"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = getenv(keys[i]);
        if (!v)
            continue;
        fprintf(raw, "rank\t%s\t", keys[i]);
        cp_inject_format_text(raw, v);
        fputc('\n', raw);
    }
}

void cp_inject_sites_free(void)
{
    cp_table_free(&cp_inject_sites.ids, NULL);
    free(cp_inject_sites.site);
    cp_inject_sites.site = NULL;
    cp_inject_sites.n = cp_inject_sites.capacity = 0;
    cp_inject_sites.lost = 0;
}
