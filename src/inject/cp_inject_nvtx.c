/* cp_inject_nvtx.c: the NVTX range stack of each thread, kept from CUPTI's NVTX callbacks.
 *
 * Push/pop ranges (nvtxRangePush*, nvtxDomainRangePushEx and their pops) make a stack per thread;
 * a pop closes the innermost range of its own domain on that thread, and a pop with none open
 * there is ignored. Start/end ranges (nvtxRangeStart*, nvtxDomainRangeStartEx) are open from their
 * start to the end of their ID, on whatever thread it comes: the process keeps the set of those
 * open, and a start/end range counts as the innermost range of the thread that started it, above
 * the ranges open there when it started, until its end. A range node is (domain, message, the
 * node of the innermost range open when it began): its ID is written once as a `range` record.
 * A thread's stack keeps the innermost CP_INJECT_NVTX_DEPTH ranges' nodes of a deeper nesting
 * only as a count, so that the pops stay balanced. Domains created and strings registered through
 * the wide-character calls are not read (CUPTI's parameter structs do not say their type): their
 * ranges show the domain "?" or the message "?". */
#define _GNU_SOURCE
#define NVTX_NO_IMPL /* the NVTX declarations only: the program's NVTX is the one that runs */
#include "cp_inject_nvtx.h"

#include <generated_nvtx_meta.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/cp_base.h"
#include "cp_inject_format.h"
#include "cp_inject_python.h"

#define CP_INJECT_NVTX_DEPTH 64
#define CP_INJECT_NVTX_OPEN_MAX 1024   /* start/end ranges open at once that are followed */
#define CP_INJECT_NVTX_NODE_OVERFLOW 0 /* a node beyond the cap (IDs start at 1) */

typedef struct cp_inject_nvtx_entry {
    const void *domain; /* the NVTX domain handle, NULL for the default domain */
    uint32_t node;      /* the range node, or CP_INJECT_NVTX_NODE_OVERFLOW */
    uint64_t start_id;  /* a start/end range's ID, 0 for a pushed range */
    int inside;         /* it or a range open below it is named as --nvtx-include asks */
} cp_inject_nvtx_entry;

typedef struct cp_inject_nvtx_stack {
    cp_inject_nvtx_entry entry[CP_INJECT_NVTX_DEPTH];
    size_t depth; /* may exceed CP_INJECT_NVTX_DEPTH: those above are not kept */
} cp_inject_nvtx_stack;

static _Thread_local cp_inject_nvtx_stack cp_inject_nvtx_here;

static struct {
    cp_table domains; /* "%p" of a domain handle -> its name (owned) */
    cp_table strings; /* "%p" of a registered string handle -> the string (owned) */
    cp_table nodes;   /* "DOMAIN\tPARENT\tNAME" -> index: the node's ID */
    uint64_t open[CP_INJECT_NVTX_OPEN_MAX]; /* IDs of the start/end ranges open */
    size_t nopen;
    size_t cap; /* CP_INJECT_WHERE_CAP; lowered by tests */
    char *want; /* --nvtx-include's range name (owned), or NULL */
} cp_inject_nvtx = {.cap = CP_INJECT_WHERE_CAP};

CUptiResult cp_inject_nvtx_enable(CUpti_SubscriberHandle subscriber)
{
    static const CUpti_CallbackId ids[] = {
        CUPTI_CBID_NVTX_nvtxRangePushA,         CUPTI_CBID_NVTX_nvtxRangePushW,
        CUPTI_CBID_NVTX_nvtxRangePushEx,        CUPTI_CBID_NVTX_nvtxRangePop,
        CUPTI_CBID_NVTX_nvtxRangeStartA,        CUPTI_CBID_NVTX_nvtxRangeStartW,
        CUPTI_CBID_NVTX_nvtxRangeStartEx,       CUPTI_CBID_NVTX_nvtxRangeEnd,
        CUPTI_CBID_NVTX_nvtxDomainRangePushEx,  CUPTI_CBID_NVTX_nvtxDomainRangePop,
        CUPTI_CBID_NVTX_nvtxDomainRangeStartEx, CUPTI_CBID_NVTX_nvtxDomainRangeEnd,
        CUPTI_CBID_NVTX_nvtxDomainCreateA,      CUPTI_CBID_NVTX_nvtxDomainRegisterStringA};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        CUptiResult r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_NVTX, ids[i]);
        if (r != CUPTI_SUCCESS)
            return r;
    }
    return CUPTI_SUCCESS;
}

