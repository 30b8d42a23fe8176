/* cp_inject_tensormaps.c: the tensor maps the traced program encodes on the host, recorded from
 * CUPTI's driver API callbacks (cp_inject_tensormaps.h). A distinct map is its fields but the
 * address (whose alignment stays); a program that encodes a map per step adds to one count, and
 * a table of CP_INJECT_TMAPS_MAX distinct maps bounds the memory (encodes past it are counted as
 * unrecorded). */
#define _GNU_SOURCE
#include "cp_inject_tensormaps.h"

#include <cuda.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cp_inject_format.h"

#define CP_INJECT_TMAPS_MAX 256
#define CP_INJECT_TMAPS_RANK 5 /* the driver's largest tensor rank */
/* Encoded descriptors remembered, to tell which map a launch's parameter is: a power of two.
 * Past it, descriptors are not remembered and launches that pass them say so (unseen). */
#define CP_INJECT_TMAPS_DESCS 4096
/* Kernels whose launches pass descriptors, as (device, cubin, function, map) counts. */
#define CP_INJECT_TMAPS_USES 4096

typedef enum { CP_TMAP_TILED, CP_TMAP_IM2COL, CP_TMAP_IM2COL_WIDE } cp_inject_tmap_kind;

/* One map's fields, zeroed past its rank so that equal maps compare equal byte for byte. */
typedef struct cp_inject_tmap {
    uint32_t kind, data_type, rank, nbox;
    uint64_t dims[CP_INJECT_TMAPS_RANK];
    uint64_t strides[CP_INJECT_TMAPS_RANK - 1];
    uint32_t box[CP_INJECT_TMAPS_RANK]; /* tiled: boxDim; im2col: channels, pixels per column */
    uint32_t element_strides[CP_INJECT_TMAPS_RANK];
    uint32_t interleave, swizzle, l2_promotion, oob_fill;
    uint32_t alignment; /* of the global address: the largest power of two dividing it, <= 256 */
} cp_inject_tmap;

/* One encoded descriptor (the 128 bytes the driver wrote), and the distinct map it is. */
typedef struct cp_inject_tmap_desc {
    unsigned char value[CP_INJECT_TMAP_BYTES];
    uint32_t map;
    int used;
} cp_inject_tmap_desc;

/* The launches of one kernel (device, cubin, function) that passed map `map` (or, for
 * CP_INJECT_TMAP_UNSEEN, a 128-byte parameter that is no descriptor encoded on the host while
 * traced). */
typedef struct cp_inject_tmap_use {
    uint32_t ordinal, crc, map;
    char *function; /* owned */
    uint64_t launches;
} cp_inject_tmap_use;

#define CP_INJECT_TMAP_UNSEEN UINT32_MAX
#define CP_INJECT_TMAP_CHECKED (UINT32_MAX - 1) /* launches whose parameters were compared */

/* The table: guarded by the injection library's lock, held around every callback and at exit. */
static struct {
    int enabled;
    size_t n;
    cp_inject_tmap map[CP_INJECT_TMAPS_MAX];
    uint64_t count[CP_INJECT_TMAPS_MAX];
    uint64_t encodes, unrecorded, replaced;
    cp_inject_tmap_desc desc[CP_INJECT_TMAPS_DESCS];
    size_t ndesc;
    uint64_t forgotten; /* descriptors past CP_INJECT_TMAPS_DESCS */
    cp_inject_tmap_use use[CP_INJECT_TMAPS_USES];
    size_t nuse;
    uint64_t uses_lost; /* launches past CP_INJECT_TMAPS_USES kinds of use */
} cp_inject_tmaps;

/* The descriptor slot of value: its own, or the empty one where it would go; NULL when the
 * table is full and value is not in it. FNV-1a over the 128 bytes, linear probing. */
static cp_inject_tmap_desc *cp_inject_tmap_slot(const unsigned char *value)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < CP_INJECT_TMAP_BYTES; i++)
        h = (h ^ value[i]) * 1099511628211ull;
    for (size_t k = 0; k < CP_INJECT_TMAPS_DESCS; k++) {
        cp_inject_tmap_desc *d = &cp_inject_tmaps.desc[(h + k) & (CP_INJECT_TMAPS_DESCS - 1)];
        if (!d->used || memcmp(d->value, value, CP_INJECT_TMAP_BYTES) == 0)
            return d;
    }
    return NULL;
}

