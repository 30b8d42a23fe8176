#!/usr/bin/env python3
"""make_handmade.py: writes the HAND-MADE raw trace fixtures of tests/golden/trace/handmade-*.

These are not recordings of a real run: they are raw files (src/inject/cp_trace_raw.h) written by
hand for the report side's tests, with counts derived from coalprobe's own model (e.g. a 1024 x
1024 float transpose: 32768 warp requests per launch, 4 sectors per request coalesced, 32 when
each lane has its own sector). Every file says so in an `x-comment` record, a record type readers
skip. Real recordings from the H100 sit beside them under names without "handmade".

Run it from this directory to regenerate them: python3 make_handmade.py (one fixture only:
python3 -c 'import make_handmade; make_handmade.timelines()')
"""
import os

M = ["smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
     "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal",
     "smsp__sass_inst_executed_op_shared_ld", "smsp__sass_inst_executed_op_shared_st",
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"]
LABEL = ("x-comment\tHAND-MADE fixture for the report side's tests (not a real trace): numbers "
         "derived from coalprobe's model; readers skip this unknown record type")


def T(*fields):
    return "\t".join(str(x) for x in fields)


def pc(crc, findex, fn, pcv, ld=0, st=0, sec=0, ideal=0, sld=0, sst=0, wf=0, wfi=0):
    return T("pc", 0, crc, findex, fn, "0x%x" % pcv, ld, st, sec, ideal, sld, sst, wf, wfi)


def write(d, name, lines, end_newline=True):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write("\n".join(lines) + ("\n" if end_newline else ""))


HEAD = ["coalprobe-trace-raw\t1", LABEL]
DEV = T("device", 0, "GH100", "NVIDIA H100 80GB HBM3", "9.0")
MET = T("metrics", *M)
NAIVE, TILED = "_Z15transpose_naivePfPKfii", "_Z15transpose_tiledPfPKfii"
OFF, FILL, NEVER = "_Z6offsetPKfPfi", "_Z9fill_onesPfi", "_Z13never_countedv"
TSRC, OSRC = "/home/user/proj/transpose.cu", "/home/user/proj/offset.cu"


KM = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_data_bytes_mem_global_op_ld.sum", "smsp__sass_data_bytes_mem_global_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
      "gpu__time_duration.sum"]
KMET = T("kernel_metrics", *KM)
PASSES = 4  # the Range Profiler's replay passes of one launch, which the pc records count


def kernel(fn, ldr=0, str_=0, lds=0, sts=0, ldb=0, stb=0, shl=0, shs=0, wfl=0, wfs=0, cfl=0,
           cfs=0, ldi=None, sti=None, ns=0):
    """One launch's kernel record (the instruction counts default to the requests)."""
    return T("kernel", 0, fn, ldr, str_, lds, sts, ldb, stb, shl, shs, wfl, wfs, cfl, cfs,
             ldr if ldi is None else ldi, str_ if sti is None else sti, ns)


