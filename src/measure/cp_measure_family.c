/* cp_measure_family.c: the table of the families' measure parts (families/<family>/
 * cp_<family>_measure.c), the call of their resources
 * hooks, and the output checks they share (wrong-value messages, copies back to the host, words
 * checked against expected values, the chunk check of the one-element-per-thread kernels). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cp_measure_family.h"
#include "cp_fill.h"

/* The families' entries, in the order of cp_family (the registry, families/cp_families.def). */
static const cp_measure_family *const cp_measure_families[] = {
#define CP_FAMILY(NAME, name) [CP_FAMILY_##NAME] = &cp_##name##_measure,
#include "cp_families.def"
#undef CP_FAMILY
};
_Static_assert(CP_COUNT_OF(cp_measure_families) == CP_FAMILY_COUNT,
               "one entry of the measure table per family");

const cp_measure_family *cp_measure_family_of(cp_family f)
{
    return (unsigned)f < CP_FAMILY_COUNT ? cp_measure_families[f] : NULL;
}

int cp_measure_family_resources(const cp_measure_family *f, const cp_config *c,
                                const cp_rtc_module *expr, cp_kernel_resources *k, cp_resources *r,
                                cp_status *st)
{
    if (f->fixed_resources)
        CP_CUDA_CHECK(st, f->fixed_resources(k));
    else if (f->config_resources)
        CP_CUDA_CHECK(st, f->config_resources(c, k));
    else
        return f->resources(c, expr, k, r, st);
    return CP_EXIT_OK;
}

uint32_t cp_cuda_seed(size_t access)
{
    return (uint32_t)access + 1;
}

int cp_cuda_wrong(cp_status *st, const char *what, uint64_t index, float got, float want)
{
    cp_status_set(st, CP_EXIT_RUNTIME, "wrong kernel output: %s %" PRIu64 " is %.9g, expected %.9g",
                  what, index, (double)got, (double)want);
    cp_status_hint(st, "this is a bug in coalprobe's kernel or index functions; please report it");
    return CP_EXIT_RUNTIME;
}

int cp_cuda_copy_words(const void *buf, uint64_t first, uint64_t count, uint32_t **out,
                       cp_status *st)
{
    *out = malloc((count ? count : 1) * sizeof **out);
    if (!*out)
        return cp_status_set(st, CP_EXIT_RUNTIME, "out of memory while checking output");
    cudaError_t e = cudaMemcpy(*out, (const uint32_t *)buf + first, count * sizeof **out,
                               cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(*out);
        *out = NULL;
        CP_CUDA_CHECK(st, e);
    }
    return CP_EXIT_OK;
}

uint32_t cp_cuda_float_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

int cp_cuda_check_words(const uint32_t *got, uint64_t first, uint64_t count,
                        const cp_cuda_expect *e, cp_status *st)
{
    for (uint64_t i = 0; i < count; i++) {
        uint32_t want = e->want(e->ctx, first + i);
        if (!e->floats) {
            if (got[i] != want)
                return cp_cuda_wrong_word(st, e->what, first + i, got[i], want);
            continue;
        }
        float g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want, sizeof w);
        if (g != w)
            return cp_cuda_wrong(st, e->what, first + i, g, w);
    }
    return CP_EXIT_OK;
}

int cp_cuda_verify_words(const void *buf, uint64_t first, uint64_t count, const cp_cuda_expect *e,
                         cp_status *st)
{
    uint32_t *got;
    CP_TRY(cp_cuda_copy_words(buf, first, count, &got, st));
    int rc = cp_cuda_check_words(got, first, count, e, st);
    free(got);
    return rc;
}

int cp_cuda_wrong_word(cp_status *st, const char *what, uint64_t index, uint32_t got, uint32_t want)
{
    cp_status_set(st, CP_EXIT_RUNTIME,
                  "wrong kernel output: %s %" PRIu64 " is 0x%08x, expected 0x%08x", what, index,
                  (unsigned)got, (unsigned)want);
    cp_status_hint(st, "this is a bug in coalprobe's kernel or index functions; please report it");
    return CP_EXIT_RUNTIME;
}

int cp_cuda_poison_access(const cp_cuda_run *r, size_t out, cp_status *st)
{
    CP_CUDA_CHECK(
        st, cudaMemsetAsync(r->bufs[out], 0xFF, r->p->accesses[out].buffer_bytes, r->s->stream));
    return CP_EXIT_OK;
}

/* The copy's optional index hooks, each with its default when NULL. */
static uint64_t cp_cuda_copy_element_words(const cp_cuda_copy *cp, const cp_config *c)
{
    return cp->words ? cp->words(c) : 1;
}

static uint64_t cp_cuda_copy_dst(const cp_cuda_copy *cp, const cp_config *c, uint64_t i)
{
    return cp->dst ? cp->dst(c, i) : i;
}

