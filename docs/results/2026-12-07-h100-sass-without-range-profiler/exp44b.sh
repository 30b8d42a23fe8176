#!/bin/bash
# issue 44, experiment 2: lazy function loading vs SASS lazy patching
mkdir -p /tmp/cjson; for f in .deps/*.deb; do dpkg -x "$f" /tmp/cjson; done
export LD_LIBRARY_PATH=/tmp/cjson/usr/lib/x86_64-linux-gnu
C=.gpubin/coalprobe
S=.gpubin/cp_trace_collect_sample
summ() { python3 - "$1" <<'P'
import json,sys
r=json.load(open(sys.argv[1]))
tot=[0,0,0]; unc=0
for k in r['kernels']:
    tot[0]+=k['launches'] or 0; tot[1]+=k['requests'] or 0; tot[2]+=k['sectors'] or 0
    unc += (k['requests'] is None)
print("   TOTAL kernels=%d uncounted=%d launches=%d requests=%d sectors=%d" % (len(r['kernels']),unc,*tot))
P
}
variant() { # label env...
  local label=$1; shift
  local t0=$(date +%s%N)
  env "$@" $C trace --format json -o /tmp/v.json -- $PROG >/tmp/v.out 2>/tmp/v.err
  echo "== $label rc=$? $(( ($(date +%s%N) - t0) / 1000000 )) ms $(grep workload /tmp/v.out)"; grep -i "coalprobe:" /tmp/v.err | head -3
  summ /tmp/v.json
}
for PROG in "$S" "python3 .gpubin/torchprog.py"; do
  echo "######## $PROG"
  variant default X=1
  variant instr COALPROBE_TRACE_MODE=instructions
  variant instr_loadeager COALPROBE_TRACE_MODE=instructions CUDA_MODULE_LOADING=EAGER
  variant instr_loadeager_patcheager COALPROBE_TRACE_MODE=instructions CUDA_MODULE_LOADING=EAGER COALPROBE_TRACE_LAZY_PATCHING=0
  variant instr_sync COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_FIRST_LAUNCH=sync
  variant instr_rearm COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_FIRST_LAUNCH=rearm
done
for w in "elementwise 5000" "transformer 20"; do
  PROG="python3 bench/launch_heavy.py $w"
  echo "######## $PROG"; python3 bench/launch_heavy.py $w
  variant instr_loadeager COALPROBE_TRACE_MODE=instructions CUDA_MODULE_LOADING=EAGER
  variant instr_rearm COALPROBE_TRACE_MODE=instructions COALPROBE_TRACE_FIRST_LAUNCH=rearm
  variant default_loadeager CUDA_MODULE_LOADING=EAGER
  variant kernels_loadeager COALPROBE_TRACE_MODE=kernels CUDA_MODULE_LOADING=EAGER
done
