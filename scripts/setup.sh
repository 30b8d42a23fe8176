#!/bin/sh
# setup.sh: everything a fresh Debian/Ubuntu machine with the CUDA Toolkit needs to build
# coalprobe: installs libcjson-dev when it is missing (and, for the tests, Python's jsonschema
# and matplotlib, chromium, node and web/'s npm packages), finds nvcc, configures and builds into
# build/ (or $CP_BUILD_DIR). Safe to run again: later runs only rebuild what changed.
set -eu
cd "$(dirname "$0")/.."
build=${CP_BUILD_DIR:-build}

say() { printf 'setup: %s\n' "$*" >&2; }

if ! { [ -f /usr/include/cjson/cJSON.h ] || dpkg -s libcjson-dev >/dev/null 2>&1; }; then
    say "installing libcjson-dev"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libcjson-dev >/dev/null
fi

# python3-jsonschema (tests/schema/validate.py) and python3-matplotlib (scripts/plot): only the
# tests and the plots need them (and the tools below), so a failed install is a warning and those
# tests skip. A pyenv or venv python3 ahead on PATH does not see Debian's packages; both scripts
# then use /usr/bin/python3.
py_has() { python3 -c "import $1" 2>/dev/null || /usr/bin/python3 -c "import $1" 2>/dev/null; }
missing=""
py_has jsonschema || missing="$missing python3-jsonschema"
py_has matplotlib || missing="$missing python3-matplotlib"
# man-db (the install test renders the man page with man -l), zsh and fish (the completion test
# parses their completions and asks fish what it completes): those steps are skipped without them
command -v man >/dev/null 2>&1 || missing="$missing man-db"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
command -v fish >/dev/null 2>&1 || missing="$missing fish"
if [ -n "$missing" ]; then
    say "installing$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    { $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null; } ||
        say "could not install$missing: the tests that need them will be skipped"
fi

# chromium, node and web/'s pinned npm packages (playwright-core): the page's browser test
# (tests/web/page_test.sh) opens every kind of --format html page in them. Only that test needs
# them: a failed install is a warning and it skips.
web_missing=""
command -v chromium >/dev/null 2>&1 || web_missing="$web_missing chromium"
command -v node >/dev/null 2>&1 || web_missing="$web_missing nodejs"
command -v npm >/dev/null 2>&1 || web_missing="$web_missing npm"
if [ -n "$web_missing" ]; then
    say "installing$web_missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    { $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $web_missing >/dev/null; } ||
        say "could not install$web_missing: the page's browser test will be skipped"
fi
if command -v npm >/dev/null 2>&1 && [ ! -d web/node_modules/playwright-core ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
        say "npm ci in web/ failed: the page's browser test will be skipped"
fi

if ! command -v nvcc >/dev/null 2>&1; then
    for d in ${CUDA_HOME:-} /usr/local/cuda /usr/local/cuda-13.0; do
        if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then
            PATH="$d/bin:$PATH"
            export PATH
            break
        fi
    done
fi
command -v nvcc >/dev/null 2>&1 || { say "nvcc not found: install the CUDA Toolkit or set CUDA_HOME"; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${CP_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
say "built $build/coalprobe"
