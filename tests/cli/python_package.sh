#!/bin/sh
# python_package.sh: the Python package's unit tests (python/tests, no GPU) against the build
# tree's package (BUILD/python/coalprobe, its _config.py naming BUILD's coalprobe), run by a
# python3 that has pandas when one has it (Debian's /usr/bin/python3 with python3-pandas), so
# that to_pandas() is tested; without pandas that test is skipped, and under CI it fails.
# usage: python_package.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/../setup_tools.sh"
build=$1
cp_absolute build
root=$(cd "$(dirname "$0")/../.." && pwd)
py=python3
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c "import pandas" 2>/dev/null; then
        py=$p
        break
    fi
done
if ! "$py" -c "import pandas" 2>/dev/null; then
    cp_setup_missing_step pandas "apt-get install python3-pandas; sh scripts/setup.sh installs it" ||
        exit 1
fi
# IPython: the cell magic's tests (test_region.py) skip without it, and fail under CI
if ! "$py" -c "import IPython" 2>/dev/null; then
    cp_setup_missing_step IPython "apt-get install python3-ipython; sh scripts/setup.sh installs it" ||
        exit 1
fi
PYTHONPATH=$build/python GOLDEN=$root/tests/golden "$py" -m unittest discover -s "$root/python/tests" -v
