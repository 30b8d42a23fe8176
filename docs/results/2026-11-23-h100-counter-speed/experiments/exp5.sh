#!/bin/sh
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
for v in c f; do rm -rf /tmp/$v; mkdir /tmp/$v; git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/$v && tar xf -); python3 scratch/patch_c.py /tmp/$v; done
python3 - <<'PY'
p='/tmp/f/src/measure/cp_cupti.cpp'; s=open(p).read()
for op in ('ld','st'):
    a='{CP_CUPTI_GROUP_GLOBAL, {"smsp__sass_data_bytes_mem_global_op_%s.sum"'%op
    assert a in s; s=s.replace(a,'{0, {"smsp__sass_data_bytes_mem_global_op_%s.sum"'%op)
open(p,'w').write(s)
PY
for v in c f; do (cd /tmp/$v && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt) & done; wait
for i in 1 2; do
 echo "== F (no instrumented bytes metrics) run $i"; /tmp/f/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/F$i.err; grep -E "EDGE|IMAGE|in all|CUPTI|passes|other" $O/F$i.err
 echo "== C eager run $i"; CUDA_MODULE_LOADING=EAGER /tmp/c/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/CE$i.err; grep -E "EDGE|IMAGE|in all|CUPTI|passes|other|device" $O/CE$i.err
 echo "== C run $i"; /tmp/c/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/C$i.err; grep -E "EDGE|IMAGE|in all|CUPTI|passes|other|device" $O/C$i.err
 echo "== C gemm naive run $i"; /tmp/c/build/coalprobe gemm --m 1024 --n 1024 --k 1024 --variant naive,coalesced -v > /dev/null 2> $O/CG$i.err; grep -E "EDGE|IMAGE|in all|CUPTI|passes|other|device" $O/CG$i.err
done
