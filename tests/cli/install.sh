#!/bin/sh
# install.sh: `cmake --install` of the build into a temporary prefix, then the installed coalprobe
# run from there with no environment variable pointing anywhere: --version, a model-only sweep
# (the same table as the build's binary), trace --help, trace finding its injection library in
# PREFIX/lib/coalprobe, doctor saying so, `man -l` on the page (skipped, said, without man), and
# the completions: the files the binary writes, bash completing `coalprobe g`.
# usage: install.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
build=$1
cp_absolute build
cp_scratch
prefix=$s/prefix
unset COALPROBE_INJECT_LIBRARY
cmake --install "$build" --prefix "$prefix" >"$s/install.log" 2>&1 ||
    { cat "$s/install.log"; echo "FAIL: cmake --install failed"; exit 1; }
bin=$prefix/bin/coalprobe
for f in bin/coalprobe lib/coalprobe/libcoalprobe_inject.so share/man/man1/coalprobe.1 \
    share/bash-completion/completions/coalprobe share/zsh/site-functions/_coalprobe \
    share/fish/vendor_completions.d/coalprobe.fish share/doc/coalprobe/README.md \
    share/doc/coalprobe/docs/trace.md share/doc/coalprobe/docs/schema/coalprobe-report.schema.json; do
    [ -f "$prefix/$f" ] || bad "not installed: PREFIX/$f"
done
[ $fail -eq 0 ] || { find "$prefix" -type f; exit 1; }

# run from elsewhere, by its installed path
cd "$s" || exit 1
"$bin" --version | grep -Eq '^coalprobe [0-9]+\.[0-9]+\.[0-9]+ \(CUDA runtime' || bad "--version"
"$bin" --stride 1..8 --width 4,16 --model >"$s/installed.txt" 2>"$s/err" || bad "the model sweep failed"
"$build/coalprobe" --stride 1..8 --width 4,16 --model >"$s/built.txt" 2>/dev/null
[ -s "$s/installed.txt" ] && cmp -s "$s/installed.txt" "$s/built.txt" ||
    bad "the installed binary's model table differs from the build's"
"$bin" trace --help | grep -q '^Usage: coalprobe trace' || bad "trace --help"
# trace runs a program with the library from PREFIX/lib/coalprobe (none beside the executable)
"$bin" trace -- true >"$s/trace.txt" 2>"$s/trace.err" ||
    { cat "$s/trace.err"; bad "the installed trace did not find its injection library"; }
LC_ALL=C "$bin" doctor >"$s/doctor.txt" 2>&1
grep -qF "ok   trace: injection library $prefix/lib/coalprobe/libcoalprobe_inject.so" "$s/doctor.txt" ||
    { cat "$s/doctor.txt"; bad "doctor does not find the installed injection library"; }

# the Python package, where python3 finds packages under PREFIX, naming the installed tool and
# injection library, and loading a report through the installed coalprobe
py=python3 # the prefix's python3, as the install chose it (CMakeLists.txt)
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
pydir=$("$py" "$(dirname "$0")/../../python/install_dir.py" "$prefix")
[ -f "$pydir/coalprobe/__init__.py" ] || bad "the Python package is not in $pydir"
PYTHONPATH=$pydir COALPROBE_BIN= "$py" -c "
import coalprobe, coalprobe._tool as t, sys
assert t.tool() == sys.argv[1], t.tool()
assert t.inject_library() == sys.argv[2], t.inject_library()
r = coalprobe.load(sys.argv[3])
assert r.kind == 'sweep' and len(r.csv_rows()) == len(r.rows)
" "$bin" "$prefix/lib/coalprobe/libcoalprobe_inject.so" \
    "$(dirname "$0")/../golden/report_measured.json" 2>"$s/py.err" ||
    { cat "$s/py.err"; bad "the installed Python package"; }

# the man page: the commands and every family, no warning from groff
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$prefix/share/man/man1/coalprobe.1" >"$s/man.txt" 2>"$s/man.err" ||
        bad "man -l failed"
    for word in NAME SYNOPSIS FAMILIES OPTIONS COMMANDS "EXIT STATUS" ENVIRONMENT \
        stride layout gemm gather smem transpose expr readonly async atomic trace compare doctor; do
        grep -Eq "^ *$word( |\$)" "$s/man.txt" || bad "the man page has no heading '$word'"
    done
    MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/coalprobe.1" 2>"$s/man.warn" >/dev/null
    [ -s "$s/man.warn" ] && { cat "$s/man.warn"; bad "groff warns about the man page"; }
else
    cp_setup_missing_step "man" "the man page step; apt-get install man-db, sh scripts/setup.sh installs it" ||
        bad "man is missing under CI"
fi

# the completions installed are what the binary writes; bash completes from the installed file
"$bin" --completions bash | cmp -s - "$prefix/share/bash-completion/completions/coalprobe" ||
    bad "the installed bash completion differs"
"$bin" --completions zsh | cmp -s - "$prefix/share/zsh/site-functions/_coalprobe" ||
    bad "the installed zsh completion differs"
"$bin" --completions fish | cmp -s - "$prefix/share/fish/vendor_completions.d/coalprobe.fish" ||
    bad "the installed fish completion differs"
got=$(bash -c '. "$1" && COMP_WORDS=(coalprobe g) && COMP_CWORD=1 && _coalprobe &&
    printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh \
    "$prefix/share/bash-completion/completions/coalprobe")
[ "$got" = "gather gemm " ] || bad "bash completes 'coalprobe g' to '$got', not 'gather gemm'"
[ $fail -eq 0 ] && echo "installed into $prefix and ran from there"
exit $fail
