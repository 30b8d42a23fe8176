/* cp_trace_report.h: the report side of coalprobe trace: the raw files read into memory
 * (cp_trace_load.c), their meaning (cp_trace_analyze.c: per kernel and per instruction counts,
 * ranks, shares, the gate), the SASS opcodes from nvdisasm (cp_trace_sass.c), the writers
 * (cp_trace_table.c, cp_trace_json.c, cp_trace_csv.c) and compare on trace reports
 * (cp_trace_compare.c). docs/trace.md says what every number means. */
#ifndef CP_TRACE_REPORT_H
#define CP_TRACE_REPORT_H

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/cp_base.h"

#define CP_TRACE_SCHEMA_VERSION 1

/* The SASS metrics of cp_trace_raw.h, as indices into the value arrays below. */
enum {
    CP_TRACE_M_GLOBAL_LD,        /* warp-level global load instructions (requests) */
    CP_TRACE_M_GLOBAL_ST,        /* warp-level global store instructions (requests) */
    CP_TRACE_M_SECTORS,          /* global sectors moved */
    CP_TRACE_M_SECTORS_IDEAL,    /* the sectors the active lanes' bytes need at the least */
    CP_TRACE_M_SHARED_LD,        /* warp-level shared load instructions */
    CP_TRACE_M_SHARED_ST,        /* warp-level shared store instructions */
    CP_TRACE_M_WAVEFRONTS,       /* shared-memory wavefronts */
    CP_TRACE_M_WAVEFRONTS_IDEAL, /* wavefronts without bank conflicts */
    CP_TRACE_M_LDGSTS,           /* warp-level LDGSTS (cp.async) instructions (requests) */
    CP_TRACE_M_GLOBAL_ATOM,      /* warp-level global atomics (ATOMG) */
    CP_TRACE_M_GLOBAL_RED,       /* warp-level global reductions (REDG) */
    CP_TRACE_M_LOCAL_LD,         /* warp-level local loads (LDL: spills, stack arrays) */
    CP_TRACE_M_LOCAL_ST,         /* warp-level local stores (STL) */
    CP_TRACE_M_LDSM,             /* warp-level LDSM (ldmatrix) */
    CP_TRACE_M_STSM,             /* warp-level STSM (stmatrix) */
    CP_TRACE_M_GMMA,             /* warp-level wgmma (HGMMA) reading shared memory */
    CP_TRACE_M_TMA_LD,           /* TMA loads executed (UBLKCP, UTMALDG) */
    CP_TRACE_M_TMA_ST,           /* TMA stores executed (UTMASTG, UBLKCP to global) */
    CP_TRACE_NRAW_METRICS,       /* the metrics of the raw files end here */
    /* an LDGSTS instruction's shared wavefronts (filling its shared destination), moved out of
     * WAVEFRONTS by the analysis so that bank conflicts count LDS and STS only */
    CP_TRACE_M_FILL_WAVEFRONTS = CP_TRACE_NRAW_METRICS,
    CP_TRACE_M_FILL_WAVEFRONTS_IDEAL,
    /* a wgmma instruction's shared wavefronts, moved out of WAVEFRONTS the same way */
    CP_TRACE_M_GMMA_WAVEFRONTS,
    CP_TRACE_M_GMMA_WAVEFRONTS_IDEAL,
    CP_TRACE_NMETRICS
};

/* The index (CP_TRACE_M_*) of the metric CUPTI calls name, -1 if unknown. */
int cp_trace_metric_index(const char *name);

/* The per-kernel counters of kernel records (the Range Profiler, one record per launch), as
 * indices; the names are those the injection library writes in its kernel_metrics record. */
enum {
    CP_TRACE_K_LD_REQUESTS,     /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    CP_TRACE_K_ST_REQUESTS,     /* l1tex__t_requests_pipe_lsu_mem_global_op_st.sum */
    CP_TRACE_K_LD_SECTORS,      /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    CP_TRACE_K_ST_SECTORS,      /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    CP_TRACE_K_LD_BYTES,        /* smsp__sass_data_bytes_mem_global_op_ld.sum */
    CP_TRACE_K_ST_BYTES,        /* smsp__sass_data_bytes_mem_global_op_st.sum */
    CP_TRACE_K_SHARED_LD,       /* smsp__inst_executed_op_shared_ld.sum */
    CP_TRACE_K_SHARED_ST,       /* smsp__inst_executed_op_shared_st.sum */
    CP_TRACE_K_LD_WAVEFRONTS,   /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    CP_TRACE_K_ST_WAVEFRONTS,   /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum */
    CP_TRACE_K_LD_CONFLICTS,    /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    CP_TRACE_K_ST_CONFLICTS,    /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum */
    CP_TRACE_K_LD_INSTRUCTIONS, /* smsp__inst_executed_op_global_ld.sum */
    CP_TRACE_K_ST_INSTRUCTIONS, /* smsp__inst_executed_op_global_st.sum */
    CP_TRACE_K_DURATION,        /* gpu__time_duration.sum, nanoseconds */
    CP_TRACE_K_LOCAL,           /* smsp__sass_sectors_mem_local.sum */
    CP_TRACE_K_TMA_LD,          /* l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum */
    CP_TRACE_K_TMA_ST,          /* l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum */
    CP_TRACE_KNMETRICS
};

/* The index (CP_TRACE_K_*) of the kernel metric CUPTI calls name, -1 if unknown. */
int cp_trace_kernel_metric_index(const char *name);

/* ---- the trace as read from the raw files ------------------------------------------------ */

/* Counts summed over launches and flushes. has: bit m set when metric m was recorded (a
 * metric the chip does not offer is "-" in the raw file and its bit stays clear). */
typedef struct cp_trace_counts {
    uint64_t value[CP_TRACE_NMETRICS];
    unsigned has;
} cp_trace_counts;

/* A function's kernel records added up; has: bit m when metric m was recorded. */
typedef struct cp_trace_kernel_counters {
    double value[CP_TRACE_KNMETRICS];
    unsigned has;
    uint64_t records; /* launches the Range Profiler counted */
} cp_trace_kernel_counters;

/* 1 when kernel metric m (CP_TRACE_K_*) was recorded in kc. */
static inline int cp_trace_kc_has(const cp_trace_kernel_counters *kc, int m)
{
    return (kc->has >> m) & 1u;
}

