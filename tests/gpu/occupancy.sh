#!/bin/sh
# occupancy.sh: on a GPU, every measured row reports its kernel's resources as launched
# (registers > 0, the block size the launcher uses, shared memory, blocks per SM), a theoretical
# occupancy in (0, 1] that equals blocks per SM x warps per block over the SM's warps and the
# least of coalprobe's own blocks-per-limit, and an achieved occupancy at most 0.05 above it; for
# every family, the GEMM rungs on both index widths, and --explain (ctest label gpu).
# Exits 77 (ctest: skipped) when no CUDA device is present.
set -u
bin=${1:?usage: occupancy.sh PATH/TO/coalprobe}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no CUDA device: skipped"
    exit 77
fi
out=${TMPDIR:-/tmp}/coalprobe-occupancy-$$
mkdir -p "$out" || exit 1
trap 'rm -rf "$out"' EXIT
fail=0

# check NAME THREADS STATIC DYNAMIC ALONE -- coalprobe args: every measured row of the JSON
# report has THREADS threads per block, STATIC and DYNAMIC bytes of shared memory ("*": any),
# and (ALONE 0) an achieved occupancy read and at most theoretical + 0.05, or (ALONE 1, kernels
# profiled one block per SM) none. cuBLAS rows: resources null with a reason.
check() {
    name=$1 threads=$2 static=$3 dynamic=$4 alone=$5
    shift 6
    echo "== coalprobe $* ($name)"
    if ! "$bin" "$@" --require-counters --reps 3 --format json >"$out/$name.json"; then
        echo "FAILED (exit $?): coalprobe $*"
        fail=1
        return
    fi
    python3 - "$out/$name.json" "$threads" "$static" "$dynamic" "$alone" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
threads, static, dynamic, alone = sys.argv[2:6]
sm = doc["device"]["sm"]
sm_warps = sm["max_threads"] // sm["warp_size"]
bad = 0
def fail(msg, row):
    global bad
    bad = 1
    print(f"{msg}: {json.dumps(row['config'])}")
rows = [r for r in doc["rows"] if r["measured"]]
if not rows:
    print("no measured row")
    sys.exit(1)
for r in rows:
    m = r["measured"]
    res, ach = m["resources"], m["counters"]["achieved_occupancy"]
    if r["config"].get("variant") == "cublas":
        if res is not None or not m["resources_reason"]:
            fail("cuBLAS: resources should be null with a reason", r)
        continue
    if res is None:
        fail(f"no resources ({m['resources_reason']})", r)
        continue
    th = res["theoretical_occupancy"]
    warps = -(-res["threads_per_block"] // sm["warp_size"])
    by = res["blocks_per_sm_by_limit"]
    least = min(v for v in by.values() if v is not None)
    checks = [
        (res["registers_per_thread"] > 0, "registers_per_thread > 0"),
        (res["threads_per_block"] == int(threads), f"threads_per_block == {threads}"),
        (static == "*" or res["static_shared_bytes"] == int(static), f"static_shared_bytes == {static}"),
        (dynamic == "*" or res["dynamic_shared_bytes"] == int(dynamic), f"dynamic_shared_bytes == {dynamic}"),
        (0 < th <= 1, "0 < theoretical_occupancy <= 1"),
        (abs(th - res["blocks_per_sm"] * warps / sm_warps) < 1e-9, "theoretical = blocks x warps / SM warps"),
        (least == res["blocks_per_sm"], f"coalprobe's calculation ({least}) = the API's blocks per SM"),
        (res["limited_by"] and all(by[l] == least for l in res["limited_by"]), "limited_by names the least limits"),
    ]
    if alone == "1":
        checks.append((ach is None, "achieved occupancy null (profiled one block per SM)"))
    else:
        checks.append((ach is not None and 0 < ach <= th + 0.05, f"0 < achieved ({ach}) <= theoretical ({th}) + 0.05"))
    for ok, what in checks:
        if not ok:
            fail(f"{what} fails (resources {json.dumps(res)}, achieved {ach})", r)
    print(f"  {json.dumps(r['config'])}: {res['registers_per_thread']} regs, "
          f"{res['static_shared_bytes']}+{res['dynamic_shared_bytes']} B shared, "
          f"{res['blocks_per_sm']} blocks/SM, occupancy {th:.2f} theoretical, "
          f"{ach if ach is None else round(ach, 2)} achieved, limited by {'+'.join(res['limited_by'])}")
sys.exit(bad)
PY
}

# the GEMM ladder (issue 13): naive 32x32 = 1024, coalesced 1024, smem 1024 with 2 x 4 KiB tiles
check gemm_naive 1024 0 0 0 -- gemm --m 1024 --n 1024 --k 1024 --variant naive,coalesced,cublas
check gemm_smem 1024 8192 0 0 -- gemm --m 1024 --n 1024 --k 1024 --variant smem
# the *_i64 path: (m+32)(k+32) above INT32_MAX (A is 8.6 GB; n = 32 keeps it quick)
check gemm_i64 1024 8192 0 0 -- gemm --m 46400 --n 32 --k 46400 --variant smem
check stride 256 0 0 0 -- --stride 1,2,32 --width 4,32 --op all --size 8M
check layout 256 0 0 0 -- layout --fields 1,8 --size 8M
check gather 256 0 0 0 -- gather --run 1,32 --size 4M
check transpose_naive 256 0 0 0 -- transpose --variant naive --m 2048 --n 2048
check transpose_tiled 256 4224 0 1 -- transpose --variant tiled,padded --m 2048 --n 2048
# smem: 32*stride elements of width bytes, dynamic
check smem_s1 256 0 128 1 -- smem --stride 1 --width 4
check smem_s33 256 0 16896 1 -- smem --stride 33 --width 16 --op store
check expr 256 0 0 0 -- expr --index "(i % 32) * 1024 + i / 32" --size 1M

# --explain reads the same without launching anything, and agrees with the occupancy API
echo "== coalprobe gemm --explain"
text=$("$bin" gemm --m 64 --n 64 --k 64 --variant naive,cublas --explain) || fail=1
for want in "Kernel: 1024 threads/block, " "Blocks/SM allowed: threads 2, " "  limited by " \
    "Kernel resources: not coalprobe's kernel"; do
    case $text in
    *"$want"*) ;;
    *) echo "FAILED: --explain lacks '$want'"; fail=1 ;;
    esac
done
case $text in
*"coalprobe's calculation gives"*) echo "FAILED: --explain disagrees with the occupancy API"; fail=1 ;;
esac
echo "$text" | grep -A4 "^Kernel"
echo "== coalprobe expr --explain (NVRTC)"
text=$("$bin" expr --index "i * 2 % n" --size 64K --explain) || fail=1
case $text in
*"Kernel: 256 threads/block, "*) echo "$text" | grep -A4 "^Kernel" ;;
*) echo "FAILED: expr --explain lacks its resources"; fail=1 ;;
esac
[ $fail -eq 0 ] && echo "ok: resources and occupancy of every family"
exit $fail
