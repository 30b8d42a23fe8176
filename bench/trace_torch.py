# trace_torch.py: the PyTorch program of coalprobe trace's tests and benchmark: a transposed copy
# (uncoalesced reads), a strided slice reduction, and a contiguous elementwise baseline, each run
# ITERS times (default 100). usage: python3 bench/trace_torch.py [ITERS]
import sys

import torch

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 100
x = torch.randn(4096, 4096, device="cuda")
for _ in range(iters):
    a = x.t().contiguous()      # transposed copy: reads down columns
    b = x[:, ::8].sum(dim=0)    # strided slice reduction: every 8th column
    c = x * 2.0                 # contiguous baseline
torch.cuda.synchronize()
assert torch.equal(a, x.t()) and torch.allclose(c, 2 * x)
print(f"trace_torch: {iters} iterations of 3 kernels on {x.shape[0]}x{x.shape[1]} floats")
