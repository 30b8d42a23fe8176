#!/usr/bin/env python3
"""trace_report.py: coalprobe trace end to end on the GPU, from the report side: the tests' own
-lineinfo program (tests/trace/cp_trace_sample.cu) traced, its JSON report valid against
docs/schema/coalprobe-trace.schema.json, complete and counted, every counted instruction on
the line the sample marks for it with the counts that line must have, the same report again
from the kept raw files (--raw-dir, then --from-raw), the table within 100 columns, and the
gate failing on the strided load.

usage: trace_report.py PATH/TO/coalprobe PATH/TO/cp_trace_sample
Exit status: 0 passed, 1 failed, 77 skipped (no GPU).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LAUNCHES = 2
WARPS = (1 << 20) // 32  # the sample's warps per launch of its one-element-per-thread kernels
BLOCKS = (1 << 20) // 256  # its blocks per launch: the shared kernel runs one warp per block
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "trace", "cp_trace_sample.cu")
VALIDATE = os.path.join(HERE, "..", "schema", "validate.py")
SCHEMA = os.path.join(HERE, "..", "..", "docs", "schema", "coalprobe-trace.schema.json")

# the marked line -> (space, requests per launch, units per request, ideal units per request)
# where units are sectors (global) or wavefronts (shared)
EXPECT = {
    "coalesced_load": ("global", WARPS, 4, 4),
    "coalesced_store": ("global", WARPS, 4, 4),
    "strided_load": ("global", WARPS, 32, 4),  # stride 32 floats: each lane its own sector
    "strided_store": ("global", WARPS, 4, 4),
    "conflict_store": ("shared", BLOCKS, 32, 1),  # lane * 32 floats: one bank, 32-way
    "conflict_load": ("shared", BLOCKS, 32, 1),
}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def marked_lines():
    lines = {}
    with open(SOURCE) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"// TRACE: (\w+)", text)
            if m:
                lines[number] = m.group(1)
    return lines


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    coalprobe, sample = sys.argv[1], sys.argv[2]
    if shutil.which("nvidia-smi") is None or run(["nvidia-smi", "-L"]).returncode != 0:
        print("no GPU: skipped")
        return 77
    tmp = tempfile.mkdtemp()
    try:
        raw = os.path.join(tmp, "raw")
        report = os.path.join(tmp, "t.json")
        p = run([coalprobe, "trace", "--raw-dir", raw, "--format", "json", "-o", report, "--",
                 sample, str(LAUNCHES)])
        check(p.returncode == 0, f"coalprobe trace exited {p.returncode}: {p.stderr.strip()}")
        check(f"cp_trace_sample: {LAUNCHES} launches" in p.stdout,
              "the program's own output is not on stdout")
        check("{" not in p.stdout, "the report went to stdout despite -o")
        if not os.path.exists(report):
            print("FAIL: no report written")
            return 1
        doc = json.load(open(report))
        v = run([sys.executable, VALIDATE, "--schema", SCHEMA, report])
        check(v.returncode in (0, 77), f"schema: {v.stdout.strip()} {v.stderr.strip()}")
        check(doc["kind"] == "trace" and doc["complete"], f"incomplete: {doc['incomplete_reason']}")
        check(doc["counted"], f"no counts: {doc['no_counts_reason']}")
        check(len(doc["processes"]) == 1, f"{len(doc['processes'])} processes, expected 1")
        check(doc["program"]["exit_code"] == 0, "program exit code")
        launches = sum(k["launches"] for k in doc["kernels"])
        check(launches == 3 * LAUNCHES, f"{launches} launches counted, expected {3 * LAUNCHES}")
        counted = [k for k in doc["kernels"] if k["counted"]]
        print(f"kernels counted: {[k['name'] for k in counted]}; not counted: "
              f"{[k['name'] for k in doc['kernels'] if not k['counted']]}")
        for note in doc["notes"]:
            print("note:", note["text"])
        for d in doc["dropped"]:
            print("DROPPED:", d)

        marks = marked_lines()
        seen = set()
        for ins in doc["instructions"]:
            if ins["rank"] is None:
                continue
            check(ins["file"] is not None and ins["file"].endswith("cp_trace_sample.cu"),
                  f"instruction at pc {ins['pc']:#x} of {ins['kernel']} has no sample line")
            name = marks.get(ins["line"])
            if name is None:
                continue  # an unmarked line (e.g. the shared kernel's global load and store)
            space, per_launch, units, ideal = EXPECT[name]
            if ins["space"] != space:
                continue  # the other instruction of a line with two (e.g. LDS and STG)
            seen.add(name)
            where = f"{name} (line {ins['line']}, pc {ins['pc']:#x})"
            if space == "global":
                check(ins["requests"] == per_launch * LAUNCHES,
                      f"{where}: {ins['requests']} requests, expected {per_launch * LAUNCHES}")
                check(ins["sectors_per_request"] == units and
                      ins["ideal_sectors_per_request"] == ideal,
                      f"{where}: {ins['sectors_per_request']} sectors/request (ideal "
                      f"{ins['ideal_sectors_per_request']}), expected {units} ({ideal})")
            else:
                check(ins["shared_requests"] == per_launch * LAUNCHES,
                      f"{where}: {ins['shared_requests']} shared requests, expected "
                      f"{per_launch * LAUNCHES}")
                check(ins["wavefronts_per_request"] == units and
                      ins["ideal_wavefronts_per_request"] == ideal,
                      f"{where}: {ins['wavefronts_per_request']} wavefronts/request, expected "
                      f"{units} ({ideal})")
            print(f"ok: {where}: {ins['meaning']}")
        check(seen, "no marked line of the sample was counted")
        if "strided_load" in seen:
            top = [i for i in doc["instructions"] if i["rank"] == 1][0]
            check(marks.get(top["line"]) == "strided_load",
                  f"rank 1 is line {top['line']}, not the strided load")
            check("each lane in its own sector" in (top["meaning"] or ""), top["meaning"])

        # the same report from the kept raw files
        again = run([coalprobe, "trace", "--from-raw", raw, "--format", "json"])
        check(again.returncode == 0, f"--from-raw exited {again.returncode}: {again.stderr}")
        if again.returncode == 0:
            doc2 = json.loads(again.stdout)
            strip = lambda d: [(i["kernel"], i["pc"], i["requests"], i["sectors"],
                                i["wavefronts"], i["rank"]) for i in d["instructions"]]
            check(strip(doc2) == strip(doc), "--from-raw gives other instructions than the run")
        table = run([coalprobe, "trace", "--from-raw", raw])
        check(all(len(line) <= 100 for line in table.stdout.splitlines()),
              "a line of the table is longer than 100 columns")
        print(table.stdout)
        if "strided_load" in seen:
            gate = run([coalprobe, "trace", "--from-raw", raw, "--max-sectors-per-request", "8"])
            check(gate.returncode == 3, f"the gate exited {gate.returncode}, expected 3")
            check("cp_trace_sample.cu" in gate.stderr and "32.00 sectors/request > 8" in gate.stderr,
                  f"the gate's stderr: {gate.stderr}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
