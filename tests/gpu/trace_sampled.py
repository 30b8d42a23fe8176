#!/usr/bin/env python3
"""trace_sampled.py: coalprobe trace --instructions sampled on a PyTorch program
(bench/trace_torch.py: a transposed copy, a strided slice reduction and a contiguous elementwise
baseline, ITERS iterations each, every launch of a kernel alike), against the default (every
launch counted per instruction). With --counter-launches 3, each kernel's instruction counts must
cover its sampled launches only: instruction_launches == 3 (its launches when fewer), and per
counted launch its requests and sectors must equal the default's per launch, exactly for these
kernels whose launches are identical. Nothing is scaled up: the sampled run's totals are those of
the sampled launches.

usage: trace_sampled.py PATH/TO/coalprobe [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no PyTorch).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  skip_without_torch

ITERS = 20
SAMPLES = 3
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "..", "bench", "trace_torch.py")


def trace(coalprobe, out, extra):
    p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", out] + extra +
                       ["--", sys.executable, PROGRAM, str(ITERS)], capture_output=True, text=True)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr[-500:])
    with open(out) as f:
        return json.load(f), ""


def key(k):
    """A kernel across the two runs: its name and device (pids differ; the cubin's CRC is left
    out, so that a kernel whose cubin one run names and the other does not still matches)."""
    return (k["name"], k["device"])


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else None
    if trace_ncu.skip_without_torch():
        return 77
    check, failures = trace_ncu.checker()

    with tempfile.TemporaryDirectory() as tmp:
        d = outdir or tmp
        every, why = trace(coalprobe, os.path.join(d, "trace_every.json"), [])
        check(every is not None, "default trace, exit 0 " + why)
        sampled, why = trace(coalprobe, os.path.join(d, "trace_sampled.json"),
                             ["--instructions", "sampled", "--counter-launches", str(SAMPLES)])
        check(sampled is not None, "--instructions sampled trace, exit 0 " + why)
        if every is None or sampled is None:
            return 1
    check(every["collection"]["instructions"] == "every", "the default says instructions: every")
    check(sampled["collection"]["instructions"] == "sampled", "the sampled run says instructions: sampled")
    check(all(k["instruction_launches"] is None for k in every["kernels"]),
          "the default has no instruction_launches")
    for t, what in ((every, "default"), (sampled, "sampled")):
        check(t["complete"] and t["counted"], "the %s trace is complete and counted" % what)
        dropped = sum(x.get("count", 0) or 0 for x in t.get("dropped", []))
        check(dropped == 0, "the %s trace dropped no records (%d)" % (what, dropped))
    base = {key(k): k for k in every["kernels"]}
    compared = 0
    for k in sampled["kernels"]:
        b = base.get(key(k))
        name = k["name"][:70]
        if b is None or not b["counted"] or not b["requests"]:
            print("        %s: not compared (the default's: %s)" % (
                name, "none" if b is None else "counted %s, requests %s, cubin %s here %s" % (
                    b["counted"], b["requests"], b.get("cubin_crc"), k.get("cubin_crc"))))
            continue
        want = min(SAMPLES, k["launches"])
        check(k["instruction_launches"] == want and k["counter_launches"] == want,
              "%s: instruction_launches %s == %d (of %d launches)" % (name, k["instruction_launches"], want, k["launches"]))
        check(k["launches"] == b["launches"], "%s: the same launches counted (%d, %d)" % (name, k["launches"], b["launches"]))
        if k["launches"] <= SAMPLES or not k["instruction_launches"]:
            continue
        for m in ("requests", "sectors"):
            per_sampled = k[m] / k["instruction_launches"]
            per_every = b[m] / b["launches"]
            check(per_sampled == per_every, "%s: %s per counted launch %.6g == the default's per launch %.6g"
                  % (name, m, per_sampled, per_every))
        compared += 1
    check(compared >= 3, "compared at least the program's 3 kernels launched more than %d times (%d)" % (SAMPLES, compared))
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
