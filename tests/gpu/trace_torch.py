#!/usr/bin/env python3
"""trace_torch.py: coalprobe trace on a PyTorch program (bench/trace_torch.py: a transposed copy,
a strided slice reduction and a contiguous elementwise baseline, 100 iterations each). The
uncoalesced kernels must rank first, the contiguous one must waste next to nothing, no record may
be dropped and every launch must be counted.

usage: trace_torch.py PATH/TO/coalprobe [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no PyTorch).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import trace_ncu  # checker (this script's folder is first on sys.path)

ITERS = 100
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "..", "bench", "trace_torch.py")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else None
    if shutil.which("nvidia-smi") is None or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        print("no GPU: skipped")
        return 77
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode != 0:
        print("no PyTorch: skipped")
        return 77
    check, failures = trace_ncu.checker()

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(outdir or tmp, "trace_torch.json")
        p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", out, "--",
                            sys.executable, PROGRAM, str(ITERS)], capture_output=True, text=True)
        check(p.returncode == 0, "coalprobe trace exit 0 (got %d: %s)" % (p.returncode, p.stderr[-500:]))
        if p.returncode != 0:
            return 1
        with open(out) as f:
            t = json.load(f)
    check(t["complete"], "the trace is complete")
    check(t["counted"], "the trace has counts")
    dropped = sum(d.get("count", 0) or 0 for d in t.get("dropped", []))
    check(dropped == 0, "no records dropped (%d)" % dropped)
    kernels = sorted(t["kernels"], key=lambda k: -(k["excess_bytes"] or 0))
    for k in kernels[:6]:
        print("    %-70s launches %4d excess %14s B  sectors/request %s" % (
            k["name"][:70], k["launches"], k["excess_bytes"], k["sectors_per_request"]))
    copy = [k for k in kernels if "copy" in k["name"]]
    reduce_ = [k for k in kernels if "reduce_kernel" in k["name"] and "sum" in k["name"]]
    mul = [k for k in kernels if "Mul" in k["name"]]
    check(len(copy) >= 1 and copy[0]["launches"] >= ITERS, "the transposed copy is counted, every launch")
    check(len(reduce_) >= 1 and reduce_[0]["launches"] >= ITERS, "the strided reduction is counted, every launch")
    check(len(mul) >= 1 and mul[0]["launches"] >= ITERS, "the contiguous baseline is counted, every launch")
    if copy and reduce_ and mul:
        top2 = {kernels[0]["name"], kernels[1]["name"]}
        check(copy[0]["name"] in top2 and reduce_[0]["name"] in top2,
              "the transposed copy and the strided reduction rank first")
        check((mul[0]["excess_pct"] or 0) < 5, "the contiguous kernel wastes under 5%% of its sectors (%s)" % mul[0]["excess_pct"])
        check((copy[0]["sectors_per_request"] or 0) > 8, "the transposed copy moves more than 8 sectors a request (%s)"
              % copy[0]["sectors_per_request"])
        top = t["instructions"][0] if t["instructions"] else None
        check(top is not None and top["kernel"] in (copy[0]["name"], reduce_[0]["name"]),
              "the first-ranked instruction is in an uncoalesced kernel")
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
