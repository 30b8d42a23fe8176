/* cp_trace_raw.h: the raw trace files that the injection library (cp_inject.c, inside the
 * traced program) writes and the report side (cp_trace_load.c) reads: the one contract between
 * the two halves of coalprobe trace.
 *
 * One file per traced process that initialised CUDA: DIR/raw-PID.tsv, where DIR is the
 * directory the launcher names in COALPROBE_TRACE_DIR. Plain text, one record per line, fields
 * separated by one tab, the record type first. In text fields a backslash, tab, newline and
 * carriage return are written as \\, \t, \n and \r. Numbers are decimal, except cubin CRCs
 * (8 hex digits) and PC offsets (0x-prefixed hex). Unknown record types are skipped by readers
 * (the format grows additively; CP_TRACE_RAW_VERSION changes only when a record changes).
 *
 * The writer holds an exclusive flock on its file from before it appears under its name until
 * its end record is written (cp_trace_lock.h); the launcher reads it once no process holds that
 * lock, or its wait ran out. Numbers are written in the C locale (a decimal point), whatever the
 * traced program's locale.
 *
 *   coalprobe-trace-raw VERSION            first line
 *   process   PID PPID COMMAND             COMMAND: the command line, arguments joined by spaces
 *   device    ORDINAL CHIP NAME CC         CHIP as CUPTI names it ("GH100"), CC as "9.0"
 *   metrics   NAME...                      the columns of the pc records that follow, in order
 *   kernel_metrics NAME...                 the columns of the kernel records that follow
 *   counting  ORDINAL HOW                  how the pc records of the device count: every_launch
 *                                          (no replay: every launch, taken as they are) or
 *                                          replayed (the scaling under `pc` applies); a file
 *                                          without it is read as replayed
 *   missing   NAME REASON                  a metric this chip does not offer (its column is "-")
 *   refused   CALL CODE NAME MESSAGE       CUPTI refused CALL (CODE the CUptiResult number, NAME
 *                                          its name such as CUPTI_ERROR_INSUFFICIENT_PRIVILEGES,
 *                                          MESSAGE cuptiGetResultString's text): no counts follow
 *   launch    ORDINAL FUNCTION COUNT [CRC] COUNT launches of FUNCTION (mangled) since the last
 *                                          flush, a CUDA graph's kernel nodes included (one each
 *                                          time the graph runs); readers add them up. CRC, where
 *                                          the library knows it (a module the program loaded with
 *                                          cuModuleLoad*, as Triton does), is the function's
 *                                          cubin: two cubins' functions of one name are counted
 *                                          apart; without it, the launches are the name's
 *   pc        ORDINAL CRC FINDEX FUNCTION PC VALUE...
 *                                          one patched instruction's metric values (as many as
 *                                          `metrics` named; "-" for a missing one), written once
 *                                          when the context ends. They count the instruction over
 *                                          the Range Profiler's replay passes of one launch (seen
 *                                          on the H100: a function launched once has zeros), so
 *                                          readers scale them by the function's kernel records:
 *                                          f = sum of its pc global+shared instructions over the
 *                                          instructions of one of its launches (kernel records)
 *   kernel_cubin CRC                       the kernel record right after is of that cubin's
 *                                          FUNCTION (as a launch record's CRC)
 *   kernel    ORDINAL FUNCTION VALUE...    one launch's per-kernel counters (Range Profiler, as
 *                                          many values as kernel_metrics named; "-" for one the
 *                                          chip lacks); every launch is counted, or the sample
 *                                          `selection` says; readers add them up per function
 *   cubin     CRC FILE                     the module's cubin, saved as DIR/FILE
 *   source    CRC FUNCTION PC FILE LINE    FILE:LINE of that instruction (from -lineinfo)
 *   nosource  CRC FUNCTION                 that function has no line information
 *   unmatched ORDINAL REASON               one launch's per-kernel counters that belong to no
 *                                          launch the library could name (a CUDA graph's kernels
 *                                          on parallel branches, a graph instantiated before the
 *                                          injection, ranges of a batch CUPTI dropped some of):
 *                                          filed under no kernel
 *   dropped   ORDINAL COUNT REASON         records CUPTI dropped (never hidden)
 *   note      TEXT                         something a reader should show once
 *   time      PHASE SECONDS COUNT          where the traced process's time went, written at its
 *                                          end: context_setup (profiler_init and counters_open
 *                                          included), launch_calls (inside the launch calls: the
 *                                          range profiler's replay), kernel_counters,
 *                                          instruction_records, module_copies, injected (from
 *                                          the injection's start to the process's end)
 *   tensor_map COUNT KIND TYPE BITS RANK DIMS STRIDES BOX ESTRIDES INTERLEAVE SWIZZLE L2 OOB ALIGN
 *                                          one distinct tensor map (TMA descriptor) the process
 *                                          encoded on the host, written at its end: COUNT
 *                                          successful encodes of these fields (the address aside);
 *                                          KIND tiled, im2col or im2col_wide (the call); TYPE the
 *                                          data type (uint8 ... float16, bfloat16, tfloat32,
 *                                          16u4_align8b, ...); BITS its element size in bits ("-"
 *                                          for a type this library does not know); RANK 1 to 5;
 *                                          DIMS the RANK global dimensions (elements), STRIDES
 *                                          the RANK-1 global strides in bytes ("-" for rank 1),
 *                                          BOX the box: RANK boxDim values for tiled, the two
 *                                          values channelsPerPixel,pixelsPerColumn for im2col;
 *                                          ESTRIDES the RANK element strides; lists joined by
 *                                          commas, innermost first. INTERLEAVE none, 16B, 32B;
 *                                          SWIZZLE none, 32B, 64B, 128B, 128B_atom_32B,
 *                                          128B_atom_32B_flip_8B, 128B_atom_64B; L2 (promotion)
 *                                          none, 64B, 128B, 256B; OOB (fill) none,
 *                                          nan_request_zero_fma; an enumerator of a later driver
 *                                          as unknown_N. ALIGN: the largest power of two dividing
 *                                          the global address, at most 256
 *   tensor_map_calls ENCODES UNRECORDED REPLACED
 *                                          written at the end after the tensor_map records, by a
 *                                          library that watched the tensor map calls (a file
 *                                          without it says nothing about tensor maps): ENCODES
 *                                          successful encode calls, UNRECORDED of those in no
 *                                          tensor_map record (the table of 256 distinct maps was
 *                                          full), REPLACED successful cuTensorMapReplaceAddress
 *                                          calls (an address replaced: no new map)
 *   kernel_tmap ORDINAL FUNCTION MAP LAUNCHES [CRC]
 *                                          written at the end after the tensor_map_calls record:
 *                                          LAUNCHES counted launches of FUNCTION (of cubin CRC,
 *                                          as a launch record's) passed the descriptor of map MAP
 *                                          (the index among this file's tensor_map records, 0
 *                                          the first) as a 128-byte parameter, or, MAP "-", a
 *                                          128-byte parameter that is no descriptor encoded on
 *                                          the host while traced, or, MAP "*", LAUNCHES whose
 *                                          128-byte parameters were all compared (a kernel whose
 *                                          every counted launch was is known to pass only the
 *                                          maps named). A tensor_map record's COUNT
 *                                          may be 0: a map seen through cuTensorMapReplaceAddress
 *                                          only (the same map at an address of another alignment)
 *   host      NAME                         the host name (gethostname), once, after `process`
 *   rank      KEY VALUE                    once per variable set in the environment, after
 *                                          `host`: KEY one of RANK LOCAL_RANK WORLD_SIZE
 *                                          SLURM_PROCID SLURM_NODEID OMPI_COMM_WORLD_RANK
 *                                          PMI_RANK, VALUE as set
 *   frame     ID FILE LINE FUNCTION PARENT an interned Python frame: ID a decimal > 0, unique in
 *                                          the file; PARENT the ID of its caller's frame as
 *                                          recorded, or 0 (the outermost recorded, or whole
 *                                          stacks not asked for). Written before the first
 *                                          record that names ID
 *   range     ID DOMAIN NAME PARENT        an interned NVTX range node: ID > 0; DOMAIN the NVTX
 *                                          domain's name ("-" for the default domain); NAME the
 *                                          range's message; PARENT the enclosing range node's
 *                                          ID, or 0. Written before the first record naming ID
 *   site      ID ORDINAL FUNCTION FRAME RANGE
 *                                          an interned call site: ID > 0; device ORDINAL;
 *                                          FUNCTION the kernel (mangled, as in launch records);
 *                                          FRAME the innermost user frame's ID, or "-" (the
 *                                          process runs no Python), "nogil" (the launching
 *                                          thread did not hold the GIL), "none" (Python, but
 *                                          every frame was skipped), "overflow" (past 65536
 *                                          distinct sites, frames or ranges: then RANGE is 0 and
 *                                          a note says how many launches lost their site);
 *                                          RANGE the innermost NVTX range node's ID, or 0.
 *                                          Written before the first record naming ID
 *   launches_at SITE COUNT                 COUNT launches of call site SITE since the last flush
 *                                          (a CUDA graph's kernel nodes: one each time the graph
 *                                          runs, with the site of the cuGraphLaunch call);
 *                                          readers add them up. `launch` records stay as they
 *                                          are (per function)
 *   kernel_at SITE                         immediately after a `kernel` record: the call site
 *                                          of that launch (a reader pairs it with the kernel
 *                                          record just before it and adds that record's values
 *                                          to the site's). Absent when unknown (unmatched)
 *   kernel_time NS                         after a `kernel` record (after its kernel_at when it
 *                                          has one): the host time of that launch's call, NS
 *                                          nanoseconds since the epoch (CLOCK_REALTIME, so the
 *                                          processes of one run, and hosts whose clocks agree,
 *                                          line up), taken when the launch call is entered (not
 *                                          when the GPU starts it; a CUDA graph's kernels: the
 *                                          graph launch's time). A reader pairs it with the
 *                                          kernel record just before it. Absent when unknown and
 *                                          past 1,000,000 in a process (then a note at the end
 *                                          says how many launches have none)
 *   selection KEY VALUE                    what the launcher asked the library to count, once
 *                                          per option, after `process` (cp_inject_select.h):
 *                                          counter_launches N (per-kernel counters for the first
 *                                          N launches of each kernel and launch shape: grid,
 *                                          block, dynamic shared memory; a CUDA graph's launch
 *                                          counts as one shape of its own) or counter_launches
 *                                          all (every counted launch; always written); kernel
 *                                          REGEX; launch_skip N; launch_count N; nvtx_include
 *                                          NAME; capture_range profiler-api; instructions
 *                                          sampled (--instructions sampled: the SASS metrics
 *                                          were patched eagerly, and the pc records count the
 *                                          sampled launches only, those with kernel records,
 *                                          not every counted launch; absent: every counted
 *                                          launch, as before; a reader takes `instructions
 *                                          every` alike). A file without them
 *                                          was written by a library that counted every launch
 *                                          and kernel range. Under selection, `launch` records
 *                                          count the counted launches only, pc records cover
 *                                          those (the SASS metrics are paused while launches are
 *                                          left out), and kernel records exist for the sampled
 *                                          launches only: readers never scale them up
 *   launches_seen ORDINAL FUNCTION SEEN COUNTED SAMPLED [CRC]
 *                                          at the end, one per function (and cubin, where known,
 *                                          as a launch record's CRC) the library saw: SEEN
 *                                          launches in all, COUNTED of those counted (as its
 *                                          launch records), SAMPLED of those with a kernel range
 *                                          (each ran serialised); COUNTED <= SEEN, SAMPLED <=
 *                                          COUNTED
 *   interrupted REASON                     the trace ended early, before the end record: a
 *                                          region of a running process (coalprobe.trace(),
 *                                          docs/python.md) left by an exception, REASON what
 *                                          ended it. The file is whole, the trace incomplete
 *   end       FLUSHES LAUNCHES             the process ended normally (or the region of an
 *                                          attached process ended); a file without it is
 *                                          incomplete (crash, kill, _exit before teardown)
 *
 * User frames: the innermost frame whose file is not inside the Python installation's standard
 * library (sysconfig's stdlib and platstdlib paths), not under site-packages or dist-packages,
 * and not "<frozen ...>" or "<string>"; with COALPROBE_TRACE_PYTHON_FRAMES=all the innermost
 * frame, whatever it is. With COALPROBE_TRACE_PYTHON_STACK=1 each recorded frame's PARENT chain
 * holds the whole stack (up to 64 frames), else PARENT is 0. The launcher sets both from
 * `coalprobe trace --python-frames user|all` and `--python-stack`.
 */