/* Remembers that the descriptor value is map `map`. */
static void cp_inject_tmap_remember(const void *value, uint32_t map)
{
    if (!value) /* no descriptor to remember */
        return;
    cp_inject_tmap_desc *d = cp_inject_tmap_slot(value);
    if (!d || (!d->used && cp_inject_tmaps.ndesc + 1 >= CP_INJECT_TMAPS_DESCS)) {
        cp_inject_tmaps.forgotten++;
        return;
    }
    if (!d->used) {
        memcpy(d->value, value, CP_INJECT_TMAP_BYTES);
        d->used = 1;
        cp_inject_tmaps.ndesc++;
    }
    d->map = map;
}

int64_t cp_inject_tmaps_find(const void *value)
{
    if (cp_inject_tmaps.ndesc == 0 || !value)
        return -1;
    const cp_inject_tmap_desc *d = cp_inject_tmap_slot(value);
    return d && d->used ? (int64_t)d->map : -1;
}

/* cuFuncGetParamInfo (CUDA 12.4 and later), looked up by cp_inject_tmaps_load; NULL: the
 * parameters' sizes, and so the maps launches pass, are not known. */
static CUresult (*cp_inject_tmaps_param_info)(CUfunction, size_t, size_t *, size_t *);

void cp_inject_tmaps_load(void *cuda)
{
    cp_inject_tmaps_param_info =
        (CUresult(*)(CUfunction, size_t, size_t *, size_t *))dlsym(cuda, "cuFuncGetParamInfo");
}

int cp_inject_tmaps_params(CUfunction f, uint16_t *index, int max)
{
    if (!f || !cp_inject_tmaps_param_info)
        return -1;
    int n = 0;
    size_t offset, size;
    for (size_t i = 0;
         i < 4096 && n < max && cp_inject_tmaps_param_info(f, i, &offset, &size) == CUDA_SUCCESS;
         i++)
        if (size == CP_INJECT_TMAP_BYTES)
            index[n++] = (uint16_t)i;
    return n;
}

int cp_inject_tmaps_any(void)
{
    return cp_inject_tmaps.ndesc > 0 || cp_inject_tmaps.forgotten > 0;
}

/* One more launch of (ordinal, crc, function) of kind m: a map, unseen or checked. */
static int cp_inject_tmap_is(const cp_inject_tmap_use *u, uint32_t ordinal, uint32_t crc,
                             const char *fn, uint32_t m)
{
    return u->map == m && u->ordinal == ordinal && u->crc == crc && strcmp(u->function, fn) == 0;
}

/* One more launch of (ordinal, crc, function) of kind m; *hint (NULL: none) names the use it
 * was last time, tried first, and is set to this one's. */
static void cp_inject_tmap_tally(uint32_t ordinal, uint32_t crc, const char *function, uint32_t m,
                                 uint32_t *hint)
{
    const char *fn = function ? function : "?";
    size_t i = hint && *hint < cp_inject_tmaps.nuse &&
                       cp_inject_tmap_is(&cp_inject_tmaps.use[*hint], ordinal, crc, fn, m)
                   ? *hint
                   : 0;
    for (; i < cp_inject_tmaps.nuse; i++)
        if (cp_inject_tmap_is(&cp_inject_tmaps.use[i], ordinal, crc, fn, m))
            break;
    if (i == cp_inject_tmaps.nuse) {
        char *copy = cp_inject_tmaps.nuse < CP_INJECT_TMAPS_USES ? strdup(fn) : NULL;
        if (!copy) {
            cp_inject_tmaps.uses_lost++;
            return;
        }
        cp_inject_tmaps.use[cp_inject_tmaps.nuse++] = (cp_inject_tmap_use){
            .ordinal = ordinal, .crc = crc, .map = m, .function = copy, .launches = 0};
    }
    cp_inject_tmaps.use[i].launches++;
    if (hint)
        *hint = (uint32_t)i;
}

void cp_inject_tmaps_used(uint32_t ordinal, uint32_t crc, const char *function, int64_t map,
                          uint32_t *hint)
{
    cp_inject_tmap_tally(ordinal, crc, function, map < 0 ? CP_INJECT_TMAP_UNSEEN : (uint32_t)map,
                         hint);
}

void cp_inject_tmaps_checked(uint32_t ordinal, uint32_t crc, const char *function, uint32_t *hint)
{
    cp_inject_tmap_tally(ordinal, crc, function, CP_INJECT_TMAP_CHECKED, hint);
}

