#!/usr/bin/env python3
"""trace_self.py: coalprobe traced by coalprobe. For configurations of every family, runs
`coalprobe trace --format json -- coalprobe ARGS --no-counters --reps 1` and
`coalprobe ARGS --model --format json`, finds the pattern's kernel in the trace and checks
that its counts per launch equal the model's prediction for that configuration:
- global requests and sectors per launch (the kernel records: every launch counted) equal the
  model's load + store requests and sectors;
- every global access of the model has an instruction of the same kind whose sectors per request
  equal the access's; every shared access one whose wavefronts per request equal the bank
  model's (the instruction counts: CUPTI's SASS metrics).

usage: trace_self.py PATH/TO/coalprobe [OUT.json]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CONFIGS = [
    ["--stride", "1"],
    ["--stride", "2", "--offset", "1"],
    ["--stride", "32", "--width", "16"],
    ["--stride", "4", "--op", "store", "--width", "8"],
    ["--stride", "3", "--width", "32"],
    ["layout", "--layout", "aos", "--fields", "4"],
    ["layout", "--layout", "soa", "--fields", "4"],
    ["gather", "--run", "4", "--size", "4M"],
    ["gather", "--run", "32", "--size", "4M"],
    ["gemm", "--variant", "naive", "--m", "256", "--n", "256", "--k", "256"],
    ["gemm", "--variant", "coalesced", "--m", "256", "--n", "256", "--k", "256"],
    ["gemm", "--variant", "smem", "--m", "256", "--n", "256", "--k", "256"],
    ["smem", "--stride", "1"],
    ["smem", "--stride", "2"],
    ["smem", "--stride", "32", "--width", "4"],
    ["smem", "--stride", "2", "--width", "8", "--op", "store"],
    ["transpose", "--variant", "naive", "--m", "1024", "--n", "1024"],
    ["transpose", "--variant", "tiled", "--m", "1024", "--n", "1024"],
    ["transpose", "--variant", "padded", "--m", "1024", "--n", "1024"],
    ["expr", "--index", "(i % 32) * 1024 + i / 32", "--size", "4M"],
    ["expr", "--index", "(i * 2) % n", "--size", "4M"],
]

# kernels coalprobe launches around every pattern (fills, L2 flush, GEMM's reference check)
AUXILIARY = ("cp_util_cu", "cp_fill", "cp_flush", "cp_diff_norm", "index_kernel")


def run_json(cmd, out=None):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    if out:
        with open(out) as f:
            return json.load(f)
    return json.loads(p.stdout)


def pattern_kernels(trace):
    return [k for k in trace["kernels"]
            if "cp_" in k["function"] and not any(a in k["function"] for a in AUXILIARY)]


def check_config(coalprobe, args):
    model = run_json([coalprobe] + args + ["--model", "--format", "json"])
    pred = model["rows"][0]["predicted"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace.json")
        trace = run_json([coalprobe, "trace", "--format", "json", "-o", out, "--", coalprobe] + args +
                         ["--no-counters", "--reps", "1"], out)
    problems = []
    if not trace.get("counted"):
        return ["no counts: %s" % trace.get("no_counts_reason")], None
    kernels = pattern_kernels(trace)
    if len(kernels) != 1:
        return ["expected one pattern kernel, found %s" % [k["function"] for k in kernels]], None
    k = kernels[0]
    kc = k["kernel_counters"]
    launches = kc["launches"]
    # requests are warp-level instructions; the lean per-kernel set (the default, one pass a
    # launch) counts the instructions, the full set also l1tex's requests
    requests = kc["requests"] if kc["requests"] is not None else kc["instructions"]
    got = {"requests": requests / launches, "sectors": kc["sectors"] / launches}
    want = {"requests": pred["load"]["requests"] + pred["store"]["requests"],
            "sectors": pred["load"]["sectors"] + pred["store"]["sectors"]}
    for key in want:
        if got[key] != want[key]:
            problems.append("%s per launch: traced %s, model %s" % (key, got[key], want[key]))
    instrs = [i for i in trace["instructions"] if i["kernel_index"] == k["index"]]
    counted = [i for i in instrs if (i["requests"] or 0) + (i["shared_requests"] or 0) > 0]
    # without replay (the lean default) every launch of every kernel is counted per
    # instruction, except in a module unloaded before the context ends: CUPTI drops its
    # per-instruction records with it (bench/rtc_probe.cu unload), and coalprobe unloads its
    # expr kernels when it closes, so those are counted as a whole
    want_from = "kernel_counters" if args[0] == "expr" else "instructions"
    if k["counts_from"] != want_from or (want_from == "instructions" and not counted):
        problems.append("counted from %s (%s expected), %d instructions with counts" % (
            k["counts_from"], want_from, len(counted)))
    for a in pred["accesses"]:
        if a["requests"] == 0:
            continue
        if a["space"] == "global":
            spr = a["sectors_per_request"]
            ok = any(i["space"] == "global" and i["op"] == a["op"] and i["sectors_per_request"] is not None
                     and abs(i["sectors_per_request"] - spr) < 1e-9 for i in counted)
            what = "sectors per request %s" % spr
        else:
            wpr = a.get("wavefronts_per_request")
            if wpr is None:
                continue
            ok = any(i["space"] == "shared" and i["op"] == a["op"] and i["wavefronts_per_request"] is not None
                     and abs(i["wavefronts_per_request"] - wpr) < 1e-9 for i in counted)
            what = "wavefronts per request %s" % wpr
        if not ok and counted:
            problems.append("access %s (%s %s, %s): no instruction with it; instructions: %s" % (
                a["name"], a["space"], a["op"], what,
                [(i["op"], i["space"], i["sectors_per_request"], i["wavefronts_per_request"]) for i in counted]))
    summary = {"args": args, "kernel": k["name"][:80], "launches": launches, "per_launch": got,
               "model": want, "instructions_counted": len(counted), "counts_from": k["counts_from"]}
    return problems, summary


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    if shutil.which("nvidia-smi") is None or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        print("no GPU: skipped")
        return 77
    failed, results = 0, []
    for args in CONFIGS:
        try:
            problems, summary = check_config(coalprobe, args)
        except RuntimeError as e:
            problems, summary = [str(e)], None
        results.append({"summary": summary, "problems": problems})
        print("%-60s %s" % (" ".join(args)[:60], "ok" if not problems else "FAILED"))
        if summary:
            print("    %s: %s launches, per launch %s, model %s, %d instructions counted (%s)" % (
                summary["kernel"][:50], summary["launches"], summary["per_launch"], summary["model"],
                summary["instructions_counted"], summary["counts_from"]))
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            json.dump(results, f, indent=1)
    print("%d passed, %d failed" % (len(CONFIGS) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
