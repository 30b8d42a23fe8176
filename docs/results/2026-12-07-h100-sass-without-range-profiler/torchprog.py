# a few PyTorch kernels, each launched several times, synchronised at the end
import torch
x = torch.randn(1 << 20, device="cuda")
y = torch.randn(1 << 20, device="cuda")
w = torch.randn(256, 256, device="cuda")
for i in range(10):
    z = x * y + 1.0
    z = torch.relu(z)
    m = z[: 256 * 256].view(256, 256) @ w
torch.cuda.synchronize()
print(float(m.sum()))
