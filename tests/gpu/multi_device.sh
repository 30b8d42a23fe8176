#!/bin/sh
# multi_device.sh: on a machine with two or more GPUs, a sweep spread over them (--devices all):
# every row's counts equal the model on the GPU that measured it (--check, which also times each
# configuration on the other GPUs), every GPU measured rows, the rows come in the order of a
# one-GPU run, each names its GPU's index and the UUID nvidia-smi lists for it; a GEMM sweep over
# GPUs 0 and 1 likewise; and the 1,024 configurations of --stride 1..32 --offset 0..31 without
# --require-counters (each GPU starts once its own context is open, and reads its counters in
# batches of 256 as the sweep goes): every row equal to the model on the GPU that measured it.
# Exits 77 (skipped) with fewer than two GPUs.
set -u
bin=${1:?usage: multi_device.sh PATH/TO/coalprobe}
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${n:-0}" -lt 2 ]; then
    echo "fewer than two GPUs (${n:-0}): skipped"
    exit 77
fi
CUDA_DEVICE_ORDER=PCI_BUS_ID
export CUDA_DEVICE_ORDER
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
nvidia-smi -L > "$tmp/smi.txt"

echo "== --stride 1..32 --offset 0,4,8 --devices all --check"
"$bin" --stride 1..32 --offset 0,4,8 --size 64M --devices all --check --require-counters \
    --format json -o "$tmp/all.json" || { echo "FAIL: exit $?"; fail=1; }
"$bin" --stride 1..32 --offset 0,4,8 --size 64M --model --format json -o "$tmp/model.json"
echo "== --stride 1..32 --offset 0..31 --devices all (counters as the sweep goes)"
"$bin" --stride 1..32 --offset 0..31 --devices all --format json -o "$tmp/wide.json" ||
    { echo "FAIL: exit $?"; fail=1; }
"$bin" --stride 1..32 --offset 0..31 --model --format json -o "$tmp/wide_model.json"
echo "== gemm --devices 0,1"
"$bin" gemm --devices 0,1 --require-counters --format json -o "$tmp/gemm.json" ||
    { echo "FAIL: gemm exit $?"; fail=1; }
python3 - "$tmp" "$n" <<'PY' || fail=1
import json, re, sys
tmp, n = sys.argv[1], int(sys.argv[2])
uuids = {int(m.group(1)): m.group(2) for m in
         (re.match(r"GPU (\d+):.*\(UUID: (GPU-[0-9a-f-]+)\)", l) for l in open(tmp + "/smi.txt")) if m}
bad = 0
def check(cond, what):
    global bad
    print(("ok      " if cond else "FAILED  ") + what)
    bad += not cond
for name, want_gpus in (("all", set(range(n))), ("wide", set(range(n))), ("gemm", {0, 1})):
    d = json.load(open("%s/%s.json" % (tmp, name)))
    rows = d["rows"]
    check(len(d["devices"]) == len(want_gpus), "%s: the report lists %d GPUs" % (name, len(want_gpus)))
    used = {r["device"]["index"] for r in rows}
    check(used == want_gpus, "%s: every GPU measured rows (%s)" % (name, sorted(used)))
    check(all(r["device"]["uuid"] == uuids.get(r["device"]["index"]) for r in rows),
          "%s: each row's UUID is its GPU's as nvidia-smi lists it" % name)
    check(all(r["failed"] is None and r["measured"] is not None for r in rows), "%s: no row failed" % name)
    modelled = [r for r in rows if r["source"] == "measured" and r["predicted"] is not None and r["config"].get("variant") != "cublas"]
    check(all(r["measured"]["match"] is True for r in modelled),
          "%s: every modelled row's counts equal the model (%d rows)" % (name, len(modelled)))
d = json.load(open(tmp + "/all.json"))
m = json.load(open(tmp + "/model.json"))
check([r["config"] for r in d["rows"]] == [r["config"] for r in m["rows"]], "all: rows in the one-GPU order")
w = json.load(open(tmp + "/wide.json"))
wm = json.load(open(tmp + "/wide_model.json"))
check([r["config"] for r in w["rows"]] == [r["config"] for r in wm["rows"]] and len(w["rows"]) == 1024,
      "wide: 1,024 rows in the one-GPU order")
per = {}
for r in w["rows"]:
    per[r["device"]["index"]] = per.get(r["device"]["index"], 0) + 1
print("    wide: rows per GPU %s" % per)
check(all(r["other_devices"] is not None for r in d["rows"]), "all: --check timed every row on the other GPUs")
flagged = [(r["config"]["stride"], r["config"]["offset"], r["device"]["index"]) for r in d["rows"] if r["other_devices"]["differs"]]
print("    rows whose time differs on the other GPUs: %d %s" % (len(flagged), flagged[:8]))
sys.exit(1 if bad else 0)
PY
exit $fail
