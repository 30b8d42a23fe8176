#!/usr/bin/env python3
"""trace_truth_program.py: the program tests/gpu/trace_truth.py traces, one part a process.

  ops:     launches made inside operators (`@`, `*`, indexing) and a cuBLAS call (torch.mm), each on
           a line marked "# LINE: NAME", after a C call on the line before; the first launch of
           the program (torch.randn) on its own line
  graph:   a CUDA graph of one kernel (`y = x.t().contiguous()`), one eager warm-up, REPLAYS
           replays
  compile: torch.compile(mode="reduce-overhead") called CALLS times (CUDA graph trees)

usage: trace_truth_program.py ops|graph|compile [COUNT]
Exit status: 0 done, 1 failed, 3 the part cannot run here (the reason on stdout).
"""
import sys

import torch


def ops(iters):
    m = torch.randn(512, 2048, device="cuda")  # LINE: randn
    cols = torch.randint(0, 2048, (1024,), device="cuda")
    w = torch.randn(1024, 1024, device="cuda")
    rows = torch.randint(0, 512, (256,), device="cuda")
    for _ in range(iters):
        len("a C call on the line before")
        e = m.index_select(1, cols)  # LINE: index_select
        y = torch.relu(e @ w)  # LINE: matmul
        len("a C call on the line before")
        z = e * 3.0  # LINE: mul
        len("a C call on the line before")
        g = e[rows]  # LINE: index
        len("a C call on the line before")
        t = torch.mm(e, w)  # LINE: cublas
    torch.cuda.synchronize()
    print("ops done", float(y.sum() + z.sum() + g.sum() + t.sum()) != 0)


def graph(replays):
    x = torch.randn(2048, 1024, device="cuda")
    y = x.t().contiguous()  # LINE: warm-up
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x.t().contiguous()
    for _ in range(replays):
        g.replay()  # LINE: replay
    torch.cuda.synchronize()
    if not torch.equal(y, x.t().cpu().contiguous().cuda()):
        print("graph: wrong result")
        return 1
    print("graph done")
    return 0


def compiled(calls):
    try:
        f = torch.compile(lambda x: x * 2.0 + 1.0, mode="reduce-overhead")
        x = torch.randn(1 << 20, device="cuda")
        for _ in range(calls):
            y = f(x)  # LINE: compiled
        torch.cuda.synchronize()
    except Exception as e:  # no C compiler, no Triton: a reason, not a failure
        print("cannot run torch.compile here: %s: %s" % (type(e).__name__, str(e)[:300]))
        return 3
    if not torch.allclose(y, x * 2.0 + 1.0):
        print("compile: wrong result")
        return 1
    print("compile done")
    return 0


def main():
    part = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if part == "ops":
        ops(count)
        return 0
    if part == "graph":
        return graph(count)
    if part == "compile":
        return compiled(count)
    print("unknown part " + part)
    return 2


if __name__ == "__main__":
    sys.exit(main())
