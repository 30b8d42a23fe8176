/* cp_inject_tensormaps.c: the tensor maps the traced program encodes on the host, recorded from
 * CUPTI's driver API callbacks (cp_inject_tensormaps.h). A distinct map is its fields but the
 * address (whose alignment stays); a program that encodes a map per step adds to one count, and
 * a table of CP_INJECT_TMAPS_MAX distinct maps bounds the memory (encodes past it are counted as
 * unrecorded). */
#include "cp_inject_tensormaps.h"

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#define CP_INJECT_TMAPS_MAX 256
#define CP_INJECT_TMAPS_RANK 5 /* the driver's largest tensor rank */

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

/* The table: guarded by the injection library's lock, held around every callback and at exit. */
static struct {
    int enabled;
    size_t n;
    cp_inject_tmap map[CP_INJECT_TMAPS_MAX];
    uint64_t count[CP_INJECT_TMAPS_MAX];
    uint64_t encodes, unrecorded, replaced;
} cp_inject_tmaps;

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

/* One more encode of m: its count, or a new entry, or an unrecorded one when the table is full. */
static void cp_inject_tmap_count(const cp_inject_tmap *m)
{
    cp_inject_tmaps.encodes++;
    for (size_t i = 0; i < cp_inject_tmaps.n; i++)
        if (memcmp(&cp_inject_tmaps.map[i], m, sizeof *m) == 0) {
            cp_inject_tmaps.count[i]++;
            return;
        }
    if (cp_inject_tmaps.n == CP_INJECT_TMAPS_MAX) {
        cp_inject_tmaps.unrecorded++;
        return;
    }
    cp_inject_tmaps.map[cp_inject_tmaps.n] = *m;
    cp_inject_tmaps.count[cp_inject_tmaps.n++] = 1;
}

int cp_inject_tmaps_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress)
        return 0;
    if (cb->callbackSite != CUPTI_API_EXIT || !cb->functionReturnValue ||
        *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS || !cb->functionParams)
        return 1;
    cp_inject_tmap m;
    memset(&m, 0, sizeof m);
    cp_inject_tmap_args a;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress) {
        cp_inject_tmaps.replaced++;
        return 1;
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled) {
        const cuTensorMapEncodeTiled_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        m.kind = CP_TMAP_TILED;
        m.nbox = p->boxDim && p->tensorRank <= CP_INJECT_TMAPS_RANK ? p->tensorRank : 0;
        for (uint32_t i = 0; i < m.nbox; i++)
            m.box[i] = p->boxDim[i];
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col) {
        const cuTensorMapEncodeIm2col_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        m.kind = CP_TMAP_IM2COL;
        m.nbox = 2, m.box[0] = p->channelsPerPixel, m.box[1] = p->pixelsPerColumn;
    } else {
        const cuTensorMapEncodeIm2colWide_params *p = cb->functionParams;
        a = CP_INJECT_TMAP_ARGS(p);
        m.kind = CP_TMAP_IM2COL_WIDE;
        m.nbox = 2, m.box[0] = p->channelsPerPixel, m.box[1] = p->pixelsPerColumn;
    }
    if (m.nbox == 0 || cp_inject_tmap_fill(&m, &a) != 0) {
        cp_inject_tmaps.encodes++;
        cp_inject_tmaps.unrecorded++;
        return 1;
    }
    cp_inject_tmap_count(&m);
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
    cp_inject_tmaps.n = 0;
    cp_inject_tmaps.encodes = cp_inject_tmaps.unrecorded = cp_inject_tmaps.replaced = 0;
}
