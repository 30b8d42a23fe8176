#!/bin/sh
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
rm -rf /tmp/p; mkdir /tmp/p; git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/p && tar xf -); python3 scratch/patch_p.py /tmp/p
(cd /tmp/p && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt)
python3 - <<'PY'
import subprocess, time
for i in range(4):
    for v,b in (('B','build-gpu/coalprobe'),('P','/tmp/p/build/coalprobe')):
        t0=time.monotonic()
        p=subprocess.run([b,'--stride','1..32','-v','--format','json','-o','/tmp/o/%s%d.json'%(v,i)],stderr=subprocess.PIPE,text=True)
        t1=time.monotonic()
        open('/tmp/o/%s%d.err'%(v,i),'w').write(p.stderr)
        tot=[l for l in p.stderr.splitlines() if 'in all' in l]
        edges=' '.join(l.split()[1]+'='+l.split()[2] for l in p.stderr.splitlines() if l.startswith('EDGE'))
        print(v, i, 'rc', p.returncode, 'wall %.3f' % (t1-t0), tot[0] if tot else '', edges, flush=True)
PY
cat /tmp/o/P3.err
for f in 1 2 3 4; do :; done
/tmp/p/build/coalprobe --stride 1..32 --offset 0..7 --width 4,8,16,32 -v --format json -o $O/P1024.json 2> $O/P1024.err; grep -v "EDGE start\|EDGE stop" $O/P1024.err
(cd $O && tar czf $OUT/exp6.tgz *.json *.err)
