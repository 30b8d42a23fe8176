#!/bin/sh
# five runs of the README's test command in a fresh clone, with a clean build of coalprobe
# looping beside them (no ccache) as the load
log=/tmp/stress5.log
: > $log
( while [ ! -f /tmp/stress5.done ]; do
    rm -rf /tmp/loadbuild
    cmake -S /work/main -B /tmp/loadbuild -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null 2>&1
    cmake --build /tmp/loadbuild -j2 >/dev/null 2>&1
    echo "load: a clean build finished $(date -u +%T)" >> $log
  done ) &
for i in 1 2 3 4 5; do
  t0=$(date +%s)
  (cd /tmp/stress5 && sh scripts/test.sh) > /tmp/stress5-run$i.txt 2>&1
  rc=$?
  echo "run $i: rc=$rc $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%T)" >> $log
  [ $rc -ne 0 ] && break
done
touch /tmp/stress5.done
wait
echo finished >> $log
