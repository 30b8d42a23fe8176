/* cp_arch.c: the table of hardware facts coalprobe relies on, with the evidence per
 * architecture, and the decision whether a device can run the kernels a build carries. */
#define _POSIX_C_SOURCE 200809L
#include "cp_arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every architecture CUDA 13.0 compiles for. */
#define CP_ALL_ARCHS 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121, 0

const int cp_arch_cuda_archs[] = {CP_ALL_ARCHS};

/* Where the evidence comes from (docs/model.md, "Hardware facts", cites them the same way). */
#define CP_SRC_H100                                                                                \
    "coalprobe on the H100 (sm_90), docs/results/2026-11-21-h100-stride-gemm-ncu*: every family's counts equal "   \
    "the model (tests/gpu/gpu_counts.sh); the H200 (sm_90) in docs/results/2026-11-21-h200-gather"
#define CP_SRC_BEST_PRACTICES                                                                      \
    "NVIDIA CUDA C++ Best Practices Guide, 'Coalesced Access to Global Memory': on compute "       \
    "capability 6.0 and higher a warp's accesses coalesce into as many 32-byte transactions as "   \
    "sectors they touch"
#define CP_SRC_PROFILING_GUIDE                                                                     \
    "NVIDIA Nsight Compute Kernel Profiling Guide, 'Memory Tables': a sector is an aligned "       \
    "32-byte "                                                                                     \
    "chunk, an L1 or L2 cache line four sectors (128 bytes), for every GPU Nsight Compute "        \
    "supports "                                                                                    \
    "(Turing and newer)"
#define CP_SRC_PROGRAMMING_GUIDE_WARP                                                              \
    "NVIDIA CUDA C++ Programming Guide, technical specifications per compute capability: warp "    \
    "size 32"
#define CP_SRC_PROGRAMMING_GUIDE_BANKS                                                             \
    "NVIDIA CUDA C++ Programming Guide, shared memory of compute capability 5.x and later: 32 "    \
    "banks, successive 32-bit words in successive banks"