/* A wide string as UTF-8, owned; NULL when memory runs out. */
static char *cp_inject_nvtx_narrow(const wchar_t *w)
{
    size_t n = 0;
    while (w && w[n])
        n++;
    char *s = malloc(4 * n + 1), *p = s;
    for (size_t i = 0; s && i < n; i++) {
        uint32_t c = (uint32_t)w[i];
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            c = '?';
        if (c < 0x80) {
            *p++ = (char)c;
        } else if (c < 0x800) {
            *p++ = (char)(0xC0 | c >> 6);
            *p++ = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            *p++ = (char)(0xE0 | c >> 12);
            *p++ = (char)(0x80 | (c >> 6 & 0x3F));
            *p++ = (char)(0x80 | (c & 0x3F));
        } else {
            *p++ = (char)(0xF0 | c >> 18);
            *p++ = (char)(0x80 | (c >> 12 & 0x3F));
            *p++ = (char)(0x80 | (c >> 6 & 0x3F));
            *p++ = (char)(0x80 | (c & 0x3F));
        }
    }
    if (s)
        *p = '\0';
    return s;
}

/* Keeps text (owned by the table from then on) under handle in t. */
static void cp_inject_nvtx_keep(cp_table *t, const void *handle, char *text)
{
    char key[32];
    snprintf(key, sizeof key, "%p", handle);
    cp_table_entry *e = text ? cp_table_get(t, key, NULL) : NULL;
    if (!e) {
        free(text);
        return;
    }
    free(e->value); /* a handle given again: the latest text */
    e->value = text;
}

static const char *cp_inject_nvtx_kept(const cp_table *t, const void *handle, const char *absent)
{
    char key[32];
    snprintf(key, sizeof key, "%p", handle);
    const cp_table_entry *e = cp_table_find(t, key);
    return e && e->value ? e->value : absent;
}

/* The message of an event's attributes, into buf when it must be converted. */
static const char *cp_inject_nvtx_message(const nvtxEventAttributes_t *a, char **owned)
{
    *owned = NULL;
    if (!a)
        return "?";
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return a->message.ascii ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
        *owned = cp_inject_nvtx_narrow(a->message.unicode);
        return *owned ? *owned : "?";
    case NVTX_MESSAGE_TYPE_REGISTERED:
        return cp_inject_nvtx_kept(&cp_inject_nvtx.strings, a->message.registered, "?");
    default:
        return "";
    }
}

static const char *cp_inject_nvtx_text(const char *s)
{
    return s ? s : "";
}

static int cp_inject_nvtx_is_open(uint64_t id)
{
    for (size_t i = 0; i < cp_inject_nvtx.nopen; i++)
        if (cp_inject_nvtx.open[i] == id)
            return 1;
    return 0;
}

/* Removes entry i of this thread's stack. */
static void cp_inject_nvtx_remove(size_t i)
{
    cp_inject_nvtx_stack *s = &cp_inject_nvtx_here;
    size_t kept = s->depth < CP_INJECT_NVTX_DEPTH ? s->depth : CP_INJECT_NVTX_DEPTH;
    memmove(&s->entry[i], &s->entry[i + 1], (kept - i - 1) * sizeof s->entry[0]);
    s->depth--;
}

/* The innermost open entry of this thread's stack, start/end ranges ended elsewhere dropped;
 * NULL when none is kept. */
static const cp_inject_nvtx_entry *cp_inject_nvtx_top(void)
{
    cp_inject_nvtx_stack *s = &cp_inject_nvtx_here;
    size_t kept = s->depth < CP_INJECT_NVTX_DEPTH ? s->depth : CP_INJECT_NVTX_DEPTH;
    if (s->depth > kept)
        return &s->entry[kept - 1]; /* deeper ranges are not kept: the deepest kept stands in */
    while (kept > 0) {
        const cp_inject_nvtx_entry *e = &s->entry[kept - 1];
        if (!e->start_id || cp_inject_nvtx_is_open(e->start_id))
            return e;
        cp_inject_nvtx_remove(kept - 1);
        kept--;
    }
    return NULL;
}

int64_t cp_inject_nvtx_current(void)
{
    const cp_inject_nvtx_entry *e = cp_inject_nvtx_top();
    if (!e)
        return 0;
    return e->node == CP_INJECT_NVTX_NODE_OVERFLOW ? CP_INJECT_RANGE_OVERFLOW : (int64_t)e->node;
}

