# trace_ranks.py: the two-rank PyTorch job of coalprobe trace's multi-GPU test: each rank, on its own
# GPU (LOCAL_RANK), runs a strided index_select and a transposed copy ITERS times (default 10) and an
# NCCL all_reduce of the first 128 gathered columns (the same shape on both ranks), so each rank has
# its own kernels and NCCL's.
# usage: torchrun --nproc-per-node 2 bench/trace_ranks.py [ITERS]
import faulthandler
import os
import signal
import sys

import torch
import torch.distributed as dist

faulthandler.register(signal.SIGUSR1)  # a test that finds the job stuck asks for its stacks
iters = int(sys.argv[1]) if len(sys.argv) > 1 else 10
local = int(os.environ.get("LOCAL_RANK", "0"))
torch.cuda.set_device(local)
dist.init_process_group("nccl")
rank = dist.get_rank()
x = torch.randn(2048, 2048, device="cuda") + rank
idx = torch.arange(0, 2048, 8 * (rank + 1), device="cuda")
for _ in range(iters):
    g = torch.index_select(x, 1, idx)  # LINE: strided
    t = x.t().contiguous()  # LINE: transposed
    r = g[:, :128].contiguous()  # the same shape on every rank (g's width depends on the rank)
    dist.all_reduce(r)  # LINE: allreduce
torch.cuda.synchronize()
assert torch.equal(t, x.t())
print(f"trace_ranks: rank {rank} of {dist.get_world_size()} on cuda:{local}, {iters} iterations")
dist.destroy_process_group()