static const cp_fact_info cp_arch_facts[CP_FACT_COUNT] = {
    [CP_FACT_WARP_SIZE] =
        {"warp_size",
         CP_WARP_SIZE,
         "a warp is 32 threads that issue each instruction together",
         "every count: requests, lanes, warps",
         {{CP_EVIDENCE_MEASURED, {90, 0}, CP_SRC_H100},
          {CP_EVIDENCE_DOCUMENTED, {CP_ALL_ARCHS}, CP_SRC_PROGRAMMING_GUIDE_WARP}}},
    [CP_FACT_SECTOR_BYTES] =
        {"sector_bytes",
         CP_SECTOR_BYTES,
         "global memory moves in aligned 32-byte sectors: a request costs the distinct sectors "
         "its active lanes touch",
         "sectors, ideal sectors, efficiency, footprint",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           CP_SRC_H100 " (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum)"},
          {CP_EVIDENCE_DOCUMENTED,
           {CP_ALL_ARCHS},
           CP_SRC_BEST_PRACTICES "; " CP_SRC_PROFILING_GUIDE}}},
    [CP_FACT_LINE_BYTES] =
        {"line_bytes",
         CP_LINE_BYTES,
         "an L1 and L2 cache line is 128 bytes: four sectors",
         "lines per request; the model's fast path (warps whose addresses differ by 128 bytes "
         "cost the same)",
         {{CP_EVIDENCE_DOCUMENTED, {CP_ALL_ARCHS}, CP_SRC_PROFILING_GUIDE}}},
    [CP_FACT_REQUEST_RULE] =
        {"request_rule",
         0,
         "L1 receives one request per warp-level global instruction with at least one active lane "
         "(none when every lane is predicated off), whatever the number of lines it touches",
         "requests, sectors per request",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           CP_SRC_H100 " (l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum; a tiled GEMM of "
                       "33 x 64 x 40: 512 load instructions, 292 requests, 292 predicted)"}}},
    [CP_FACT_GLOBAL_WIDTH_16] =
        {"global_width_16",
         16,
         "no global access is wider than 16 bytes a lane: a 32-byte element is two 16-byte "
         "instructions, two requests",
         "requests and sectors of 32-byte elements (stride, expr --width 32)",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           "cuobjdump -sass of the sm_90 kernels (docs/model.md): two LDG.E.128 and two "
           "STG.E.128 per 32-byte element; counts equal the model on the H100"},
          {CP_EVIDENCE_DOCUMENTED,
           {75, 80, 86, 87, 88, 89, 90, 0},
           "PTX ISA: 256-bit vector loads and stores (ld.global.v8) need sm_100 or newer; the "
           "PTX nvcc 13.0 emits for compute_75..compute_90 has ld.global.v4 at most"},
          {CP_EVIDENCE_AGAINST,
           {100, 103, 110, 120, 121, 0},
           "the PTX nvcc 13.0 emits for compute_100, compute_110 and compute_120 loads and stores "
           "a 32-byte element with one ld.global.v8.f32 / st.global.v8.f32: one request a lane "
           "where the model counts two (tests/gpu/sass_widths.sh checks the SASS)"}}},
    [CP_FACT_SHARED_BANKS] =
        {"shared_banks",
         CP_SHARED_BANKS,
         "shared memory is 32 banks of 4-byte words (bank = word mod 32); a bank delivers one "
         "word per wavefront, to every lane that wants it",
         "shared wavefronts and bank conflicts (smem, transpose)",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           CP_SRC_H100 " (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum and "
                       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum)"},
          {CP_EVIDENCE_DOCUMENTED, {CP_ALL_ARCHS}, CP_SRC_PROGRAMMING_GUIDE_BANKS}}},
    [CP_FACT_SHARED_WIDE] =
        {"shared_wide",
         0,
         "an 8- or 16-byte shared access is served by half or quarter warps: it costs the most "
         "distinct words one bank delivers, at least 2 or 4 wavefronts",
         "ideal wavefronts and bank conflicts of 8- and 16-byte shared accesses",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           CP_SRC_H100 ": smem --width 8,16 --stride 1..64, loads and stores (docs/model.md, "
                       "'Shared memory')"}}},
    [CP_FACT_DRAM_GRANULE] =
        {"dram_granule_bytes",
         CP_DRAM_GRANULE_BYTES,
         "DRAM is read in 64-byte granules (pairs of sectors): loads whose lanes are more than 32 "
         "bytes apart read up to twice the sectors they ask for",
         "docs/measurement.md: why DRAM bytes exceed sector bytes; no count depends on it",
         {{CP_EVIDENCE_MEASURED,
           {90, 0},
           "coalprobe on the H100 (sm_90), docs/results/2026-11-21-h100-stride-gemm-ncu/stride_table.txt: "
           "stride 16 at width 4 reads 2 GiB of sectors and 4 GiB from DRAM"}}},
};

const cp_fact_info *cp_arch_fact(cp_fact f)
{
    return f >= 0 && f < CP_FACT_COUNT ? &cp_arch_facts[f] : NULL;
}

static int cp_arch_in(const int *archs, int arch)
{
    for (; *archs; archs++)
        if (*archs == arch)
            return 1;
    return 0;
}

cp_evidence cp_arch_fact_evidence(cp_fact f, int arch, const char **source)
{
    const cp_fact_info *info = cp_arch_fact(f);
    cp_evidence best = CP_EVIDENCE_NONE;
    if (source)
        *source = NULL;
    if (!info)
        return best;
    /* evidence against outweighs the rest; among the others the strongest (lowest) wins */
    for (size_t i = 0; i < CP_COUNT_OF(info->sources); i++) {
        const cp_fact_source *s = &info->sources[i];
        if (s->kind == CP_EVIDENCE_NONE || !cp_arch_in(s->archs, arch))
            continue;
        int better = s->kind == CP_EVIDENCE_AGAINST ||
                     (best != CP_EVIDENCE_AGAINST && (best == CP_EVIDENCE_NONE || s->kind < best));
        if (better) {
            best = s->kind;
            if (source)
                *source = s->source;
        }
    }
    return best;
}

