#!/usr/bin/env python3
"""launch_heavy.py: two launch-heavy PyTorch workloads for bench/trace_launch_heavy.sh, each timing
its own loop after a warm-up (torch.cuda.synchronize() around time.perf_counter()).

  elementwise: ITERS iterations of 4 elementwise ops on 1M floats (4 launches an iteration)
  transformer: ITERS training steps of a 4-layer torch.nn.TransformerEncoder (d_model 512, AdamW)

Prints one line: `workload=NAME loop_s=SECONDS iters=N launches=N` (launches: those the loop makes
where the ops tell, elementwise 4 an iteration; `launches=null` for the transformer, whose count
the trace report gives).
usage: launch_heavy.py elementwise|transformer [ITERS]   (defaults 5000 and 20)
"""
import sys
import time

import torch


def elementwise(iters):
    x = torch.randn(1 << 20, device="cuda")
    y = torch.randn(1 << 20, device="cuda")

    def step(x):
        a = x * 1.0001  # 4 elementwise kernels
        b = a + y
        c = torch.relu(b)
        return c - 0.5

    for _ in range(50):  # warm-up
        x = step(x)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(iters):
        x = step(x)
    torch.cuda.synchronize()
    return time.perf_counter() - t, 4 * iters


def transformer(iters):
    layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048,
                                             batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=4).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    src = torch.randn(16, 128, 512, device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(src).pow(2).mean()
        loss.backward()
        opt.step()

    for _ in range(3):  # warm-up
        step()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(iters):
        step()
    torch.cuda.synchronize()
    return time.perf_counter() - t, None


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("elementwise", "transformer"):
        print(__doc__)
        return 2
    name = sys.argv[1]
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else (5000 if name == "elementwise" else 20)
    if not torch.cuda.is_available():
        print("launch_heavy: no CUDA device", file=sys.stderr)
        return 77
    loop_s, launches = (elementwise if name == "elementwise" else transformer)(iters)
    print("workload=%s loop_s=%.6f iters=%d launches=%s"
          % (name, loop_s, iters, "null" if launches is None else launches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