static cp_cuda_chunk cp_cuda_chunk_at(const cp_config *c, const cp_cuda_copy *cp, int k)
{
    cp_cuda_chunk ch;
    uint64_t n = c->elements;
    ch.count = n < 256 ? n : 256;
    ch.i0 = (n - ch.count) * (uint64_t)k / (CP_CUDA_CHUNKS - 1);
    ch.words = cp_cuda_copy_element_words(cp, c);
    uint64_t last = ch.i0 + ch.count - 1;
    ch.first = cp_cuda_copy_dst(cp, c, ch.i0);
    last = cp_cuda_copy_dst(cp, c, last);
    ch.nwords = (last - ch.first + 1) * ch.words;
    ch.first *= ch.words;
    return ch;
}

/* One launch poisons the 16 chunks (cp_kernels_chunks_poison_launch says why not 16 memsets). */
int cp_cuda_copy_poison(const cp_cuda_run *r, const cp_cuda_copy *cp, cp_status *st)
{
    _Static_assert(CP_CUDA_CHUNKS <= CP_KERNELS_MAX_CHUNKS, "a poison launch holds every chunk");
    cp_kernels_chunks ks = {.count = CP_CUDA_CHUNKS};
    for (int k = 0; k < CP_CUDA_CHUNKS; k++) {
        cp_cuda_chunk ch = cp_cuda_chunk_at(r->c, cp, k);
        ks.first[k] = ch.first;
        ks.words[k] = ch.nwords;
    }
    CP_CUDA_CHECK(st, cp_kernels_chunks_poison_launch(r->bufs[cp->out], &ks, r->s->stream));
    return CP_EXIT_OK;
}

/* Checks the words one chunk of threads of a one-element-per-thread kernel wrote, read into
 * host (the chunk's words from ch->first). */
static int cp_cuda_verify_chunk(const cp_cuda_run *r, const cp_cuda_copy *cp,
                                const cp_cuda_chunk *ch, const float *host, cp_status *st)
{
    const cp_config *c = r->c;
    int rc = CP_EXIT_OK;
    for (uint64_t i = ch->i0; i < ch->i0 + ch->count && rc == CP_EXIT_OK; i++) {
        uint64_t src = cp->src(c, i), dst = cp_cuda_copy_dst(cp, c, i);
        for (uint64_t j = 0; j < ch->words && rc == CP_EXIT_OK; j++) {
            float want = cp_fill_value(src * ch->words + j, cp_cuda_seed(cp->data));
            float got = host[dst * ch->words + j - ch->first];
            if (got != want)
                rc = cp_cuda_wrong(st, "output word", dst * ch->words + j, got, want);
        }
    }
    return rc;
}

int cp_cuda_check_reserve(cp_cuda_state *s, uint64_t words, cp_status *st)
{
    if (words <= s->check_words)
        return CP_EXIT_OK;
    if (words < 2 * s->check_words)
        words = 2 * s->check_words;
    cudaFreeHost(s->check_host);
    s->check_host = NULL;
    s->check_words = 0;
    CP_CUDA_CHECK(st, cudaMallocHost((void **)&s->check_host, words * sizeof *s->check_host));
    s->check_words = words;
    return CP_EXIT_OK;
}

/* c's 16 chunks into ch; their words in all. */
static uint64_t cp_cuda_copy_chunks(const cp_config *c, const cp_cuda_copy *cp,
                                    cp_cuda_chunk ch[CP_CUDA_CHUNKS])
{
    uint64_t words = 0;
    for (int k = 0; k < CP_CUDA_CHUNKS; k++) {
        ch[k] = cp_cuda_chunk_at(c, cp, k);
        words += ch[k].nwords;
    }
    return words;
}

uint64_t cp_cuda_copy_check_words(const cp_config *c, const cp_cuda_copy *cp)
{
    cp_cuda_chunk ch[CP_CUDA_CHUNKS];
    return cp_cuda_copy_chunks(c, cp, ch);
}

/* The chunks' words are copied in one go (pinned memory, one wait), then checked: 16 copies
 * that each waited took 0.2-0.3 ms of every configuration. */
int cp_cuda_copy_verify(const cp_cuda_run *r, const cp_cuda_copy *cp, cp_status *st)
{
    cp_cuda_chunk ch[CP_CUDA_CHUNKS];
    uint64_t at[CP_CUDA_CHUNKS], words = cp_cuda_copy_chunks(r->c, cp, ch);
    for (int k = 0; k < CP_CUDA_CHUNKS; k++) {
        if (cp->check_chunk)
            CP_TRY(cp->check_chunk(r, &ch[k], st));
        at[k] = k ? at[k - 1] + ch[k - 1].nwords : 0;
    }
    CP_TRY(cp_cuda_check_reserve(r->s, words, st));
    for (int k = 0; k < CP_CUDA_CHUNKS; k++)
        CP_CUDA_CHECK(st, cudaMemcpyAsync(r->s->check_host + at[k],
                                          (const char *)r->bufs[cp->out] + ch[k].first * 4,
                                          ch[k].nwords * sizeof *r->s->check_host,
                                          cudaMemcpyDeviceToHost, r->s->stream));
    CP_CUDA_CHECK(st, cudaStreamSynchronize(r->s->stream));
    for (int k = 0; k < CP_CUDA_CHUNKS; k++)
        CP_TRY(cp_cuda_verify_chunk(r, cp, &ch[k], r->s->check_host + at[k], st));
    return CP_EXIT_OK;
}