void cp_inject_nvtx_want(const char *name)
{
    free(cp_inject_nvtx.want);
    cp_inject_nvtx.want = name ? strdup(name) : NULL;
}

int cp_inject_nvtx_inside(void)
{
    const cp_inject_nvtx_entry *e = cp_inject_nvtx_top();
    return e && e->inside;
}

/* The node of a range of domain named name beginning now on this thread, its record written
 * when new; CP_INJECT_NVTX_NODE_OVERFLOW past the cap or inside a range past it. */
static uint32_t cp_inject_nvtx_node(const void *domain, const char *name, FILE *raw)
{
    int64_t parent = cp_inject_nvtx_current();
    if (parent == CP_INJECT_RANGE_OVERFLOW)
        return CP_INJECT_NVTX_NODE_OVERFLOW;
    const char *dname = domain ? cp_inject_nvtx_kept(&cp_inject_nvtx.domains, domain, "?") : "-";
    char small[512];
    char *key = cp_table_key(small, sizeof small, "%s\t%" PRId64 "\t%s", dname, parent, name);
    if (!key)
        return CP_INJECT_NVTX_NODE_OVERFLOW;
    uint32_t node = CP_INJECT_NVTX_NODE_OVERFLOW;
    cp_table_entry *e = cp_table_find(&cp_inject_nvtx.nodes, key);
    if (e) {
        node = (uint32_t)e->index;
    } else if (cp_inject_nvtx.nodes.count < cp_inject_nvtx.cap &&
               (e = cp_table_get(&cp_inject_nvtx.nodes, key, NULL)) != NULL) {
        e->index = cp_inject_nvtx.nodes.count;
        node = (uint32_t)e->index;
        if (raw) {
            fprintf(raw, "range\t%u\t", node);
            cp_inject_format_text(raw, dname);
            fputc('\t', raw);
            cp_inject_format_text(raw, name);
            fprintf(raw, "\t%" PRId64 "\n", parent);
        }
    }
    if (key != small)
        free(key);
    return node;
}

/* A range of domain begins on this thread: pushed (start_id 0) or started (its ID). */
static void cp_inject_nvtx_begin(const void *domain, const char *name, uint64_t start_id, FILE *raw)
{
    cp_inject_nvtx_stack *s = &cp_inject_nvtx_here;
    if (start_id) {
        if (cp_inject_nvtx.nopen == CP_INJECT_NVTX_OPEN_MAX)
            return; /* not followed: its end is ignored too */
        cp_inject_nvtx.open[cp_inject_nvtx.nopen++] = start_id;
    }
    if (s->depth < CP_INJECT_NVTX_DEPTH) {
        const cp_inject_nvtx_entry *top = cp_inject_nvtx_top();
        int inside = (top && top->inside) ||
                     (cp_inject_nvtx.want && name && strcmp(name, cp_inject_nvtx.want) == 0);
        cp_inject_nvtx_entry e = {domain, cp_inject_nvtx_node(domain, name, raw), start_id, inside};
        s->entry[s->depth] = e;
    }
    s->depth++;
}

/* A pop of domain on this thread: its innermost pushed range there ends. */
static void cp_inject_nvtx_pop(const void *domain)
{
    cp_inject_nvtx_stack *s = &cp_inject_nvtx_here;
    if (s->depth > CP_INJECT_NVTX_DEPTH) {
        s->depth--;
        return;
    }
    for (size_t i = s->depth; i-- > 0;)
        if (s->entry[i].domain == domain && !s->entry[i].start_id) {
            cp_inject_nvtx_remove(i);
            return;
        }
}

/* The end of the start/end range id: closed for every thread; this thread's entry dropped. */
static void cp_inject_nvtx_end(uint64_t id)
{
    for (size_t i = 0; i < cp_inject_nvtx.nopen; i++)
        if (cp_inject_nvtx.open[i] == id) {
            cp_inject_nvtx.open[i] = cp_inject_nvtx.open[--cp_inject_nvtx.nopen];
            break;
        }
    cp_inject_nvtx_stack *s = &cp_inject_nvtx_here;
    size_t kept = s->depth < CP_INJECT_NVTX_DEPTH ? s->depth : CP_INJECT_NVTX_DEPTH;
    if (s->depth > kept)
        return;
    for (size_t i = kept; i-- > 0;)
        if (s->entry[i].start_id == id) {
            cp_inject_nvtx_remove(i);
            return;
        }
}