/* Kernel metric m of kc, NAN when its records lack it. */
static inline double cp_trace_kc_value(const cp_trace_kernel_counters *kc, int m)
{
    return cp_trace_kc_has(kc, m) ? kc->value[m] : NAN;
}

/* Kernel metrics a and b of kc added up (one not recorded counts 0); NAN when neither was. */
static inline double cp_trace_kc_sum2(const cp_trace_kernel_counters *kc, int a, int b)
{
    if (!cp_trace_kc_has(kc, a) && !cp_trace_kc_has(kc, b))
        return NAN;
    return (cp_trace_kc_has(kc, a) ? kc->value[a] : 0) +
           (cp_trace_kc_has(kc, b) ? kc->value[b] : 0);
}

/* Adds the metrics recorded in add, and its records, to sum. */
static inline void cp_trace_kc_add(cp_trace_kernel_counters *sum,
                                   const cp_trace_kernel_counters *add)
{
    for (int m = 0; m < CP_TRACE_KNMETRICS; m++)
        if (cp_trace_kc_has(add, m)) {
            sum->value[m] += add->value[m];
            sum->has |= 1u << m;
        }
    sum->records += add->records;
}

/* Where a kernel's counts come from (cp_trace_analyze). */
typedef enum {
    CP_TRACE_FROM_NONE,         /* launched, nothing counted */
    CP_TRACE_FROM_INSTRUCTIONS, /* its pc records (scaled by its kernel records when it has them) */
    CP_TRACE_FROM_KERNEL,       /* its kernel records only: no per-instruction counts */
} cp_trace_source;

/* What the counts mean (cp_trace_derive); NAN where a needed metric is missing or a ratio has
 * no denominator. Excess and conflicts are never negative (a count below its ideal gives 0). */
typedef struct cp_trace_derived {
    double requests;        /* global load, store, LDGSTS, atomic and reduction instructions */
    double ldgsts_requests; /* LDGSTS (cp.async) instructions: global to shared copies */
    double atomic_requests; /* global atomics and reductions */
    double sectors, ideal_sectors; /* an instruction's: NAN for a TMA, local or wgmma one */
    double excess_sectors;         /* sectors - ideal */
    double excess_bytes;           /* excess_sectors * CP_SECTOR_BYTES */
    double sectors_per_request, ideal_sectors_per_request;
    double excess_pct;      /* 100 * excess_sectors / sectors */
    double shared_requests; /* shared load, store, LDSM and STSM instructions */
    double wavefronts, ideal_wavefronts;
    double bank_conflicts; /* wavefronts - ideal */
    double wavefronts_per_request, ideal_wavefronts_per_request;
    double conflict_pct; /* 100 * bank_conflicts / wavefronts */
    /* the shared side of LDGSTS: the wavefronts that fill its destination, and the fewest its
     * bytes need; per LDGSTS request. Not bank conflicts: a fill takes one wavefront per global
     * sector it writes, so its excess follows the global pattern. */
    double fill_wavefronts, ideal_fill_wavefronts;
    double fill_wavefronts_per_request, ideal_fill_wavefronts_per_request;
    /* instructions whose bytes no per-instruction metric counts: local loads and stores, TMA
     * copies; and wgmma's reads of shared memory, with their wavefronts (kept apart like the
     * fill's) */
    double local_requests, tma_requests, gmma_requests, gmma_wavefronts;
} cp_trace_derived;

/* How much of a kernel's global-memory traffic its counts cover (cp_trace_coverage.c). The
 * per-instruction sector counters see global loads, stores, atomics and cp.async, not the bytes
 * of TMA copies or of local memory; the kernel counters of TMA's and local memory's sectors
 * (the full set) measure those. NAN where a part is not known. */
typedef struct cp_trace_coverage {
    double attributed_bytes; /* the counted global sectors (instructions or kernel records) * 32 */
    double tma_load_bytes, tma_store_bytes; /* TMA's traffic between L1 and L2 */
    double local_bytes;                     /* local memory's sectors, * 32 */
    double fraction;   /* attributed / (attributed + TMA + local); 1 when nothing moved */
    const char *basis; /* "counters" (TMA and local counted), "sampled_counters",
                          "sampled_launches" (--instructions sampled: both sides of the same
                          launches, unscaled), or
                          "instruction_kinds" (no TMA or local instruction ran, so nothing
                          escaped the counters), "tensor_map_geometry" (by_maps), or NULL */
    int by_maps;       /* 1: TMA judged by its whole-sector tensor maps, not counted: every byte
                          counted or judged ideal, while fraction stays unknown */
    int excess_known;  /* 1: the excess counts (nearly) every byte: fraction >= 0.9, or by_maps */
    /* by_maps: the bytes the TMA copies moved past their boxes' bytes, by geometry (0 for
     * whole-sector maps): copies (UTMALDG and UTMASTG executions) x the box's rows x the row's
     * sectors less its bytes (docs/trace.md, "Tensor maps"); NAN when not by_maps */
    double tma_excess_bytes;
    double tma_copies; /* the executions that figure counts; NAN when not by_maps */
    int tma_edge;      /* 1: a map's boxes can reach past its tensor's edge, where a row moves
                          fewer bytes: the figure is then an estimate, not exact */
    char reason[512];  /* why the excess or the fraction is not known; "" otherwise */
} cp_trace_coverage;

/* Below this fraction of its bytes counted, a kernel's excess is not known. */
#define CP_TRACE_COVERAGE_KNOWN 0.9

typedef struct cp_trace_instr {
    uint32_t pc;             /* offset from the function's start */
    uint32_t function_index; /* CUPTI's index of the function in its cubin */
    cp_trace_counts counts;  /* as its pc records say, added up */
    char *file;              /* source file (-lineinfo), NULL when unknown */
    uint32_t line;
    char *opcode; /* SASS opcode (nvdisasm), NULL when unknown */
    /* filled in by cp_trace_analyze */
    cp_trace_counts eff;   /* over every launch: counts scaled by the kernel's scale */
    cp_trace_derived d;    /* of eff */
    size_t rank;           /* 1 = most excess bytes in the report; 0 = not executed */
    double excess_share;   /* of the program's excess bytes, 0..1; NAN when none */
    double conflict_share; /* of the program's bank conflicts, 0..1; NAN when none */
    int gate_failed;       /* 1 when this instruction fails the gate */
} cp_trace_instr;

