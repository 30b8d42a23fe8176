# trace_modern.py: a PyTorch and Triton program of the kinds coalprobe trace must read right on a
# modern stack: a torch.compile'd function (Inductor's Triton kernels), a CUDA graph replayed,
# scaled_dot_product_attention on bf16 (a flash attention kernel), a float32 GEMM without TF32
# (cuBLAS), a float16 GEMM (cuBLAS's Hopper kernels read their tiles through TMA), and a Triton matmul in pointer form (cp.async, LDGSTS) and in tensor-descriptor form
# (TMA, UTMALDG). Every output is checked against a reference; each part prints one line
# `trace_modern: PART ok: ...` (or `trace_modern: PART skipped: WHY`) and a wrong result exits 1.
# The references run on the CPU where a GPU reference would launch kernels of the same kind as
# the part checked (a GEMM), so that the trace's kernels of each part are that part's own.
# usage: python3 bench/trace_modern.py [--parts compile,graph,sdpa,gemm,hgemm,triton] [--iters N]
#                                      [--replays N]
import argparse
import math
import os
import sys

# Inductor compiles in a pool of worker processes unless told otherwise; one process keeps the
# trace to the program itself (set TORCHINDUCTOR_COMPILE_THREADS yourself to try the pool).
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")

import torch  # noqa: E402

PARTS = ("compile", "graph", "sdpa", "gemm", "hgemm", "triton")
GRAPH_WARMUP = 3  # iterations on a side stream before capture, as the PyTorch docs ask

try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None

if triton is not None:
    @triton.jit
    def matmul_ptr_kernel(a_ptr, b_ptr, c_ptr, K, sam, sak, sbk, sbn, scm, scn,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :] * sak
        b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc=acc)
            a_ptrs += BK * sak
            b_ptrs += BK * sbk
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16))

    @triton.jit
    def matmul_desc_kernel(a_desc, b_desc, c_desc, K,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        off_m = tl.program_id(0) * BM
        off_n = tl.program_id(1) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([off_m, k])
            b = b_desc.load([k, off_n])
            acc = tl.dot(a, b, acc=acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))


def say(part, status, what):
    print(f"trace_modern: {part} {status}: {what}", flush=True)


def fail(part, what):
    say(part, "FAILED", what)
    sys.exit(1)


def part_compile(iters):
    """A fused elementwise + row reduction, compiled by Inductor (default mode)."""

    def fn(x):
        return (torch.relu(x) * 2.0 + x * x).sum(dim=1)

    cfn = torch.compile(fn)
    x = torch.randn(4096, 4096, device="cuda")
    for _ in range(iters):
        y = cfn(x)
    torch.cuda.synchronize()
    ref = fn(x)  # eager
    if not torch.allclose(y, ref, rtol=1e-4, atol=1e-2):
        fail("compile", f"max error {(y - ref).abs().max().item()} against eager")
    say("compile", "ok", f"{iters} calls of a compiled elementwise+sum on 4096x4096 floats")


def part_graph(replays):
    """sin and cos of a vector, captured in a CUDA graph and replayed. Neither op runs anywhere
    else in this program (the reference is the CPU's), so their kernels' launches are the
    warm-up's and the replays'."""
    n = 1 << 20
    static_x = torch.empty(n, device="cuda")
    static_x.copy_(torch.rand(n, device="cuda"))
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(GRAPH_WARMUP):
            static_y = torch.sin(static_x) + torch.cos(static_x)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_y = torch.sin(static_x) + torch.cos(static_x)
    for r in range(replays):
        static_x.copy_(torch.rand(n, device="cuda"))
        g.replay()
        torch.cuda.synchronize()
        x = static_x.cpu().double()
        ref = torch.sin(x) + torch.cos(x)
        err = (static_y.cpu().double() - ref).abs().max().item()
        if err > 1e-5:
            fail("graph", f"replay {r}: max error {err} against the CPU")
    say("graph", "ok", f"a graph of sin and cos on {n} floats, {GRAPH_WARMUP} warm-up "
        f"iterations on a side stream, {replays} replays")


def part_sdpa(iters):
    """Causal attention on bf16, flash attention where PyTorch has it."""
    b, h, s, d = 4, 16, 1024, 64
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    backend = "default"
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        ctx = sdpa_kernel([SDPBackend.FLASH_ATTENTION])
        backend = "flash"
    except ImportError:
        import contextlib

        ctx = contextlib.nullcontext()
    with ctx:
        for _ in range(iters):
            out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.cuda.synchronize()
    # reference: batch 0, every head, in float32 on the CPU
    q0, k0, v0 = (t[0].float().cpu() for t in (q, k, v))
    scores = q0 @ k0.transpose(-1, -2) / math.sqrt(d)
    mask = torch.ones(s, s, dtype=torch.bool).tril()
    scores = scores.masked_fill(~mask, float("-inf"))
    ref = torch.softmax(scores, dim=-1) @ v0
    err = (out[0].float().cpu() - ref).abs().max().item()
    if err > 3e-2:
        fail("sdpa", f"max error {err} against the CPU")
    say("sdpa", "ok", f"{iters} causal scaled_dot_product_attention on bf16 {b}x{h}x{s}x{d} "
        f"(backend {backend})")