def transpose(fixed):
    """A 1024 x 1024 transpose, as the injection library records it with the Range Profiler
    beside the SASS metrics: kernel records of every launch, and pc records counting the replay
    passes of one launch (PASSES times one launch). Naive (its store 32 sectors per request) and
    tiled in shared memory (its shared load a 32-way bank conflict), 3 launches each; a
    misaligned copy launched once (pc records of zeros: counted as a whole, 5 sectors where 4
    would do); an extern "C" 8-byte copy without line information, 2 launches (16 where 8 would
    do); a fill counted by kernel records only; a kernel launched but never counted. fixed: the
    store and the conflict repaired, and the misaligned load made worse (8 sectors), for
    compare."""
    W = 32768  # warps (requests) of one launch of the 1024 x 1024 kernels
    L = HEAD + [T("process", 4242, 4241, "./transpose --n 1024"), DEV, MET, KMET,
                T("launch", 0, NAIVE, 3), T("launch", 0, TILED, 3), T("launch", 0, OFF, 1),
                T("launch", 0, "vec_copy", 2), T("launch", 0, FILL, 1),
                T("launch", 0, NEVER, 1)]
    store = 4 if fixed else 32  # sectors per request of the naive store
    conflict = 1 if fixed else 32  # wavefronts per request of the tiled shared load
    off = 8 if fixed else 5  # sectors per request of the misaligned load
    for _ in range(3):
        L.append(kernel(NAIVE, ldr=W, str_=W, lds=4 * W, sts=store * W, ldb=128 * W, stb=128 * W,
                        ns=21000 if fixed else 52000))
        L.append(kernel(TILED, ldr=W, str_=W, lds=4 * W, sts=4 * W, ldb=128 * W, stb=128 * W,
                        shl=W, shs=W, wfl=conflict * W, wfs=W, cfl=(conflict - 1) * W,
                        ldi=W, sti=W, ns=30000))
    L.append(kernel(OFF, ldr=W, str_=W, lds=off * W, sts=4 * W, ldb=128 * W, stb=128 * W,
                    ns=25000))
    for _ in range(2):
        L.append(kernel("vec_copy", ldr=1000, str_=1000, lds=16000, sts=8000, ldb=256000,
                        stb=256000, ns=3000))
    L.append(kernel(FILL, str_=W, sts=4 * W, stb=128 * W, ns=9000))
    P = PASSES
    for p, line in [(0x30, 11), (0x90, 12), (0xc0, 13)]:  # before their pc records
        L.append(T("source", "1a2b3c4d", NAIVE, "0x%x" % p, TSRC, line))
    L.append(pc("1a2b3c4d", 0, NAIVE, 0x30))  # never executed
    L.append(pc("1a2b3c4d", 0, NAIVE, 0x90, ld=P * W, sec=P * 4 * W, ideal=P * 4 * W))
    L.append(pc("1a2b3c4d", 0, NAIVE, 0xc0, st=P * W, sec=P * store * W, ideal=P * 4 * W))
    for p, line in [(0x100, 24), (0x110, 24), (0x180, 27), (0x190, 27)]:
        L.append(T("source", "1a2b3c4d", TILED, "0x%x" % p, TSRC, line))
    L.append(pc("1a2b3c4d", 1, TILED, 0x100, ld=P * W, sec=P * 4 * W, ideal=P * 4 * W))
    L.append(pc("1a2b3c4d", 1, TILED, 0x110, sst=P * W, wf=P * W, wfi=P * W))
    L.append(pc("1a2b3c4d", 1, TILED, 0x180, sld=P * W, wf=P * conflict * W, wfi=P * W))
    L.append(pc("1a2b3c4d", 1, TILED, 0x190, st=P * W, sec=P * 4 * W, ideal=P * 4 * W))
    L.append(T("source", "5e6f7a8b", OFF, "0x50", OSRC, 7))
    L.append(T("source", "5e6f7a8b", OFF, "0x70", OSRC, 7))
    L.append(pc("5e6f7a8b", 0, OFF, 0x50))  # launched once: CUPTI counted zeros
    L.append(pc("5e6f7a8b", 0, OFF, 0x70))
    L.append(T("nosource", "5e6f7a8b", "vec_copy"))
    # two records of one instruction add up: 2 x 2000 requests, the replay passes of one launch
    L.append(pc("5e6f7a8b", 1, "vec_copy", 0x40, ld=2000, sec=32000, ideal=16000))
    L.append(pc("5e6f7a8b", 1, "vec_copy", 0x60, st=P * 1000, sec=P * 8000, ideal=P * 8000))
    L.append(pc("5e6f7a8b", 1, "vec_copy", 0x40, ld=2000, sec=32000, ideal=16000))
    L.append(T("dropped", 0, 12, "CUPTI dropped them when the context ended"))
    L.append(T("note", "CUDA graph launches: their kernels' instructions are counted, their "
                       "launches are not"))
    L.append(T("end", 1, 11))
    return L


