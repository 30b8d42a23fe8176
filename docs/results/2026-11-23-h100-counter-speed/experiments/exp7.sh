#!/bin/sh
# experiment 7: Z = no warm-up beyond the checked launch, against B (one)
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
rm -rf /tmp/z; mkdir /tmp/z; git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/z && tar xf -)
sed -i 's/#define CP_CUDA_WARMUPS_AFTER_CHECK 1/#define CP_CUDA_WARMUPS_AFTER_CHECK 0/' /tmp/z/src/measure/cp_measure_cuda.c
(cd /tmp/z && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt)
python3 - <<'PY'
import subprocess, time, json, statistics as st
res={'B':[], 'Z':[]}
for i in range(4):
    for v,b in (('B','build-gpu/coalprobe'),('Z','/tmp/z/build/coalprobe')):
        t0=time.monotonic()
        p=subprocess.run([b,'--stride','1..32','--offset','0,4','--format','json','-o','/tmp/o/%s%d.json'%(v,i)],stderr=subprocess.PIPE,text=True)
        t1=time.monotonic()
        rows=json.load(open('/tmp/o/%s%d.json'%(v,i)))['rows']
        res[v].append([(r['measured']['time_s']['median'],r['measured']['time_s']['min'],r['measured']['time_s']['max']) for r in rows])
        print(v, i, 'rc', p.returncode, 'wall %.3f' % (t1-t0), flush=True)
n=len(res['B'][0])
for k,name in ((0,'median'),(1,'min'),(2,'max')):
    d=[(st.median([x[c][k] for x in res['Z']])/st.median([x[c][k] for x in res['B']])-1)*100 for c in range(n)]
    print('Z vs B %s over %d configs: min %.3f%% median %.3f%% max %.3f%%' % (name, n, min(d), st.median(d), max(d)))
PY
(cd $O && tar czf $OUT/exp7.tgz *.json)