/* Where a Triton kernel torch.compile generated came from (cp_trace_inductor.c): the FX source
 * nodes and ATen operators its wrapper names ("mul, relu, add"), and the wrapper's path; all
 * NULL for any other kernel. */
typedef struct cp_trace_inductor {
    char *nodes, *aten, *wrapper;
} cp_trace_inductor;

/* A tensor map some launches of a kernel passed as a parameter (kernel_tmap records). */
typedef struct cp_trace_kernel_tmap {
    size_t map;        /* its index in the process's tmaps */
    uint64_t launches; /* the launches that passed it */
} cp_trace_kernel_tmap;

typedef struct cp_trace_kernel {
    uint32_t device;
    uint32_t crc;      /* cubin CRC; valid when has_crc */
    int has_crc;       /* 0 for a function seen only in launch or kernel records */
    char *function;    /* the name CUPTI reports (mangled for C++) */
    char *name;        /* demangled (cp_trace_demangle_all); NULL until then */
    uint64_t launches; /* from launch records (kernel records when there are none): counted */
    /* launches the library saw, counted or not (its launches_seen record), when has_seen */
    uint64_t launches_seen;
    int has_seen;
    int nosource;     /* 1: a nosource record said the function has no line information */
    int every_launch; /* 1: its pc records count every launch (its device's counting record) */
    /* the tensor maps its launches passed as parameters, and the launches that passed a
     * 128-byte parameter that is no map encoded on the host while traced (kernel_tmap records) */
    cp_trace_kernel_tmap *tmaps;
    size_t ntmaps;
    uint64_t tmap_unseen;
    uint64_t tmap_checked; /* launches whose 128-byte parameters were all compared */
    cp_trace_instr *instrs;
    size_t ninstrs, cap;
    cp_trace_kernel_counters kc; /* its kernel records, added up */
    /* filled in by cp_trace_analyze */
    cp_trace_source from;
    double scale; /* instructions' eff = counts * scale; NAN when not scaled */
    /* --instructions sampled (its process's selection): its instruction counts cover only the
     * launches with kernel records (kc.records); 0: they cover every counted launch */
    int instructions_sampled;
    int instructions_zero;  /* its pc records count nothing while its kernel records do */
    cp_trace_counts totals; /* of its instructions (eff), or from its kernel records */
    cp_trace_derived d;
    cp_trace_coverage cov;
    int selected;               /* 1 when its name matches --kernel (or there is no --kernel) */
    int gate_failed;            /* counted only as a whole, and failing the gate */
    size_t index;               /* position among the selected kernels of the report, from 0 */
    cp_trace_inductor inductor; /* a torch.compile kernel's origin (cp_trace_inductor_all) */
} cp_trace_kernel;

/* 1 when k's per-kernel counters cover fewer launches than its instructions count (sampled:
 * --counter-launches), and some. */
static inline int cp_trace_kernel_sampled(const cp_trace_kernel *k)
{
    return k->kc.records > 0 && k->kc.records < k->launches;
}

/* 1 when k's instruction counts cover its sampled launches only (--instructions sampled), as its
 * per-kernel counters do: nothing is scaled from those launches to the others. */
static inline int cp_trace_kernel_instructions_sampled(const cp_trace_kernel *k)
{
    return k->instructions_sampled;
}

typedef struct cp_trace_device {
    uint32_t ordinal;
    char *chip, *name, *cc;
    int every_launch; /* a counting record: the pc records count every launch, unscaled */
} cp_trace_device;

typedef struct cp_trace_pair {
    char *a, *b; /* missing: metric, reason; cubin: crc text, file */
} cp_trace_pair;

typedef struct cp_trace_refusal {
    char *call;
    int code; /* the CUptiResult number */
    char *name, *message;
} cp_trace_refusal;

typedef struct cp_trace_dropped {
    uint32_t device;
    uint64_t count;
    char *reason;
} cp_trace_dropped;

/* One traced process: one raw file. */
/* One time record: a phase of the traced process, its seconds and how often it ran. */
typedef struct cp_trace_time {
    char *phase;
    double seconds;
    uint64_t count;
} cp_trace_time;

#define CP_TRACE_TMAP_RANK 5 /* the driver's largest tensor rank */

/* One distinct tensor map the process encoded on the host (a tensor_map record). */
typedef struct cp_trace_tmap {
    uint64_t count;         /* encodes of it */
    char *kind, *data_type; /* "tiled", "im2col", "im2col_wide"; "float16", ... */
    unsigned element_bits;  /* 0: unknown */
    unsigned rank, nbox;
    uint64_t dims[CP_TRACE_TMAP_RANK];        /* elements, innermost first */
    uint64_t strides[CP_TRACE_TMAP_RANK - 1]; /* bytes, rank - 1 of them */
    uint64_t box[CP_TRACE_TMAP_RANK];         /* tiled: rank; im2col: channels, pixels */
    uint64_t element_strides[CP_TRACE_TMAP_RANK];
    char *interleave, *swizzle, *l2_promotion, *oob_fill;
    uint64_t alignment; /* of the global address, at most 256 */
} cp_trace_tmap;

/* What a tensor map's shape means for the sectors its TMA copies move (cp_trace_tmap_judge). */
typedef struct cp_trace_tmap_judgement {
    int known;                  /* 0: the element size is unknown, nothing below is set */
    uint64_t row_bytes;         /* the box's innermost row: ceil(box[0] * bits / 8) */
    uint64_t row_sectors_bytes; /* that row rounded up to whole 32-byte sectors */
    int whole_sectors;          /* row, address alignment and every stride multiples of 32 */
    char reason[320];           /* why (not) whole sectors, one phrase */
} cp_trace_tmap_judgement;

/* Judges m (docs/trace.md, "Tensor maps"). */
void cp_trace_tmap_judge(const cp_trace_tmap *m, cp_trace_tmap_judgement *j);

/* m's n values joined by sep ("64x128"), "-" when n is 0. */
void cp_trace_tmap_list(char *buf, size_t size, const uint64_t *v, size_t n, const char *sep);

/* ---- where the launches come from (frame, range, site, launches_at, kernel_at records) ---- */