def ldgsts():
    """Format 2, with the LDGSTS column: two cp.async kernels of 2048 warps a launch, 2 launches
    each, pc records as they are (no kernel records). A coalesced 16-byte copy into shared memory
    (16 sectors a request, the ideal; its fill 4 wavefronts, the ideal), then a conflict-free LDS
    and a coalesced STG; a strided 4-byte copy (each lane in its own sector: 32 sectors where 4
    would do; its fill one wavefront per sector written, 32 where 1 would do, which is not a bank
    conflict), then the same LDS and STG of 4 bytes."""
    W = 2 * 2048
    met = T("metrics", *(M + ["smsp__sass_inst_executed_op_ldgsts"]))
    copy, strided = "_Z13cp_async_copyPKfPfi", "_Z16cp_async_stridedPKfPfii"
    src = "/home/user/proj/pipeline.cu"

    def pc2(crc, findex, fn, pcv, ld=0, st=0, sec=0, ideal=0, sld=0, sst=0, wf=0, wfi=0, cpa=0):
        return T("pc", 0, crc, findex, fn, "0x%x" % pcv, ld, st, sec, ideal, sld, sst, wf, wfi, cpa)

    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 8000, 7999, "./pipeline"), DEV, met,
         T("counting", 0, "every_launch"), T("launch", 0, copy, 2), T("launch", 0, strided, 2)]
    for p, line in [(0x80, 20), (0xa0, 23), (0xc0, 24)]:
        L.append(T("source", "feedbeef", copy, "0x%x" % p, src, line))
    L.append(pc2("feedbeef", 0, copy, 0x80, sec=16 * W, ideal=16 * W, wf=4 * W, wfi=4 * W, cpa=W))
    L.append(pc2("feedbeef", 0, copy, 0xa0, sld=W, wf=4 * W, wfi=4 * W))
    L.append(pc2("feedbeef", 0, copy, 0xc0, st=W, sec=16 * W, ideal=16 * W))
    for p, line in [(0x60, 31), (0x90, 34), (0xb0, 35)]:
        L.append(T("source", "feedbeef", strided, "0x%x" % p, src, line))
    L.append(pc2("feedbeef", 1, strided, 0x60, sec=32 * W, ideal=4 * W, wf=32 * W, wfi=W, cpa=W))
    L.append(pc2("feedbeef", 1, strided, 0x90, sld=W, wf=W, wfi=W))
    L.append(pc2("feedbeef", 1, strided, 0xb0, st=W, sec=4 * W, ideal=4 * W))
    L.append(T("end", 1, 4))
    return L


def graph():
    """Format 2, lean counters of every launch: a kernel launched once directly and 3 times as a
    node of a CUDA graph (4 launch counts, 4 kernel records, its pc records over the 4), and a
    second graph whose two kernels run on parallel branches, launched once: its 2 kernel records
    unmatched, in no kernel and no total."""
    W = 4096
    step = "_Z4stepPfi"
    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 9000, 8999, "python3 graphs.py"), DEV,
         T("metrics", *(M + ["smsp__sass_inst_executed_op_ldgsts"])), KMET,
         T("counting", 0, "every_launch"), T("launch", 0, step, 4)]
    for _ in range(4):
        L.append(kernel(step, lds=4 * W, sts=4 * W, ldi=W, sti=W, ns=5000))
    for _ in range(2):
        L.append(T("unmatched", 0, "kernels on parallel branches run in no fixed order"))
    L.append(T("source", "abad1dea", step, "0x40", "/home/user/proj/graphs.cu", 9))
    L.append(T("source", "abad1dea", step, "0x60", "/home/user/proj/graphs.cu", 10))
    L.append(T("pc", 0, "abad1dea", 0, step, "0x40", 4 * W, 0, 4 * 8 * W, 4 * 4 * W, 0, 0, 0, 0, 0))
    L.append(T("pc", 0, "abad1dea", 0, step, "0x60", 0, 4 * W, 4 * 4 * W, 4 * 4 * W, 0, 0, 0, 0, 0))
    L.append(T("end", 1, 4))
    return L


KINDS = ["smsp__sass_inst_executed_op_ldgsts", "smsp__sass_inst_executed_op_global_atom",
         "smsp__sass_inst_executed_op_global_red", "smsp__sass_inst_executed_op_local_ld",
         "smsp__sass_inst_executed_op_local_st", "smsp__sass_inst_executed_op_ldsm",
         "smsp__sass_inst_executed_op_shared_stsm", "smsp__sass_inst_executed_op_shared_gmma",
         "smsp__sass_inst_executed_op_tma_ld", "smsp__sass_inst_executed_op_tma_st"]


