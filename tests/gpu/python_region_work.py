#!/usr/bin/env python3
"""python_region_work.py: the work tests/gpu/python_region.py traces as a region and as a whole
program: some elementwise ops and a matmul on the GPU, each on its own line (the lines are
checked: those marked LINE, as trace_ncu.marked_lines reads them). Run as a program (`python3
python_region_work.py`) it does the work once, after making its tensors as the region's process
does."""
import torch

N = 1 << 20


def inputs():
    """The work's tensors, made (and CUDA started) before any region."""
    torch.manual_seed(0)
    a = torch.randn(N, device="cuda")
    b = torch.randn(N, device="cuda")
    m = torch.randn(512, 512, device="cuda")
    torch.cuda.synchronize()
    return a, b, m


def work(a, b, m):
    """The region's work; returns nothing, synchronises at its end."""
    c = a * b                           # LINE: mul
    d = c + a                           # LINE: add
    e = torch.relu(d)                   # LINE: relu
    f = m @ m                           # LINE: matmul
    torch.cuda.synchronize()
    return e, f


if __name__ == "__main__":
    work(*inputs())
