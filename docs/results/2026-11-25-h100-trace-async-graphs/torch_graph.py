# one-off: a PyTorch CUDA graph (3 ops captured, replayed 3 times) and eager ops, traced
import torch
x = torch.randn(1 << 20, device="cuda")
y = torch.empty_like(x)
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(2):  # warm-up, as PyTorch advises before capture
        y.copy_(x * 2 + 1)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    z = x * 2
    w = z + 1
    y.copy_(w.t() if w.dim() > 1 else w[::1])
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
print("eager", float((x * 3).sum()))
