#!/bin/sh
# experiment 3: time outside main (D), and with _exit (E); C: batch 1024 + CUPTI edge calls timed
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
. bench/gpu_build.sh > $O/build.txt 2>&1
for v in c d e; do rm -rf /tmp/$v; mkdir /tmp/$v; git ls-files -co --exclude-standard | tar cf - -T - | (cd /tmp/$v && tar xf -); done
python3 - <<'PY'
p='/tmp/c/src/measure/cp_measure_cuda.c'; s=open(p).read()
s=s.replace("return configs < 256 ? configs : 256;","return configs < 1024 ? configs : 1024;"); open(p,'w').write(s)
p='/tmp/c/src/measure/cp_cupti.cpp'; s=open(p).read()
for call,name in [("int start = range_start(s, st);","start"),("int stop = range_stop(s, all_submitted, rc == CP_EXIT_OK ? st : &later);","stop"),("        rc = reset_image(s, st);","reset")]:
    assert call in s
    decl = call.startswith("int ")
    if decl:
        v=call.split()[1]
        s=s.replace(call, "double T0 = cp_phase_now(); "+call+" fprintf(stderr, \"EDGE "+name+" %.4f\\n\", cp_phase_now() - T0);")
    else:
        s=s.replace(call, "    { double T0 = cp_phase_now(); rc = reset_image(s, st); fprintf(stderr, \"EDGE "+name+" %.4f\\n\", cp_phase_now() - T0); }")
s=s.replace("    if (rc == CP_EXIT_OK)\n        { double T0","    if (rc == CP_EXIT_OK)\n    { double T0")
s=s.replace("    s->counter_data.assign(sp.counterDataSize, 0);","    s->counter_data.assign(sp.counterDataSize, 0); fprintf(stderr, \"IMAGE %zu bytes for %zu ranges\\n\", (size_t)sp.counterDataSize, (size_t)s->max_ranges);")
s='#include <cstdio>\n'+s
open(p,'w').write(s)
for v in 'de':
    p='/tmp/%s/src/app/main.c'%v; s=open(p).read()
    s=s.replace("    cp_phase_start();\n","    cp_phase_start();\n    fprintf(stderr, \"MAINSTART %.6f\\n\", cp_phase_now());\n",1)
    end="    cp_cli_free(&o);\n    free(command);\n    return rc;\n}"
    assert end in s
    tail="    cp_cli_free(&o);\n    free(command);\n    fprintf(stderr, \"MAINEND %.6f\\n\", cp_phase_now());\n"
    if v=='e': tail+="    fflush(NULL);\n    _exit(rc);\n"
    s=s.replace(end, tail+"    return rc;\n}")
    s="#include <unistd.h>\n#include <stdio.h>\n"+s
    open(p,'w').write(s)
PY
for v in c d e; do (cd /tmp/$v && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build -j16 --target coalprobe > build.txt 2>&1 || tail -20 build.txt) & done; wait
ls -l /tmp/c/build/coalprobe /tmp/d/build/coalprobe /tmp/e/build/coalprobe
python3 - <<'PY'
import subprocess, time
for i in range(4):
    for v in 'de':
        b='/tmp/%s/build/coalprobe'%v
        t0=time.monotonic()
        p=subprocess.run([b,'--stride','1..32','--format','json','-o','/tmp/o/%s%d.json'%(v,i)],stderr=subprocess.PIPE,text=True)
        t1=time.monotonic()
        d={l.split()[0]:float(l.split()[1]) for l in p.stderr.splitlines() if l.startswith('MAIN')}
        print(v, i, 'rc', p.returncode, 'wall %.3f  before main %.3f  main %.3f  after main %.3f' % (t1-t0, d['MAINSTART']-t0, d['MAINEND']-d['MAINSTART'], t1-d['MAINEND']), flush=True)
PY
cmp -s /tmp/o/d1.json /tmp/o/e1.json; echo "d1/e1 json identical bytes: $? (timings differ anyway)"
/tmp/c/build/coalprobe --stride 1..32 -v > /dev/null 2> $O/C32.err; cat $O/C32.err
/tmp/c/build/coalprobe --stride 1..32 --offset 0..7 --width 4,8,16,32 -v --format json -o $O/C1024.json 2> $O/C1024.err
grep -v EDGE $O/C1024.err; grep EDGE $O/C1024.err | awk '{n[$2]++; t[$2]+=$3; if ($3>m[$2]) m[$2]=$3} END {for (k in n) print "EDGE", k, n[k], "calls", t[k], "s, max", m[k]}'
(cd $O && tar czf $OUT/exp3.tgz *.json *.err)
