#!/usr/bin/env python3
"""trace_async.py: coalprobe trace on the tests' cp.async program (tests/trace/cp_trace_async_sample.cu)
on a GPU of sm_80 or later. Every kernel is filed under its own function with its launches, the
3 launches of a CUDA graph of two of them included (no kernel named by a number, no record
unmatched, each kernel's per-kernel records as many as its launches and its instruction counts
those of its launches); every LDGSTS ranked as its own kind with the requests, sectors and
ideal sectors its copy must take (16-byte coalesced: 16 a request; 4-byte coalesced: 4; 4-byte
with a stride of 32 floats: 32 where 4 would do), its shared fill kept out of the bank conflicts
(the kernels' shared loads are conflict-free: no kernel may show a bank conflict), the kernel
totals the sums of their instructions and the program's the sum of its kernels; the report
valid against the schema. Coverage: under the full set the TMA bytes of the bulk copy (kinds_mix)
and of the 2-D tensor-map copy (tma_tile2d) are the bytes they must move, their coverage below
90% with the excess marked unknown; under the lean set on GH100 the bulk copy's is unknown, while
tma_tile2d's excess is known from its tensor map (128-byte rows, every launch's map matched:
basis tensor_map_geometry, issue 45) and so is its narrow twin's (tma_tile2d_narrow, 48-byte
rows), with the bytes its rows move past their 48 by geometry; under the full set the narrow
copy's TMA bytes are the whole 32-byte sectors its boxes' rows touch (the H100 rule this test
holds the hardware to, and tma_rule.py in detail). The copies and the read-only lookup
(readonly_lookup) are covered. Where
ncu is installed, every LDGSTS's counts per launch equal Nsight Compute's source counters on the
same program, and every kernel's TMA and local sectors per launch (the full set) Nsight Compute's.

usage: trace_async.py PATH/TO/coalprobe PATH/TO/cp_trace_async_sample [OUTDIR]
Exit status: 0 passed, 1 failed, 77 skipped (no GPU, or one below sm_80).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_ncu  # noqa: E402  ncu_rows: ncu's source counters; arguments: the usage and GPU check

LAUNCHES = 2
GRAPH_LAUNCHES = 3  # the sample's graph (copy4, then copy16), then one more direct copy4
N = 1 << 20
HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "schema", "validate.py")
SCHEMA = os.path.join(HERE, "..", "..", "docs", "schema", "coalprobe-trace.schema.json")
# the kernel -> (LDGSTS requests per launch, sectors and ideal sectors per request); the LDGSTS
# of each is the one instruction of its inlined copy (line information names the copy's asm line)
EXPECT = {"async_copy16": (N // 4 // 32, 16, 16), "async_copy4": (N // 32, 4, 4),
          "async_copy4_strided": (N // 32, 32, 4)}
# the kernel -> its launches: direct, by the graph, and once more directly
RUNS = {"async_copy16": LAUNCHES + GRAPH_LAUNCHES, "async_copy4": LAUNCHES + GRAPH_LAUNCHES + 1,
        "async_copy4_strided": LAUNCHES + 1, "kinds_mix": LAUNCHES, "readonly_lookup": LAUNCHES,
        "tma_tile2d": LAUNCHES, "tma_tile2d_narrow": LAUNCHES,  # sm_90 and later (main drops them)
        "graph_step": 100 * 2}  # a graph of 100 nodes (more than a batch holds at first), twice
WIDTH, TILE_ROWS, NARROW_COLS = 1024, 8, 12  # the sample's matrix and its narrow tiles


def narrow_sector_bytes():
    """The bytes of the 32-byte sectors the narrow copy's boxes touch in a launch: each box row
    is 48 bytes at a multiple of 48 (the part inside the matrix; TMA fills the rest with zeros),
    its sectors counted per box."""
    row_sectors = 0
    for tx in range((WIDTH + NARROW_COLS - 1) // NARROW_COLS):
        first = tx * NARROW_COLS * 4
        last = min((tx + 1) * NARROW_COLS, WIDTH) * 4 - 1
        row_sectors += last // 32 - first // 32 + 1
    return row_sectors * WIDTH * 32  # every row of the matrix, in every box column


# a launch: the whole buffer through TMA; the narrow copy's boxes touch more
TMA_BYTES = {"kinds_mix": N * 4, "tma_tile2d": N * 4, "tma_tile2d_narrow": narrow_sector_bytes()}
MAP_KERNELS = {"tma_tile2d": [32, 8], "tma_tile2d_narrow": [12, 8]}  # kernel -> its map's box
KERNEL_METRICS = {"tma_sectors": ("l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
                                  "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"),
                  "local_sectors": ("smsp__sass_sectors_mem_local.sum", None)}
BLOCKS, WARPS = N // 256, N // 32  # of kinds_mix, a launch
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def compute_capability():
    p = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                       capture_output=True, text=True)
    try:
        return float(p.stdout.split()[0])
    except (ValueError, IndexError):
        return None


def compare_ncu(sample, doc, outdir):
    """Every ranked LDGSTS against ncu's source counters of one launch (the first of each)."""
    ncu = trace_ncu.ncu_rows(sample, outdir)
    kernels = {k["index"]: k for k in doc["kernels"]}
    compared = 0
    for ins in doc["instructions"]:
        if ins["kind"] != "ldgsts":
            continue
        k = kernels[ins["kernel_index"]]
        short = k["name"].split("(")[0]
        rec = ncu.get(short, {}).get(ins["pc"])
        check(rec is not None, f"{short} pc {ins['pc']:#x}: not in ncu's listing")
        if rec is None:
            continue
        for what, ours, col in (("requests", ins["ldgsts_requests"], "Instructions Executed"),
                                ("sectors", ins["sectors"], "L2 Theoretical Sectors Global"),
                                ("ideal sectors", ins["ideal_sectors"],
                                 "L2 Theoretical Sectors Global Ideal")):
            theirs = trace_ncu.num(rec.get(col))
            per_launch = ours / k["launches"]
            compared += 1
            ok = theirs is not None and abs(per_launch - theirs) < 1e-6
            print(f"{short:22s} pc {ins['pc']:#06x} {what:14s} coalprobe {per_launch:<10g} "
                  f"ncu {theirs} {'ok' if ok else 'DIFFERENT'}")
            check(ok, f"{short} pc {ins['pc']:#x} {what}: coalprobe {per_launch}, ncu {theirs}")
    check(compared > 0, "nothing compared with ncu")
    # kinds_mix's TMA copy, local accesses and reduction: executions against ncu's
    ncu = trace_ncu.ncu_rows(sample, outdir, ("-k", "regex:kinds_mix", "-c", "1"),
                             "ncu_source_kinds.csv").get("kinds_mix", {})
    runs = {"tma.ld": "tma_requests", "ld.lc": "local_requests", "st.lc": "local_requests",
            "red": "requests", "atom": "requests"}
    for ins in doc["instructions"]:
        k = kernels[ins["kernel_index"]]
        if not k["name"].startswith("kinds_mix") or ins["kind"] not in runs:
            continue
        rec = ncu.get(ins["pc"])
        ours = ins[runs[ins["kind"]]] / k["launches"]
        theirs = trace_ncu.num(rec.get("Instructions Executed")) if rec else None
        ok = theirs is not None and abs(ours - theirs) < 1e-6
        print(f"kinds_mix pc {ins['pc']:#06x} {ins['kind']:7s} executions coalprobe {ours:<10g} "
              f"ncu {theirs} {'ok' if ok else 'DIFFERENT'}")
        check(ok, f"kinds_mix pc {ins['pc']:#x} {ins['kind']}: coalprobe {ours}, ncu {theirs}")