/* An interned Python frame (a frame record). parent: the index of its caller's frame in the
 * process's frames, or SIZE_MAX (the outermost recorded, or whole stacks not asked for). */
typedef struct cp_trace_frame {
    uint32_t id;
    char *file, *function;
    uint32_t line;
    uint32_t parent_id;
    size_t parent;
} cp_trace_frame;

/* An interned NVTX range node (a range record); domain NULL for the default domain. */
typedef struct cp_trace_range {
    uint32_t id;
    char *domain, *name;
    uint32_t parent_id;
    size_t parent; /* index of the enclosing range in the process's ranges, or SIZE_MAX */
} cp_trace_range;

/* What a site's FRAME field says. */
typedef enum {
    CP_TRACE_SITE_FRAME,    /* a user frame: frame is its index */
    CP_TRACE_SITE_NOPYTHON, /* "-": the process runs no Python */
    CP_TRACE_SITE_NOGIL,    /* "nogil": the launching thread did not hold the GIL */
    CP_TRACE_SITE_NOUSER,   /* "none": Python, but every frame was skipped */
    CP_TRACE_SITE_OVERFLOW, /* "overflow": past the library's cap of distinct sites */
    CP_TRACE_SITE_UNKNOWN,  /* no site record: the kernel's counts no site accounts for */
} cp_trace_site_kind;

/* An interned call site (a site record) with its launches (launches_at) and the kernel records
 * filed under it (kernel_at). */
typedef struct cp_trace_site {
    uint32_t id, device;
    char *function; /* the kernel, mangled */
    cp_trace_site_kind kind;
    uint32_t frame_id, range_id;
    size_t frame, range; /* indices into the process's frames and ranges, or SIZE_MAX */
    uint64_t launches;
    cp_trace_kernel_counters kc;
    /* filled in by cp_trace_where_analyze */
    const cp_trace_kernel *kernel; /* its kernel, NULL when none was read */
    double sectors, excess_bytes;  /* NAN when the kernel's are not known */
    int by_launches;               /* apportioned by launches: no kernel_at for its kernel */
} cp_trace_site;

/* One launch whose host time the file holds: a kernel record followed by a kernel_time
 * record (its kernel_at between them, when it has one). */
typedef struct cp_trace_timed_launch {
    uint32_t device;      /* the kernel's device and function: the kernel's own string, which */
    const char *function; /* lives as long as it (NULL when out of memory while reading) */
    size_t pending;       /* used while reading the file */
    size_t site;          /* index into the process's sites, or SIZE_MAX (no kernel_at) */
    uint64_t host_ns;     /* the launch call's host time, ns since the epoch (CLOCK_REALTIME) */
    double duration_ns;   /* the kernel record's gpu__time_duration; NAN when not recorded */
    double sectors;       /* its global load + store sectors; NAN when neither was recorded */
} cp_trace_timed_launch;

/* What the traced process was asked to count (its selection records; cp_inject_select.h). */
typedef struct cp_trace_selection {
    int present;               /* some selection record was read */
    int every_launch;          /* counter_launches all: every counted launch has counters */
    uint64_t counter_launches; /* per kernel and shape, when !every_launch */
    char *kernel;              /* --kernel, or NULL */
    uint64_t launch_skip;      /* 0 when not given */
    uint64_t launch_count;     /* UINT64_MAX when not given */
    char *nvtx_include;        /* or NULL */
    int capture_profiler_api;
    int instructions_sampled; /* --instructions sampled: pc records of the sampled launches only */
} cp_trace_selection;

typedef struct cp_trace_process {
    char *file; /* the raw file's name inside the directory (DIR/NAME with several) */
    char *dir;  /* the directory it was read from (its cubins are there) */
    long pid, ppid;
    char *command;
    int complete;                   /* 1 when the file has its end record */
    uint64_t flushes, end_launches; /* from the end record */
    cp_trace_selection selection;   /* from its selection records */
    cp_trace_device *devices;
    size_t ndevices;
    cp_trace_pair *missing; /* metrics the chip does not offer */
    size_t nmissing;
    cp_trace_pair *cubins;
    size_t ncubins;
    cp_trace_kernel *kernels;
    size_t nkernels, kcap;
    cp_trace_refusal *refusals;
    size_t nrefusals;
    cp_trace_dropped *dropped;
    size_t ndropped;
    /* kernel records CUPTI counted for no launch coalprobe could name (unmatched records, added
     * up by device and reason): in no kernel and no total */
    cp_trace_dropped *unmatched;
    size_t nunmatched;
    char **notes;
    size_t nnotes;
    cp_trace_time *times; /* where the process's time went (time records) */
    size_t ntimes;
    cp_trace_tmap *tmaps; /* tensor_map records */
    size_t ntmaps;
    int tmaps_watched; /* a tensor_map_calls record: the library watched the calls below */
    uint64_t tmap_encodes, tmap_unrecorded, tmap_replaced; /* from it */
    char *host;                                            /* the host record, NULL when none */
    cp_trace_pair *envs;                                   /* rank records: a KEY, b VALUE */
    size_t nenvs;
    cp_trace_frame *frames;
    size_t nframes, fcap;
    cp_trace_range *ranges;
    size_t nranges, rcap;
    cp_trace_site *sites;
    size_t nsites, scap;
    cp_trace_timed_launch *timed; /* kernel_time records, in file order */
    size_t ntimed, tcap;
    long rank;        /* RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK; -1 when none */
    size_t malformed; /* lines skipped: unknown layout, bad numbers, out of order */
    int truncated;    /* the last line had no newline (the process was cut off while writing) */
    /* the interrupted record's reason (the trace ended early), NULL when none */
    char *interrupted;
} cp_trace_process;

/* Everything read from one directory, processes in pid order. */
typedef struct cp_trace {
    cp_trace_process *procs;
    size_t nprocs;
    char **notes; /* about the trace as a whole (files skipped, nvdisasm) */
    size_t nnotes;
    size_t nfiles;      /* raw files found (read or not) */
    char **unreadable;  /* "FILE: why" for each raw file that could not be read */
    size_t nunreadable; /* raw files skipped as a whole: nfiles - nunreadable were read */
    const volatile sig_atomic_t
        *stop;                    /* when not NULL and *stop is set, loading and nvdisasm stop */
    int stopped;                  /* what *stop cut short: CP_TRACE_STOPPED_* */
    size_t sass_cached, sass_ran; /* --verbose: listings read from the cache, nvdisasm runs */
    char sass_cache_note[512];    /* --verbose: why there is no listing cache, or its failure */
} cp_trace;

