#!/bin/sh
# setup_ci.sh: a test that needs a tool scripts/setup.sh installs skips without it, but under CI
# (CI=true) fails, naming the tool (tests/setup_tools.sh): the chart tests' needs_node.sh, the
# page test, the schema check (validate.py), the RSS test, and a step of a longer test; off CI,
# and with CI=false, they still skip (77). The tools are hidden: a PATH of sh and dirname only, a
# jsonschema that cannot be imported, a GNU time path that does not exist.
# usage: setup_ci.sh SOURCE_DIR
. "$(dirname "$0")/common.sh"
src=${1:?usage: setup_ci.sh SOURCE_DIR}
cp_scratch
mkdir "$s/bin" "$s/py"
for tool in sh dirname; do
    ln -s "$(command -v $tool)" "$s/bin/$tool"
done
echo 'raise ImportError("hidden by setup_ci.sh")' >"$s/py/jsonschema.py"
python=$(command -v python3)

# expect NAME RC WORD CI COMMAND...: COMMAND under CI=$CI (unset when -) exits RC and its output
# holds WORD
expect() {
    name=$1 want=$2 word=$3 ci=$4
    shift 4
    if [ "$ci" = - ]; then
        (unset CI && "$@") >"$s/out" 2>&1
    else
        CI=$ci "$@" >"$s/out" 2>&1
    fi
    got=$?
    [ "$got" -eq "$want" ] || { cat "$s/out"; bad "$name (CI=$ci): exit $got, expected $want"; }
    grep -Fq -- "$word" "$s/out" || { cat "$s/out"; bad "$name (CI=$ci): no '$word' in its output"; }
}
nonode() { env PATH="$s/bin" sh "$src/tests/chart/needs_node.sh" true; }
nochromium() { env PATH="$s/bin" CP_CHROMIUM= sh "$src/tests/web/page_test.sh" /nonexistent /nonexistent "$src"; }
noschema() { env PYTHONPATH="$s/py" CP_VALIDATE_REEXEC=1 "$python" "$src/tests/schema/validate.py" "$src/tests/golden/error.json"; }
notime() { env CP_GNU_TIME="$s/no-time" sh "$src/tests/cli/report_stream_rss.sh" /nonexistent 0; }

for ci in true 1 yes; do
    expect needs_node 1 "FAIL: Node.js is missing" "$ci" nonode
    expect page_test 1 "FAIL: chromium is missing" "$ci" nochromium
    expect validate 1 "FAIL: the Python package jsonschema is missing" "$ci" noschema
    expect report_stream_rss 1 "FAIL: $s/no-time (GNU time) is missing" "$ci" notime
done
for ci in - "" false 0; do
    expect needs_node 77 "SKIP: Node.js is missing" "$ci" nonode
    expect page_test 77 "SKIP: chromium is missing" "$ci" nochromium
    expect validate 77 "skipped: the Python package jsonschema is missing" "$ci" noschema
    expect report_stream_rss 77 "SKIP: $s/no-time (GNU time) is missing" "$ci" notime
done

# a step of a longer test (install.sh's man page, completions.sh's zsh and fish): said, and
# under CI a failure the caller records
step() { sh -c '. "$1/tests/setup_tools.sh" && cp_setup_missing_step zsh "a step"' sh "$src"; }
expect step 1 "FAIL: zsh is missing (a step)" true step
expect step 0 "SKIP: zsh is missing (a step)" - step
exit $fail