#ifndef CP_TRACE_RAW_H
#define CP_TRACE_RAW_H

/* 2: pc records carry the instruction counts of LDGSTS, atomics, reductions, local memory, LDSM,
 * STSM, wgmma and TMA (a reader of version 2 reads version 1 files as files without them; a
 * reader of version 1 refuses version 2 by name and version). */
#define CP_TRACE_RAW_VERSION 2
#define CP_TRACE_RAW_MAGIC "coalprobe-trace-raw"
#define CP_TRACE_ENV_DIR "COALPROBE_TRACE_DIR"
#define CP_TRACE_RAW_PREFIX "raw-"
#define CP_TRACE_RAW_SUFFIX ".tsv"
/* A cubin of at most this many bytes is written to DIR as its module loads (renamed into place
 * when whole), and coalprobe disassembles it while the program runs (cp_trace_prefetch.h); a
 * larger one is written when its first instruction record is, and disassembled after the
 * program, function by function: a PyTorch module's whole listing takes seconds. */
#define CP_TRACE_EARLY_CUBIN_BYTES (1u << 20)

/* The SASS metrics the injection library asks for, X(ID, NAME) in this order (the metrics
 * record lists the subset a chip offers). Requests are warp-level instructions, each kind
 * counted by its own metric: the global and shared load and store metrics do not count LDGSTS
 * (cp.async), atomics, reductions, LDSM, STSM, wgmma or TMA, while the sector and wavefront
 * metrics include the ones that move global sectors or shared wavefronts. Local memory and TMA
 * have executions only: no per-instruction metric counts their bytes. */
