#!/bin/sh
# setup.sh: everything a fresh Debian/Ubuntu machine with the CUDA Toolkit needs to build
# coalprobe: installs libcjson-dev when it is missing (and what the tests and plots use:
# python3-jsonschema, python3-pandas, python3-ipython, man-db, zsh, fish, GNU time, chromium, nodejs, npm and the npm packages of
# web/), saying first what it will install, finds nvcc, configures and builds into build/ (or
# $CP_BUILD_DIR), showing the build's progress. Safe to run again: later runs only rebuild what
# changed.
set -eu
cd "$(dirname "$0")/.."
build=${CP_BUILD_DIR:-build}

say() { printf 'setup: %s\n' "$*" >&2; }

# What is missing, said up front, then installed with apt-get (sudo when not root). libcjson-dev
# is needed to build; the rest only by the tests and plots, so a failed install of those is a
# warning and the tests that need them skip (and fail under CI=true: tests/setup_tools.sh).
need_cjson=""
{ [ -f /usr/include/cjson/cJSON.h ] || dpkg -s libcjson-dev >/dev/null 2>&1; } || need_cjson="libcjson-dev"
# python3-jsonschema (tests/schema/validate.py). A pyenv or venv python3 ahead on PATH does not
# see Debian's packages; the script then uses /usr/bin/python3.
py_has() { python3 -c "import $1" 2>/dev/null || /usr/bin/python3 -c "import $1" 2>/dev/null; }
missing=""
py_has jsonschema || missing="$missing python3-jsonschema"
# pandas: the Python package's to_pandas() test (tests/cli/python_package.sh)
py_has pandas || missing="$missing python3-pandas"
# IPython: the cell magic %%coalprobe_trace is registered (python/tests/test_region.py)
py_has IPython || missing="$missing python3-ipython"
# man-db (the install test renders the man page with man -l), zsh and fish (the completion test
# parses their completions and asks fish what it completes), GNU time (the RSS test reads the
# peak memory of a large report from /usr/bin/time)
command -v man >/dev/null 2>&1 || missing="$missing man-db"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
command -v fish >/dev/null 2>&1 || missing="$missing fish"
[ -x /usr/bin/time ] || missing="$missing time"
# chromium, node and npm: the page's browser test (tests/web/page_test.sh) opens every kind of
# --format html page in chromium; scripts/plot and the chart tests draw charts with node
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
npm_ci=""
cmp -s web/package-lock.json web/node_modules/.coalprobe-lock 2>/dev/null || npm_ci=" npm ci in web/"
plan=""
[ -z "$need_cjson" ] || plan=" $need_cjson (to build);"
[ -z "$missing" ] || plan="$plan$missing (for the tests and plots);"
[ -z "$plan" ] || say "will install with apt-get:$plan"
if [ -f "$build/CMakeCache.txt" ]; then
    say "will${npm_ci:+ run$npm_ci and} rebuild what changed in $build"
else
    say "will${npm_ci:+ run$npm_ci and} configure and build $build from scratch (about 1-3 min on 2 cores)"
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_updated=0
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        $sudo apt-get update -qq || return 1
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
if [ -n "$need_cjson" ]; then
    say "installing $need_cjson"
    apt_install libcjson-dev
fi
if [ -n "$missing" ]; then
    say "installing$missing"
    apt_install $missing || say "could not install$missing: the tests that need them will be skipped (under CI=true they fail)"
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
            say "npm ci in web/ failed: scripts/plot cannot draw and the chart and page tests will be skipped (under CI=true they fail)"
        fi
    fi
else
    say "Node.js and npm not found (apt-get install nodejs npm): scripts/plot cannot draw and the chart and page tests will be skipped (under CI=true they fail)"
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

# The build shows its progress (one line a file, [ NN%]); the configure's report is kept quiet
# unless it fails.
jobs=$(nproc 2>/dev/null || echo 2)
say "configuring $build"
mkdir -p "$build"
if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${CP_CMAKE_ARGS:-} >"$build/setup-configure.log" 2>&1; then
    cat "$build/setup-configure.log" >&2
    say "configuring failed: the log above, kept in $build/setup-configure.log"
    exit 1
fi
say "building $build with $jobs jobs"
cmake --build "$build" -j "$jobs"
say "built $build/coalprobe"
