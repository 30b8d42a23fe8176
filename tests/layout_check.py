#!/usr/bin/env python3
"""layout_check.py: the sources keep their layers (docs/layout.md).

src/ holds one folder per layer, base < model < measure < report < trace < app, and the injection
library's floor beside them, inject, which is above base only and below trace only (it runs inside
the traced program: of coalprobe it may use base alone, and only trace reads its face). A file of
a layer (at any depth below its folder) includes headers of its own folder by name, and of another
layer only that layer's face (LAYER/cp_LAYER.h; base also offers base/cp_cupti_util.h), and only
from a layer below its own. patterns/ and kernels/ headers are reachable from model and measure
only; patterns/ and kernels/ themselves include nothing of src/ nor of a family.

A pattern family is one folder, families/NAME/, named in the registry families/cp_families.def
(a folder it does not name is an error). Its files belong to the layer their name says:
*_measure* to measure, *_model* and *_family* to model (built into that layer's library), the
rest (its index functions, kernels and their launchers' header) beside patterns/ and kernels/.
A model or measure part includes what a file of its layer may, and its own folder's headers; the
rest includes its own folder, patterns/ and kernels/, nothing of src/. No family includes another
family's headers, and src/ includes none: a family is reached through the registry and its
descriptor. Every form of the directive counts: "..." and <...>, "# include" with spaces, paths with "..", in .c, .h, .cpp, .cu and .cuh
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


def registry(root):
    names = []
    path = os.path.join(root, 'families', 'cp_families.def')
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'\s*CP_FAMILY\(\s*\w+\s*,\s*(\w+)\s*\)', line)
                if m:
                    names.append(m.group(1))
    return names


def family_role(name):
    """The layer a family's file belongs to, or None for its patterns and kernels side."""
    if '_measure' in name:
        return 'measure'
    if '_model' in name or '_family' in name:
        return 'model'
    return None


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

    families = registry(root)
    fam_root = os.path.join(root, 'families')
    owner = {}  # header name -> the family whose folder holds it
    for name in families:
        for path in sources(os.path.join(fam_root, name)):
            owner[os.path.basename(path)] = name
    layer_headers = {}  # layer -> its headers' names, for its families' parts
    for path in sources(src):
        rel = os.path.relpath(path, src).split(os.sep)
        if len(rel) > 1:
            layer_headers.setdefault(rel[0], set()).add(rel[-1])
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
            if inc == 'cp_families.def':
                if layer != 'model' and 'model' not in BELOW[layer]:
                    bad(path, number, f'includes {shown}, the registry of the families, which '
                        f'model offers beside its face: {layer} is not above model')
                continue
            if inc in owner:
                bad(path, number, f'includes {shown} of families/{owner[inc]}/: src/ reaches a '
                    f'family through the registry and its descriptor only')
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
                elif name in owner:
                    bad(path, number, f'includes {kind}{inc} of families/{owner[name]}/: '
                        f'{folder}/ holds what families share, and needs none of them')
    if os.path.isdir(fam_root):
        for entry in sorted(os.listdir(fam_root)):
            if os.path.isdir(os.path.join(fam_root, entry)) and entry not in families:
                for path in sources(os.path.join(fam_root, entry)):
                    bad(path, 1, f'families/{entry}/ is not in the registry '
                        f'families/cp_families.def: the build leaves it out')
    for family in families:
        for path in sources(os.path.join(fam_root, family)):
            role = family_role(os.path.basename(path))
            here = os.path.dirname(path)
            for number, kind, inc in includes(path):
                shown = f'{kind}{inc}{">" if kind == "<" else kind}'
                name = inc.split('/')[-1]
                first = inc.split('/')[0]
                if '..' in inc.split('/'):
                    bad(path, number, f'includes {shown}: a path with ".." goes around the layers')
                elif '/' in inc and first in LAYERS:
                    if role is None:
                        bad(path, number, f'includes {shown}: a family\'s patterns and kernels '
                            f'include nothing of src/')
                    elif inc not in FACES[first]:
                        bad(path, number, f'includes {shown}, not the face of {first}')
                    elif first == role or first not in BELOW[role]:
                        bad(path, number, f'includes {shown} from {first}, a layer that is not '
                            f'below {role} (a family\'s {role} part includes its layer\'s '
                            f'headers by name)')
                elif '/' in inc:
                    continue  # a system header
                elif name in owner and owner[name] != family:
                    bad(path, number, f'includes {shown} of families/{owner[name]}/: a family '
                        f'includes no other family\'s headers (what two share goes to patterns/ '
                        f'or kernels/)')
                elif os.path.exists(os.path.join(here, inc)) or inc in shared \
                        or inc.endswith('_source.h'):
                    continue
                elif name in project:
                    if role is None:
                        bad(path, number, f'includes {shown} of src/{project[name]}/: a '
                            f'family\'s patterns and kernels include nothing of src/')
                    elif name not in layer_headers.get(role, set()):
                        bad(path, number, f'includes {shown} of src/{project[name]}/ by name: '
                            f'a family\'s {role} part reaches another layer through its face')
                elif kind == '"' and name != 'cp_families.def':
                    bad(path, number, f'includes {shown}, which is not in families/{family}/')
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'layout: every include follows the layers ({" < ".join(CHAIN)}; '
          f'base < inject < trace; {len(families)} families, each in its folder)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