int cp_arch_fact_verified(cp_fact f, int arch)
{
    cp_evidence e = cp_arch_fact_evidence(f, arch, NULL);
    return e != CP_EVIDENCE_NONE && e != CP_EVIDENCE_AGAINST;
}

const char *cp_arch_evidence_name(cp_evidence e)
{
    switch (e) {
    case CP_EVIDENCE_MEASURED:
        return "measured";
    case CP_EVIDENCE_DOCUMENTED:
        return "documented";
    case CP_EVIDENCE_PAPER:
        return "paper";
    case CP_EVIDENCE_AGAINST:
        return "against";
    default:
        return "none";
    }
}

size_t cp_arch_unverified(int arch, char *buf, size_t len)
{
    size_t n = 0, used = 0;
    if (len)
        buf[0] = '\0';
    for (int f = 0; f < CP_FACT_COUNT; f++) {
        if (cp_arch_fact_verified((cp_fact)f, arch))
            continue;
        if (used < len) {
            int w = snprintf(buf + used, len - used, "%s%s", n ? ", " : "", cp_arch_facts[f].key);
            used += w > 0 ? (size_t)w : 0;
        }
        n++;
    }
    return n;
}

/* --- built architectures --------------------------------------------------------------------- */

/* Parses one entry (word of length n): digits, an optional a or f, an optional -real/-virtual. */
static int cp_arch_parse_entry(const char *word, size_t n, cp_arch_entry *e)
{
    size_t i = 0;
    int arch = 0;
    while (i < n && word[i] >= '0' && word[i] <= '9' && arch < 10000)
        arch = arch * 10 + (word[i++] - '0');
    if (i == 0 || arch < 10 || arch >= 10000)
        return 0;
    e->arch = arch;
    e->suffix = '\0';
    if (i < n && (word[i] == 'a' || word[i] == 'f'))
        e->suffix = word[i++];
    const char *rest = word + i;
    size_t left = n - i;
    if (left == 0) {
        e->sass = e->ptx = 1; /* CMake: "86" is both SASS and PTX of sm_86 */
    } else if (left == 5 && memcmp(rest, "-real", 5) == 0) {
        e->sass = 1;
        e->ptx = 0;
    } else if (left == 8 && memcmp(rest, "-virtual", 8) == 0) {
        e->sass = 0;
        e->ptx = 1;
    } else {
        return 0;
    }
    return 1;
}

int cp_arch_parse_built(const char *list, cp_arch_built *out, cp_status *st)
{
    memset(out, 0, sizeof *out);
    for (const char *p = list ? list : ""; *p;) {
        p += strspn(p, " ;");
        size_t n = strcspn(p, " ;");
        if (n == 0)
            break;
        if (out->count == CP_ARCH_MAX_BUILT)
            return cp_status_set(st, CP_EXIT_USAGE, "more than %d architectures in '%s'",
                                 CP_ARCH_MAX_BUILT, list);
        cp_arch_entry *e = &out->entries[out->count];
        if (!cp_arch_parse_entry(p, n, e))
            return cp_status_set(st, CP_EXIT_USAGE,
                                 "'%.*s' is not a CUDA architecture (such as 90-real, "
                                 "120-virtual or 86)",
                                 (int)n, p);
        out->count++;
        p += n;
    }
    if (out->count == 0)
        return cp_status_set(st, CP_EXIT_USAGE, "no CUDA architecture in '%s'", list ? list : "");
    return CP_EXIT_OK;
}

const cp_arch_built *cp_arch_this_build(void)
{
#ifdef CP_CUDA_ARCHS
    static cp_arch_built built;
    static int state; /* 0: not parsed yet, 1: parsed, -1: unusable */
    if (state == 0) {
        cp_status st;
        cp_status_clear(&st);
        state = cp_arch_parse_built(CP_CUDA_ARCHS, &built, &st) == CP_EXIT_OK ? 1 : -1;
    }
    return state == 1 ? &built : NULL;
#else
    return NULL;
#endif
}

