import sys, time, torch
layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True)
model = torch.nn.TransformerEncoder(layer, num_layers=4).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
src = torch.randn(16, 128, 512, device="cuda")
def step():
    opt.zero_grad(set_to_none=True)
    model(src).pow(2).mean().backward()
    opt.step()
ts = []
for i in range(int(sys.argv[1])):
    torch.cuda.synchronize(); t = time.perf_counter(); step(); torch.cuda.synchronize()
    ts.append(time.perf_counter() - t)
print("steps_ms=" + ",".join("%.1f" % (x * 1e3) for x in ts))
