#!/bin/sh
# gpu_counts.sh: on a GPU, measured requests and sectors, and shared-memory requests,
# wavefronts and bank conflicts, equal the model's exactly and every kernel's output verifies, for
# every family over a spread of parameters (the atomic family's own counters too), and the
# readonly rows carry a regime estimate that grows with the working set (ctest label gpu).
# Exits 77 (ctest: skipped) when no CUDA device is present. CP_GPU_ARGS (e.g. "--device 1") is
# added to every run (tests/gpu/second_device.sh).
set -u
bin=${1:?usage: gpu_counts.sh PATH/TO/coalprobe}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no CUDA device: skipped"
    exit 77
fi
fail=0
run() {
    echo "== coalprobe $*"
    # --check: exit 3 on any count mismatch; --require-counters: exit 1 without counters
    "$bin" "$@" ${CP_GPU_ARGS:-} --check --require-counters --reps 3 --format csv >/tmp/coalprobe-gpu-$$.csv
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAILED (exit $rc): coalprobe $*"
        python3 - /tmp/coalprobe-gpu-$$.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["match"] != "true":
        print({k: v for k, v in r.items() if v != ""})
PY
        fail=1
    elif ! python3 - /tmp/coalprobe-gpu-$$.csv <<'PY'
import csv, sys
bad = 0
seen = {}
for r in csv.DictReader(open(sys.argv[1])):
    for side in ("load", "store"):
        if r.get("variant") == "cublas":  # measured, not modelled (a CSV has its family's columns)
            continue
        p, m = r[f"pred_{side}_efficiency"], r[f"meas_{side}_efficiency"]
        if m == "" and p != "" and r["meas_ldgsts_requests"] not in ("", "0"):
            continue  # cp.async: the data-bytes counter does not see LDGSTS (null, with why)
        if p != m:  # both bytes / (sectors * 32), printed to 6 significant digits; both empty
            # when the kernel has no access on that side (smem: no global load)
            print(f"efficiency differs: {side} predicted {p} measured {m}: {r}")
            bad = 1
    for side in ("load", "store"):  # shared memory, where the model describes it
        if r["pred_shared_exact"] == "false":  # counters that see more than the kernel's own
            continue
        for what in ("requests", "wavefronts", "bank_conflicts"):
            p, m = r[f"pred_shared_{side}_{what}"], r[f"meas_shared_{side}_{what}"]
            # a sweep whose kernels use no shared memory does not read these counters (one
            # profiler pass fewer): empty, where the model predicts none
            if p != "" and m == "" and float(p) == 0:
                continue
            if p != "" and float(p) != float(m or "nan"):
                print(f"shared {side} {what} differ: predicted {p} measured {m}: {r}")
                bad = 1
    if r["pattern"] == "atomic":  # its own counters: every one a metric measures, read and equal
        for key in ("atom_requests", "atom_sectors", "red_requests", "red_sectors"):
            p, m = r[f"pred_{key}"], r[f"meas_{key}"]
            if p == "" or m == "" or float(p) != float(m):
                print(f"{key} differs: predicted {p} measured {m}: {r}")
                bad = 1
    if r["pattern"] == "readonly":  # the regime estimate: present on a device, and consistent
        ws, level = int(r["pred_working_set_bytes"] or 0), r["pred_regime_estimate"]
        order = ["constant_cache", "beyond_constant_cache"] if r["variant"] == "constant" \
            else ["l1", "l2", "dram"]
        if level not in order:
            print(f"readonly row without a regime estimate: {r}")
            bad = 1
        else:
            seen.setdefault(r["variant"], []).append((ws, order.index(level)))
for variant, rows in seen.items():  # a larger working set never lives in a nearer cache
    rows.sort()
    if any(a[1] > b[1] for a, b in zip(rows, rows[1:])):
        print(f"regime not monotone in the working set for {variant}: {rows}")
        bad = 1
    if rows[0][0] <= 4096 and rows[0][1] != 0:
        print(f"a 4 KB working set should fit the nearest cache ({variant}): {rows[0]}")
        bad = 1
sys.exit(bad)
PY
    then
        fail=1
    else
        echo "ok: $(($(wc -l </tmp/coalprobe-gpu-$$.csv) - 1)) configurations match (counts and efficiency)"
    fi
}
run stride --stride 1..32 --width 4,8,16,32 --op all --size 8M
run stride --stride 1,2,3,7,32,33,4096 --offset 0,1,3,31,4096 --width 4,8,16,32 --op all --size 1M
run stride --stride 1..4 --width 4 --size 4100
run layout --layout all --fields 1..16 --field 0 --size 8M
run layout --layout all --fields 64 --field 0,1,31,63 --size 1M
run gather --run 1,2,4,8,32,33,1000 --seed 1,2 --size 4M
run gather --run 1,7 --size 4100
run gemm --variant all --m 256 --n 256 --k 64
run gemm --variant smem --m 64,96 --n 64,40 --k 32,40,70
run gemm --variant all --m 33,100 --n 65,31 --k 1,17
run smem --stride 1..33,48,63,64 --width 4,8,16 --op all
run transpose --variant all --m 4096,1000,33 --n 4096,1100,65
run readonly --variant all --index all --table 128,132,4K,64K,1M,64M --size 4M
run readonly --variant all --index all --table 4K,4100 --size 4100
run async --variant all --stages 1..4 --work 0,3 --size 1M
run async --variant all --stages 1,2 --size 16K
run atomic --variant all --op all --type all --size 4M
run atomic --variant contention --addresses 1..32 --op all --type all --size 4100
run atomic --variant strided --stride 1..9,16,31,32,64 --op all --size 1M
run atomic --variant all --op all --size 4100
run expr --index "(i % 32) * 1024 + i / 32" --size 4M --width 4,16
run expr --index "(i * s + k) % n" --param s=1..4,32,33 --param k=0,5 --op all --size 4M
run expr --index "i / 2" --op store --size 1M
run expr --index "n - 1 - i" --width 4,8,16,32 --op all --size 4100
# too large for the device: refused before any allocation (exit 2), saying what it needs
echo "== coalprobe --stride 4096 --width 32 --size 1G (far beyond the GPU's memory)"
"$bin" --stride 4096 --width 32 --size 1G ${CP_GPU_ARGS:-} -o /tmp/coalprobe-gpu-$$.big 2>/tmp/coalprobe-gpu-$$.err
rc=$?
if [ $rc -ne 2 ] || ! grep -q "needs [0-9]* bytes of buffers" /tmp/coalprobe-gpu-$$.err ||
    [ -e /tmp/coalprobe-gpu-$$.big ]; then
    echo "FAILED: exit $rc, expected 2 with the bytes needed and no report"
    cat /tmp/coalprobe-gpu-$$.err
    fail=1
else
    echo "ok: refused: $(head -1 /tmp/coalprobe-gpu-$$.err)"
fi
rm -f /tmp/coalprobe-gpu-$$.csv /tmp/coalprobe-gpu-$$.err /tmp/coalprobe-gpu-$$.big
[ $fail -eq 0 ] && echo "all gpu count checks passed"
exit $fail