/* Appends "sm_90a" (or "compute_120") to buf at *used. */
static void cp_arch_append(char *buf, size_t len, size_t *used, const char *sep, const char *kind,
                           const cp_arch_entry *e)
{
    if (*used >= len)
        return;
    char suffix[2] = {e->suffix, '\0'};
    int w = snprintf(buf + *used, len - *used, "%s%s_%d%s", sep, kind, e->arch, suffix);
    *used += w > 0 ? (size_t)w : 0;
}

void cp_arch_describe_built(const cp_arch_built *b, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    if (!b)
        return;
    int first = 1;
    for (size_t i = 0; i < b->count; i++)
        if (b->entries[i].sass) {
            cp_arch_append(buf, len, &used, first ? "" : " ", "sm", &b->entries[i]);
            first = 0;
        }
    int first_ptx = 1;
    for (size_t i = 0; i < b->count; i++)
        if (b->entries[i].ptx) {
            cp_arch_append(buf, len, &used,
                           first ? (first_ptx ? "PTX " : " ") : (first_ptx ? ", PTX " : " "),
                           "compute", &b->entries[i]);
            first_ptx = 0;
        }
}

cp_arch_run cp_arch_decide(const cp_arch_built *b, int arch)
{
    cp_arch_run r = {CP_ARCH_RUN_NONE, 0};
    int major = arch / 10, best_sass = 0, best_ptx = 0;
    for (size_t i = 0; b && i < b->count; i++) {
        const cp_arch_entry *e = &b->entries[i];
        if (e->sass && e->arch == arch)
            return (cp_arch_run){CP_ARCH_RUN_SASS, arch};
        /* older minor of the same major; an arch-specific (a) cubin runs only on its own arch */
        if (e->sass && e->suffix != 'a' && e->arch / 10 == major && e->arch < arch &&
            e->arch > best_sass)
            best_sass = e->arch;
        /* PTX JIT-compiles for its own and any later architecture (family PTX: same major;
         * arch-specific PTX: that architecture only) */
        int ptx_ok = e->ptx && e->arch <= arch &&
                     (e->suffix == '\0' || (e->suffix == 'f' && e->arch / 10 == major) ||
                      (e->suffix == 'a' && e->arch == arch));
        if (ptx_ok && e->arch > best_ptx)
            best_ptx = e->arch;
    }
    if (best_sass)
        r = (cp_arch_run){CP_ARCH_RUN_COMPATIBLE, best_sass};
    else if (best_ptx)
        r = (cp_arch_run){CP_ARCH_RUN_PTX, best_ptx};
    return r;
}

int cp_arch_check_device(const cp_arch_built *b, const char *device_name, int arch, cp_status *st)
{
    if (!b || cp_arch_decide(b, arch).kind != CP_ARCH_RUN_NONE)
        return CP_EXIT_OK;
    char built[256];
    cp_arch_describe_built(b, built, sizeof built);
    int has_ptx = 0;
    for (size_t i = 0; i < b->count; i++)
        has_ptx |= b->entries[i].ptx;
    cp_status_set(st, CP_EXIT_RUNTIME,
                  "%s (sm_%d) cannot run this coalprobe: its kernels are built for %s%s",
                  device_name && *device_name ? device_name : "the GPU", arch, built,
                  has_ptx ? " (PTX runs only on the same or a newer architecture)" : "");
    cp_status_hint(st,
                   "rebuild for this GPU: cmake -DCMAKE_CUDA_ARCHITECTURES=%d (or =native) "
                   "-B build && cmake --build build; the default list in CMakeLists.txt covers "
                   "sm_75 to sm_120; --model predicts without the GPU",
                   arch);
    return CP_EXIT_RUNTIME;
}
