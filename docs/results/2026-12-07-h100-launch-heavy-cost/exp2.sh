#!/bin/bash
mkdir -p /tmp/cjson; for f in .deps/*.deb; do dpkg -x "$f" /tmp/cjson; done
export LD_LIBRARY_PATH=/tmp/cjson/usr/lib/x86_64-linux-gnu
B=.gpubin/coalprobe
run() { local label=$1; shift; echo "== $label"
  env "$@" 2>&1 | grep -E "steps_ms|loop_s|launch_calls|kernel_counters|counters_toggles|coalprobe:|warning|error|failed" | head -8; }
T="python3 .gpubin/steps.py 30"
run rearm_c0 COALPROBE_TRACE_REARM=1 COALPROBE_TRACE_IDLE_SECONDS=0.01 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- $T
run kfirst_c0_keep COALPROBE_TRACE_ORDER=kernels_first COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- $T
run nolazy_c0_keep COALPROBE_TRACE_LAZY_PATCHING=0 COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- $T
run rearm_default COALPROBE_TRACE_REARM=1 COALPROBE_TRACE_IDLE_SECONDS=0.01 $B trace -v -o /tmp/b.json --format json -- $T
python3 -c "
import json;r=json.load(open('/tmp/b.json'));print('collection',r.get('collection'));ks=r['kernels']
print('sum launches',sum(k.get('launches') or 0 for k in ks), 'notes', [n[:150] for n in r.get('notes',[])][:6])"
run kfirst_default COALPROBE_TRACE_ORDER=kernels_first $B trace -v -o /tmp/a.json --format json -- $T