def kinds():
    """Format 2 with every instruction kind's own count: a Hopper GEMM-like kernel of 1024 warps
    a launch, 1 launch: a TMA load of its tiles (32 executions), LDSM of 4 wavefronts (the ideal),
    wgmma reading shared memory (8 wavefronts each), a spill (LDL/STL), an atomicAdd of every lane
    to one counter (1 sector a request, the ideal) and a reduction of 32 sectors where 4 would do;
    none of these may count as an LDS/STS request or a bank conflict."""
    W = 1024
    fn = "_Z8gemm_tmaPKfS0_Pfiii"
    src = "/home/user/proj/gemm_tma.cu"

    def pck(pcv, sec=0, ideal=0, wf=0, wfi=0, **k):
        vals = [0] * len(KINDS)
        for name, v in k.items():
            vals[["ldgsts", "atom", "red", "lld", "lst", "ldsm", "stsm", "gmma", "tld",
                  "tst"].index(name)] = v
        return T("pc", 0, "c0ffee00", 0, fn, "0x%x" % pcv, 0, 0, sec, ideal, 0, 0, wf, wfi, *vals)

    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 9500, 9499, "./gemm_tma"), DEV,
         T("metrics", *(M + KINDS)), T("counting", 0, "every_launch"), T("launch", 0, fn, 1)]
    for p, line in [(0x100, 40), (0x200, 52), (0x300, 53), (0x400, 60), (0x480, 61),
                    (0x500, 70), (0x580, 71)]:
        L.append(T("source", "c0ffee00", fn, "0x%x" % p, src, line))
    L += [pck(0x100, tld=32),
          pck(0x200, wf=4 * W, wfi=4 * W, ldsm=W),
          pck(0x300, wf=8 * W, wfi=8 * W, gmma=W),
          pck(0x400, lld=W),
          pck(0x480, lst=W),
          pck(0x500, sec=W, ideal=W, atom=W),
          pck(0x580, sec=32 * W, ideal=4 * W, red=W),
          T("end", 1, 1)]
    return L


KCOV = ["l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
        "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum",
        "smsp__sass_sectors_mem_local.sum"]