def ncu_kernel_metrics(sample, outdir):
    """ncu's per-kernel TMA and L1-L2 sectors of every launch: name -> key -> [per launch]."""
    metrics = sorted({m for pair in KERNEL_METRICS.values() for m in pair if m})
    cmd = ["ncu", "--metrics", ",".join(metrics), "--csv", sample, str(LAUNCHES)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if outdir:
        with open(os.path.join(outdir, "ncu_kernel_metrics.csv"), "w") as f:
            f.write(p.stdout)
    if p.returncode != 0:
        raise RuntimeError("ncu: exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    launches = {}  # (ID, kernel) -> metric -> value
    for rec in trace_ncu.csv_records(p.stdout):
        key = (rec["ID"], rec["Kernel Name"].split("(")[0])
        launches.setdefault(key, {})[rec["Metric Name"]] = trace_ncu.num(rec["Metric Value"])
    out = {}
    for (_, name), values in sorted(launches.items(), key=lambda kv: int(kv[0][0])):
        for key, (a, b) in KERNEL_METRICS.items():
            out.setdefault(name, {}).setdefault(key, []).append(
                (values.get(a) or 0) + ((values.get(b) or 0) if b else 0))
    return out


def compare_ncu_kernels(sample, full, outdir):
    """Each kernel's TMA and local sectors per launch (the full set's report, which counts them)
    against ncu's: exact."""
    ncu = ncu_kernel_metrics(sample, outdir)
    for k in full["kernels"]:
        short = k["name"].split("(")[0]
        if short not in TMA_BYTES and short != "readonly_lookup":
            continue  # the graph's kernels are unmatched under the full set
        kc = k["kernel_counters"] or {}
        theirs = ncu.get(short)
        check(theirs is not None, f"{short}: not in ncu's per-kernel metrics")
        if theirs is None:
            continue
        for key in KERNEL_METRICS:
            ours = (kc.get(key) or 0) / k["launches"]
            mean = sum(theirs[key]) / len(theirs[key])
            ok = abs(ours - mean) <= 1e-6 * max(mean, 1)
            print(f"{short:22s} {key:14s} a launch: coalprobe {ours:<12g} ncu {mean:<12g} "
                  f"{'ok' if ok else 'DIFFERENT'}")
            check(ok, f"{short} {key}: coalprobe {ours} a launch, ncu {mean}")


def check_coverage(doc, cc, full=False):
    """Lean (GH100: no TMA or local counters in its one pass): a kernel with no TMA or local
    instruction is covered by its instruction kinds, one with them has an unknown coverage and an
    unknown excess. Full: TMA's bytes are the bytes the copies must move, local memory's are
    counted, and a kernel whose bytes go mostly through TMA has its excess marked unknown."""
    mode = "full" if full else "lean"
    for k in doc["kernels"]:
        short = k["name"].split("(")[0]
        c = k.get("coverage")
        check(c is not None, f"{mode} {short}: no coverage")
        if not c:
            continue
        print(f"{mode} {short:22s} coverage {c['fraction']}  basis {c['basis']}  attributed "
              f"{c['attributed_bytes']}  TMA {c['tma_load_bytes']}+{c['tma_store_bytes']}  "
              f"local {c['local_bytes']}  excess known {c['excess_known']}  {c['reason']}")
        want = TMA_BYTES.get(short, 0) * k["launches"] if cc >= 9.0 else 0
        escapes = want > 0 or short == "kinds_mix"  # TMA copies or local memory
        if c["basis"] == "counters":
            check(c["tma_load_bytes"] == want and c["tma_store_bytes"] == 0,
                  f"{mode} {short}: TMA bytes {c['tma_load_bytes']} + {c['tma_store_bytes']}, "
                  f"expected {want}")
            check((c["local_bytes"] > 0) == (short == "kinds_mix"),
                  f"{mode} {short}: local bytes {c['local_bytes']}")
            if escapes:
                check(c["fraction"] < 0.9 and not c["excess_known"] and c["reason"],
                      f"{mode} {short}: coverage {c['fraction']}, excess known {c['excess_known']}")
        elif short in MAP_KERNELS:  # every launch passed its own map (issue 45)
            check(c["basis"] == "tensor_map_geometry" and c["fraction"] is None
                  and c["excess_known"] and "tensor maps" in (c["reason"] or ""),
                  f"{mode} {short}: coverage {c['fraction']} ({c['basis']}), excess known "
                  f"{c['excess_known']}: expected known from its tensor map")
            # the geometry's excess: none for whole sectors; for the narrow map each copy's 8
            # rows of 48 bytes move 16 bytes more, which is what its boxes' sectors hold past
            # the matrix's bytes (TMA_BYTES, held to ncu's below): an estimate, since 1024
            # floats are no whole number of 12-float boxes
            excess = (TMA_BYTES[short] - N * 4) * k["launches"]
            check(c.get("tma_excess_bytes") == excess
                  and c.get("tma_excess_estimate") == (short == "tma_tile2d_narrow"),
                  f"{mode} {short}: TMA excess by geometry {c.get('tma_excess_bytes')} "
                  f"(estimate {c.get('tma_excess_estimate')}), expected {excess}")
        elif escapes:
            check(c["fraction"] is None and not c["excess_known"] and "TMA" in (c["reason"] or ""),
                  f"{mode} {short}: coverage {c['fraction']} ({c['basis']}) though TMA or local "
                  f"instructions ran uncounted")
        else:
            check(c["basis"] == "instruction_kinds" and c["fraction"] == 1 and c["excess_known"],
                  f"{mode} {short}: coverage {c['fraction']} ({c['basis']})")
        if full:
            check(c["basis"] == "counters", f"full {short}: basis {c['basis']}")
    if full:
        return
    t = doc["totals"]["coverage"]
    s = sum(k["coverage"]["attributed_bytes"] for k in doc["kernels"] if k.get("coverage"))
    check(t is not None and abs(t["attributed_bytes"] - s) < 1e-6,
          f"program coverage attributed {t and t['attributed_bytes']}, its kernels {s}")
    check(t is not None and not t["excess_known"],
          f"program excess known {t and t['excess_known']} with TMA and local kernels in it")
    if cc >= 9.0:  # the narrow map's copies, by geometry, in the program's figure
        want = (TMA_BYTES["tma_tile2d_narrow"] - N * 4) * LAUNCHES
        check(t is not None and t.get("tma_excess_bytes") == want,
              f"program TMA excess by geometry {t and t.get('tma_excess_bytes')}, expected {want}")
    if cc >= 9.0:
        k = [k for k in doc["kernels"] if k["name"].split("(")[0] == "tma_tile2d"]
        tma = [i for i in doc["instructions"] if k and i["kernel_index"] == k[0]["index"]
               and i["kind"] == "tma.ld"]
        blocks = N // 256
        check(len(tma) == 1 and tma[0]["tma_requests"] == blocks * LAUNCHES and tma[0]["rank"],
              f"tma_tile2d: TMA instructions {[(i['tma_requests'], i['rank']) for i in tma]}, "
              f"expected one of {blocks * LAUNCHES} executions, ranked")


def check_tensor_maps(doc, cc):
    """The sample encodes two tensor maps (sm_90 and later) of a 1024 x 1024 float32 matrix: boxes
    of 32 x 8 (128-byte rows: whole sectors) and of 12 x 8 (48-byte rows: not); each TMA kernel's
    every launch passed its own map, matched (kernels[].tensor_maps, issue 45)."""
    if cc < 9.0:
        return
    procs = doc["processes"]
    maps = [m for p in procs for m in (p.get("tensor_maps") or [])]
    encodes = sum(p.get("tensor_map_encodes") or 0 for p in procs)
    print("tensor maps:", maps, "encodes", encodes)
    check(encodes == 2 and len(maps) == 2, f"tensor maps: {len(maps)} recorded, {encodes} encodes; "
          "expected the sample's two")
    for name, box in MAP_KERNELS.items():
        found = [i for i, m in enumerate(maps) if m.get("box_dims") == box]
        check(len(found) == 1, f"tensor map of box {box}: {len(found)} recorded")
        if len(found) != 1:
            continue
        m = maps[found[0]]
        whole = box[0] * 4 % 32 == 0
        want = {"count": 1, "kind": "tiled", "data_type": "float32", "element_size_bytes": 4,
                "rank": 2, "global_dims": [1024, 1024], "global_strides_bytes": [4096],
                "swizzle": "none", "whole_sectors": whole, "row_bytes": box[0] * 4}
        for key, value in want.items():
            check(m.get(key) == value, f"tensor map {box} {key}: {m.get(key)}, expected {value}")
        k = [k for k in doc["kernels"] if k["name"].split("(")[0] == name]
        check(len(k) == 1, f"{name}: {len(k)} kernels")
        if len(k) != 1:
            continue
        k = k[0]
        passed = k.get("tensor_maps") or []
        print(f"{name}: tensor maps {passed}, checked {k.get('tensor_map_launches_checked')}, "
              f"unseen {k.get('tensor_map_launches_unseen')}")
        # one process: its maps' numbers are their places in the list
        check(len(passed) == 1 and passed[0].get("map") == found[0]
              and passed[0].get("launches") == k["launches"],
              f"{name}: its launches passed {passed}, expected map #{found[0]} (box {box}) in all "
              f"{k['launches']}")
        check(k.get("tensor_map_launches_checked") == k["launches"]
              and k.get("tensor_map_launches_unseen") == 0,
              f"{name}: {k.get('tensor_map_launches_checked')} launches checked, "
              f"{k.get('tensor_map_launches_unseen')} unseen, of {k['launches']}")


def check_kernels(doc):
    """Each kernel under its own function, with every launch: the graph's included."""
    names = sorted(k["name"].split("(")[0] for k in doc["kernels"])
    check(names == sorted(RUNS), f"kernels {names}, expected {sorted(RUNS)}")
    check(not doc.get("unmatched"), f"unmatched kernel records: {doc.get('unmatched')}")
    for k in doc["kernels"]:
        short = k["name"].split("(")[0]
        runs = RUNS.get(short)
        if runs is None:
            continue
        kc = k["kernel_counters"] or {}
        check(k["launches"] == runs, f"{short}: {k['launches']} launches, expected {runs}")
        check(kc.get("launches") == runs,
              f"{short}: {kc.get('launches')} kernel records, expected {runs}")
        if short not in EXPECT:
            continue
        stores = EXPECT[short][0]  # one STG a warp: the global instructions of one launch
        check(kc.get("instructions") == stores * runs,
              f"{short}: {kc.get('instructions')} global instructions in its kernel records, "
              f"expected {stores * runs} (another kernel's records filed under it?)")


def check_kinds(doc, cc):
    """kinds_mix: its TMA copy (sm_90 and later: one a block), its local memory and its reduction
    (every warp, all lanes to one counter: 1 sector a request) ranked as their own kinds."""
    k = [k for k in doc["kernels"] if k["name"].startswith("kinds_mix")]
    check(len(k) == 1, "kinds_mix: not one kernel")
    if len(k) != 1:
        return
    mine = [i for i in doc["instructions"] if i["kernel_index"] == k[0]["index"]]
    kinds = {}
    for i in mine:
        kinds.setdefault(i["kind"], []).append(i)
    print("kinds_mix kinds:", {kind: len(v) for kind, v in kinds.items()})
    if cc >= 9.0:
        tma = kinds.get("tma.ld", [])
        check(len(tma) == 1 and tma[0]["tma_requests"] == BLOCKS * LAUNCHES and tma[0]["rank"],
              f"kinds_mix: TMA copies {[(i['tma_requests'], i['rank']) for i in tma]}, expected one "
              f"instruction of {BLOCKS * LAUNCHES} executions")
    for kind in ("ld.lc", "st.lc"):
        local = kinds.get(kind, [])
        check(local and all(i["local_requests"] > 0 and i["rank"] for i in local),
              f"kinds_mix: no ranked {kind}")
    red = kinds.get("red", []) + kinds.get("atom", [])
    check(len(red) == 1 and red[0]["requests"] == WARPS * LAUNCHES and
          red[0]["atomic_requests"] == WARPS * LAUNCHES and red[0]["sectors_per_request"] == 1,
          f"kinds_mix: reductions {[(i['kind'], i['requests'], i['sectors_per_request']) for i in red]}"
          f", expected one of {WARPS * LAUNCHES} requests, 1 sector each")
    kd = k[0]
    check(kd["tma_requests"] == (BLOCKS * LAUNCHES if cc >= 9.0 else None) or cc < 9.0,
          f"kinds_mix: kernel tma_requests {kd['tma_requests']}")
    check(kd["bank_conflicts"] == 0, f"kinds_mix: {kd['bank_conflicts']} bank conflicts")


def check_report(doc):
    kernels = {k["index"]: k["name"].split("(")[0] for k in doc["kernels"]}
    runs = {k["index"]: RUNS.get(k["name"].split("(")[0]) for k in doc["kernels"]}
    seen = set()
    for ins in doc["instructions"]:
        name = kernels.get(ins["kernel_index"])
        if name not in EXPECT or ins["kind"] != "ldgsts":
            continue
        check(name not in seen, f"{name}: more than one LDGSTS")
        seen.add(name)
        per_launch, spr, ideal = EXPECT[name]
        where = f"{name} (pc {ins['pc']:#x})"
        check(ins["file"] is not None and ins["file"].endswith("cp_trace_async_sample.cu"),
              f"{where}: no line of the sample ({ins['file']})")
        check(ins["rank"] is not None, f"{where}: not ranked")
        check(ins["op"] == "load", f"{where}: op {ins['op']}")
        want = per_launch * runs[ins["kernel_index"]]
        check(ins["ldgsts_requests"] == want and ins["requests"] == want,
              f"{where}: {ins['ldgsts_requests']} LDGSTS requests ({ins['requests']} requests), "
              f"expected {want}")
        check(ins["sectors_per_request"] == spr and ins["ideal_sectors_per_request"] == ideal,
              f"{where}: {ins['sectors_per_request']} sectors/request (ideal "
              f"{ins['ideal_sectors_per_request']}), expected {spr} ({ideal})")
        check(ins["fill_wavefronts"] is not None and ins["wavefronts"] is None,
              f"{where}: its shared side is not its fill: {ins['wavefronts']}, "
              f"{ins['fill_wavefronts']}")
        check((ins["meaning"] or "").startswith("cp.async: "), f"{where}: {ins['meaning']}")
        print(f"ok: {where}: {ins['meaning']}; fill {ins['fill_wavefronts_per_request']} "
              f"wavefronts/request (ideal {ins['ideal_fill_wavefronts_per_request']})")
    check(seen == set(EXPECT), f"LDGSTS seen on {sorted(seen)}, expected {sorted(EXPECT)}")
    # no kernel shows a bank conflict (the fills are not), and the sums hold
    keys = ("requests", "sectors", "ideal_sectors", "excess_bytes", "ldgsts_requests",
            "shared_requests", "wavefronts", "fill_wavefronts")
    totals = {key: 0 for key in keys}
    for k in doc["kernels"]:
        if not k["counted"]:
            continue
        check(k["bank_conflicts"] == 0, f"{k['name']}: {k['bank_conflicts']} bank conflicts")
        mine = [i for i in doc["instructions"] if i["kernel_index"] == k["index"]]
        for key in keys:
            s = sum(i[key] or 0 for i in mine)
            check(abs((k[key] or 0) - s) < 1e-6, f"{k['name']}: {key} {k[key]}, its instructions {s}")
            totals[key] += k[key] or 0
    for key in keys:
        check(abs((doc["totals"][key] or 0) - totals[key]) < 1e-6,
              f"program {key} {doc['totals'][key]}, its kernels {totals[key]}")


def main():
    args = trace_ncu.arguments(__doc__)
    if isinstance(args, int):
        return args
    coalprobe, sample, outdir = args
    cc = compute_capability()
    if cc is None or cc < 8.0:
        print(f"compute capability {cc}: no cp.async, skipped")
        return 77
    if cc < 9.0:
        del RUNS["tma_tile2d"], RUNS["tma_tile2d_narrow"]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(outdir or tmp, "trace_async.json")
        p = subprocess.run([coalprobe, "trace", "--top", "9", "--format", "json", "-o", report,
                            "--", sample, str(LAUNCHES)], capture_output=True, text=True)
        check(p.returncode == 0, f"coalprobe trace exited {p.returncode}: {p.stderr.strip()}")
        if p.returncode != 0:
            return 1
        doc = json.load(open(report))
        v = subprocess.run([sys.executable, VALIDATE, "--schema", SCHEMA, report],
                           capture_output=True, text=True)
        check(v.returncode in (0, 77), f"schema: {v.stdout.strip()} {v.stderr.strip()}")
        check_kernels(doc)
        check_report(doc)
        check_kinds(doc, cc)
        check_coverage(doc, cc)
        check_tensor_maps(doc, cc)
        # the full set counts TMA's sectors apart (its graph launches are unmatched: not checked)
        full_report = os.path.join(outdir or tmp, "trace_async_full.json")
        p = subprocess.run([coalprobe, "trace", "--kernel-counters", "full", "--format", "json",
                            "-o", full_report, "--", sample, str(LAUNCHES)],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"coalprobe trace --kernel-counters full exited {p.returncode}: "
              f"{p.stderr.strip()[-2000:]}")
        full = json.load(open(full_report)) if p.returncode == 0 else {"kernels": []}
        # the counting pauses around graph launches under kernel replay: nothing unmatched
        check(not full.get("unmatched"), f"full: unmatched kernel records {full.get('unmatched')}")
        check_coverage({"kernels": [k for k in full["kernels"]
                                    if k["name"].split("(")[0] in TMA_BYTES or
                                    k["name"].startswith("readonly_lookup")]}, cc, full=True)
        table = subprocess.run([coalprobe, "trace", "--top", "9", "--", sample, str(LAUNCHES)],
                               capture_output=True, text=True)
        print(table.stdout)
        if outdir:
            with open(os.path.join(outdir, "trace_async.txt"), "w") as f:
                f.write(table.stdout)
        if shutil.which("ncu"):
            compare_ncu(sample, doc, outdir)
            compare_ncu_kernels(sample, full, outdir)
        else:
            print("no ncu: the comparison with Nsight Compute is skipped")
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
