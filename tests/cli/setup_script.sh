#!/bin/sh
# setup_script.sh: scripts/setup.sh says first what it will install, installs it, and shows the
# build's progress (its output no longer goes to /dev/null). apt-get, cmake and nvcc are stubs
# that log what they are asked; the tools the tests use (man, zsh, fish, chromium, node, npm) are
# left off PATH, so that setup.sh finds them missing. Nothing is installed or built.
# usage: setup_script.sh SOURCE_DIR
. "$(dirname "$0")/common.sh"
src=${1:?usage: setup_script.sh SOURCE_DIR}
cp_scratch
mkdir "$s/bin"
for tool in sh dirname cmp cp id nproc mkdir rm cat; do
    ln -s "$(command -v $tool)" "$s/bin/$tool"
done
cat >"$s/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$s/log"
EOF
cat >"$s/bin/sudo" <<'EOF'
#!/bin/sh
exec "$@"
EOF
cat >"$s/bin/nvcc" <<'EOF'
#!/bin/sh
exit 0
EOF
cat >"$s/bin/cmake" <<EOF
#!/bin/sh
echo "cmake \$*" >>"$s/log"
case \$1 in --build) echo "[ 50%] Building C object src/base/cp_stub.c.o" ;; *) echo "-- configured" ;; esac
EOF
chmod +x "$s/bin/apt-get" "$s/bin/sudo" "$s/bin/nvcc" "$s/bin/cmake"

env PATH="$s/bin" CP_BUILD_DIR="$s/build" CP_CMAKE_ARGS= sh "$src/scripts/setup.sh" >"$s/out" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "setup.sh exited $rc"
# the plan, before anything is installed
first=$(sed -n 1p "$s/out")
case $first in
"setup: will install with apt-get:"*"man-db zsh fish"*"chromium nodejs npm (for the tests and plots);") ;;
*) bad "the first line is not the plan: $first" ;;
esac
grep -q "^setup: will configure and build $s/build from scratch" "$s/out" || bad "the build is not announced"
plan=$(grep -n "^setup: will install" "$s/out" | cut -d: -f1)
installing=$(grep -n "^setup: installing" "$s/out" | head -1 | cut -d: -f1)
[ -n "$plan" ] && [ -n "$installing" ] && [ "$plan" -lt "$installing" ] ||
    bad "the plan does not come before the installs"
grep -q "^apt-get install .*man-db zsh fish .*chromium nodejs npm" "$s/log" || bad "apt-get was not asked for the tools"
# the build's progress is shown; the configure's report is kept in the build directory
grep -qF "[ 50%] Building C object src/base/cp_stub.c.o" "$s/out" || bad "the build's progress is hidden"
grep -q "^cmake --build $s/build -j" "$s/log" || bad "cmake --build was not run"
grep -q "^-- configured" "$s/build/setup-configure.log" || bad "the configure's report is not kept"
grep -q "^setup: built $s/build/coalprobe" "$s/out" || bad "no closing line"
[ $fail -eq 0 ] && [ -z "${CP_SHOW:-}" ] || { cat "$s/out"; cat "$s/log"; }
exit $fail
