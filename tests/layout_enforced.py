#!/usr/bin/env python3
"""layout_enforced.py: a forbidden include fails, both in the check and in the build.

In a scratch copy of the sources, each forbidden form of include is added to one file and
tests/layout_check.py must fail, naming that file; the unchanged copy must pass. Then, with the
build's own compile commands (compile_commands.json), a file of a lower layer that includes a
higher layer's face, a file of app that includes trace's internal header, a file of the injection
library that includes a face other than base's, a file of app that includes the injection
library's face (trace's alone), and a family's model part that includes a header of measure or a
face of report, must not compile, while the same files unchanged do.

usage: layout_enforced.py ROOT BUILD_DIR"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

# (file to change, line added, what the check must say)
FORMS = [
    ('src/base/cp_status.c', '#include <trace/cp_trace.h>', 'not below base'),
    ('src/base/cp_status.c', '#  include "app/cp_app.h"', 'not below base'),
    ('src/app/cp_app.c', '#include "trace/cp_trace_report.h"', 'not the face of trace'),
    ('src/app/cp_app.c', '#include "../trace/cp_trace_report.h"', 'a path with ".."'),
    ('src/report/cp_report.c', '#include "cp_stride.h"', 'registry and its descriptor only'),
    ('src/model/cp_model.c', '#include "cp_gather.h"', 'registry and its descriptor only'),
    ('families/stride/cp_stride_model.c', '#include "cp_gather.h"', "no other family's headers"),
    ('families/stride/cp_stride_model.c', '#include "cp_measure_family.h"', 'through its face'),
    ('families/stride/cp_stride_measure.c', '#include "report/cp_report.h"', 'not below measure'),
    ('families/stride/cp_stride.cu', '#include "model/cp_model.h"', 'include nothing of src/'),
    ('families/stride/cp_stride.h', '#include "cp_config.h"', 'include nothing of src/'),
    ('kernels/cp_util.cu', '#include "cp_stride.h"', 'needs none of them'),
    ('families/scatter/cp_scatter_model.c', '#include <stdio.h>', 'not in the registry'),
    ('src/report/cp_report.c', '#include <cp_trace_report.h>', 'through its face only'),
    ('src/base/sub/cp_extra.c', '#include "report/cp_report.h"', 'not below base'),
    ('src/measure/cp_extra.cu', '#include "app/cp_app.h"', 'not below measure'),
    ('kernels/cp_extra.cu', '#include "base/cp_base.h"', 'includes nothing of src/'),
    ('src/cp_loose.c', '#include <stdio.h>', 'not in a layer folder'),
    ('src/inject/cp_inject_select.c', '#include "trace/cp_trace.h"', 'not below inject'),
    ('src/inject/cp_inject_select.c', '#include "model/cp_model.h"', 'not below inject'),
    ('src/app/cp_app.c', '#include "inject/cp_inject.h"', 'not below app'),
    ('src/model/cp_model.c', '#include <inject/cp_inject.h>', 'not below model'),
    ('src/trace/cp_trace_load.c', '#include "inject/cp_inject_select.h"', 'not the face of inject'),
    ('src/trace/cp_trace_load.c', '#include "cp_inject_select.h"', 'through its face only'),
]

# (file, line added, whether it must still compile)
BUILDS = [
    ('src/base/cp_status.c', None, True),
    ('src/base/cp_status.c', '#include "trace/cp_trace.h"', False),
    ('src/base/cp_status.c', '#include <app/cp_app.h>', False),
    ('src/app/cp_app.c', None, True),
    ('src/app/cp_app.c', '#include "trace/cp_trace_report.h"', False),
    ('src/app/cp_app.c', '#include "cp_stride.h"', False),
    ('src/app/cp_app.c', '#include "inject/cp_inject.h"', False),
    ('src/inject/cp_inject_select.c', None, True),
    ('src/inject/cp_inject_select.c', '#include "model/cp_model.h"', False),
    ('src/inject/cp_inject_select.c', '#include "trace/cp_trace.h"', False),
    ('families/stride/cp_stride_model.c', None, True),
    ('families/stride/cp_stride_model.c', '#include "cp_measure_family.h"', False),
    ('families/stride/cp_stride_model.c', '#include "report/cp_report.h"', False),
]


def copy_tree(root, dest):
    for folder in ('src', 'patterns', 'kernels', 'families'):
        shutil.copytree(os.path.join(root, folder), os.path.join(dest, folder))


def add_line(path, line):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = open(path).read() if os.path.exists(path) else ''
    with open(path, 'w') as f:
        f.write(line + '\n' + old)


def check(root, scratch, fails):
    script = os.path.join(root, 'tests', 'layout_check.py')
    run = lambda: subprocess.run([sys.executable, script, scratch], capture_output=True, text=True)
    r = run()
    if r.returncode != 0:
        fails.append(f'the unchanged copy fails the check: {r.stdout}{r.stderr}')
    for rel, line, says in FORMS:
        path = os.path.join(scratch, rel)
        saved = open(path).read() if os.path.exists(path) else None
        add_line(path, line)
        r = run()
        if r.returncode != 1 or rel not in r.stdout or says not in r.stdout:
            fails.append(f'{rel} with {line!r}: check exit {r.returncode}, expected 1 naming the '
                         f'file and "{says}": {r.stdout.strip()}')
        if saved is None:
            os.remove(path)
        else:
            with open(path, 'w') as f:
                f.write(saved)


def build(root, build_dir, scratch, fails):
    commands = json.load(open(os.path.join(build_dir, 'compile_commands.json')))
    for rel, line, compiles in BUILDS:
        source = os.path.realpath(os.path.join(root, rel))
        entry = next((c for c in commands if os.path.realpath(c['file']) == source), None)
        if entry is None:
            fails.append(f'no compile command for {rel}')
            continue
        args = shlex.split(entry['command']) if 'command' in entry else entry['arguments']
        copy = os.path.join(scratch, rel)
        with open(copy, 'w') as f:
            f.write((line + '\n' if line else '') + open(source).read())
        out = os.path.join(scratch, 'out.o')
        args = [copy if os.path.realpath(a) == source else a for a in args]
        if '-o' in args:
            args[args.index('-o') + 1] = out
        r = subprocess.run(args, cwd=entry['directory'], capture_output=True, text=True)
        if compiles and r.returncode != 0:
            fails.append(f'{rel} unchanged does not compile from the copy: {r.stderr[-600:]}')
        if not compiles and r.returncode == 0:
            fails.append(f'{rel} with {line!r} compiles: the build does not keep the layers')
        shutil.copy(source, copy)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root, build_dir = argv
    fails = []
    with tempfile.TemporaryDirectory() as scratch:
        copy_tree(root, scratch)
        check(root, scratch, fails)
        build(root, build_dir, scratch, fails)
    for f in fails:
        print('FAIL:', f)
    if not fails:
        print(f'{len(FORMS)} forbidden forms caught by the check, {sum(1 for b in BUILDS if b[1])} by the build')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
