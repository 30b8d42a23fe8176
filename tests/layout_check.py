#!/usr/bin/env python3
"""layout_check.py: the sources keep their layers (docs/layout.md).

src/ holds one folder per layer, base < model < measure < report < trace < app, and the injection
library's floor beside them, inject, which is above base only and below trace only (it runs inside
the traced program: of coalprobe it may use base alone, and only trace reads its face). A file of
a layer (at any depth below its folder) includes headers of its own folder by name, and of another
layer only that layer's face (LAYER/cp_LAYER.h; base also offers base/cp_cupti_util.h), and only
from a layer below its own. patterns/ and kernels/ headers are reachable from model and measure
only; patterns/ and kernels/ themselves include nothing of src/. Every form of the directive
counts: "..." and <...>, "# include" with spaces, paths with "..", in .c, .h, .cpp, .cu and .cuh
files. The build enforces the same rule (CMakeLists.txt: a library per layer whose public include
directory holds only its faces); this check says it on the sources, with the file and line.

usage: layout_check.py ROOT   prints each offending include; exit 1 if there is one
"""
import os
import re
import sys

CHAIN = ['base', 'model', 'measure', 'report', 'trace', 'app']
LAYERS = CHAIN + ['inject']
# the layers below each layer: those before it in the chain; inject's floor stands on base alone
# and, of the chain, trace alone stands on it
BELOW = {layer: set(CHAIN[:i]) for i, layer in enumerate(CHAIN)}
BELOW['inject'] = {'base'}
BELOW['trace'].add('inject')
FACES = {layer: {f'{layer}/cp_{layer}.h'} for layer in LAYERS}
FACES['base'].add('base/cp_cupti_util.h')
USES_PATTERNS = {'model', 'measure'}
EXTS = ('.c', '.h', '.cpp', '.cu', '.cuh')
DIRECTIVE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]*)[>"]')


def sources(top):
    for dirpath, dirnames, files in os.walk(top):
        dirnames.sort()
        for name in sorted(files):
            if name.endswith(EXTS):
                yield os.path.join(dirpath, name)


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            m = DIRECTIVE.match(line)
            if m:
                yield number, m.group(1), m.group(2)


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[0]
    src = os.path.join(root, 'src')
    shared = {}  # header name -> 'patterns' or 'kernels'
    for folder in ('patterns', 'kernels'):
        for path in sources(os.path.join(root, folder)):
            shared[os.path.basename(path)] = folder
    project = {}  # header name -> layer, for every header of src/
    for path in sources(src):
        rel = os.path.relpath(path, src).split(os.sep)
        if path.endswith(('.h', '.cuh')) and len(rel) > 1:
            project.setdefault(rel[-1], rel[0])
    problems = []

    def bad(path, number, text):
        problems.append(f'{os.path.relpath(path, root)}:{number}: {text}')

    for path in sources(src):
        rel = os.path.relpath(path, src).split(os.sep)
        if len(rel) == 1 or rel[0] not in LAYERS:
            bad(path, 1, f'not in a layer folder of src/ ({", ".join(LAYERS)})')
            continue
        layer, here = rel[0], os.path.dirname(path)
        for number, kind, inc in includes(path):
            shown = f'{kind}{inc}{">" if kind == "<" else kind}'
            if '..' in inc.split('/'):
                bad(path, number, f'includes {shown}: a path with ".." goes around the layers')
                continue
            if '/' in inc:
                other = inc.split('/')[0]
                if other not in LAYERS:
                    continue  # a system header such as <sys/stat.h> or <cjson/cJSON.h>
                if inc not in FACES[other]:
                    bad(path, number, f'includes {shown}, not the face of {other} '
                        f'({" or ".join(sorted(FACES[other]))})')
                elif other == layer:
                    bad(path, number, f'includes its own layer\'s face {shown}: include '
                        f'the header by name')
                elif other not in BELOW[layer]:
                    bad(path, number, f'includes {shown} from {other}, a layer that is not '
                        f'below {layer}')
                continue
            if inc in shared:
                if layer not in USES_PATTERNS:
                    bad(path, number, f'includes {shown} of {shared[inc]}/, which only model and '
                        f'measure may use')
                continue
            if os.path.exists(os.path.join(here, inc)) or inc.endswith('_source.h'):
                continue  # its own folder, or a header CMakeLists.txt generates
            if inc in project:
                bad(path, number, f'includes {shown} of src/{project[inc]}/ by name: another '
                    f'layer is reached through its face only')
            elif kind == '"':
                bad(path, number, f'includes {shown}, which is not in src/{"/".join(rel[:-1])}')
    for folder in ('patterns', 'kernels'):
        for path in sources(os.path.join(root, folder)):
            for number, kind, inc in includes(path):
                name = inc.split('/')[-1]
                if inc.split('/')[0] in LAYERS or (name in project and name not in shared):
                    bad(path, number, f'includes {kind}{inc}: {folder}/ includes nothing of src/')
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'layout: every include follows the layers ({" < ".join(CHAIN)}; '
          f'base < inject < trace)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