#define CP_TRACE_STOPPED_LOAD 1 /* raw files left unread */
#define CP_TRACE_STOPPED_SASS 2 /* nvdisasm stopped: opcodes missing */

/* Reads every DIR/raw-*.tsv into t (which it clears first; t->stop becomes stop). A missing or
 * unreadable directory is CP_EXIT_RUNTIME (with a message naming it); lines that are not what
 * cp_trace_raw.h describes are skipped and counted, never fatal; a file that cannot be read as a
 * whole (another format version, not a raw trace, binary, CRLF line endings, empty) is listed in
 * t->unreadable with the reason and a note. When stop is not NULL and *stop becomes set, the files
 * not yet read are left (t->stopped). */
int cp_trace_load_dir(const char *dir, cp_trace *t, const volatile sig_atomic_t *stop,
                      cp_status *st);

/* cp_trace_load_dir of several directories into one trace: each process's file becomes
 * "DIR/NAME" (two directories' files of one name are both kept) and its dir is DIR. One
 * directory reads as cp_trace_load_dir does. */
int cp_trace_load_dirs(const char *const *dirs, size_t n, cp_trace *t,
                       const volatile sig_atomic_t *stop, cp_status *st);

/* 1 when a file of that name is one the injection library writes into a trace directory: a raw
 * file (raw-*.tsv) or a saved cubin (cubin-*.cubin). */
int cp_trace_is_raw_name(const char *name);

/* 1 when a file of that name is a raw file (raw-*.tsv). */
int cp_trace_is_raw_tsv_name(const char *name);

/* Reads one raw file's text (len bytes, need not end in NUL or newline) as process `name` and
 * appends it to t. Returns CP_EXIT_OK, or CP_EXIT_RUNTIME when out of memory; a text that is
 * not a raw trace is added to t->unreadable ("NAME: why") and a note instead of a process. */
int cp_trace_load_text(cp_trace *t, const char *name, const char *text, size_t len, cp_status *st);

/* Sorts the processes by pid (then file name); cp_trace_load_dir does it. */
void cp_trace_sort_processes(cp_trace *t);