/* The ID a start call returned, 0 when unknown. */
static uint64_t cp_inject_nvtx_started(const CUpti_NvtxData *d)
{
    return d->functionReturnValue ? (uint64_t) * (const nvtxRangeId_t *)d->functionReturnValue : 0;
}

/* A range beginning: pushed or, for a start with an ID, started. */
static void cp_inject_nvtx_event(const void *domain, const nvtxEventAttributes_t *a,
                                 uint64_t start_id, FILE *raw)
{
    char *owned = NULL;
    const char *name = cp_inject_nvtx_message(a, &owned);
    cp_inject_nvtx_begin(domain, name, start_id, raw);
    free(owned);
}

/* Domains and registered strings: kept to name ranges. 1 when cbid is one of those calls. */
static int cp_inject_nvtx_names(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    if (cbid != CUPTI_CBID_NVTX_nvtxDomainCreateA &&
        cbid != CUPTI_CBID_NVTX_nvtxDomainRegisterStringA)
        return 0; /* the other calls return no handle: their return value is not read as one */
    const void *handle = d->functionReturnValue ? *(void *const *)d->functionReturnValue : NULL;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
        const nvtxDomainCreateA_params *p = d->functionParams;
        if (handle)
            cp_inject_nvtx_keep(&cp_inject_nvtx.domains, handle, strdup(p->name ? p->name : ""));
        return 1;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
        const nvtxDomainRegisterStringA_params *p = d->functionParams;
        if (handle)
            cp_inject_nvtx_keep(&cp_inject_nvtx.strings, handle,
                                strdup(p->string ? p->string : ""));
        return 1;
    }
    default:
        return 0;
    }
}

void cp_inject_nvtx_call(CUpti_CallbackId cbid, const void *data, FILE *raw)
{
    const CUpti_NvtxData *d = data;
    if (!d || !d->functionParams || cp_inject_nvtx_names(cbid, d))
        return;
    const void *p = d->functionParams;
    char *owned = NULL;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
        cp_inject_nvtx_begin(NULL, cp_inject_nvtx_text(((const nvtxRangePushA_params *)p)->message),
                             0, raw);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushW:
        owned = cp_inject_nvtx_narrow(((const nvtxRangePushW_params *)p)->message);
        cp_inject_nvtx_begin(NULL, owned ? owned : "?", 0, raw);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        cp_inject_nvtx_event(NULL, ((const nvtxRangePushEx_params *)p)->eventAttrib, 0, raw);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
        const nvtxDomainRangePushEx_params *q = p;
        cp_inject_nvtx_event(q->domain, q->core.eventAttrib, 0, raw);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePop:
        cp_inject_nvtx_pop(NULL);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        cp_inject_nvtx_pop(((const nvtxDomainRangePop_params *)p)->domain);
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
        if (cp_inject_nvtx_started(d))
            cp_inject_nvtx_begin(NULL,
                                 cp_inject_nvtx_text(((const nvtxRangeStartA_params *)p)->message),
                                 cp_inject_nvtx_started(d), raw);
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartW:
        if (cp_inject_nvtx_started(d)) {
            owned = cp_inject_nvtx_narrow(((const nvtxRangeStartW_params *)p)->message);
            cp_inject_nvtx_begin(NULL, owned ? owned : "?", cp_inject_nvtx_started(d), raw);
        }
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
        if (cp_inject_nvtx_started(d))
            cp_inject_nvtx_event(NULL, ((const nvtxRangeStartEx_params *)p)->eventAttrib,
                                 cp_inject_nvtx_started(d), raw);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
        const nvtxDomainRangeStartEx_params *q = p;
        if (cp_inject_nvtx_started(d))
            cp_inject_nvtx_event(q->domain, q->core.eventAttrib, cp_inject_nvtx_started(d), raw);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
        cp_inject_nvtx_end(((const nvtxRangeEnd_params *)p)->id);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
        cp_inject_nvtx_end(((const nvtxDomainRangeEnd_params *)p)->core.id);
        break;
    default:
        break;
    }
    free(owned);
}

void cp_inject_nvtx_free(void)
{
    cp_table_free(&cp_inject_nvtx.domains, free);
    cp_table_free(&cp_inject_nvtx.strings, free);
    cp_table_free(&cp_inject_nvtx.nodes, NULL);
    cp_inject_nvtx.nopen = 0;
    free(cp_inject_nvtx.want);
    cp_inject_nvtx.want = NULL;
    memset(&cp_inject_nvtx_here, 0, sizeof cp_inject_nvtx_here);
}