static const CUpti_CallbackId cp_inject_tmaps_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled,
    CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col,
    CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide,
    CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress,
};

CUptiResult cp_inject_tmaps_enable(CUpti_SubscriberHandle subscriber)
{
    for (size_t i = 0; i < sizeof cp_inject_tmaps_cbids / sizeof cp_inject_tmaps_cbids[0]; i++) {
        CUptiResult r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                                            cp_inject_tmaps_cbids[i]);
        if (r != CUPTI_SUCCESS)
            return r;
    }
    cp_inject_tmaps.enabled = 1;
    return CUPTI_SUCCESS;
}

/* The parameters the three encode calls share, read from whichever struct CUPTI handed over. */
typedef struct cp_inject_tmap_args {
    CUtensorMapDataType data_type;
    cuuint32_t rank;
    const void *address;
    const cuuint64_t *dims, *strides;
    const cuuint32_t *element_strides;
    CUtensorMapInterleave interleave;
    CUtensorMapSwizzle swizzle;
    CUtensorMapL2promotion l2_promotion;
    CUtensorMapFloatOOBfill oob_fill;
} cp_inject_tmap_args;

#define CP_INJECT_TMAP_ARGS(p)                                                                     \
    (cp_inject_tmap_args)                                                                          \
    {                                                                                              \
        (p)->tensorDataType, (p)->tensorRank, (p)->globalAddress, (p)->globalDim,                  \
            (p)->globalStrides, (p)->elementStrides, (p)->interleave, (p)->swizzle,                \
            (p)->l2Promotion, (p)->oobFill                                                         \
    }

/* a's fields into m (zeroed first); box already set by the caller. -1 when they cannot be read
 * (a rank the driver would have refused, an array missing). */
static int cp_inject_tmap_fill(cp_inject_tmap *m, const cp_inject_tmap_args *a)
{
    if (a->rank < 1 || a->rank > CP_INJECT_TMAPS_RANK || !a->dims || !a->element_strides ||
        (a->rank > 1 && !a->strides))
        return -1;
    m->data_type = (uint32_t)a->data_type;
    m->rank = a->rank;
    for (uint32_t i = 0; i < a->rank; i++) {
        m->dims[i] = a->dims[i];
        m->element_strides[i] = a->element_strides[i];
        if (i + 1 < a->rank)
            m->strides[i] = a->strides[i];
    }
    m->interleave = (uint32_t)a->interleave;
    m->swizzle = (uint32_t)a->swizzle;
    m->l2_promotion = (uint32_t)a->l2_promotion;
    m->oob_fill = (uint32_t)a->oob_fill;
    uintptr_t address = (uintptr_t)a->address;
    uintptr_t low = address & (~address + 1); /* the lowest set bit; 0 for a null address */
    m->alignment = low == 0 || low > 256 ? 256 : (uint32_t)low;
    return 0;
}

/* m's entry, new (with no encode counted) when it has none: its index, or -1 when the table is
 * full. */
static int64_t cp_inject_tmap_entry(const cp_inject_tmap *m)
{
    for (size_t i = 0; i < cp_inject_tmaps.n; i++)
        if (memcmp(&cp_inject_tmaps.map[i], m, sizeof *m) == 0)
            return (int64_t)i;
    if (cp_inject_tmaps.n == CP_INJECT_TMAPS_MAX)
        return -1;
    cp_inject_tmaps.map[cp_inject_tmaps.n] = *m;
    cp_inject_tmaps.count[cp_inject_tmaps.n] = 0;
    return (int64_t)cp_inject_tmaps.n++;
}

/* One more encode of m, into descriptor (NULL: none to remember): its count, or a new entry, or
 * an unrecorded one when the table is full. */
static void cp_inject_tmap_count(const cp_inject_tmap *m, const void *descriptor)
{
    cp_inject_tmaps.encodes++;
    int64_t i = cp_inject_tmap_entry(m);
    if (i < 0) {
        cp_inject_tmaps.unrecorded++;
        return;
    }
    cp_inject_tmaps.count[i]++;
    cp_inject_tmap_remember(descriptor, (uint32_t)i);
}

/* cuTensorMapReplaceAddress: the map the descriptor was (read at the call's enter), now at
 * another address, so of its own alignment: the descriptor's new value is remembered as that
 * map with the new alignment. */
static _Thread_local int64_t cp_inject_tmap_replacing = -1;