/* Adds a trace-level note (printf-style); out of memory loses the note silently. */
void cp_trace_add_note(cp_trace *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

void cp_trace_free(cp_trace *t);

/* ---- names and opcodes ------------------------------------------------------------------- */

/* The demangled form of a C++ symbol as a malloc'd string (abi::__cxa_demangle), or NULL when
 * `mangled` is not a mangled name (then the name is shown as it is). */
char *cp_trace_demangle(const char *mangled);

/* Fills every kernel's name (demangled, or a copy of the function name). CP_EXIT_RUNTIME when
 * out of memory. */
int cp_trace_demangle_all(cp_trace *t, cp_status *st);

/* The origin of the Triton kernel `function` whose line information points into kernel_file,
 * when kernel_file is a kernel file Inductor generated and its wrapper is found one directory
 * level beside it (the cache searched at most 4,096 files deep): 1 and *out filled (free with
 * cp_trace_inductor_free), else 0 and *out empty. */
int cp_trace_inductor_origin(const char *kernel_file, const char *function, cp_trace_inductor *out);
void cp_trace_inductor_free(cp_trace_inductor *o);

/* cp_trace_inductor_origin of every kernel named triton_* with line information. */
void cp_trace_inductor_all(cp_trace *t);

/* One instruction of an nvdisasm listing. The lines of one function share its name (a mangled
 * name can take kilobytes): the first line of each section owns it. */
typedef struct cp_trace_sass_line {
    char *function;
    uint32_t pc;
    char *opcode; /* e.g. "LDG.E.128" */
    int owner;    /* 1: this line frees function */
} cp_trace_sass_line;

/* Parses nvdisasm's text (sections ".text.FUNCTION"; instruction lines that start with the
 * offset as a comment, then the optional predicate and the opcode: LDG.E R2, ...) into *lines
 * (malloc'd, *n of them). CP_EXIT_RUNTIME when out of memory only. */
int cp_trace_sass_parse(const char *text, cp_trace_sass_line **lines, size_t *n, cp_status *st);
void cp_trace_sass_free(cp_trace_sass_line *lines, size_t n);

/* The ELF symbol indices of the functions named in names (n of them) in a cubin's bytes, as the
 * comma-separated list nvdisasm's -fun takes ("16,18"). 0 when every name was found and the list
 * fits in len; -1 when the bytes are not a 64-bit little-endian ELF, a name is missing, or the
 * list does not fit (then the whole cubin is disassembled). */
int cp_trace_sass_function_list(const unsigned char *elf, size_t size, const char *const *names,
                                size_t n, char *list, size_t len);

/* Opcodes for every instruction whose cubin was saved: runs `nvdisasm -c` (found on PATH, or
 * $COALPROBE_NVDISASM; none when that is set and empty) on DIR/cubin-CRC.cubin. *have_opcodes is 1
 * when at least one instruction got its opcode; when none could, one trace note says why (nvdisasm
 * missing, no cubin, nvdisasm failed). */
int cp_trace_sass_opcodes(cp_trace *t, const char *dir, int *have_opcodes, cp_status *st);

/* The nvdisasm cp_trace_sass_opcodes runs, into nvdisasm[size]: 0, or -1 when there is none (no
 * note: the caller says nothing of it). */
int cp_trace_sass_tool(char *nvdisasm, size_t size);

struct cp_trace_sass_cache;
/* Disassembles the whole cubin at path with nvdisasm (the report's time limit and cap) into the
 * listing cache, under crc and no function list, unless the cache holds it: the prefetch while
 * the program runs (cp_trace_prefetch.c). Kills nvdisasm when *stop becomes non-zero. 0 when the
 * cache holds the listing. */
int cp_trace_sass_prefetch(const char *nvdisasm, struct cp_trace_sass_cache *cache, uint32_t crc,
                           const char *path, const volatile sig_atomic_t *stop);

/* ---- meaning ----------------------------------------------------------------------------- */

/* The report's choices (the command line's options). */
typedef struct cp_trace_options {
    size_t top;                     /* instructions per kernel in the table */
    const char *kernel_regex;       /* NULL: every kernel */
    uint64_t min_requests;          /* the gate ignores instructions with fewer requests */
    double max_sectors_per_request; /* NAN: not checked */
    double max_excess_pct;          /* NAN: not checked */
    double min_coverage;            /* 0..1; NAN: not checked */
    int group_by;                   /* CP_TRACE_GROUP_*: the table's and JSON's groups */
    double rank_spread; /* a rank whose excess is off the median rank's by more: flagged */
} cp_trace_options;

/* --group-by: kernel (the report as it always was), the innermost user line, the call site
 * (frame, stack and NVTX range), the innermost NVTX range path. */
enum { CP_TRACE_GROUP_KERNEL, CP_TRACE_GROUP_LINE, CP_TRACE_GROUP_CALLSITE, CP_TRACE_GROUP_RANGE };

/* The name of a CP_TRACE_GROUP_* ("kernel", "line", "callsite", "range"). */
const char *cp_trace_group_name(int by);

/* How the program ran (NULL fields and NAN when the report was built with --from-raw). */
typedef struct cp_trace_run {
    const char *tool_version;
    const char *command;  /* coalprobe's command line */
    const char *program;  /* the program's command line; NULL with --from-raw */
    const char *from_raw; /* the directory read with --from-raw, else NULL (the first of several) */
    const char *const *from_raw_dirs; /* every directory --from-raw named, nfrom_raw of them */
    size_t nfrom_raw;
    int exited, exit_code, signaled, term_signal;
    double wall_seconds;
    int interrupted;   /* SIGINT or SIGTERM that stopped the report side, else 0 */
    size_t prefetched; /* cubins disassembled while the program ran (cp_trace_prefetch.h) */
} cp_trace_run;

/* A gate violation: which instruction (NULL for a kernel counted only as a whole), what was
 * over which limit. */
typedef struct cp_trace_violation {
    const cp_trace_process *proc;
    const cp_trace_kernel *kernel;
    const cp_trace_instr *instr;
    const char *what; /* "sectors_per_request", "excess_pct", "conflict_pct" or "coverage"
                         (value NAN: coverage unknown) */
    double value, limit;
} cp_trace_violation;

/* One kernel of a group: its launches and apportioned excess there. */
typedef struct cp_trace_group_kernel {
    const cp_trace_kernel *kernel; /* the first one of that name (the others add to it) */
    uint64_t launches;
    double sectors, excess_bytes;
} cp_trace_group_kernel;

/* The call sites that share a key of --group-by, added up over every process. */
typedef struct cp_trace_group {
    char *key;                    /* "train.py:42", the range path, or the kind's text */
    cp_trace_site_kind kind;      /* CP_TRACE_SITE_FRAME unless the group is one of no frame */
    const cp_trace_process *proc; /* the first site's process and site (its frame and range) */
    const cp_trace_site *site;
    uint64_t launches;
    double sectors, excess_bytes, excess_share;
    int by_launches;                /* some of it was apportioned by launches (no kernel_at) */
    cp_trace_group_kernel *kernels; /* by excess */
    size_t nkernels;
} cp_trace_group;

/* One rank's processes added up (processes with a rank record only). */
typedef struct cp_trace_rank_total {
    long rank;
    const char *host;
    long *pids;
    size_t npids;
    uint64_t launches;
    double sectors, excess_bytes;
    double deviation; /* (excess - median) / median; NAN when the median is 0 */
    int flagged;      /* off the median by more than --rank-spread */
} cp_trace_rank_total;

/* The analysed trace the writers print. Points into the trace; owns `instrs` and
 * `violations`. */
typedef struct cp_trace_report {
    const cp_trace *trace;
    const cp_trace_run *run;
    const cp_trace_options *options;
    int have_opcodes;
    cp_trace_derived program;           /* totals of every counted kernel of every process */
    cp_trace_coverage program_coverage; /* of those kernels together */
    size_t nselected;                   /* kernels that match --kernel */
    size_t ncounted;                    /* of those, kernels with counts (from != NONE) */
    size_t nkernel_only;                /* of those, counted only as a whole */
    /* what was counted (docs/trace.md "Cost"): the selected kernels' launches seen by the
     * library (when every process said: seen_known), counted, and with per-kernel counters
     * (each of those ran serialised); the first process's selection records, or NULL */
    uint64_t launches_seen, launches_counted, launches_with_counters;
    int seen_known;
    size_t nsampled; /* selected kernels with counters from fewer launches than were counted */
    const cp_trace_selection *selection;
    const cp_trace_instr **instrs;        /* every instruction of the selected kernels, by rank */
    const cp_trace_kernel **instr_kernel; /* instrs[i]'s kernel */
    const cp_trace_process **instr_proc;  /* instrs[i]'s process */
    size_t ninstrs;
    size_t nexecuted; /* of those, instructions that ran (rank > 0) */
    size_t
        nkernels_ran;   /* selected kernels counted only as a whole whose memory instructions ran */
    int gate_checked;   /* a gate option was given */
    size_t gate_judged; /* instructions and whole kernels the gate looked at */
    size_t gate_judged_kernels;  /* of those, kernels counted only as a whole */
    size_t gate_judged_coverage; /* kernels --min-coverage looked at (not in gate_judged) */
    int gate_empty;              /* a gate option judged nothing: an error (exit 1), never a pass */
    char gate_empty_reason[640]; /* when gate_empty: which limit judged nothing, and which
                                  * filter (no counts, --kernel, --min-requests) left it empty */
    char gate_empty_fix[512];    /* when gate_empty: the hint */
    cp_trace_violation *violations;
    size_t nviolations;
    int complete;                /* every process ended its trace and the program ended */
    char incomplete_reason[512]; /* when !complete */
    int counted;                 /* some instruction was counted */
    char no_counts_reason[512];  /* when !counted */
    char no_counts_fix[512];     /* a hint (a refusal's fix), or "" */
    cp_trace_group *groups;      /* --group-by other than kernel, by excess (cp_trace_where.c) */
    size_t ngroups;
    cp_trace_rank_total *ranks; /* by rank */
    size_t nranks;
    double rank_median;  /* the median rank's excess bytes (the lower middle of an even count) */
    int page_no_source;  /* --no-source: the HTML page leaves the source files out */
    const char *raw_dir; /* --from-raw's (first) directory, whose cubins' line tables say which
                            source files the page may embed; NULL for a program run here */
} cp_trace_report;

/* The counts' meaning (no rank, no share). */
void cp_trace_derive(const cp_trace_counts *c, cp_trace_derived *d);

/* Analyses t for the report: selects kernels (--kernel; a bad regex is CP_EXIT_USAGE with
 * regerror's text), sums, ranks, shares, the gate, completeness and why there are no counts.
 * Sorts kernels (by excess) and instructions inside t. */
int cp_trace_analyze(cp_trace *t, const cp_trace_run *run, const cp_trace_options *o,
                     cp_trace_report *r, cp_status *st);
void cp_trace_report_free(cp_trace_report *r);

/* Where the waste comes from (cp_trace_where.c): each call site's sectors and excess, apportioned
 * from its kernel's; the groups of --group-by and the per-rank totals, into r. Run by
 * cp_trace_analyze once the kernels are counted. CP_EXIT_RUNTIME when out of memory. */
int cp_trace_where_analyze(cp_trace *t, cp_trace_report *r, cp_status *st);
void cp_trace_where_free(cp_trace_report *r);

/* "train.py:42", "-" when the site has no frame (s->kind says why). */
void cp_trace_site_line(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n);

/* The NVTX range path of s, outermost first: "outer/inner", "domain:outer/inner" when the
 * innermost range is in a domain other than the default; "" when none. */
void cp_trace_site_range(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n);

/* The stack above s's frame, innermost first: "f (a.py:3) < g (b.py:9)"; "" when none. */
void cp_trace_site_stack(const cp_trace_process *p, const cp_trace_site *s, char *buf, size_t n);

/* The text of a site kind without a frame ("no Python line: the process runs no Python", ...). */
const char *cp_trace_site_kind_text(cp_trace_site_kind kind);

/* A process as the table names it: "rank 1 (node0, pid 4242)", "process 4242 (node0)". */
void cp_trace_process_label(const cp_trace_process *p, char *buf, size_t n);

/* The groups and ranks in the table (after the header) and as JSON (cp_trace_where_out.c). */
void cp_trace_where_table_ranks(FILE *out, const cp_trace_report *r);
void cp_trace_where_table_groups(FILE *out, const cp_trace_report *r);

/* Kernel k's coverage, from its totals (k->d), its kernel records and its instruction kinds. */
void cp_trace_coverage_of(const cp_trace_process *p, const cp_trace_kernel *k,
                          cp_trace_coverage *c);

/* The coverage of several kernels together: sum starts as cp_trace_coverage_begin's, takes each
 * counted kernel's through cp_trace_coverage_add, and is finished by cp_trace_coverage_end with
 * the number of those kernels whose excess is not known and their names, the first few (issue
 * 45: a program's excess without a number names the kernels that keep it from one). */
void cp_trace_coverage_begin(cp_trace_coverage *sum);
void cp_trace_coverage_add(cp_trace_coverage *sum, const cp_trace_coverage *c);
void cp_trace_coverage_end(cp_trace_coverage *sum, size_t nunknown_excess, const char *names);

/* One line of meaning in coalprobe's terms for an instruction's derived counts, e.g. "32
 * sectors per request where 4 would do: each lane in its own sector, like `coalprobe --stride
 * 8` and above". Writes "" when nothing was executed. */
void cp_trace_meaning(const cp_trace_derived *d, char *buf, size_t n);

/* "file:line" or "function+0xPC" of an instruction. */
void cp_trace_where(const cp_trace_kernel *k, const cp_trace_instr *i, char *buf, size_t n);

/* The instruction's kind as the table writes it: "ld.gl", "st.sh", "ldgsts", "atom",
 * "red", "ld.lc", "st.lc", "ldsm", "stsm", "hgmma", "tma.ld", "tma.st", ... or "-". */
const char *cp_trace_kind_name(const cp_trace_instr *i);

/* "load", "store", "load_store", "atomic", "reduction", "mma" (wgmma) or NULL (an LDGSTS is a
 * load); "global", "shared", "global_shared", "local", "global_to_shared" (LDGSTS, TMA loads),
 * "shared_to_global" (TMA stores) or NULL. */
const char *cp_trace_op_name(const cp_trace_instr *i);
const char *cp_trace_space_name(const cp_trace_instr *i);

/* bytes with an SI prefix and 3 significant digits: "75.5 MB", "512 B"; "-" for NAN. */
void cp_trace_format_bytes(char *buf, size_t n, double bytes);

/* The measure path's cause and fix of a CUPTI refusal code (cp_measure_cupti_refusal_text),
 * or a generic text. The fix is written to fix (n bytes) without the measure path's own way
 * out, --no-counters, which coalprobe trace does not have. */
void cp_trace_refusal_text(int code, const char **cause, char *fix, size_t n);

/* ---- writers ----------------------------------------------------------------------------- */

typedef enum {
    CP_TRACE_FORMAT_TABLE,
    CP_TRACE_FORMAT_JSON,
    CP_TRACE_FORMAT_CSV,
    CP_TRACE_FORMAT_CHROME,
    CP_TRACE_FORMAT_HTML, /* the page of the JSON report (cp_html.h) */
    CP_TRACE_FORMAT_VEGALITE
} cp_trace_format;

int cp_trace_write_table(FILE *out, const cp_trace_report *r, cp_status *st);
int cp_trace_write_json(FILE *out, const cp_trace_report *r, cp_status *st);
int cp_trace_write_csv(FILE *out, const cp_trace_report *r, cp_status *st);
/* The timed launches as a Trace Event timeline (cp_trace_chrome.c, docs/trace.md "A timeline"). */
int cp_trace_write_chrome(FILE *out, const cp_trace_report *r, cp_status *st);
/* The chart of the report: its JSON drawn by cp_report_write_vegalite_trace (docs/plots.md). */
int cp_trace_write_vegalite(FILE *out, const cp_trace_report *r, cp_status *st);

/* The gate's offending lines, one per violation, for standard error. */
void cp_trace_write_violations(FILE *err, const cp_trace_report *r);

/* The source files the line tables (.debug_line) of the saved cubins name (a relative name as
 * written), and the absolute directories they were built from (cp_trace_sources.c). */
typedef struct cp_trace_line_files {
    char **files, **dirs;
    size_t nfiles, ndirs;
} cp_trace_line_files;

/* Reads the line tables of every cubin the processes of t saved (in each process's directory, or
 * dir) into l, which the caller frees with cp_trace_line_files_free; -1 when memory runs out. A
 * cubin that cannot be read, or has no line table, names nothing. */
int cp_trace_line_files_read(const cp_trace *t, const char *dir, cp_trace_line_files *l);
void cp_trace_line_files_free(cp_trace_line_files *l);

/* The report in format (cp_trace_export.c). */
int cp_trace_write_format(FILE *out, cp_trace_format format, const cp_trace_report *r,
                          cp_status *st);

/* The reports trace writes beside its main one, an option each (--json FILE, ...; cp_exports.h
 * writes them): the entries of the trace's exporter list (cp_trace_export.c, the one list of its
 * formats) that have an option; a new format is one more entry there. Exporter i, NULL past the
 * last. */
const cp_exporter *cp_trace_exporter_get(size_t i);

/* Format i of the trace's exporter list (table first), NULL past the last: --format's names. */
const cp_exporter *cp_trace_format_get(size_t i);

/* cp_trace_write_format of the cp_trace_report `report`: a cp_exports_writer. */
int cp_trace_export(FILE *out, int format, const void *report, cp_status *st);

/* ---- the table's pieces, for coalprobe show of a saved trace report (cp_trace_show.c) ------- */

#define CP_TRACE_TABLE_WIDTH 100 /* the table's lines never pass it */
#define CP_TRACE_TABLE_CELLS 11  /* the cells of an instruction's row */
#define CP_TRACE_WHERE_WIDTH 22  /* its where cell (a file's basename:line) */

/* Writes text wrapped at the table width: the first line after `first`, the others after `rest`
 * (both count toward the width), never inside a `quoted command` when it can be helped. */
void cp_trace_table_wrap(FILE *out, const char *first, const char *rest, const char *text);

/* text cut to n columns, with "..." at the end when cut. */
void cp_trace_table_clip(char *buf, size_t size, const char *text, size_t n);

/* A count in at most 9 columns (digits, or 3 significant digits and k/M/G...); a ratio with 2
 * decimals; a fraction in percent with 1; "-" for NAN. */
void cp_trace_table_count(char *buf, size_t n, double v);
void cp_trace_table_ratio(char *buf, size_t n, double v);
void cp_trace_table_pct(char *buf, size_t n, double fraction);

/* The where column: file's basename:line, "(no line)" without a file; cut from the left. */
void cp_trace_table_where_text(char *buf, size_t n, const char *file, uint32_t line);

/* The program's excess line, from a run or a saved report: the excess counted (known: of every
 * byte; sampled: in the sampled launches only), the TMA copies' excess by their maps' geometry
 * (issue 45; tma_estimate: "about"), the bank conflicts; wrapped at the table's width. */
typedef struct cp_trace_program_excess {
    double excess_bytes, excess_sectors;
    int known, sampled;
    double tma_excess_bytes; /* NAN or 0: not said */
    int tma_estimate;
    double bank_conflicts;
} cp_trace_program_excess;
void cp_trace_table_program_excess_line(FILE *out, const cp_trace_program_excess *e);

/* A counted kernel's coverage in its heading, into buf: ", TMA judged by its tensor maps (...)"
 * when its maps judged its TMA copies (by_maps), else ", coverage 12.3%" or ", coverage unknown"
 * (fraction NAN). */
void cp_trace_table_coverage_words(char *buf, size_t n, int by_maps, double tma_excess_bytes,
                                   int tma_estimate, double fraction);

/* A kernel's global and shared totals under its heading, from a run or a saved report: d's
 * requests, sectors per request (and ideal), excess bytes (share: its part of the program's,
 * " (12.3%)" or ""; excess_known 0: not all of its bytes were counted), shared requests,
 * wavefronts per request (and ideal), bank conflicts; a line each where there are requests. */
void cp_trace_table_kernel_totals(FILE *out, const cp_trace_derived *d, int excess_known,
                                  const char *share);

/* An instruction's row of cells (rank, where, pc, kind, requests, sec/req, ideal, wf/req, ideal,
 * excess, share), aligned under the header's: the columns' places, widths and headers in the text
 * table are cp_trace_columns.c's. */
void cp_trace_table_row(FILE *out, const char *const cells[CP_TRACE_TABLE_CELLS]);

/* The cell of the text table's instruction rows that shows column key (from 0), -1 for none. */
int cp_trace_text_cell(const char *key);

/* The CSV report's line of column names, and a number as its cells write one (empty for NAN). */
void cp_trace_csv_header(cp_text_csv_line *l);
void cp_trace_csv_number(cp_text_csv_line *l, double v);

/* An instruction's values, by the keys of the CSV report's columns (cp_trace_columns.c, the one
 * table of them): from a run (in, its kernel k, its process p; doc_in NULL) or from a saved JSON
 * report (its objects in "instructions", "kernels" and "processes"; NULL where there is none). */
struct cJSON;
typedef struct cp_trace_values {
    const cp_trace_instr *in;
    const cp_trace_kernel *k;
    const cp_trace_process *p;
    const struct cJSON *doc_in, *doc_kernel, *doc_process;
} cp_trace_values;

/* The number of column key in v (true and false: 1 and 0), NAN when unknown or not a number. */
double cp_trace_value(const cp_trace_values *v, const char *key);
/* The text of column key in v (made in buf[n] where needed), NULL when unknown or not text. */
const char *cp_trace_value_text(const cp_trace_values *v, const char *key, char *buf, size_t n);

/* An instruction's line of the CSV report: every column, in order. */
void cp_trace_csv_row(cp_text_csv_line *l, const cp_trace_values *v);

/* The derived counts of a kernel or an instruction of a saved JSON report (o), read back under
 * the keys cp_trace_write_json writes them with, from its own list of them (cp_trace_json.c);
 * NAN where a key is absent or null. */
void cp_trace_json_read_counts(const struct cJSON *o, cp_trace_derived *d);

/* An instruction's row of the table and what it means under it, and the rows' header. */
void cp_trace_table_instr_row(FILE *out, const cp_trace_values *v);
void cp_trace_table_row_header(FILE *out);

#endif
