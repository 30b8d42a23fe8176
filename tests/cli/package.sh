#!/bin/sh
# package.sh: cpack builds the .deb and the .tar.gz of the build; the .deb depends on cJSON and,
# with the CUDA runtime linked in (COALPROBE_STATIC_CUDART, the default), on no CUDA package: the
# packaged binary needs no libcudart (only the driver's libcuda, loaded at run time), so the .deb
# installs where the toolkit came from NVIDIA's .run file; built with a shared runtime it depends
# on the runtime's package. Both packages hold the binary, the injection library in
# lib/coalprobe, the man page and the completions, and the binary unpacked from the .deb runs and
# finds its library. Skipped (77) without dpkg-deb, which reads the .deb.
# usage: package.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
build=$1
command -v dpkg-deb >/dev/null 2>&1 || { echo "SKIP: no dpkg-deb to read the .deb"; exit 77; }
cp_in_scratch build
cpack --config "$build/CPackConfig.cmake" -B "$s/out" >"$s/cpack.log" 2>&1 ||
    { cat "$s/cpack.log"; echo "FAIL: cpack failed"; exit 1; }
deb=$(ls "$s"/out/coalprobe_*.deb 2>/dev/null)
tgz=$(ls "$s"/out/coalprobe-*.tar.gz 2>/dev/null)
[ -f "$deb" ] || bad "no .deb in $(ls "$s/out")"
[ -f "$tgz" ] || bad "no .tar.gz in $(ls "$s/out")"
[ $fail -eq 0 ] || exit 1
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
case $depends in *libcjson1*) ;; *) bad "the .deb does not depend on libcjson1" ;; esac
# the runtime is linked in unless the build says -DCOALPROBE_STATIC_CUDART=OFF
static=$(sed -n 's/^COALPROBE_STATIC_CUDART:BOOL=//p' "$build/CMakeCache.txt")
[ "$static" = OFF ] || static=ON
if [ "$static" = ON ]; then
    case $depends in *cudart*) bad "the .deb depends on a CUDA runtime package, linked in" ;; esac
else
    case $depends in *cuda-cudart-*\|\ libcudart*) ;; *) bad "the .deb does not depend on the CUDA runtime" ;; esac
fi
dpkg-deb -c "$deb" | awk '{print $NF}' >"$s/deb.list"
tar tzf "$tgz" >"$s/tgz.list"
for f in usr/bin/coalprobe usr/lib/coalprobe/libcoalprobe_inject.so usr/share/man/man1/coalprobe.1 \
    usr/share/bash-completion/completions/coalprobe usr/share/zsh/vendor-completions/_coalprobe \
    usr/share/fish/vendor_completions.d/coalprobe.fish usr/share/doc/coalprobe/README.md; do
    grep -qx "\./$f" "$s/deb.list" || bad "the .deb lacks /$f"
    # the .tar.gz unpacks under any prefix: zsh's own site-functions there, not Debian's place
    t=$(echo "${f#usr/}" | sed 's|zsh/vendor-completions|zsh/site-functions|')
    grep -q "/$t\$" "$s/tgz.list" || bad "the .tar.gz lacks $t"
done
dpkg-deb -x "$deb" "$s/root"
# what the packaged binary needs from the system: libcudart only with a shared runtime
needed=$(objdump -p "$s/root/usr/bin/coalprobe" | awk '$1 == "NEEDED" {print $2}' | tr '\n' ' ')
echo "NEEDED: $needed"
case $needed in
*libcudart*) [ "$static" = ON ] && bad "the packaged binary needs libcudart: $needed" ;;
*) [ "$static" = ON ] || bad "the binary of a shared-runtime build does not need libcudart" ;;
esac
case $needed in *libcuda.so*) bad "the packaged binary links the driver's libcuda by name: $needed" ;; esac
"$s/root/usr/bin/coalprobe" --version | grep -q '^coalprobe ' || bad "the packaged binary does not run"
(unset COALPROBE_INJECT_LIBRARY; "$s/root/usr/bin/coalprobe" trace -- true >/dev/null) ||
    bad "the packaged trace does not find its injection library"
[ $fail -eq 0 ] && echo "packaged: $(basename "$deb") $(basename "$tgz")"
exit $fail
