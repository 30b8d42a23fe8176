#!/bin/sh
# setup.sh: everything a fresh Debian/Ubuntu machine with the CUDA Toolkit needs to build
# coalprobe: installs libcjson-dev when it is missing (and what the tests and plots use:
# python3-jsonschema, man-db, zsh, fish, chromium, node and the npm packages of web/), finds nvcc,
# configures and builds into build/ (or $CP_BUILD_DIR). Safe to run again: later runs only rebuild
# what changed.
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

# python3-jsonschema (tests/schema/validate.py): only the tests need it, so a failed install is a
# warning and those tests skip. A pyenv or venv python3 ahead on PATH does not see Debian's
# packages; the script then uses /usr/bin/python3.
py_has() { python3 -c "import $1" 2>/dev/null || /usr/bin/python3 -c "import $1" 2>/dev/null; }
missing=""
py_has jsonschema || missing="$missing python3-jsonschema"
# man-db (the install test renders the man page with man -l), zsh and fish (the completion test
# parses their completions and asks fish what it completes): those steps are skipped without them
command -v man >/dev/null 2>&1 || missing="$missing man-db"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
command -v fish >/dev/null 2>&1 || missing="$missing fish"
# chromium, node and npm: the page's browser test (tests/web/page_test.sh) opens every kind of
# --format html page in chromium; scripts/plot and the chart tests draw charts with node
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
    say "installing$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    { $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null; } ||
        say "could not install$missing: the tests that need them will be skipped"
fi

# The npm packages of web/ (scripts/plot and the chart tests draw charts with vega; the page test
# drives chromium with playwright-core), exactly as web/package-lock.json pins them, without
# running install scripts; again only when the lock changed. Without Node.js and npm, or when the
# install fails, plots cannot be drawn and the chart and page tests skip.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    if ! cmp -s web/package-lock.json web/node_modules/.coalprobe-lock 2>/dev/null; then
        say "installing the npm packages of web/ (npm ci)"
        if (cd web && npm ci --ignore-scripts --no-audit --no-fund >/dev/null); then
            cp web/package-lock.json web/node_modules/.coalprobe-lock
        else
            say "npm ci in web/ failed: scripts/plot cannot draw and the chart and page tests will be skipped"
        fi
    fi
else
    say "Node.js and npm not found (apt-get install nodejs npm): scripts/plot cannot draw and the chart and page tests will be skipped"
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
