#!/usr/bin/env python3
"""family_names.py: a family's name is written in its folder and in the registry, nowhere else.

The families are the lines of families/cp_families.def. In the code of src/, patterns/, kernels/
and of the other families' folders (comments aside), a family's name may appear neither as a
string ("gather") nor as a part of an identifier of coalprobe's between underscores
(CP_FAMILY_GATHER, cp_model_gather_lanes, CP_GATHER_SIZE_DEFAULT); only families/NAME/ and the
registry may write NAME. The strings of src/trace/ and src/inject/ are the trace report's words
(its instruction kinds "load", "atomic", "reduction", its JSON keys), never a sweep's pattern: there
only identifiers count, so that a family whose name is such a word (atomic) needs no rename of a
public key. What is still left outside the folders is listed, file by file with its
count, in tests/family_names.txt: a name found where that list does not allow it fails, and so
does a line of the list that no longer matches (the list only shrinks).

usage: family_names.py ROOT [--list]   --list prints the counts as family_names.txt holds them
"""
import os
import re
import sys

EXTS = ('.c', '.h', '.cpp', '.cu', '.cuh')
# folders whose strings are the trace report's words, not patterns: identifiers alone count there
TRACE_DIRS = (os.path.join('src', 'trace'), os.path.join('src', 'inject'))
DIRS = ('src', 'patterns', 'kernels', 'families')
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[A-Za-z_][A-Za-z0-9_]*')


def registry(root):
    with open(os.path.join(root, 'families', 'cp_families.def'), encoding='utf-8') as f:
        return [m.group(1) for m in re.finditer(r'^\s*CP_FAMILY\(\s*\w+\s*,\s*(\w+)\s*\)', f.read(),
                                                re.M)]


def code(text):
    """text without its comments (strings kept), line breaks kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            m = re.compile(r'%s(?:[^%s\\\n]|\\.)*%s' % (c, c, c)).match(text, i)
            j = m.end() if m else i + 1
            out.append(text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def uses(path, families, strings=True):
    """(family, line) for each use of a family's name in path's code (in its strings too unless
    strings is False)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = code(f.read())
    found = []
    for number, line in enumerate(text.split('\n'), 1):
        for m in TOKEN.finditer(line):
            t = m.group(0)
            if t[0] in '"\'':
                if strings and t[1:-1] in families:
                    found.append((t[1:-1], number))
            elif t.lower().startswith('cp_'):
                parts = t.lower().split('_')[1:]
                for name in families:
                    if name in parts:
                        found.append((name, number))
    return found


def main(argv):
    if not argv or len(argv) > 2 or (len(argv) == 2 and argv[1] != '--list'):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[0]
    families = registry(root)
    counts = {}  # (relative path, family) -> uses, first line
    for top in DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, root).split(os.sep)
            own = rel_dir[1] if rel_dir[0] == 'families' and len(rel_dir) > 1 else None
            for name in sorted(files):
                if not name.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                trace = any(rel == d or rel.startswith(d + os.sep) for d in TRACE_DIRS)
                for family, number in uses(path, families, strings=not trace):
                    if family == own:
                        continue
                    n, first = counts.get((rel, family), (0, number))
                    counts[(rel, family)] = (n + 1, first)
    if len(argv) == 2:
        for (rel, family), (n, _) in sorted(counts.items()):
            print(f'{rel} {family} {n}')
        return 0
    allowed = {}
    listing = os.path.join(root, 'tests', 'family_names.txt')
    with open(listing, encoding='utf-8') as f:
        for line in f:
            line = line.split('#')[0].split()
            if len(line) == 3:
                allowed[(line[0], line[1])] = int(line[2])
    problems = []
    for key, (n, first) in sorted(counts.items()):
        if n > allowed.get(key, 0):
            problems.append(f'{key[0]}:{first}: names the family {key[1]} ({n} times, '
                            f'{allowed.get(key, 0)} allowed): a family\'s name belongs in '
                            f'families/{key[1]}/ and the registry')
    for key, n in sorted(allowed.items()):
        if counts.get(key, (0, 0))[0] < n:
            problems.append(f'tests/family_names.txt: {key[0]} {key[1]} {n}: now '
                            f'{counts.get(key, (0, 0))[0]}; lower the count (or drop the line)')
    for p in problems:
        print(p)
    if problems:
        return 1
    left = sum(allowed.values())
    print(f'family names: {len(families)} families, each named in its folder and the registry '
          f'(and {left} uses in {len({k[0] for k in allowed})} files still listed)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