def coverage():
    """Format 2, kernel records with the TMA and local sectors (the coverage counters), one launch
    of each of three kernels moving 1 MiB (32768 sectors) a pass:
    - a TMA bulk copy into shared memory (32768 TMA sectors) and a coalesced STG out: 1 MiB
      counted of 2 MiB, coverage 50%, excess unknown;
    - a coalesced LDG + STG copy: 2 MiB counted, no TMA, no local memory: coverage 100%;
    - an LDG + STG copy that spills: 4096 LDL and 4096 STL of 64 bytes a lane (8192 local sectors
      each way) beside its 2 MiB: 2 MiB counted of 2.5 MiB, 80%."""
    W = 8192  # warps of 4-byte lanes: 4 sectors a request, 32768 sectors
    tma, copy, spill = "_Z8tma_copyPKfPfi", "_Z4copyPKfPfi", "_Z5spillPKfPfi"
    src = "/home/user/proj/coverage.cu"

    def pck(fn, findex, pcv, ld=0, st=0, sec=0, ideal=0, **k):
        vals = [0] * len(KINDS)
        for name, v in k.items():
            vals[["ldgsts", "atom", "red", "lld", "lst", "ldsm", "stsm", "gmma", "tld",
                  "tst"].index(name)] = v
        return T("pc", 0, "c0c0a000", findex, fn, "0x%x" % pcv, ld, st, sec, ideal, 0, 0, 0, 0,
                 *vals)

    def krec(fn, lds, sts, ldi, sti, tld, tst, lld, lst, ns):
        return T("kernel", 0, fn, "-", "-", lds, sts, "-", "-", 0, 0, "-", "-", "-", "-", ldi, sti,
                 ns, tld, tst, lld + lst)

    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 9700, 9699, "./coverage"), DEV,
         T("metrics", *(M + KINDS)), T("kernel_metrics", *(KM + KCOV)),
         T("counting", 0, "every_launch")]
    for fn in (tma, copy, spill):
        L.append(T("launch", 0, fn, 1))
    L += [krec(tma, 0, 4 * W, 0, W, 4 * W, 0, 0, 0, 9000),
          krec(copy, 4 * W, 4 * W, W, W, 0, 0, 0, 0, 8000),
          krec(spill, 4 * W, 4 * W, W, W, 0, 0, W, W, 12000)]
    for fn, findex, rows in [(tma, 0, [(0x80, 12), (0xc0, 14)]),
                             (copy, 1, [(0x40, 20), (0x60, 21)]),
                             (spill, 2, [(0x40, 30), (0x60, 31), (0x80, 32), (0xa0, 33)])]:
        for p, line in rows:
            L.append(T("source", "c0c0a000", fn, "0x%x" % p, src, line))
    L += [pck(tma, 0, 0x80, tld=64),
          pck(tma, 0, 0xc0, st=W, sec=4 * W, ideal=4 * W),
          pck(copy, 1, 0x40, ld=W, sec=4 * W, ideal=4 * W),
          pck(copy, 1, 0x60, st=W, sec=4 * W, ideal=4 * W),
          pck(spill, 2, 0x40, ld=W, sec=4 * W, ideal=4 * W),
          pck(spill, 2, 0x60, lst=W // 2),
          pck(spill, 2, 0x80, lld=W // 2),
          pck(spill, 2, 0xa0, st=W, sec=4 * W, ideal=4 * W),
          T("end", 1, 3)]
    return L


def tmaps(passed=0):
    """Format 2 with the tensor maps a Hopper GEMM encoded on the host (tensor_map records, one
    per distinct map, and the tensor_map_calls totals): a 2-D float16 tile of 64x64 (128-byte
    rows, whole sectors), encoded 12 times; a 1-D float32 box of 12 elements (48-byte rows: 64
    bytes of sectors each, 75% used; a box row must be a multiple of 16 bytes, so 48 is the
    smallest that is not whole sectors); a 3-D bfloat16 map whose address is aligned to 16 bytes
    and whose first stride (2000 B) is not a multiple of 32, encoded 3 times; an im2col map of
    64 float16 channels (128-byte rows). 17 encodes, 5 addresses replaced. The kernel's 12
    launches pass map #passed (kernel_tmap records), every one compared ("*"): #0 in
    handmade-tmaps (whole sectors: its TMA judged ideal), #1 in handmade-tmaps-after (48-byte
    rows: no verdict), the pair compare tells apart."""
    fn = "_Z8gemm_tmaPKfS0_Pfiii"
    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 9600, 9599, "./gemm_tma --steps 12"), DEV,
         T("metrics", *(M + KINDS)), T("counting", 0, "every_launch"), T("launch", 0, fn, 12),
         T("source", "c0ffee00", fn, "0x100", "/home/user/proj/gemm_tma.cu", 40),
         T("pc", 0, "c0ffee00", 0, fn, "0x100", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
           384, 0),
         T("tensor_map", 12, "tiled", "float16", 16, 2, "4096,4096", 8192, "64,64", "1,1", "none",
           "128B", "128B", "none", 256),
         T("tensor_map", 1, "tiled", "float32", 32, 1, 1000, "-", 12, 1, "none", "none", "none",
           "none", 256),
         T("tensor_map", 3, "tiled", "bfloat16", 16, 3, "1000,1000,8", "2000,2000000", "64,32,1",
           "1,1,1", "none", "128B", "256B", "nan_request_zero_fma", 16),
         T("tensor_map", 1, "im2col", "float16", 16, 4, "64,32,32,8", "128,4096,131072", "64,128",
           "1,1,1,1", "none", "128B", "128B", "none", 256),
         T("tensor_map_calls", 17, 0, 5),
         T("kernel_tmap", 0, fn, passed, 12),
         T("kernel_tmap", 0, fn, "*", 12),
         T("end", 1, 12)]
    return L


KLEAN = T("kernel_metrics", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "smsp__inst_executed_op_global_ld.sum",
          "smsp__inst_executed_op_global_st.sum", "gpu__time_duration.sum")
GATHER, NORM = "_Z6gatherPKfPKiPfi", "_Z9layernormPfPKfi"
COPY, FILLK = "_Z4copyPfPKfi", "_Z4fillPfi"
KSRC = "/home/user/proj/kernels.cu"


M2 = M + ["smsp__sass_inst_executed_op_ldgsts", "smsp__sass_inst_executed_op_global_atom",
          "smsp__sass_inst_executed_op_global_red", "smsp__sass_inst_executed_op_local_ld",
          "smsp__sass_inst_executed_op_local_st", "smsp__sass_inst_executed_op_ldsm",
          "smsp__sass_inst_executed_op_shared_stsm", "smsp__sass_inst_executed_op_shared_gmma",
          "smsp__sass_inst_executed_op_tma_ld", "smsp__sass_inst_executed_op_tma_st"]
