#!/usr/bin/env python3
"""trace_collect.py: what coalprobe trace counts, on the tests' program of known launches
(tests/trace/cp_trace_collect_sample.cu: coll_copy 28 launches in two shapes, coll_strided 20,
coll_other 22, around cudaProfilerStart/Stop and an NVTX range "step").

The reference is --all-launches (every launch with its per-kernel counters, as trace counted
before sampling). Then, on the same program:
- the default (--counter-launches 5): every launch counted per instruction, the per-kernel
  counters from the first 5 launches of each kernel and shape (coll_copy 5 + 2, the others 5),
  said in the JSON (counter_launches, counters_sampled, collection) and the table ("counters from
  7 of 28 launches"); each instruction's counts equal the reference's, and each kernel's counters
  per launch equal the reference's per launch (the same work in every launch);
- --counter-launches 0: no kernel has counters (kernel_counters null, never zeros), the
  instruction counts unchanged;
- --kernel '^coll_strided': only that kernel counted and reported, its counts the reference's;
- --launch-skip 2 --launch-count 3: 3 launches of each kernel counted, each instruction's counts
  3/N of the reference's, launches_seen the whole;
- --nvtx-include step: the launches inside "step" (coll_copy 22, coll_strided 20, coll_other 20);
- --capture-range profiler-api: the launches between start and stop (22, 20, 22);
every report valid against the schema. The wall time of each run is printed (not judged: the
cost is bench/'s and docs/trace.md's).

usage: trace_collect.py PATH/TO/coalprobe PATH/TO/cp_trace_collect_sample [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  arguments: the usage and GPU check

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "schema", "validate.py")
SCHEMA = os.path.join(HERE, "..", "..", "docs", "schema", "coalprobe-trace.schema.json")
LAUNCHES = {"coll_copy": 28, "coll_strided": 20, "coll_other": 22}
SAMPLED = {"coll_copy": 5 + 2, "coll_strided": 5, "coll_other": 5}  # 5 a shape (copy: A and B)
IN_STEP = {"coll_copy": 22, "coll_strided": 20, "coll_other": 20}
IN_CAPTURE = {"coll_copy": 22, "coll_strided": 20, "coll_other": 22}
COUNTS = ("requests", "sectors", "ideal_sectors", "shared_requests", "wavefronts")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def trace(coalprobe, sample, outdir, name, options, fmt="json"):
    """The report of `coalprobe trace OPTIONS -- sample` (its JSON parsed, or the table's text),
    validated against the schema; None when trace failed."""
    path = os.path.join(outdir, f"trace_collect_{name}.{'json' if fmt == 'json' else 'txt'}")
    t = time.monotonic()
    p = subprocess.run([coalprobe, "trace", "--format", fmt, "-o", path, *options, "--", sample],
                       capture_output=True, text=True)
    print(f"{name}: {' '.join(options) or '(default)'}: {time.monotonic() - t:.2f} s")
    check(p.returncode == 0, f"{name}: coalprobe trace exited {p.returncode}: "
          f"{p.stderr.strip()[-2000:]}")
    if p.returncode != 0:
        return None
    if fmt != "json":
        return open(path).read()
    v = subprocess.run([sys.executable, VALIDATE, "--schema", SCHEMA, path],
                       capture_output=True, text=True)
    check(v.returncode in (0, 77), f"{name}: schema: {v.stdout.strip()} {v.stderr.strip()}")
    return json.load(open(path))


def kernels(doc):
    """short name -> the kernel's JSON object."""
    return {k["name"].split("(")[0]: k for k in doc["kernels"]}


def instructions(doc):
    """(short kernel name, pc) -> the instruction's JSON object."""
    return {(i["kernel"].split("(")[0], i["pc"]): i for i in doc["instructions"]}


def check_instructions(name, doc, ref, factor):
    """Each instruction of doc counts factor[kernel] times the reference's (launches counted over
    the reference's)."""
    mine, theirs = instructions(doc), instructions(ref)
    for (k, pc), ins in theirs.items():
        if k not in factor:
            check((k, pc) not in mine, f"{name}: {k} pc 0x{pc:x} reported though left out")
            continue
        got = mine.get((k, pc))
        check(got is not None, f"{name}: {k} pc 0x{pc:x} missing")
        if got is None:
            continue
        for key in COUNTS:
            want = ins.get(key)
            have = got.get(key)
            if want is None:
                check(have is None, f"{name}: {k} pc 0x{pc:x} {key}: {have}, the reference null")
                continue
            check(have is not None and abs(have - want * factor[k]) < 0.5,
                  f"{name}: {k} pc 0x{pc:x} {key}: {have}, want {want * factor[k]}")


def check_counters_per_launch(name, doc, ref):
    """Each kernel's per-kernel counters per launch equal the reference's per launch."""
    ref_k = kernels(ref)
    for k, kk in kernels(doc).items():
        kc, rc = kk.get("kernel_counters"), ref_k[k].get("kernel_counters")
        if not kc or not rc:
            continue
        for key in ("sectors", "instructions", "shared_requests"):
            if kc.get(key) is None or rc.get(key) is None:
                continue
            mine = kc[key] / kc["launches"]
            theirs = rc[key] / rc["launches"]
            check(abs(mine - theirs) <= 1e-9 * max(1.0, theirs),
                  f"{name}: {k} {key} per launch {mine}, every launch's {theirs}")


def check_selected(name, doc, ref, counted):
    """counted: short name -> launches counted. Launches, seen, the collection's sums, the
    instruction counts in proportion."""
    ks = kernels(doc)
    ref_k = kernels(ref)
    for k, n in counted.items():
        kk = ks.get(k)
        check(kk is not None, f"{name}: {k} not reported")
        if kk is None:
            continue
        check(kk["launches"] == n, f"{name}: {k} launches {kk['launches']}, want {n}")
        check(kk["launches_seen"] == LAUNCHES[k],
              f"{name}: {k} launches_seen {kk['launches_seen']}, want {LAUNCHES[k]}")
        check(kk["counter_launches"] <= n, f"{name}: {k} counters of more launches than counted")
    col = doc["collection"]
    check(col["launches_counted"] == sum(counted.values()),
          f"{name}: collection.launches_counted {col['launches_counted']}")
    check_instructions(name, doc, ref,
                       {k: n / ref_k[k]["launches"] for k, n in counted.items()})


def main():
    args = trace_ncu.arguments(__doc__)
    if isinstance(args, int):
        return args
    coalprobe, sample, outdir = args
    with tempfile.TemporaryDirectory() as tmp:
        out = outdir or tmp
        ref = trace(coalprobe, sample, out, "all", ["--all-launches", "--top", "9"])
        if ref is None:
            return 1
        for k, kk in kernels(ref).items():
            check(kk["launches"] == LAUNCHES.get(k), f"all: {k} launches {kk['launches']}")
            check(kk["counter_launches"] == kk["launches"] and not kk["counters_sampled"],
                  f"all: {k} counters from {kk['counter_launches']} of {kk['launches']}")
        check(ref["collection"]["counter_launches"] == "all", "all: collection.counter_launches")

        doc = trace(coalprobe, sample, out, "default", ["--top", "9"])
        if doc:
            for k, kk in kernels(doc).items():
                check(kk["launches"] == LAUNCHES[k], f"default: {k} launches {kk['launches']}")
                check(kk["counter_launches"] == SAMPLED[k],
                      f"default: {k} counters from {kk['counter_launches']}, want {SAMPLED[k]}")
                check(kk["counters_sampled"], f"default: {k} not said to be sampled")
                check(kk["kernel_counters"]["launches"] == SAMPLED[k],
                      f"default: {k} kernel_counters.launches")
            col = doc["collection"]
            check(col["counter_launches"] == 5, f"default: collection {col}")
            check(col["launches_with_counters"] == sum(SAMPLED.values()),
                  f"default: collection.launches_with_counters {col['launches_with_counters']}")
            check(col["launches_seen"] == sum(LAUNCHES.values()), "default: launches_seen")
            check_instructions("default", doc, ref, {k: 1 for k in LAUNCHES})
            check_counters_per_launch("default", doc, ref)
        table = trace(coalprobe, sample, out, "default_table", [], fmt="table")
        if table is not None:
            check("counters from 7 of 28 launches" in table,
                  "default table: no 'counters from 7 of 28 launches'")

        none = trace(coalprobe, sample, out, "no_counters", ["--counter-launches", "0", "--top", "9"])
        if none:
            for k, kk in kernels(none).items():
                check(kk["kernel_counters"] is None and kk["counter_launches"] == 0,
                      f"no_counters: {k} has kernel counters {kk['kernel_counters']}")
            check_instructions("no_counters", none, ref, {k: 1 for k in LAUNCHES})

        one = trace(coalprobe, sample, out, "kernel", ["--kernel", "^coll_strided", "--top", "9"])
        if one:
            check(set(kernels(one)) == {"coll_strided"}, f"kernel: kernels {sorted(kernels(one))}")
            check_selected("kernel", one, ref, {"coll_strided": LAUNCHES["coll_strided"]})
            check(one["collection"]["kernel"] == "^coll_strided", "kernel: collection.kernel")

        sk = trace(coalprobe, sample, out, "skip_count",
                   ["--launch-skip", "2", "--launch-count", "3", "--top", "9"])
        if sk:
            check_selected("skip_count", sk, ref, {k: 3 for k in LAUNCHES})

        nv = trace(coalprobe, sample, out, "nvtx", ["--nvtx-include", "step", "--top", "9"])
        if nv:
            check_selected("nvtx", nv, ref, IN_STEP)

        cap = trace(coalprobe, sample, out, "capture",
                    ["--capture-range", "profiler-api", "--top", "9"])
        if cap:
            check_selected("capture", cap, ref, IN_CAPTURE)
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
