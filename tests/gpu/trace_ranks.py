#!/usr/bin/env python3
"""trace_ranks.py: coalprobe trace of a two-rank PyTorch job on two GPUs (bench/trace_ranks.py under
torchrun): both ranks' processes with their rank labels and their own GPU, NCCL's kernels named and
counted like any other, per-rank totals that add up to the program's, and the same report from
the raw directory merged again with --from-raw.

usage: trace_ranks.py PATH/TO/coalprobe [OUTDIR]
COALPROBE_TEST_RANKS_TIMEOUT: the seconds the traced job may take (default 240).
Exit status: 0 passed, 1 failed, 77 skipped (fewer than two GPUs, no PyTorch or no torchrun).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  has_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.realpath(os.path.join(HERE, "..", "..", "bench", "trace_ranks.py"))
ITERS = 5


def gpus():
    if not trace_ncu.has_gpu():
        return 0
    p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU "))


def by_rank(report):
    """rank -> (launches, sectors, excess_bytes) of the report's per-rank totals."""
    return {r["rank"]: (r["launches"], r["sectors"], r["excess_bytes"]) for r in report.get("ranks") or []}


def check_report(report, check, what):
    procs = {p["pid"]: p for p in report["processes"]}
    ranked = {p["rank"]: p for p in procs.values() if p.get("rank") is not None}
    check(sorted(ranked) == [0, 1], "%s: processes of ranks 0 and 1 (got %s)" % (what, sorted(ranked)))
    for rank, p in ranked.items():
        ordinals = sorted({k["device"] for k in report["kernels"] if k["pid"] == p["pid"]})
        check(ordinals == [rank], "%s: rank %d's kernels ran on GPU %d (got %s)" % (what, rank, rank, ordinals))
        nccl = [k for k in report["kernels"] if k["pid"] == p["pid"] and "nccl" in k["name"].lower()]
        check(len(nccl) >= 1, "%s: rank %d has NCCL kernels (%s)" % (what, rank, [k["name"][:60] for k in nccl][:3]))
        counted = [k for k in nccl if (k.get("sectors") or 0) > 0]
        check(len(counted) >= 1, "%s: rank %d's NCCL kernels are counted (sectors > 0)" % (what, rank))
        gathers = [k for k in report["kernels"] if k["pid"] == p["pid"] and
                   ("index" in k["name"] or "gather" in k["name"])]
        check(sum(k["launches"] for k in gathers) >= ITERS,
              "%s: rank %d's index_select launches (%d)" % (what, rank, sum(k["launches"] for k in gathers)))
    ranks = by_rank(report)
    check(sorted(ranks) == [0, 1], "%s: per-rank totals of ranks 0 and 1" % what)
    total = sum(v[1] for v in ranks.values())
    check(abs(total - report["totals"]["sectors"]) <= 1e-6 * max(1.0, total),
          "%s: the ranks' sectors add up to the program's (%s vs %s)" % (what, total, report["totals"]["sectors"]))
    return ranks


def workers():
    """The pids of the job's workers: torchrun starts each in a session of its own, outside the
    group."""
    found = []
    for pid in [int(d) for d in os.listdir("/proc") if d.isdigit()]:
        try:
            args = open("/proc/%d/cmdline" % pid, "rb").read()
        except OSError:
            continue
        if PROGRAM.encode() in args and b"torchrun" not in args:
            found.append(pid)
    return found


def where_stuck(pgid):
    """Prints what the processes of a job that does not end are doing: each one's state and kernel
    wait channel, the GPUs' use, and each worker's Python stacks (bench/trace_ranks.py registers
    faulthandler on SIGUSR1; its dump lands in the job's stderr)."""
    pids = workers()
    ps = subprocess.run(["ps", "-o", "pid,ppid,stat,etime,wchan:30,args", "-g", str(pgid)]
                        + sum([["-p", str(p)] for p in pids], []), capture_output=True, text=True)
    print(ps.stdout)
    smi = subprocess.run(["nvidia-smi", "--query-gpu=index,utilization.gpu,memory.used",
                          "--format=csv"], capture_output=True, text=True)
    print(smi.stdout)
    for pid in pids:
        os.kill(pid, signal.SIGUSR1)


def kill_workers():
    """Kills what is left of the job's workers."""
    for pid in workers():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run_group(cmd, env, seconds):
    """Runs cmd in a process group of its own, output in temporary files; None (after killing the
    whole group and printing the tail of its stderr) when it has not ended in `seconds`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, start_new_session=True)
        try:
            rc = proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            where_stuck(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
            kill_workers()
            proc.wait()
            err.seek(0)
            print("%s did not end in %d s; its stderr ends:\n%s" % (" ".join(cmd[:4]), seconds,
                  err.read()[-3000:].decode(errors="replace")))
            return None
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, rc, out.read().decode(errors="replace"),
                                           err.read().decode(errors="replace"))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    coalprobe = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else None
    n = gpus()
    if n < 2:
        print("fewer than two GPUs (%d): skipped" % n)
        return 77
    if subprocess.run([sys.executable, "-c", "import torch.distributed"], capture_output=True).returncode != 0 \
            or not shutil.which("torchrun"):
        print("no PyTorch or no torchrun: skipped")
        return 77
    check, failures = trace_ncu.checker()

    env = dict(os.environ, CUDA_DEVICE_ORDER="PCI_BUS_ID")
    with tempfile.TemporaryDirectory() as tmp:
        base = outdir or tmp
        out = os.path.join(base, "trace_ranks.json")
        raw = os.path.join(base, "trace_ranks_raw")
        if os.path.isdir(raw):
            shutil.rmtree(raw)
        cmd = [coalprobe, "trace", "--format", "json", "-o", out, "--raw-dir", raw, "--",
               "torchrun", "--standalone", "--nproc-per-node", "2", PROGRAM, str(ITERS)]
        env["NCCL_DEBUG"] = "WARN"
        seconds = int(os.environ.get("COALPROBE_TEST_RANKS_TIMEOUT", "240"))
        p = run_group(cmd, env, seconds)
        if p is None:
            # what there is to see of a job that did not end: the raw files so far
            for f in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
                path = os.path.join(raw, f)
                print("    %s: %d bytes; last lines: %s" % (f, os.path.getsize(path),
                      open(path, errors="replace").read()[-400:].splitlines()[-3:]))
            check(False, "coalprobe trace -- torchrun ends within %d s" % seconds)
            print("%d failed" % len(failures))
            return 1
        check(p.returncode == 0, "coalprobe trace -- torchrun exit 0 (got %d: %s)" % (p.returncode, p.stderr[-1500:]))
        if p.returncode != 0:
            print("%d failed" % len(failures))
            return 1
        live = check_report(json.load(open(out)), check, "traced")
        merged_out = os.path.join(base, "trace_ranks_merged.json")
        p = subprocess.run([coalprobe, "trace", "--from-raw", raw, "--format", "json", "-o", merged_out],
                           capture_output=True, text=True, env=env, timeout=300)
        check(p.returncode == 0, "trace --from-raw exit 0 (got %d: %s)" % (p.returncode, p.stderr[-800:]))
        if p.returncode == 0:
            merged = check_report(json.load(open(merged_out)), check, "from raw")
            check(merged == live, "the merged raw directory gives the same per-rank totals (%s vs %s)" % (merged, live))
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
