#!/usr/bin/env python3
"""python_region.py: `with coalprobe.trace()` around a PyTorch region of a process that used CUDA
before it (issue 46): the region's kernels counted, per instruction equal (sectors and ideal
sectors) to `coalprobe trace` of the same work as a program of its own (python_region_work.py);
kernels launched before and after the block not counted; the Python line of each launch; two
regions in one process; an exception inside the block (the report kept, marked incomplete).

usage: python_region.py PATH/TO/coalprobe BUILD_DIR
Exit status: 0 passed, 1 failed, 77 skipped (no GPU or no PyTorch).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace_ncu  # noqa: E402  has_gpu, marked_lines

WORK = os.path.join(HERE, "python_region_work.py")


def instruction_counts(doc):
    """{(kernel name, pc): (sectors, ideal sectors)} of a trace report's instructions."""
    out = {}
    for i in doc["instructions"]:
        if i.get("sectors") is None:
            continue
        out[(i["kernel"], i["pc"])] = (i["sectors"], i["ideal_sectors"])
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    coalprobe_bin, build = sys.argv[1], sys.argv[2]
    if not trace_ncu.has_gpu():
        print("no GPU: skipped")
        return 77
    try:
        import torch
    except ImportError:
        print("no PyTorch: skipped")
        return 77
    if not torch.cuda.is_available():
        print("PyTorch sees no GPU: skipped")
        return 77
    sys.path.insert(0, os.path.join(build, "python"))
    os.environ["COALPROBE_BIN"] = coalprobe_bin
    import coalprobe
    import python_region_work as w

    check, failures = trace_ncu.checker()

    # the same work as a program of its own, under the CLI
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cli.json")
        p = subprocess.run([coalprobe_bin, "trace", "--format", "json", "-o", out, "--",
                            sys.executable, WORK], capture_output=True, text=True)
        check(p.returncode == 0, "coalprobe trace of the work: exit 0 (%d: %s)" %
              (p.returncode, p.stderr[-500:]))
        if p.returncode != 0:
            return 1
        with open(out) as f:
            cli = json.load(f)
    # the work's own kernels: those launched after its inputs were made (the inputs' random
    # fills are launched in both, and left out of the comparison by name)
    a, b, m = w.inputs()
    before = torch.sin(a)  # a kernel before the region: not counted
    torch.cuda.synchronize()

    with coalprobe.trace(group_by="line") as t:
        w.work(a, b, m)
    after = torch.cos(a)  # after: not counted
    torch.cuda.synchronize()
    r = t.report
    check(r is not None and r.complete, "the region's report, complete")
    names = [k["name"] for k in r.kernels]
    print("    region kernels: " + "; ".join(n[:60] for n in names))
    check(r.data["counted"], "the region has counts")
    check(not any("sin" in n.lower() for n in names), "the kernel before the block not counted")
    check(not any("cos" in n.lower() for n in names), "the kernel after the block not counted")
    check(any("mul" in n.lower() for n in names), "the multiplication counted")
    check(any(w_ in n.lower() for n in names for w_ in ("gemm", "nvjet", "xmma", "cutlass")),
          "the matmul counted")
    check(not any(k["counted"] is False for k in r.kernels),
          "every kernel of the region counted (%s)" %
          [k["name"][:50] for k in r.kernels if k["counted"] is False])
    region_counts = instruction_counts(r.data)
    cli_counts = instruction_counts(cli)
    common = set(region_counts) & set(cli_counts)
    check(region_counts and set(region_counts) <= set(cli_counts),
          "every instruction of the region is one of the CLI's (%d of %d)" %
          (len(common), len(region_counts)))
    differ = [(k, region_counts[k], cli_counts[k]) for k in common
              if region_counts[k] != cli_counts[k]]
    check(not differ, "per instruction the same sectors and ideal sectors as the CLI's (%d "
          "differ: %s)" % (len(differ), differ[:3]))
    # the Python line of each launch
    lines = trace_ncu.marked_lines(WORK)
    groups = (r.data.get("groups") or {}).get("items") or []
    seen = {(g.get("file"), g.get("line")) for g in groups}
    for tag, line in lines.items():
        check((os.path.abspath(w.__file__), line) in seen or (w.__file__, line) in seen,
              "the launches of line %d (%s) filed under it" % (line, tag))
    check(all(g.get("file") for g in groups),
          "every launch has its Python line (%s)" % [g.get("why_no_line") for g in groups])

    # a second region in the same process
    with coalprobe.trace() as t2:
        w.work(a, b, m)
    check(t2.report is not None and t2.report.complete and t2.report.data["counted"],
          "a second region: counted, complete")
    check(set(instruction_counts(t2.report.data)) == set(region_counts),
          "the second region counts the same instructions")

    # an exception inside the block
    t3 = coalprobe.trace()
    raised = False
    try:
        with t3:
            w.work(a, b, m)
            raise KeyError("inside")
    except KeyError:
        raised = True
    check(raised, "the exception propagates")
    check(t3.report is not None and not t3.report.complete and
          "KeyError" in (t3.report.data.get("incomplete_reason") or ""),
          "the report kept, marked incomplete (%s)" %
          (t3.report and t3.report.data.get("incomplete_reason")))
    check(t3.report is not None and t3.report.data["counted"], "its kernels counted")
    # the process runs on normally
    x = (a * 2).sum().item()
    check(x == x, "CUDA works after the regions")
    del before, after
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
