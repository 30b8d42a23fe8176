#!/bin/sh
# experiment 2: B (working tree: one warm-up after the checked launch) against A (two), and
# C (B + batch 1024 + each CUPTI edge call timed)
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
now() { date +%s.%N; }
span() { python3 -c "print('%.3f' % ($2 - $1))"; }
t0=$(now)
. bench/gpu_build.sh > $O/build.txt 2>&1
echo "build B: $(span $t0 $(now)) s"
rm -rf /tmp/a /tmp/c; mkdir /tmp/a /tmp/c
git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/a && tar xf -)
cp -r /tmp/a/. /tmp/c/
sed -i 's/#define CP_CUDA_WARMUPS_AFTER_CHECK 1/#define CP_CUDA_WARMUPS_AFTER_CHECK 2/' /tmp/a/src/measure/cp_measure_cuda.c
python3 - <<'PY'
p='/tmp/c/src/measure/cp_measure_cuda.c'; s=open(p).read()
s=s.replace("return configs < 256 ? configs : 256;","return configs < 1024 ? configs : 1024;"); open(p,'w').write(s)
p='/tmp/c/src/measure/cp_cupti.cpp'; s=open(p).read()
for call in ["int start = range_start(s, st);","int stop = range_stop(s, all_submitted, rc == CP_EXIT_OK ? st : &later);","rc = reset_image(s, st);"]:
    assert call in s
    s=s.replace(call, "double T0 = cp_phase_now(); "+call+" fprintf(stderr, \"EDGE %s %.4f s\\n\", \""+call.split('(')[0].split()[-1]+"\", cp_phase_now() - T0);")
s=s.replace("    s->counter_data.assign(sp.counterDataSize, 0);","    s->counter_data.assign(sp.counterDataSize, 0); fprintf(stderr, \"IMAGE %zu bytes for %zu ranges\\n\", (size_t)sp.counterDataSize, (size_t)s->max_ranges);")
if '#include <cstdio>' not in s: s='#include <cstdio>\n'+s
open(p,'w').write(s)
PY
t1=$(now)
for v in a c; do (cd /tmp/$v && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt) & done; wait
echo "build A,C: $(span $t1 $(now)) s"
ls -l build-gpu/coalprobe /tmp/a/build/coalprobe /tmp/c/build/coalprobe
for i in 1 2 3; do
  for v in A B; do
    case $v in A) bin=/tmp/a/build/coalprobe;; B) bin=build-gpu/coalprobe;; esac
    s=$(now); $bin --stride 1..32 -v --format json -o $O/$v$i.json 2> $O/$v$i.err; rc=$?
    echo "$v --stride 1..32 run $i: $(span $s $(now)) s rc=$rc"
  done
done
s=$(now); /tmp/c/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/C32.err; echo "C --stride 1..32: $(span $s $(now)) s"
cat $O/C32.err
s=$(now); /tmp/c/build/coalprobe --stride 1..32 --offset 0..7 --width 4,8,16,32 -v --format json -o $O/C1024.json 2> $O/C1024.err; echo "C 1024: $(span $s $(now)) s"
grep -v EDGE $O/C1024.err; grep EDGE $O/C1024.err | sort | awk '{n[$2]++; t[$2]+=$3} END {for (k in n) print "EDGE", k, n[k], "calls", t[k], "s"}'
s=$(now); build-gpu/coalprobe --stride 1..32 --offset 0..7 --width 4,8,16,32 -v --format json -o $O/B1024.json 2> $O/B1024.err; echo "B 1024: $(span $s $(now)) s"
cat $O/B1024.err
sh bench/counter_speed.sh build-gpu/coalprobe /tmp/cs 5 > $O/cs.txt 2>&1; grep -v "^metrics" $O/cs.txt
(cd $O && tar czf $OUT/exp2.tgz *.json *.err cs.txt build.txt)
