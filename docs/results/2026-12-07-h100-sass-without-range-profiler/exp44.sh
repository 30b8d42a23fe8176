#!/bin/bash
# issue 44 experiment: does the SASS undercount without the Range Profiler go away with a wait
# before the flush, or with eager patching? prints per-kernel launches/requests/sectors per variant
B=${B:-build-gpu}
C=$B/coalprobe
S=$(find $B -name cp_trace_collect_sample -type f | head -1)
summ() { python3 - "$1" <<'P'
import json,sys
r=json.load(open(sys.argv[1]))
tot=[0,0,0]
for k in sorted(r['kernels'], key=lambda k:-(k['requests'] or 0))[:8]:
    print("   %-60.60s L=%s ls=%s req=%s sec=%s" % (k['name'], k['launches'], k['launches_seen'], k['requests'], k['sectors']))
for k in r['kernels']:
    tot[0]+=k['launches'] or 0; tot[1]+=k['requests'] or 0; tot[2]+=k['sectors'] or 0
print("   TOTAL kernels=%d launches=%d requests=%d sectors=%d counted=%s" % (len(r['kernels']),*tot, r['counted']))
P
}
variant() { # label flags env...
  local label=$1 flags=$2; shift 2
  echo "== $label"
  local t0=$(date +%s%N)
  env "$@" $C trace $flags --format json -o /tmp/v.json -- $PROG >/tmp/v.out 2>/tmp/v.err; echo "   rc=$? $(grep -c . /tmp/v.err) stderr lines, $(( ($(date +%s%N) - t0) / 1000000 )) ms"; grep -i "coalprobe:" /tmp/v.err | head -3
  summ /tmp/v.json
}
for PROG in "$S" "python3 .gpubin/torchprog.py"; do
  echo "######## $PROG"
  variant default ""
  variant instr "" COALPROBE_TRACE_MODE=instructions
  variant instr_wait "" COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_WAIT_BEFORE_FLUSH=1
  variant instr_eager "" COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_LAZY_PATCHING=0
  variant instr_eager_wait "" COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_LAZY_PATCHING=0 COALPROBE_TRACE_WAIT_BEFORE_FLUSH=1
  variant all_launches "--all-launches" X=1
  variant default_wait "" COALPROBE_TRACE_WAIT_BEFORE_FLUSH=1
done
