#!/bin/sh
# gpu_build.sh: builds coalprobe on the GPU machine (no package registry there): unpacks the
# cJSON packages staged in .deps/ into a prefix and configures against it.
# usage: . bench/gpu_build.sh   (sets CP_BUILD and LD_LIBRARY_PATH for the caller)
# CP_CUDA_ARCHS picks the architectures: 90 (the default here: the H100 and H200), a list, or
# "default" for the list CMakeLists.txt builds (every family CUDA 13 compiles for).
set -e
mkdir -p /tmp/cjson
for f in .deps/*.deb; do dpkg -x "$f" /tmp/cjson; done
export LD_LIBRARY_PATH=/tmp/cjson/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CP_BUILD=${CP_BUILD:-build-gpu}
archs=${CP_CUDA_ARCHS:-90}
[ "$archs" = default ] && archs_flag="" || archs_flag="-DCMAKE_CUDA_ARCHITECTURES=$archs"
cmake -S . -B "$CP_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/tmp/cjson/usr \
    $archs_flag >/dev/null
cmake --build "$CP_BUILD" -j 16
set +e
