#!/bin/bash
# diagnostic runs: where an unsampled launch's time goes
mkdir -p /tmp/cjson; for f in .deps/*.deb; do dpkg -x "$f" /tmp/cjson; done
export LD_LIBRARY_PATH=/tmp/cjson/usr/lib/x86_64-linux-gnu
B=.gpubin/coalprobe
ldd $B | grep "not found"; ldd .gpubin/libcoalprobe_inject.so | grep "not found"
run() { # label env... -- args
  local label=$1; shift
  echo "== $label"
  env "$@" 2>&1 | grep -E "steps_ms|loop_s|launch_calls|kernel_counters|counters_toggles|counters_open|coalprobe:" | head -8
}
run native python3 .gpubin/steps.py 30
run instructions COALPROBE_TRACE_MODE=instructions $B trace -v -o /tmp/a.json --format json -- python3 .gpubin/steps.py 30
run kernels_c0_keep COALPROBE_TRACE_MODE=kernels COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- python3 .gpubin/steps.py 30
run default_c0_keep COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- python3 .gpubin/steps.py 30
run default_c0_toggle $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- python3 .gpubin/steps.py 30
run default $B trace -v -o /tmp/a.json --format json -- python3 .gpubin/steps.py 30
run ew_native python3 bench/launch_heavy.py elementwise 5000
run ew_default_c0_keep COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- python3 bench/launch_heavy.py elementwise 5000
run ew_kernels_c0_keep COALPROBE_TRACE_MODE=kernels COALPROBE_TRACE_KEEP_ENABLED=1 $B trace -v --counter-launches 0 -o /tmp/a.json --format json -- python3 bench/launch_heavy.py elementwise 5000
run ew_instructions COALPROBE_TRACE_MODE=instructions $B trace -v -o /tmp/a.json --format json -- python3 bench/launch_heavy.py elementwise 5000