def part_gemm(iters):
    """A float32 GEMM with TF32 off: its error must be float32's, well under TF32's."""
    n = 2048
    before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        a = torch.randn(n, n, device="cuda")
        b = torch.randn(n, n, device="cuda")
        for _ in range(iters):
            c = a @ b
        torch.cuda.synchronize()
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before
    ref = a.cpu().double() @ b.cpu().double()
    err = (c.cpu().double() - ref).abs().max().item()
    bound = 1e-4 * ref.abs().max().item()  # float32 stays near 1e-6 of it; TF32 passes 1e-4
    if err > bound:
        fail("gemm", f"max error {err} against the CPU's float64, over {bound} (TF32 used?)")
    say("gemm", "ok", f"{iters} float32 GEMMs {n}x{n}x{n}, TF32 off (max error {err:.3g})")


def part_hgemm(iters):
    """cuBLAS's float16 GEMM (on Hopper its kernels copy tiles by TMA through tensor maps that
    cuBLAS encodes on the host), checked against the CPU."""
    n = 2048
    a = (torch.randn(n, n, device="cuda") * 0.1).half()
    b = (torch.randn(n, n, device="cuda") * 0.1).half()
    for _ in range(iters):
        c = a @ b
    torch.cuda.synchronize()
    ref = a.cpu().double() @ b.cpu().double()
    err = (c.cpu().double() - ref).abs().max().item()
    bound = 1e-2 * ref.abs().max().item()  # float16 output: about 1e-3 of the largest value
    if err > bound:
        fail("hgemm", f"max error {err} against the CPU's float64, over {bound}")
    say("hgemm", "ok", f"{iters} float16 GEMMs {n}x{n}x{n} (max error {err:.3g})")


def part_triton(iters):
    if triton is None:
        say("triton_ptr", "skipped", "Triton is not installed")
        say("triton_desc", "skipped", "Triton is not installed")
        return
    m = n = k = 1024
    bm, bn, bk = 128, 128, 64
    a = torch.randn(m, k, device="cuda", dtype=torch.float16) * 0.1
    b = torch.randn(k, n, device="cuda", dtype=torch.float16) * 0.1
    ref = torch.matmul(a.cpu().float(), b.cpu().float())  # on the CPU: no GPU GEMM kernel
    grid = (m // bm, n // bn)

    def verify(part, c):
        err = (c.cpu().float() - ref).abs().max().item()
        if err > 1e-2:
            fail(part, f"max error {err} against torch.matmul")
        return err

    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    for _ in range(iters):
        matmul_ptr_kernel[grid](a, b, c, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk,
                                num_stages=3, num_warps=4)
    torch.cuda.synchronize()
    err = verify("triton_ptr", c)
    say("triton_ptr", "ok", f"{iters} Triton matmuls, pointer loads, num_stages=3, fp16 "
        f"{m}x{n}x{k} (max error {err:.3g}; Triton {triton.__version__})")

    try:
        from triton.tools.tensor_descriptor import TensorDescriptor
    except ImportError as e:
        say("triton_desc", "skipped", f"Triton {triton.__version__} has no host tensor "
            f"descriptors ({e})")
        return
    if torch.cuda.get_device_capability() < (9, 0):
        say("triton_desc", "skipped", "TMA needs compute capability 9.0 or later")
        return
    c = torch.zeros(m, n, device="cuda", dtype=torch.float16)
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bk, bn])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn])
    for _ in range(iters):
        matmul_desc_kernel[grid](a_desc, b_desc, c_desc, k, BM=bm, BN=bn, BK=bk,
                                 num_stages=3, num_warps=4)
    torch.cuda.synchronize()
    err = verify("triton_desc", c)
    say("triton_desc", "ok", f"{iters} Triton matmuls, tensor descriptors (TMA), num_stages=3, "
        f"fp16 {m}x{n}x{k} (max error {err:.3g})")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--parts", default=",".join(PARTS),
                    help="comma-separated subset of " + ",".join(PARTS))
    ap.add_argument("--iters", type=int, default=3, help="calls of each part's kernel (default 3)")
    ap.add_argument("--replays", type=int, default=3, help="replays of the CUDA graph (default 3)")
    args = ap.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in PARTS]
    if unknown or args.iters < 1 or args.replays < 1:
        ap.error(f"unknown parts {unknown}" if unknown else "--iters and --replays must be >= 1")
    if not torch.cuda.is_available():
        print("trace_modern: no CUDA device", file=sys.stderr)
        return 77
    torch.manual_seed(0)
    for p in PARTS:  # in a fixed order, whatever the order given
        if p not in parts:
            continue
        if p == "graph":
            part_graph(args.replays)
        else:
            globals()["part_" + p](args.iters)
    return 0


if __name__ == "__main__":
    sys.exit(main())
