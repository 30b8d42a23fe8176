#!/usr/bin/env python3
"""trace_ncu.py: coalprobe trace against Nsight Compute's per-instruction source counters on the
same program (tests/trace/cp_trace_sample.cu). ncu profiles the first launch of each kernel
(`--section SourceCounters --page source --csv -c 3`); coalprobe trace the whole run. For every
memory instruction (matched by kernel and PC offset) the counts of one launch must be equal:
warp-level requests (ncu "Instructions Executed" of the instruction), global sectors and ideal
sectors ("L2 Theoretical Sectors Global" and "... Ideal"), and for shared memory the N-way bank
conflict ("L1 Conflicts Shared N-Way", against coalprobe's wavefronts per request).

usage: trace_ncu.py PATH/TO/coalprobe PATH/TO/cp_trace_sample [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no ncu).
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

LAUNCHES = 2


def num(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def ncu_rows(sample, outdir, select=("-c", "3"), name="ncu_source.csv"):
    """ncu's source counters of the kernels `select` picks (default: the first 3 launches)."""
    cmd = ["ncu", "--section", "SourceCounters", "--page", "source", "--csv", "--print-source", "sass",
           *select, sample, str(LAUNCHES)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if outdir:
        with open(os.path.join(outdir, name), "w") as f:
            f.write(p.stdout)
    if p.returncode != 0:
        raise RuntimeError("ncu: exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    # blocks: a "Kernel Name" line, a header line, then one row per SASS instruction
    kernels, name, header, base = {}, None, None, None
    for row in csv.reader(io.StringIO(p.stdout)):
        if not row:
            continue
        if row[0] == "Kernel Name":
            name, header, base = row[1].split("(")[0], None, None
            kernels[name] = {}
            continue
        if row[0] == "Address" and name:
            header = row
            continue
        if header is None or name is None or not row[0].startswith("0x"):
            continue
        rec = dict(zip(header, row))
        addr = int(row[0], 16)
        base = addr if base is None else base
        kernels[name][addr - base] = rec
    return kernels


def checker():
    """A check(cond, what) that prints `ok` or `FAILED` and what, and the list of the failed
    checks' texts it fills (the gpu tests' one way of reporting)."""
    failures = []

    def check(cond, what):
        print(("ok      " if cond else "FAILED  ") + what)
        if not cond:
            failures.append(what)
    return check, failures


def csv_records(text):
    """The rows of ncu's --csv output as dicts by its header's names (the lines before the
    header, ncu's own notes, and rows of another width left out)."""
    header = None
    for row in csv.reader(io.StringIO(text)):
        if row and row[0] == "ID":
            header = row
        elif header is not None and len(row) == len(header):
            yield dict(zip(header, row))


def has_gpu():
    """1 when nvidia-smi is there and lists a GPU."""
    return shutil.which("nvidia-smi") is not None and \
        subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


def marked_lines(program):
    """{NAME: line number} of the lines of program marked "# LINE: NAME" (the PyTorch programs
    of trace_where.py, trace_truth.py and python_region.py)."""
    lines = {}
    with open(program) as f:
        for n, text in enumerate(f, 1):
            if "# LINE: " in text:
                lines[text.split("# LINE: ")[1].strip()] = n
    return lines


def skip_without_torch():
    """Why a PyTorch test is skipped here (no GPU, no PyTorch; printed), or None."""
    if not has_gpu():
        print("no GPU: skipped")
        return "no GPU"
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode != 0:
        print("no PyTorch: skipped")
        return "no PyTorch"
    return None


def arguments(doc):
    """(coalprobe, sample, outdir or None) from the command line, or an exit status: 2 (usage) or
    77 (no GPU: skipped)."""
    if len(sys.argv) < 3:
        print(doc)
        return 2
    if not has_gpu():
        print("no GPU: skipped")
        return 77
    return sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)


def main():
    args = arguments(__doc__)
    if isinstance(args, int):
        return args
    coalprobe, sample, outdir = args
    if shutil.which("ncu") is None:
        print("no ncu: skipped")
        return 77
    ncu = ncu_rows(sample, outdir)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(outdir or tmp, "trace_sample.json")
        p = subprocess.run([coalprobe, "trace", "--format", "json", "-o", out, "--", sample, str(LAUNCHES)],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("coalprobe trace: exit %d: %s" % (p.returncode, p.stderr))
            return 1
        with open(out) as f:
            trace = json.load(f)
    kernels = {k["index"]: k for k in trace["kernels"]}
    compared, failures = 0, []
    for ins in trace["instructions"]:
        k = kernels[ins["kernel_index"]]
        short = k["name"].split("(")[0]
        rec = ncu.get(short, {}).get(ins["pc"])
        if rec is None:
            failures.append("%s pc 0x%x: not in ncu's listing" % (short, ins["pc"]))
            continue
        launches = k["launches"]
        pairs = []
        if ins["space"] == "global" and ins["requests"]:
            pairs += [("requests", ins["requests"] / launches, num(rec.get("Instructions Executed"))),
                      ("sectors", ins["sectors"] / launches, num(rec.get("L2 Theoretical Sectors Global"))),
                      ("ideal sectors", ins["ideal_sectors"] / launches,
                       num(rec.get("L2 Theoretical Sectors Global Ideal")))]
        if ins["space"] == "shared" and ins["shared_requests"]:
            pairs += [("requests", ins["shared_requests"] / launches, num(rec.get("Instructions Executed"))),
                      ("N-way conflict", ins["wavefronts_per_request"], num(rec.get("L1 Conflicts Shared N-Way")))]
        for what, ours, theirs in pairs:
            compared += 1
            ok = theirs is not None and ours is not None and abs(ours - theirs) < 1e-6
            print("%-28s pc 0x%04x %-15s coalprobe %-12s ncu %-12s %s" % (
                short[:28], ins["pc"], what, ours, theirs, "ok" if ok else "DIFFERENT"))
            if not ok:
                failures.append("%s pc 0x%x %s: coalprobe %s, ncu %s" % (short, ins["pc"], what, ours, theirs))
    if compared == 0:
        failures.append("nothing compared")
    for f in failures:
        print("FAILED: " + f)
    print("%d passed, %d failed" % (compared - len(failures) if compared >= len(failures) else 0, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