static void cp_inject_tmap_replace(const CUpti_CallbackData *cb)
{
    const cuTensorMapReplaceAddress_params *p = cb->functionParams;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        cp_inject_tmap_replacing = p && p->tensorMap ? cp_inject_tmaps_find(p->tensorMap) : -1;
        return;
    }
    int64_t was = cp_inject_tmap_replacing;
    cp_inject_tmap_replacing = -1;
    if (!cb->functionReturnValue || *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
        return;
    cp_inject_tmaps.replaced++;
    if (was < 0 || !p || !p->tensorMap)
        return;
    cp_inject_tmap m = cp_inject_tmaps.map[was];
    uintptr_t address = (uintptr_t)p->globalAddress;
    uintptr_t low = address & (~address + 1);
    m.alignment = low == 0 || low > 256 ? 256 : (uint32_t)low;
    int64_t now = cp_inject_tmap_entry(&m);
    if (now >= 0)
        cp_inject_tmap_remember(p->tensorMap, (uint32_t)now);
}

int cp_inject_tmaps_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress)
        return 0;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress) {
        if (cb->functionParams)
            cp_inject_tmap_replace(cb);
        return 1;
    }
    if (cb->callbackSite != CUPTI_API_EXIT || !cb->functionReturnValue ||
        *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS || !cb->functionParams)
        return 1;
    cp_inject_tmap m;
    memset(&m, 0, sizeof m);
    cp_inject_tmap_args a;
    const void *descriptor = NULL; /* the CUtensorMap the call wrote */
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled) {
        const cuTensorMapEncodeTiled_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        descriptor = p->tensorMap;
        m.kind = CP_TMAP_TILED;
        m.nbox = p->boxDim && p->tensorRank <= CP_INJECT_TMAPS_RANK ? p->tensorRank : 0;
        for (uint32_t i = 0; i < m.nbox; i++)
            m.box[i] = p->boxDim[i];
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col) {
        const cuTensorMapEncodeIm2col_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        descriptor = p->tensorMap;
        m.kind = CP_TMAP_IM2COL;
        m.nbox = 2, m.box[0] = p->channelsPerPixel, m.box[1] = p->pixelsPerColumn;
    } else {
        const cuTensorMapEncodeIm2colWide_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        descriptor = p->tensorMap;
        m.kind = CP_TMAP_IM2COL_WIDE;
        m.nbox = 2, m.box[0] = p->channelsPerPixel, m.box[1] = p->pixelsPerColumn;
    }
    if (m.nbox == 0 || cp_inject_tmap_fill(&m, &a) != 0) {
        cp_inject_tmaps.encodes++;
        cp_inject_tmaps.unrecorded++;
        return 1;
    }
    cp_inject_tmap_count(&m, descriptor);
    return 1;
}

/* name of value in names (n of them), or "unknown_VALUE" in buf for a value of a later driver. */
static const char *cp_inject_tmap_name(const char *const *names, size_t n, uint32_t value,
                                       char *buf, size_t size)
{
    if (value < n)
        return names[value];
    snprintf(buf, size, "unknown_%" PRIu32, value);
    return buf;
}

#define CP_INJECT_TMAP_NAME(names, value, buf)                                                     \
    cp_inject_tmap_name(names, sizeof names / sizeof names[0], value, buf, sizeof buf)

/* CUtensorMapDataType in the driver's order, and each one's size in bits. */
static const char *const cp_inject_tmap_types[] = {
    "uint8",        "uint16",       "uint32",        "int32",        "uint64",      "int64",
    "float16",      "float32",      "float64",       "bfloat16",     "float32_ftz", "tfloat32",
    "tfloat32_ftz", "16u4_align8b", "16u4_align16b", "16u6_align16b"};
static const unsigned cp_inject_tmap_bits[] = {8,  16, 32, 32, 64, 64, 16, 32,
                                               64, 16, 32, 32, 32, 4,  4,  6};
_Static_assert(sizeof cp_inject_tmap_types / sizeof cp_inject_tmap_types[0] ==
                   sizeof cp_inject_tmap_bits / sizeof cp_inject_tmap_bits[0],
               "a size for every data type");
static const char *const cp_inject_tmap_kinds[] = {"tiled", "im2col", "im2col_wide"};
static const char *const cp_inject_tmap_interleaves[] = {"none", "16B", "32B"};
static const char *const cp_inject_tmap_swizzles[] = {
    "none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"};
