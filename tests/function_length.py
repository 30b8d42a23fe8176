#!/usr/bin/env python3
"""function_length.py: lists the functions of the host and kernel sources longer than a limit
(default 80 lines, body included) and fails when one of them has no comment saying why it is
one function (a comment right above it containing "one function").

usage: function_length.py [--limit N] [--list] ROOT
The sources follow .clang-format (BreakBeforeBraces: Linux): a function's body opens with "{"
alone at column 0 and closes with "}" at column 0, which is how functions are found."""
import os
import re
import sys

EXTS = ('.c', '.cpp', '.cu', '.h', '.cuh')
DIRS = ('src', 'kernels', 'patterns', 'families')


def functions(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i] == '{':
            # the signature: back to the line after a blank line, comment end, ';' or '}'
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].rstrip().endswith(('*/', ';', '}')) \
                    and not lines[j - 1].startswith(('#', '//')):
                j -= 1
            sig = ' '.join(l.strip() for l in lines[j:i])
            m = re.search(r'([A-Za-z_][A-Za-z0-9_:~]*)\s*\(', sig)
            name = m.group(1) if m else sig[:40]
            k = i + 1
            while k < len(lines) and lines[k] != '}' and not lines[k].startswith('}'):
                k += 1
            # the comment above the signature
            above = []
            c = j - 1
            if c >= 0 and lines[c].rstrip().endswith('*/'):
                while c >= 0:
                    above.append(lines[c])
                    if '/*' in lines[c]:
                        break
                    c -= 1
            yield name, j + 1, k - j + 1, ' '.join(above)
            i = k
        i += 1


def main(argv):
    limit, listing, args = 80, False, []
    it = iter(argv)
    for a in it:
        if a == '--limit':
            limit = int(next(it))
        elif a == '--list':
            listing = True
        else:
            args.append(a)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = args[0]
    long_fns, unexplained = [], []
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for fn in sorted(files):
                if not fn.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, fn)
                for name, line, length, comment in functions(path):
                    if length > limit:
                        rel = os.path.relpath(path, root)
                        long_fns.append((length, f'{rel}:{line}', name))
                        if 'one function' not in comment.lower():
                            unexplained.append((length, f'{rel}:{line}', name))
    long_fns.sort(reverse=True)
    if listing:
        for length, where, name in long_fns:
            print(f'{length:5d} {where} {name}')
    print(f'{len(long_fns)} functions over {limit} lines, {len(unexplained)} without a comment '
          f'saying why each is one function')
    for length, where, name in sorted(unexplained, reverse=True):
        print(f'  {where}: {name} is {length} lines: split it where it mixes jobs, or say above it '
              f'why it is one function ("one function because ...")')
    return 1 if unexplained else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
