#!/bin/sh
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
rm -rf /tmp/c; mkdir /tmp/c; git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/c && tar xf -)
python3 scratch/patch_c.py /tmp/c
(cd /tmp/c && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt)
for i in 1 2; do /tmp/c/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/C32_$i.err; cat $O/C32_$i.err; done
/tmp/c/build/coalprobe --stride 1..32 --offset 0..7 --width 4,8,16,32 -v --format json -o $O/C1024.json 2> $O/C1024.err
grep -v EDGE $O/C1024.err; grep EDGE $O/C1024.err | awk '{n[$2]++; t[$2]+=$3; if ($3>m[$2]) m[$2]=$3} END {for (k in n) print "EDGE", k, n[k], "calls", t[k], "s, max", m[k]}'
(cd $O && tar czf $OUT/exp4.tgz *.json *.err)
