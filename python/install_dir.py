#!/usr/bin/env python3
"""install_dir.py: where the Python package goes under an install prefix, so that this
machine's python3 finds it: the entry of sys.path under PREFIX (Debian's
PREFIX/lib/python3/dist-packages or PREFIX/local/lib/python3.X/dist-packages), else the
prefix's site-packages as sysconfig names it (PREFIX/lib/python3.X/site-packages).

usage: install_dir.py PREFIX
"""
import os
import sys
import sysconfig


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    prefix = os.path.abspath(sys.argv[1])
    for entry in sys.path:  # PREFIX/lib/...: /usr/local/lib/... is not /usr's
        if entry.startswith(os.path.join(prefix, "lib") + os.sep) and \
                entry.endswith(("dist-packages", "site-packages")):
            print(entry)
            return 0
    print(sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