static const char *const cp_inject_tmap_l2[] = {"none", "64B", "128B", "256B"};
static const char *const cp_inject_tmap_oob[] = {"none", "nan_request_zero_fma"};

/* n values joined by commas ("-" when n is 0), then a tab. */
static void cp_inject_tmap_list(FILE *raw, const uint64_t *v64, const uint32_t *v32, size_t n)
{
    if (n == 0)
        fputc('-', raw);
    for (size_t i = 0; i < n; i++)
        fprintf(raw, "%s%" PRIu64, i ? "," : "", v64 ? v64[i] : (uint64_t)v32[i]);
    fputc('\t', raw);
}

void cp_inject_tmaps_write(FILE *raw)
{
    if (!cp_inject_tmaps.enabled || !raw)
        return;
    for (size_t i = 0; i < cp_inject_tmaps.n; i++) {
        const cp_inject_tmap *m = &cp_inject_tmaps.map[i];
        char b[5][32];
        fprintf(raw, "tensor_map\t%" PRIu64 "\t%s\t%s\t", cp_inject_tmaps.count[i],
                CP_INJECT_TMAP_NAME(cp_inject_tmap_kinds, m->kind, b[0]),
                CP_INJECT_TMAP_NAME(cp_inject_tmap_types, m->data_type, b[1]));
        if (m->data_type < sizeof cp_inject_tmap_bits / sizeof cp_inject_tmap_bits[0])
            fprintf(raw, "%u\t", cp_inject_tmap_bits[m->data_type]);
        else
            fputs("-\t", raw);
        fprintf(raw, "%" PRIu32 "\t", m->rank);
        cp_inject_tmap_list(raw, m->dims, NULL, m->rank);
        cp_inject_tmap_list(raw, m->strides, NULL, m->rank - 1);
        cp_inject_tmap_list(raw, NULL, m->box, m->nbox);
        cp_inject_tmap_list(raw, NULL, m->element_strides, m->rank);
        fprintf(raw, "%s\t%s\t%s\t%s\t%" PRIu32 "\n",
                CP_INJECT_TMAP_NAME(cp_inject_tmap_interleaves, m->interleave, b[1]),
                CP_INJECT_TMAP_NAME(cp_inject_tmap_swizzles, m->swizzle, b[2]),
                CP_INJECT_TMAP_NAME(cp_inject_tmap_l2, m->l2_promotion, b[3]),
                CP_INJECT_TMAP_NAME(cp_inject_tmap_oob, m->oob_fill, b[4]), m->alignment);
    }
    fprintf(raw, "tensor_map_calls\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
            cp_inject_tmaps.encodes, cp_inject_tmaps.unrecorded, cp_inject_tmaps.replaced);
    for (size_t i = 0; i < cp_inject_tmaps.nuse; i++) {
        cp_inject_tmap_use *u = &cp_inject_tmaps.use[i];
        fprintf(raw, "kernel_tmap\t%" PRIu32 "\t", u->ordinal);
        cp_inject_format_text(raw, u->function);
        if (u->map == CP_INJECT_TMAP_UNSEEN)
            fputs("\t-", raw);
        else if (u->map == CP_INJECT_TMAP_CHECKED)
            fputs("\t*", raw);
        else
            fprintf(raw, "\t%" PRIu32, u->map);
        fprintf(raw, "\t%" PRIu64, u->launches);
        if (u->crc)
            fprintf(raw, "\t%08" PRIx32, u->crc);
        fputc('\n', raw);
        free(u->function);
    }
    if (cp_inject_tmaps.forgotten || cp_inject_tmaps.uses_lost)
        fprintf(raw,
                "note\t%" PRIu64
                " tensor map descriptors were not remembered (past %d) and %" PRIu64
                " launches' uses of them not kept (past %d kinds): those launches' maps are not "
                "known\n",
                cp_inject_tmaps.forgotten, CP_INJECT_TMAPS_DESCS, cp_inject_tmaps.uses_lost,
                CP_INJECT_TMAPS_USES);
    cp_inject_tmaps.n = cp_inject_tmaps.nuse = cp_inject_tmaps.ndesc = 0;
    memset(cp_inject_tmaps.desc, 0, sizeof cp_inject_tmaps.desc);
    cp_inject_tmaps.forgotten = cp_inject_tmaps.uses_lost = 0;
    cp_inject_tmaps.encodes = cp_inject_tmaps.unrecorded = cp_inject_tmaps.replaced = 0;
}