MET2 = T("metrics", *M2)


def pc2(*a, **k):
    """A pc record of format 2's whole metric list (M2): no LDGSTS, atomics, local memory, LDSM,
    STSM, wgmma or TMA ran."""
    return pc(*a, **k) + "\t0" * (len(M2) - len(M))


def lean(fn, lds, sts, ldi, sti, ns, site):
    """One launch's lean kernel record (sectors and instructions) and its call site."""
    return [T("kernel", 0, fn, lds, sts, ldi, sti, ns), T("kernel_at", site)]


def python():
    """A PyTorch-like process (format 2, lean kernel records, every launch counted per
    instruction) with call sites: the innermost user frames are lines of train.py (the frames of
    torch under site-packages were skipped by the library, so none is recorded), with the whole
    stack up to main. A gather (each lane of its load in its own sector: 32 sectors per request
    where 4 would do) launched 3 times from train.py:42 with 1024 warps and once from train.py:57
    with 2048: its excess split 108:72 by the sectors of those launches (60% and 40%), not 3:1
    by launches. A layernorm launched twice from a thread without the GIL (its load misaligned: 5
    sectors where 4 would do); a copy from a site without Python (no waste); a fill whose
    frames were all skipped (no user frame; its store 8 sectors where 4 would do). NVTX ranges
    "epoch 0" > "forward" (default domain), and "eval" in the domain "torch"."""
    W = 1024
    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 3100, 3099, "python3 train.py --epochs 1"),
         T("host", "gpu-box"), DEV, MET2, T("counting", 0, "every_launch"), KLEAN,
         T("frame", 3, "/home/user/proj/train.py", 80, "main", 0),
         T("frame", 1, "/home/user/proj/train.py", 42, "train_step", 3),
         T("frame", 2, "/home/user/proj/train.py", 57, "evaluate", 3),
         T("range", 1, "-", "epoch 0", 0), T("range", 2, "-", "forward", 1),
         T("range", 3, "torch", "eval", 0),
         T("site", 1, 0, GATHER, 1, 2), T("site", 2, 0, GATHER, 2, 3),
         T("site", 3, 0, NORM, "nogil", 2), T("site", 4, 0, COPY, "-", 0),
         T("site", 5, 0, FILLK, "none", 1)]
    for _ in range(3):
        L += lean(GATHER, 32 * W, 4 * W, W, W, 40000, 1)
    L += lean(GATHER, 64 * W, 8 * W, 2 * W, 2 * W, 80000, 2)
    for _ in range(2):
        L += lean(NORM, 5 * W, 4 * W, W, W, 9000, 3)
    L += lean(COPY, 4 * W, 4 * W, W, W, 7000, 4)
    L += lean(FILLK, 0, 8 * W, 0, W, 5000, 5)
    L += [T("launch", 0, GATHER, 4), T("launch", 0, NORM, 2), T("launch", 0, COPY, 1),
          T("launch", 0, FILLK, 1), T("launches_at", 1, 3), T("launches_at", 2, 1),
          T("launches_at", 3, 2), T("launches_at", 4, 1), T("launches_at", 5, 1)]
    for fn, pcs in [(GATHER, [(0x80, 21), (0xa0, 22)]), (NORM, [(0x40, 31), (0x60, 32)]),
                    (COPY, [(0x30, 41), (0x50, 42)]), (FILLK, [(0x20, 51)])]:
        for p, line in pcs:
            L.append(T("source", "c0ffee00", fn, "0x%x" % p, KSRC, line))
    L.append(pc2("c0ffee00", 0, GATHER, 0x80, ld=5 * W, sec=160 * W, ideal=20 * W))
    L.append(pc2("c0ffee00", 0, GATHER, 0xa0, st=5 * W, sec=20 * W, ideal=20 * W))
    L.append(pc2("c0ffee00", 1, NORM, 0x40, ld=2 * W, sec=10 * W, ideal=8 * W))
    L.append(pc2("c0ffee00", 1, NORM, 0x60, st=2 * W, sec=8 * W, ideal=8 * W))
    L.append(pc2("c0ffee00", 2, COPY, 0x30, ld=W, sec=4 * W, ideal=4 * W))
    L.append(pc2("c0ffee00", 2, COPY, 0x50, st=W, sec=4 * W, ideal=4 * W))
    L.append(pc2("c0ffee00", 3, FILLK, 0x20, st=W, sec=8 * W, ideal=4 * W))
    L.append(T("end", 1, 8))
    return L


