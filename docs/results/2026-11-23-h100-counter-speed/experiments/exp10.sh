#!/bin/sh
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
for w in setup driver; do rm -rf /tmp/et_$w; mkdir /tmp/et_$w; git ls-files -co --exclude-standard | grep -v "^scratch" | tar cf - -T - | (cd /tmp/et_$w && tar xf -); python3 scratch/patch_early.py /tmp/et_$w $w; (cd /tmp/et_$w && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt) & done; wait
python3 - <<'PY'
import subprocess, time, json, statistics as st
bins={'A':'build-gpu/coalprobe','S':'/tmp/et_setup/build/coalprobe','D':'/tmp/et_driver/build/coalprobe'}
walls={k:[] for k in bins}; meds={k:[] for k in bins}; cnt={}
for i in range(5):
    for v,b in bins.items():
        t0=time.monotonic()
        p=subprocess.run([b,'--stride','1..32','-v','--format','json','-o','/tmp/o/%s%d.json'%(v,i)],stderr=subprocess.PIPE,text=True)
        t1=time.monotonic()
        open('/tmp/o/%s%d.err'%(v,i),'w').write(p.stderr)
        rows=json.load(open('/tmp/o/%s%d.json'%(v,i)))['rows']
        meds[v].append([r['measured']['time_s']['median'] for r in rows])
        c=json.dumps([r['measured']['counters'] for r in rows], sort_keys=True)
        c2=json.dumps([{k:x for k,x in r['measured']['counters'].items() if k not in ('achieved_occupancy','dram_throughput_pct','dram_read_bytes','dram_write_bytes')} for r in rows], sort_keys=True)
        cnt.setdefault(v,set()).add(c2)
        ph={l.split('  ')[1].strip() if False else l.strip().rsplit(' s ',1)[0].rsplit(None,1)[0].strip(): l.strip().rsplit(' s ',1)[0].rsplit(None,1)[1] for l in p.stderr.splitlines() if ' s ' in l and '%' in l}
        walls[v].append(t1-t0)
        print(v, i, 'rc', p.returncode, 'wall %.3f' % (t1-t0), ' '.join('%s=%s'%(k.replace(' ','_'),x) for k,x in ph.items() if k in ('CUDA driver start','device set-up','peak bandwidth','CUPTI session','verification','timing','other')), flush=True)
for v in bins:
    print(v, 'wall median %.3f (runs 2-5: %s)' % (st.median(walls[v][1:]), ' '.join('%.3f'%x for x in walls[v][1:])), 'distinct count sets', len(cnt[v]))
for v in 'SD':
    d=[(st.median([m[c] for m in meds[v]])/st.median([m[c] for m in meds['A']])-1)*100 for c in range(32)]
    print(v,'vs A medians: min %.3f%% median %.3f%% max %.3f%%' % (min(d), st.median(d), max(d)))
print('counts equal across variants:', len(set().union(*cnt.values()))==1)
PY
(cd $O && tar czf $OUT/exp10.tgz *.err)
