#!/bin/sh
# multi_gpu.sh: the 1,024-configuration sweep (--stride 1..32 --offset 0..31) with timings and
# counters on one GPU (--device 0) against the same sweep spread over every GPU of the machine
# (--devices all), alternating, REPEAT times each (default 3), in one run: prints every wall time,
# the medians and their ratio (target: at most 0.55 on two GPUs), and checks that every row of
# every run has counts equal to the model (its JSON's match) on the GPU that measured it. Then
# what a user could do instead, by hand: one coalprobe process per GPU (--device K), each given
# its share of the offsets, all started together, REPEAT times: its median and ratio too.
# usage (GPU machine): sh bench/multi_gpu.sh BUILD_DIR OUTDIR [REPEAT]
set -u
usage="usage: multi_gpu.sh BUILD_DIR OUTDIR [REPEAT]"
B=${1:?$usage} out=${2:?$usage} repeat=${3:-3}
mkdir -p "$out"
. "$(dirname "$0")/timing.sh"
export CUDA_DEVICE_ORDER=PCI_BUS_ID
echo "GPUs: $(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tr '\n' ';')  date: $(date -u +%FT%TZ)"
sweep="--stride 1..32 --offset 0..31 --format json"
one="" all=""
for i in $(seq "$repeat"); do
    one="$one $(wall "one.$i" "$B/coalprobe" $sweep --device 0 -o "$out/one.$i.json")"
    all="$all $(wall "all.$i" "$B/coalprobe" $sweep --devices all -o "$out/all.$i.json")"
done
m1=$(echo $one | tr ' ' '\n' | median); ma=$(echo $all | tr ' ' '\n' | median)
echo "one GPU:$one s"
echo "every GPU:$all s"
awk -v a="$ma" -v o="$m1" 'BEGIN { printf "median one GPU %.2f s, every GPU %.2f s: ratio %.3f\n", o, a, a / o }'
gpus=$(nvidia-smi -L | grep -c '^GPU')
if [ "$gpus" -gt 1 ] && [ "$gpus" -le 32 ]; then
    hand=""
    for i in $(seq "$repeat"); do
        t0=$(now)
        k=0
        while [ "$k" -lt "$gpus" ]; do
            lo=$((k * 32 / gpus)) hi=$(((k + 1) * 32 / gpus - 1))
            "$B/coalprobe" --stride 1..32 --offset "$lo..$hi" --format json --device "$k" \
                -o "$out/hand.$i.$k.json" > /dev/null 2> "$out/hand.$i.$k.err" &
            k=$((k + 1))
        done
        wait
        hand="$hand $(span "$t0" "$(now)")"
    done
    mh=$(echo $hand | tr ' ' '\n' | median)
    echo "by hand, one process a GPU, the offsets shared:$hand s"
    awk -v h="$mh" -v o="$m1" -v a="$ma" 'BEGIN { printf "median by hand %.2f s: ratio %.3f (every GPU in one run: %.3f)\n", h, h / o, a / o }'
fi
python3 - "$out" "$repeat" <<'PY'
import glob, json, os, sys
out, repeat = sys.argv[1], int(sys.argv[2])
def gaps(r):  # the counters a row's GPU did not read, and why
    return ((r["measured"] or {}).get("counters") or {}).get("unavailable")
ref = None  # one.1.json's notes by configuration
if os.path.exists(out + "/one.1.json"):
    ref = {json.dumps(r["config"], sort_keys=True): gaps(r) for r in json.load(open(out + "/one.1.json"))["rows"]}
for i in range(1, repeat + 1):  # every run wrote its report
    for name in ["one.%d.json" % i, "all.%d.json" % i]:
        if not os.path.exists(out + "/" + name):
            print("%s: missing (its .err: %s)" % (name, open(out + "/" + name[:-5] + ".err").read().strip()))
for f in sorted(glob.glob(out + "/*.json")):
    rows = json.load(open(f))["rows"]
    # a one-GPU run's rows name no device: hand.I.K.json ran on GPU K, one.I.json on GPU 0
    name = f.split("/")[-1].split(".")
    alone = int(name[2]) if name[0] == "hand" else 0
    per = {}
    for r in rows:
        gpu = r["device"]["index"] if r.get("device") else alone
        per.setdefault(gpu, [0, 0])
        per[gpu][0] += 1
        per[gpu][1] += (r["measured"] or {}).get("match") is True
    differ = sum(ref is not None and ref.get(json.dumps(r["config"], sort_keys=True)) != gaps(r) for r in rows)
    print("%s: %d rows; per GPU (rows, equal to the model): %s; counters' notes unlike one.1.json's: %d rows"
          % (f.split("/")[-1], len(rows), per, differ))
PY