#define CP_TRACE_RAW_METRICS(X)                                                                    \
    X(GLOBAL_LD, "smsp__sass_inst_executed_op_global_ld")                                          \
    X(GLOBAL_ST, "smsp__sass_inst_executed_op_global_st")                                          \
    X(SECTORS, "smsp__sass_sectors_mem_global")                                                    \
    X(SECTORS_IDEAL, "smsp__sass_sectors_mem_global_ideal")                                        \
    X(SHARED_LD, "smsp__sass_inst_executed_op_shared_ld")                                          \
    X(SHARED_ST, "smsp__sass_inst_executed_op_shared_st")                                          \
    X(WAVEFRONTS, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared")                               \
    X(WAVEFRONTS_IDEAL, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal")                   \
    X(LDGSTS, "smsp__sass_inst_executed_op_ldgsts")                                                \
    X(GLOBAL_ATOM, "smsp__sass_inst_executed_op_global_atom")                                      \
    X(GLOBAL_RED, "smsp__sass_inst_executed_op_global_red")                                        \
    X(LOCAL_LD, "smsp__sass_inst_executed_op_local_ld")                                            \
    X(LOCAL_ST, "smsp__sass_inst_executed_op_local_st")                                            \
    X(LDSM, "smsp__sass_inst_executed_op_ldsm")                                                    \
    X(STSM, "smsp__sass_inst_executed_op_shared_stsm")                                             \
    X(GMMA, "smsp__sass_inst_executed_op_shared_gmma")                                             \
    X(TMA_LD, "smsp__sass_inst_executed_op_tma_ld")                                                \
    X(TMA_ST, "smsp__sass_inst_executed_op_tma_st")

#endif
