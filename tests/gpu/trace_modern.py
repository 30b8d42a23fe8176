#!/usr/bin/env python3
"""trace_modern.py: coalprobe trace held to the truth on a modern PyTorch and Triton program
(bench/trace_modern.py: torch.compile, a CUDA graph replayed, flash attention on bf16, a float32
GEMM without TF32, and a Triton matmul in pointer form (cp.async) and in tensor-descriptor form
(TMA)). On its JSON report:

- every kernel has a real name (not null, not empty, not a number), none is filed twice;
- the program's requests, sectors and ideal sectors are the sums of its counted kernels', and
  each kernel counted from its instructions has the sums of its instructions;
- every instruction with a count is ranked;
- every counted kernel has its coverage: a fraction in [0, 1], or null with a reason, and a
  fraction under 0.9 never claims its excess is known;
- the graph's kernels (sin and cos, run nowhere else) count the warm-up and every replay, and
  no kernel record is left unmatched;
- the Triton pointer kernel has ranked LDGSTS; the descriptor kernel has ranked TMA loads, and
  its coverage counts at least the bytes of A and B as TMA loads, under 0.9, excess not known;
- the attention kernel and the GEMM kernel are there and counted; so are Inductor's kernels.

With --full, a second trace of the graph and Triton parts under --kernel-counters full is held to
the same checks (every launch replayed). The kernel table is printed so that a failure can be read.

usage: trace_modern.py PATH/TO/coalprobe [OUTDIR] [--full]
       trace_modern.py --check-json REPORT.json [--parts compile,graph,sdpa,gemm,hgemm,triton]
                       [--iters N] [--replays N] [--mode default|full]
The second form runs only the checks on an existing report (the parts named are those it holds).
Exit status: 0 passed, 1 failed, 77 skipped (no GPU, PyTorch or Triton; or, every check having
passed, a part of the program skipped itself: the Triton descriptor part where the installed
Triton has no tensor descriptors).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  has_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "..", "bench", "trace_modern.py")
VALIDATE = os.path.join(HERE, "..", "schema", "validate.py")
SCHEMA = os.path.join(HERE, "..", "..", "docs", "schema", "coalprobe-trace.schema.json")
ITERS = 3
REPLAYS = 3
GRAPH_WARMUP = 3  # bench/trace_modern.py's warm-up iterations before the capture
ALL_PARTS = ("compile", "graph", "sdpa", "gemm", "hgemm", "triton")
FULL_PARTS = ("graph", "triton")
FULL_ITERS = 2  # under the full set a function launched once has no per-instruction counts
TMA_AB_BYTES = 2 * 1024 * 1024 * 2  # A and B of the 1024x1024x1024 fp16 matmul, read once
# the counts of an instruction: any of them above zero makes it one that ran, to be ranked
COUNT_KEYS = ("requests", "sectors", "shared_requests", "ldgsts_requests", "atomic_requests",
              "tma_requests", "gmma_requests", "local_requests")
COVERAGE_KEYS = ("fraction", "basis", "attributed_bytes", "tma_load_bytes", "tma_store_bytes",
                 "local_bytes", "excess_known", "reason")
# which kernel is which, by its demangled name (the kernels of each part are its own: see
# bench/trace_modern.py)
GRAPH_RE = re.compile(r"\b(sin|cos)_kernel_cuda\b")
ATTENTION_RE = re.compile(r"flash|fmha|sdpa|attention|attn", re.I)
GEMM_RE = re.compile(r"gemm|nvjet|xmma|cutlass|cublas", re.I)
TRITON_PTR = "matmul_ptr_kernel"
TRITON_DESC = "matmul_desc_kernel"
INDUCTOR_PREFIX = "triton_"


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def __call__(self, cond, what):
        print(("ok      " if cond else "FAILED  ") + what)
        if cond:
            self.passed += 1
        else:
            self.failures.append(what)
        return cond


def name_of(k):
    return k.get("name") if isinstance(k.get("name"), str) else None


def short(k):
    n = name_of(k) or str(k.get("function"))
    return n if len(n) <= 90 else n[:87] + "..."


def is_attention(k):
    return bool(ATTENTION_RE.search(name_of(k) or ""))


def is_gemm(k):
    n = name_of(k) or ""
    return (GEMM_RE.search(n) is not None and not is_attention(k) and
            not n.startswith((TRITON_PTR, TRITON_DESC, INDUCTOR_PREFIX)))


def number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1.0)


def print_table(doc):
    print("    %-4s %-90s %8s %-16s %14s %8s" % ("idx", "kernel", "launches", "counts_from",
                                                "sectors", "coverage"))
    for k in doc.get("kernels", []):
        cov = k.get("coverage")
        frac = cov.get("fraction") if isinstance(cov, dict) else "absent"
        frac = "%.3f" % frac if number(frac) is not None else str(frac)
        print("    %-4s %-90s %8s %-16s %14s %8s" % (k.get("index"), short(k), k.get("launches"),
                                                    k.get("counts_from"), k.get("sectors"), frac))


def check_generic(doc, check):
    kernels = doc.get("kernels", [])
    instrs = doc.get("instructions", [])
    check(doc.get("complete") is True, "the trace is complete (%s)" % doc.get("incomplete_reason"))
    check(doc.get("counted") is True, "the trace has counts (%s)" % doc.get("no_counts_reason"))
    dropped = sum(d.get("count", 0) or 0 for d in doc.get("dropped", []))
    check(dropped == 0, "no records dropped (%d)" % dropped)
    check(len(kernels) > 0, "kernels reported (%d)" % len(kernels))

    bad = [k.get("index") for k in kernels
           if name_of(k) is None or not name_of(k).strip() or name_of(k).strip().isdigit()]
    check(not bad, "every kernel has a real name (not of kernels %s)" % bad)
    ids = [(k.get("pid"), k.get("device"), k.get("cubin_crc"), k.get("function")) for k in kernels]
    twice = sorted({str(i) for i in ids if ids.count(i) > 1})
    check(not twice, "no kernel filed twice (%s)" % twice)
    at = [(i.get("kernel_index"), i.get("pc")) for i in instrs]
    twice = sorted({str(a) for a in at if at.count(a) > 1})
    check(not twice, "no instruction listed twice (%s)" % twice[:5])

    counted = [k for k in kernels if k.get("counted")]
    totals = doc.get("totals") or {}
    for key in ("requests", "sectors", "ideal_sectors"):
        s = sum(number(k.get(key)) or 0 for k in counted)
        t = number(totals.get(key)) or 0
        check(close(s, t), "totals.%s %s is the sum over the counted kernels (%s)" % (key, t, s))
    by_kernel = {}
    for i in instrs:
        by_kernel.setdefault(i.get("kernel_index"), []).append(i)
    wrong = []
    for k in counted:
        if k.get("counts_from") != "instructions":
            continue
        for key in ("sectors", "requests"):
            s = sum(number(i.get(key)) or 0 for i in by_kernel.get(k.get("index"), []))
            if not close(s, number(k.get(key)) or 0):
                wrong.append("%s: %s %s, its instructions %s" % (short(k), key, k.get(key), s))
    check(not wrong, "each kernel counted from instructions has their sums (%s)" % wrong[:5])

    unranked = [(i.get("kernel"), i.get("pc"), i.get("kind")) for i in instrs
                if i.get("rank") is None and any((number(i.get(key)) or 0) > 0 for key in COUNT_KEYS)]
    check(not unranked, "every instruction with counts is ranked (%d not: %s)"
          % (len(unranked), unranked[:5]))

    problems = []
    for k in counted:
        cov = k.get("coverage")
        if not isinstance(cov, dict):
            problems.append("%s: no coverage" % short(k))
            continue
        missing = [key for key in COVERAGE_KEYS if key not in cov]
        if missing:
            problems.append("%s: coverage lacks %s" % (short(k), missing))
        frac = cov.get("fraction")
        if frac is None:
            if not isinstance(cov.get("reason"), str) or not cov["reason"].strip():
                problems.append("%s: fraction null without a reason" % short(k))
        elif number(frac) is None or not 0 <= frac <= 1:
            problems.append("%s: fraction %r" % (short(k), frac))
        elif frac < 0.9 and cov.get("excess_known") is not False:
            problems.append("%s: fraction %.3f but excess_known %r" % (short(k), frac,
                                                                      cov.get("excess_known")))
    check(not problems, "every counted kernel has its coverage, consistent (%d wrong: %s)"
          % (len(problems), problems[:5]))


def check_parts(doc, ran, mode, iters, replays, check):
    kernels = doc.get("kernels", [])
    instrs = doc.get("instructions", [])

    def mine(k):
        return [i for i in instrs if i.get("kernel_index") == k.get("index")]

    def named(prefix):
        return [k for k in kernels if (name_of(k) or "").startswith(prefix)]

    if "graph" in ran:
        graph = [k for k in kernels if GRAPH_RE.search(name_of(k) or "")]
        found = sorted({GRAPH_RE.search(name_of(k)).group(1) for k in graph})
        check(found == ["cos", "sin"], "the graph's kernels found: sin and cos (%s)" % found)
        want = GRAPH_WARMUP + replays
        for k in graph:
            kc = k.get("kernel_counters") or {}
            if mode == "full":
                # kernel replay: a graph launch's records are unmatched and its launches not
                # counted (docs/trace.md, Limits); the warm-up's direct launches are
                check(k.get("counted") and (k.get("launches") or 0) >= GRAPH_WARMUP,
                      "graph kernel %s: counted, %s launches, at least the %d of the warm-up"
                      % (short(k), k.get("launches"), GRAPH_WARMUP))
                continue
            check(k.get("counted") and k.get("launches") == want and k["launches"] >= 3,
                  "graph kernel %s: counted, %s launches: %d warm-up + %d replays, each counted"
                  % (short(k), k.get("launches"), GRAPH_WARMUP, replays))
            check(kc.get("launches") == want, "graph kernel %s: %s kernel records, expected %d"
                  % (short(k), kc.get("launches"), want))
        if mode == "default":
            check(not doc.get("unmatched"), "no kernel record unmatched (%s)" % doc.get("unmatched"))
    if "triton_ptr" in ran:
        ptr = named(TRITON_PTR)
        ok = check(len(ptr) == 1 and ptr[0].get("counted") and ptr[0].get("launches") == iters,
                   "the Triton pointer kernel: counted, %d launches (%s)"
                   % (iters, [(short(k), k.get("launches")) for k in ptr]))
        if ok:
            kinds = sorted({i.get("kind") for i in mine(ptr[0])})
            ldgsts = [i for i in mine(ptr[0]) if i.get("kind") == "ldgsts" and i.get("rank")]
            check(ldgsts and all((i.get("ldgsts_requests") or 0) > 0 for i in ldgsts),
                  "the Triton pointer kernel has ranked LDGSTS with requests (%d; kinds %s)"
                  % (len(ldgsts), kinds))
    if "triton_desc" in ran:
        desc = named(TRITON_DESC)
        ok = check(len(desc) == 1 and desc[0].get("counted") and desc[0].get("launches") == iters,
                   "the Triton descriptor kernel: counted, %d launches (%s)"
                   % (iters, [(short(k), k.get("launches")) for k in desc]))
        if ok:
            k = desc[0]
            kinds = sorted({i.get("kind") for i in mine(k)})
            tma = [i for i in mine(k) if i.get("kind") == "tma.ld" and i.get("rank")]
            check(tma and all((i.get("tma_requests") or 0) > 0 for i in tma),
                  "the Triton descriptor kernel has ranked TMA loads (%d; kinds %s)"
                  % (len(tma), kinds))
            cov = k.get("coverage") if isinstance(k.get("coverage"), dict) else {}
            # under the full set TMA's bytes are counted (at least A and B a launch); under the
            # lean set on GH100 they are not, and the coverage must say it is unknown
            loaded = number(cov.get("tma_load_bytes"))
            frac = number(cov.get("fraction"))
            if cov.get("basis") == "counters":
                check(loaded is not None and loaded >= TMA_AB_BYTES * iters,
                      "the descriptor kernel's coverage counts %s TMA load bytes, at least A and B "
                      "(%d)" % (loaded, TMA_AB_BYTES * iters))
                check(frac is not None and frac < 0.9 and cov.get("excess_known") is False,
                      "the descriptor kernel's coverage fraction %s < 0.9, excess_known %s (false)"
                      % (cov.get("fraction"), cov.get("excess_known")))
            elif cov.get("basis") == "tensor_map_geometry":
                # lean set, but every launch's tensor maps seen and all of whole sectors
                # (issue 45): the excess is known without TMA's counters
                check(frac is None and cov.get("excess_known") is True
                      and k.get("tensor_maps") and k.get("tensor_map_launches_unseen") == 0
                      and k.get("tensor_map_launches_checked") == k.get("launches")
                      and "tensor maps" in (cov.get("reason") or ""),
                      "the descriptor kernel's excess known from its tensor maps: %s, checked %s "
                      "of %s launches, unseen %s, %s" % (k.get("tensor_maps"),
                                                          k.get("tensor_map_launches_checked"),
                                                          k.get("launches"),
                                                          k.get("tensor_map_launches_unseen"),
                                                          cov.get("reason")))
            else:
                check(frac is None and cov.get("excess_known") is False
                      and "TMA" in (cov.get("reason") or ""),
                      "the descriptor kernel's coverage unknown without the TMA counters: %s, "
                      "excess_known %s, %s" % (cov.get("fraction"), cov.get("excess_known"),
                                               cov.get("reason")))
    if "sdpa" in ran:
        att = [k for k in kernels if is_attention(k)]
        check(any(k.get("counted") and (k.get("launches") or 0) >= iters for k in att),
              "the attention kernel is there and counted (%s)"
              % [(short(k), k.get("launches"), k.get("counted")) for k in att])
    if "gemm" in ran:
        gemm = [k for k in kernels if is_gemm(k)]
        check(any(k.get("counted") and (k.get("launches") or 0) >= iters for k in gemm),
              "the GEMM kernel is there and counted (%s)"
              % [(short(k), k.get("launches"), k.get("counted")) for k in gemm])
    if "hgemm" in ran:
        gemm = [k for k in kernels if is_gemm(k)]
        check(any(k.get("counted") and (k.get("launches") or 0) >= iters for k in gemm),
              "the float16 GEMM kernel is there and counted (%s)"
              % [(short(k), k.get("launches"), k.get("counted")) for k in gemm])
    check_tma_verdicts(kernels, check)
    if "compile" in ran:
        ind = named(INDUCTOR_PREFIX)
        check(ind and all(k.get("counted") for k in ind),
              "Inductor's Triton kernels are there and counted (%s)"
              % [(short(k), k.get("launches"), k.get("counted")) for k in ind])


def check_tma_verdicts(kernels, check):
    """Issue 45: every kernel that ran TMA copies (cuBLAS's, attention's, Triton's) says which of
    its tensor maps were seen (the maps its launches passed, how many launches passed one not
    seen) and has a verdict (its excess known) or the reason there is none."""
    for k in kernels:
        if not (k.get("counted") and (k.get("tma_requests") or 0) > 0):
            continue
        cov = k.get("coverage") if isinstance(k.get("coverage"), dict) else {}
        maps = k.get("tensor_maps")
        print("TMA kernel %-50.50s maps %s, unseen %s of %s launches checked, basis %s, excess "
              "known %s, TMA excess by geometry %s: %s"
              % (short(k), [(m.get("map"), m.get("launches")) for m in maps or []],
                 k.get("tensor_map_launches_unseen"), k.get("tensor_map_launches_checked"),
                 cov.get("basis"), cov.get("excess_known"), cov.get("tma_excess_bytes"),
                 cov.get("reason")))
        check(isinstance(maps, list) and number(k.get("tensor_map_launches_checked")) is not None,
              "%s: its tensor maps were watched (tensor_maps %s)" % (short(k), maps))
        check(cov.get("excess_known") is True or bool(cov.get("reason")),
              "%s: a verdict or the reason there is none (%s)" % (short(k), cov))


def check_report(doc, ran, mode, iters, replays, check):
    print("--- report (%s mode): parts %s" % (mode, ",".join(sorted(ran)) or "none"))
    print_table(doc)
    check_generic(doc, check)
    check_parts(doc, ran, mode, iters, replays, check)


def program_parts(stdout):
    """The parts the program ran and skipped, from its `trace_modern: PART STATUS: ...` lines."""
    ran, skipped = set(), []
    for m in re.finditer(r"^trace_modern: (\w+) (ok|skipped|FAILED): (.*)$", stdout, re.M):
        if m.group(2) == "ok":
            ran.add(m.group(1))
        elif m.group(2) == "skipped":
            skipped.append("%s (%s)" % (m.group(1), m.group(3)))
    return ran, skipped


def trace(coalprobe, out, extra, parts, iters, check):
    cmd = [coalprobe, "trace"] + extra + ["--format", "json", "-o", out, "--", sys.executable,
                                          PROGRAM, "--parts", ",".join(parts),
                                          "--iters", str(iters), "--replays", str(REPLAYS)]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout[-3000:])
    if p.returncode != 0:
        print(p.stderr[-3000:])
    if not check(p.returncode == 0, "coalprobe trace exit 0 (got %d: %s)"
                 % (p.returncode, p.stderr.strip()[-300:])):
        return None, set(), []
    ran, skipped = program_parts(p.stdout)
    asked = set(parts) - {"triton"} | ({"triton_ptr", "triton_desc"} if "triton" in parts else set())
    check(ran | {s.split()[0] for s in skipped} == asked,
          "the program ran or skipped every part asked (ran %s, skipped %s)"
          % (sorted(ran), skipped))
    with open(out) as f:
        doc = json.load(f)
    v = subprocess.run([sys.executable, VALIDATE, "--schema", SCHEMA, out],
                       capture_output=True, text=True)
    check(v.returncode in (0, 77), "the report is valid against the schema (%s %s)"
          % (v.stdout.strip()[:400], v.stderr.strip()[-300:]))
    return doc, ran, skipped


def have(module):
    return subprocess.run([sys.executable, "-c", "import " + module],
                          capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("coalprobe", nargs="?")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--check-json")
    ap.add_argument("--parts", default="")
    ap.add_argument("--iters", type=int, default=ITERS)
    ap.add_argument("--replays", type=int, default=REPLAYS)
    ap.add_argument("--mode", choices=("default", "full"), default="default")
    a = ap.parse_args()
    check = Checks()
    skipped = []
    if a.check_json:
        with open(a.check_json) as f:
            doc = json.load(f)
        ran = set(p for p in a.parts.split(",") if p)
        if "triton" in ran:
            ran = ran - {"triton"} | {"triton_ptr", "triton_desc"}
        check_report(doc, ran, a.mode, a.iters, a.replays, check)
    else:
        if not a.coalprobe:
            print(__doc__)
            return 2
        if not trace_ncu.has_gpu():
            print("no GPU: skipped")
            return 77
        for module in ("torch", "triton"):
            if not have(module):
                print("no %s: skipped" % module)
                return 77
        with tempfile.TemporaryDirectory() as tmp:
            outdir = a.outdir or tmp
            runs = [("default", [], ALL_PARTS, ITERS)]
            if a.full:
                runs.append(("full", ["--kernel-counters", "full"], FULL_PARTS, FULL_ITERS))
            for mode, extra, parts, iters in runs:
                doc, ran, sk = trace(a.coalprobe, os.path.join(outdir, "trace_modern_%s.json" % mode),
                                     extra, parts, iters, check)
                skipped += ["%s: %s" % (mode, s) for s in sk]
                if doc is not None:
                    check_report(doc, ran, mode, iters, REPLAYS, check)
    for s in skipped:
        print("SKIPPED " + s)
    print("%d passed, %d failed, %d parts skipped" % (check.passed, len(check.failures), len(skipped)))
    if check.failures:
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
