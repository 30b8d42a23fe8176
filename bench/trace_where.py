# trace_where.py: the PyTorch program of coalprobe trace's call-site test (tests/gpu/trace_where.py):
# known kernels on known lines (each marked "# LINE: NAME") inside known NVTX ranges, ITERS times
# each (default 20): a strided index_select, a transposed copy, a reduction, and a function under
# torch.compile. usage: python3 bench/trace_where.py [ITERS]
import sys

import torch

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 20
x = torch.randn(2048, 2048, device="cuda")
idx = torch.arange(0, 2048, 8, device="cuda")


def scaled(t):
    return torch.relu(t * 3.0) + 1.0


compiled = torch.compile(scaled)
compiled(x)  # compiled (and its kernels loaded) before the ranges below
torch.cuda.synchronize()

for _ in range(iters):
    torch.cuda.nvtx.range_push("gather")
    g = torch.index_select(x, 1, idx)  # LINE: strided
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("outer")
    torch.cuda.nvtx.range_push("transpose")
    t = x.t().contiguous()  # LINE: transposed
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("reduce")
    s = x.sum(dim=0)  # LINE: reduction
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("compiled")
    c = compiled(x)  # LINE: compiled
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
assert torch.equal(t, x.t()) and torch.equal(g, x[:, ::8])
print(f"trace_where: {iters} iterations of 4 call sites on {x.shape[0]}x{x.shape[1]} floats")