def ranks(rank, host, per):
    """One rank of a two-node job (torchrun: RANK, LOCAL_RANK, WORLD_SIZE): a gather launched
    twice from train.py:42, 1024 warps a launch, its load `per` sectors per request where 4
    would do (rank 1's three times rank 0's excess: flagged)."""
    W = 1024
    L = ["coalprobe-trace-raw\t2", LABEL, T("process", 4242, 4241, "python3 train.py"),
         T("host", host), T("rank", "RANK", rank), T("rank", "LOCAL_RANK", 0),
         T("rank", "WORLD_SIZE", 2), DEV, MET2, T("counting", 0, "every_launch"), KLEAN,
         T("frame", 1, "/home/user/proj/train.py", 42, "train_step", 0),
         T("site", 1, 0, GATHER, 1, 0)]
    for _ in range(2):
        L += lean(GATHER, per * W, 4 * W, W, W, 40000, 1)
    L += [T("launch", 0, GATHER, 2), T("launches_at", 1, 2),
          T("source", "c0ffee00", GATHER, "0x80", KSRC, 21),
          T("source", "c0ffee00", GATHER, "0xa0", KSRC, 22),
          pc2("c0ffee00", 0, GATHER, 0x80, ld=2 * W, sec=2 * per * W, ideal=8 * W),
          pc2("c0ffee00", 0, GATHER, 0xa0, st=2 * W, sec=8 * W, ideal=8 * W), T("end", 1, 2)]
    return L


def timeline(pid, rank, t0):
    """One rank of a job with kernel_time records (the host time of each launch call, ns since
    the epoch): device 0 runs the gather twice from train.py:42 in the range "epoch 0/forward"
    (its load 32 sectors per request where 4 would do; the second launch moves twice the
    sectors, so it gets twice the excess), device 1 a layernorm with no call site; a copy whose
    kernel record has no kernel_time (not drawn), and a kernel_time after a launch record
    (malformed: no kernel record just before it)."""
    W = 1024
    L = ["coalprobe-trace-raw\t2", LABEL, T("process", pid, pid - 1, "python3 train.py"),
         T("host", "gpu-box"), T("rank", "RANK", rank), DEV,
         T("device", 1, "GH100", "NVIDIA H100 80GB HBM3", "9.0"), MET2,
         T("counting", 0, "every_launch"), KLEAN,
         T("frame", 1, "/home/user/proj/train.py", 42, "train_step", 0),
         T("range", 1, "-", "epoch 0", 0), T("range", 2, "-", "forward", 1),
         T("site", 1, 0, GATHER, 1, 2)]
    L += lean(GATHER, 32 * W, 4 * W, W, W, 40000, 1) + [T("kernel_time", t0)]
    L += lean(GATHER, 64 * W, 8 * W, 2 * W, 2 * W, 80000, 1) + [T("kernel_time", t0 + 52500)]
    L += [T("kernel", 1, NORM, 5 * W, 4 * W, W, W, 9000), T("kernel_time", t0 + 61250)]
    L += [T("kernel", 0, COPY, 4 * W, 4 * W, W, W, 7000)]
    L += [T("launch", 0, GATHER, 2), T("kernel_time", t0 + 99999), T("launch", 1, NORM, 1),
          T("launch", 0, COPY, 1), T("launches_at", 1, 2),
          T("source", "c0ffee00", GATHER, "0x80", KSRC, 21),
          pc2("c0ffee00", 0, GATHER, 0x80, ld=3 * W, sec=96 * W, ideal=12 * W),
          pc2("c0ffee00", 0, GATHER, 0xa0, st=3 * W, sec=12 * W, ideal=12 * W), T("end", 1, 4)]
    return L


def timelines():
    """handmade-timeline: two ranks, the second's launches 25 us after the first's."""
    write("handmade-timeline", "raw-3300.tsv", timeline(3300, 0, 1764000000123456789))
    write("handmade-timeline", "raw-3301.tsv", timeline(3301, 1, 1764000000123481789))


