#!/bin/sh
# gpu_build.sh: builds coalprobe on the GPU machine (no package registry there): unpacks the
# cJSON packages staged in .deps/ into a prefix and configures against it.
# usage: . bench/gpu_build.sh   (sets CP_BUILD and LD_LIBRARY_PATH for the caller)
set -e
mkdir -p /tmp/cjson
for f in .deps/*.deb; do dpkg -x "$f" /tmp/cjson; done
export LD_LIBRARY_PATH=/tmp/cjson/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CP_BUILD=${CP_BUILD:-build-gpu}
cmake -S . -B "$CP_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr \
    -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$CP_BUILD" -j 16
set +e
