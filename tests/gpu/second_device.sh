#!/bin/sh
# second_device.sh: on a machine with two or more GPUs, --device 1 measures on the second GPU:
# the report's device is GPU 1 (index, name, L2 and memory as nvidia-smi lists them; the L2 flush
# and the buffer checks use those), the work runs on that GPU only (its memory in use grows, GPU
# 0's does not), every count equals the model there (gpu_counts.sh with --device 1), and
# doctor lists every GPU. Exits 77 (skipped) with fewer than two GPUs.
set -u
bin=${1:?usage: second_device.sh PATH/TO/coalprobe}
here=$(dirname "$0")
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${n:-0}" -lt 2 ]; then
    echo "fewer than two GPUs (${n:-0}): skipped"
    exit 77
fi
# CUDA numbers GPUs fastest first unless told otherwise; nvidia-smi by PCI bus: make them agree
CUDA_DEVICE_ORDER=PCI_BUS_ID
export CUDA_DEVICE_ORDER
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

echo "== the report's device is GPU 1"
"$bin" --stride 1,2,32 --size 64M --device 1 --reps 3 --require-counters --format json -o "$tmp/d1.json" ||
    { echo "FAIL: coalprobe --device 1 exited $?"; fail=1; }
nvidia-smi -i 1 --query-gpu=index,name,memory.total --format=csv,noheader,nounits > "$tmp/smi1.txt"
python3 - "$tmp/d1.json" "$tmp/smi1.txt" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))["device"]
index, name, mem_mib = [x.strip() for x in open(sys.argv[2]).read().split(",")]
assert d["index"] == 1, d["index"]
assert d["name"] == name, (d["name"], name)
# nvidia-smi's total is the memory the driver reports, in MiB; CUDA's totalGlobalMem is close
assert abs(d["memory_bytes"] / 2**20 - float(mem_mib)) / float(mem_mib) < 0.02, (d["memory_bytes"], mem_mib)
assert d["l2_bytes"] > 0
rows = json.load(open(sys.argv[1]))["rows"]
assert all(r["measured"]["match"] is True for r in rows), [r["measured"]["match"] for r in rows]
print(f"ok: device 1 is {d['name']} ({d['arch']}), L2 {d['l2_bytes'] / 2**20:.0f} MiB, "
      f"{len(rows)} rows match the model")
PY

echo "== the work runs on GPU 1 and not on GPU 0"
# memory in use on each GPU while a long run allocates its buffers (256 MiB a side, the L2 flush
# buffer, the copy peak's 2 x 512 MiB) on GPU 1: in a container nvidia-smi may not show our pid,
# but it shows the memory
used() { nvidia-smi -i "$1" --query-gpu=memory.used --format=csv,noheader,nounits | tr -d ' '; }
base0=$(used 0) base1=$(used 1)
"$bin" --stride 1..32 --width 4,8,16,32 --size 256M --device 1 --reps 50 --no-counters \
    --format csv -o /dev/null &
pid=$!
max0=$base0 max1=$base1
while kill -0 "$pid" 2>/dev/null; do
    u0=$(used 0) u1=$(used 1)
    [ "$u0" -gt "$max0" ] && max0=$u0
    [ "$u1" -gt "$max1" ] && max1=$u1
    sleep 0.2
done
wait "$pid" || { echo "FAIL: the background run exited $?"; fail=1; }
d0=$((max0 - base0)) d1=$((max1 - base1))
if [ $d1 -ge 256 ] && [ $d0 -lt 64 ]; then
    echo "ok: memory in use grew by $d1 MiB on GPU 1 and $d0 MiB on GPU 0"
else
    echo "FAIL: memory in use grew by $d1 MiB on GPU 1 and $d0 MiB on GPU 0 (expected >= 256 and < 64)"
    fail=1
fi

echo "== doctor lists every GPU"
"$bin" doctor --format json > "$tmp/doctor.json"
python3 - "$tmp/doctor.json" "$n" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert len(d["gpus"]) == n, (len(d["gpus"]), n)
assert all(g["runs"] for g in d["gpus"]), d["gpus"]
print("ok: doctor lists " + ", ".join(f"GPU {g['index']} {g['name']} ({g['arch']}, chip {g['chip']})" for g in d["gpus"]))
PY

echo "== every count equals the model on GPU 1"
CP_GPU_ARGS="--device 1" sh "$here/gpu_counts.sh" "$bin" || fail=1

[ $fail -eq 0 ] && echo "second device checks passed"
exit $fail