def main():
    timelines()
    write("handmade-python", "raw-3100.tsv", python())
    write("handmade-ranks/node0", "raw-4242.tsv", ranks(0, "node0", 8))
    write("handmade-ranks/node1", "raw-4242.tsv", ranks(1, "node1", 16))
    write("handmade-coverage", "raw-9700.tsv", coverage())
    write("handmade-tmaps", "raw-9600.tsv", tmaps())
    write("handmade-tmaps-after", "raw-9600.tsv", tmaps(1))
    write("handmade-kinds", "raw-9500.tsv", kinds())
    write("handmade-graph", "raw-9000.tsv", graph())
    write("handmade-ldgsts", "raw-8000.tsv", ldgsts())
    write("handmade-transpose", "raw-4242.tsv", transpose(False))
    write("handmade-transpose-after", "raw-4242.tsv", transpose(True))

    # without kernel records (COALPROBE_TRACE_MODE=instructions): pc records as they are; a parent
    # that finished and a child cut off mid-line, with malformed lines
    elt = ("_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_15gpu_kernel_implINS0_11FillFunctor"
           "IfEEEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_")
    parent = HEAD + [
        T("process", 5000, 4999, "python3 train.py --steps 2"), DEV, MET,
        T("launch", 0, elt, 4), T("launch", 0, "triton_poi_fused_add_0", 2),
        pc("0badf00d", 3, elt, 0x1f0, st=8192, sec=32768, ideal=32768),
        T("nosource", "0badf00d", "triton_poi_fused_add_0"),
        pc("0badf00d", 7, "triton_poi_fused_add_0", 0x80, ld=4096, sec=131072, ideal=16384),
        pc("0badf00d", 7, "triton_poi_fused_add_0", 0xa0, st=2048, sec=8192, ideal=8192),
        T("end", 1, 6)]
    write("handmade-children", "raw-5000.tsv", parent)
    red = "_Z10reduce_rowPKfPfii"
    child = HEAD + [
        T("process", 5001, 5000, "python3 -c 'import worker'"), DEV,
        pc("0badf00d", 7, "before_metrics", 0x10, ld=1),  # malformed: no metrics record yet
        MET,
        T("launch", 0, red, 1),
        T("source", "cafe0042", red, "0x60", "/home/user/proj/reduce.cu", 31),
        pc("cafe0042", 0, red, 0x60, ld=1024, sec=32768, ideal=4096),
        T("pc", 0, "zzzz", 0, red, "0x70", 1, 0, 1, 1, 0, 0, 0, 0),  # malformed: CRC
        T("launch", 0, red),  # malformed: no count
        "",  # malformed: an empty line
        T("pc", 0, "cafe0042", 0, red, "0x80", 1024, 0, 4096)]  # cut off mid-line
    write("handmade-children", "raw-5001.tsv", child, end_newline=False)

    refused = HEAD + [
        T("process", 6000, 5999, "./app"),
        T("refused", "cuptiSassMetricsSetConfig(&set) at src/trace/cp_inject.c:371", 35,
          "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
        T("launch", 0, NAIVE, 2), T("end", 0, 2)]
    write("handmade-refused", "raw-6000.tsv", refused)

    # a saved cubin: opcodes come from the tests' fake nvdisasm (tests/trace/fake-nvdisasm)
    opc = HEAD + [
        T("process", 7000, 6999, "./transpose --n 1024"), DEV, MET,
        T("cubin", "1a2b3c4d", "cubin-1a2b3c4d.cubin"),
        T("launch", 0, NAIVE, 1),
        pc("1a2b3c4d", 0, NAIVE, 0x90, ld=32768, sec=131072, ideal=131072),
        pc("1a2b3c4d", 0, NAIVE, 0xc0, st=32768, sec=1048576, ideal=131072),
        T("end", 1, 1)]
    write("handmade-opcodes", "raw-7000.tsv", opc)
    with open("handmade-opcodes/cubin-1a2b3c4d.cubin", "w") as f:
        f.write("HAND-MADE placeholder, not a cubin: the tests' fake nvdisasm prints a hand-made "
                "listing instead\n")
    os.makedirs("no-raw-files", exist_ok=True)
    with open("no-raw-files/README.md", "w") as f:
        f.write("A directory without raw files: what `coalprobe trace` leaves when no process "
                "of the program initialised CUDA.\n")


if __name__ == "__main__":
    main()
