/* cp_arch.h: what coalprobe knows per GPU architecture: the hardware facts the model and the
 * reports rely on (one table, cp_arch.c), each with the architectures it was verified on and the
 * evidence; and which architectures a build carries kernels for, with the decision whether a
 * device can run them. Pure functions: no GPU, no CUDA. */
#ifndef CP_ARCH_H
#define CP_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/cp_base.h"

/* The numbers the model counts with. Each is a fact of the table below (the fact named in the
 * comment); tests/unit/test_arch.c checks the table states these values. */
#define CP_WARP_SIZE 32u         /* CP_FACT_WARP_SIZE */
#define CP_SECTOR_BYTES 32u      /* CP_FACT_SECTOR_BYTES */
#define CP_LINE_BYTES 128u       /* CP_FACT_LINE_BYTES */
#define CP_SHARED_BANKS 32u      /* CP_FACT_SHARED_BANKS */
#define CP_SHARED_BANK_BYTES 4u  /* CP_FACT_SHARED_BANKS */
#define CP_DRAM_GRANULE_BYTES 64 /* CP_FACT_DRAM_GRANULE: explains, never counts */

/* An architecture is the number of its sm_ name: 75 for sm_75 (compute capability 7.5), 120 for
 * sm_120 (12.0). */
static inline int cp_arch_from_cc(int major, int minor)
{
    return major * 10 + minor;
}

/* The hardware facts. */
typedef enum {
    CP_FACT_WARP_SIZE,       /* a warp is 32 threads */
    CP_FACT_SECTOR_BYTES,    /* global memory moves in 32-byte sectors */
    CP_FACT_LINE_BYTES,      /* a cache line is 128 bytes: four sectors */
    CP_FACT_REQUEST_RULE,    /* one L1 request per warp-level instruction with an active lane */
    CP_FACT_GLOBAL_WIDTH_16, /* no global access wider than 16 bytes a lane: 32 bytes = 2 */
    CP_FACT_SHARED_BANKS,    /* shared memory: 32 banks of 4-byte words, bank = word mod 32 */
    CP_FACT_SHARED_WIDE,     /* 8/16-byte shared lanes: half/quarter warps, words per bank */
    CP_FACT_DRAM_GRANULE,    /* DRAM is read in 64-byte granules (pairs of sectors) */
    CP_FACT_COUNT
} cp_fact;

/* Kinds of evidence, strongest first. AGAINST: evidence that the fact does not hold there. */
typedef enum {
    CP_EVIDENCE_NONE,
    CP_EVIDENCE_MEASURED,   /* measured by coalprobe's GPU tests (docs/results/) */
    CP_EVIDENCE_DOCUMENTED, /* stated by NVIDIA's documentation for that architecture */
    CP_EVIDENCE_PAPER,      /* measured in a cited paper */
    CP_EVIDENCE_AGAINST,    /* the compiler or hardware is known to differ there */
} cp_evidence;

/* One piece of evidence: its kind, the architectures it covers (0-terminated) and its source. */
typedef struct cp_fact_source {
    cp_evidence kind;
    int archs[16];
    const char *source;
} cp_fact_source;

typedef struct cp_fact_info {
    const char *key;       /* JSON name, e.g. "sector_bytes" */
    uint32_t value;        /* the number the model uses; 0 for a rule */
    const char *statement; /* the fact in one sentence */
    const char *used_by;   /* what in coalprobe relies on it */
    cp_fact_source sources[4];
} cp_fact_info;

/* The architectures CUDA 13.0 compiles for (nvcc --list-gpu-code), 0-terminated. */
extern const int cp_arch_cuda_archs[];

/* The fact table's entry for f (NULL when out of range). */
const cp_fact_info *cp_arch_fact(cp_fact f);

/* The strongest evidence that fact f holds on arch (CP_EVIDENCE_NONE when there is none;
 * CP_EVIDENCE_AGAINST when evidence says it does not hold). *source (may be NULL) receives that
 * evidence's source, or NULL. */
cp_evidence cp_arch_fact_evidence(cp_fact f, int arch, const char **source);

/* 1 when fact f is verified on arch: measured, documented or published there. */
int cp_arch_fact_verified(cp_fact f, int arch);

/* Evidence kind as a word: "measured", "documented", "paper", "against" or "none". */
const char *cp_arch_evidence_name(cp_evidence e);

/* Writes the keys of the facts not verified on arch, separated by ", ", into buf ("" when every
 * fact is verified); returns how many. */
size_t cp_arch_unverified(int arch, char *buf, size_t len);

/* --- the architectures a build carries kernels for ------------------------------------------ */

#define CP_ARCH_MAX_BUILT 32

/* One entry of CMAKE_CUDA_ARCHITECTURES: "90-real" (SASS), "120-virtual" (PTX), "86" (both),
 * with an optional a (arch-specific: runs only on that exact architecture) or f (family:
 * runs on the same major) suffix, e.g. "90a-real". */
typedef struct cp_arch_entry {
    int arch;
    int sass, ptx;
    char suffix; /* '\0', 'a' or 'f' */
} cp_arch_entry;

typedef struct cp_arch_built {
    cp_arch_entry entries[CP_ARCH_MAX_BUILT];
    size_t count;
} cp_arch_built;

/* Parses a list of entries separated by spaces or semicolons (as CMake writes them). Returns
 * CP_EXIT_USAGE with a message naming the bad entry; an empty list is an error too. */
int cp_arch_parse_built(const char *list, cp_arch_built *out, cp_status *st);

/* The list this binary was built with (CP_CUDA_ARCHS from CMake), parsed once. NULL when the
 * build defined none (a library built without CMake's list): then nothing is refused. */
const cp_arch_built *cp_arch_this_build(void);

/* "sm_75 sm_80 sm_86, PTX compute_120": the SASS architectures, then the PTX ones. */
void cp_arch_describe_built(const cp_arch_built *b, char *buf, size_t len);

/* How a device of architecture `arch` runs a build's kernels. */
typedef enum {
    CP_ARCH_RUN_SASS,       /* SASS for exactly this architecture */
    CP_ARCH_RUN_COMPATIBLE, /* SASS of an older minor of the same major (sm_86 on sm_87) */
    CP_ARCH_RUN_PTX,        /* no SASS: the driver JIT-compiles the PTX of an older arch */
    CP_ARCH_RUN_NONE,       /* nothing runs: launches fail with "no kernel image" */
} cp_arch_run_kind;

typedef struct cp_arch_run {
    cp_arch_run_kind kind;
    int arch; /* the built architecture used (SASS or PTX); 0 for NONE */
} cp_arch_run;

/* Decides how a device of architecture `arch` runs the kernels of b (CUDA's rules: SASS of sm_X.y
 * runs on sm_X.z for z >= y unless it is arch-specific (a); PTX of compute_P is JIT-compiled for
 * any architecture >= P, family PTX (f) for the same major only). */
cp_arch_run cp_arch_decide(const cp_arch_built *b, int arch);

/* For a device coalprobe cannot run on (kind NONE): CP_EXIT_RUNTIME with a message naming the
 * device, its sm_XY and the architectures built, and a hint with the build flag that fixes it.
 * For a device it can run on: CP_EXIT_OK, st untouched. */
int cp_arch_check_device(const cp_arch_built *b, const char *device_name, int arch, cp_status *st);

#endif
