#!/usr/bin/env python3
"""inject_python.py: the injection library's Python frames against a real CPython, no GPU.

Loads tests/trace/cp_inject_python_probe.c's library with ctypes and plays kernel launches:
through ctypes.PyDLL (the GIL held: the stack is read at the launch) and through ctypes.CDLL
(the GIL released, as PyTorch's operators do: the line is the current line of the innermost user
frame the profile hook follows, which the first launch, or CUDA's start, asks Python to install).
Each launch must be filed under the line that made it, launches made inside operators (`@`, `*`,
indexing: slots the BINARY_OP and BINARY_SUBSCR instructions call, which make no profile event)
and after a return included.

usage: inject_python.py PATH/TO/libcp_inject_python_probe.so [--prepared]
(--prepared: the hook asked for at CUDA's start, before any launch; run by the first mode as a
child process, since the hook is installed once a process.)
Exit status: 0 passed, 1 failed.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what)
    if not ok:
        failures.append(what)


def frames(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "frame":
            out[int(f[1])] = (f[2], int(f[3]), f[4])
    return out


def marked_lines(here):
    lines = {}
    for n, text in enumerate(open(here), 1):
        if "# LINE: " in text:
            lines[text.split("# LINE: ")[1].strip()] = n
    return lines


def load(lib_path, raw):
    held = ctypes.PyDLL(lib_path)      # calls keep the GIL
    free = ctypes.CDLL(lib_path)       # calls release the GIL
    for lib in (held, free):
        lib.cp_probe_launch.restype = ctypes.c_int64
    check(held.cp_probe_open(raw.encode()) == 0, "the frame file opens")
    return held, free


def operators(free, raw, here, lines):
    """Launches made inside operators: the slot calls the ctypes function (GIL released), no call
    event of the profile hook comes between the line before and the operator's line."""
    class Operand:
        _as_parameter_ = 0                  # what ctypes passes for an Operand argument
        __matmul__ = free.cp_probe_launch   # x @ y: nb_matrix_multiply calls it with y
        __mul__ = free.cp_probe_launch      # x * y
        __getitem__ = free.cp_probe_launch  # x[0]

    def helper():
        len("a C call in a helper")  # LINE: helper
        return 0

    x, y = Operand(), Operand()
    len("a C call on the line before")  # LINE: before matmul
    m = x @ y  # LINE: matmul
    len("a C call on the line before")  # LINE: before mul
    p = x * y  # LINE: mul
    len("a C call on the line before")  # LINE: before index
    i = x[0]  # LINE: index
    len("a C call on the line before")  # LINE: before direct
    d = free.cp_probe_launch()  # LINE: direct
    helper()
    r = x @ y  # LINE: after return
    seen = frames(raw)
    for name, got in (("matmul", m), ("mul", p), ("index", i), ("direct", d),
                      ("after return", r)):
        check(got in seen and seen[got][0] == here and seen[got][1] == lines[name] and
              seen[got][2] == "operators",
              "without the GIL, %s: its own line %s (%s)" % (name, lines[name], seen.get(got)))


def prepared(lib_path):
    """The hook asked for when CUDA starts: the first launch without the GIL finds its line."""
    here = os.path.abspath(__file__)
    lines = marked_lines(here)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "frames.tsv")
        held, free = load(lib_path, raw)
        held.cp_probe_prepare()
        for _ in range(1000):  # Python runs the pending call at one of these
            pass
        first = free.cp_probe_launch()  # LINE: first launch
        seen = frames(raw)
        check(first in seen and seen[first][1] == lines["first launch"],
              "the hook asked for at CUDA's start: the first launch without the GIL, line %s (%s)"
              % (lines["first launch"], seen.get(first)))


def main():
    lib_path = sys.argv[1]
    if sys.argv[2:] == ["--prepared"]:
        prepared(lib_path)
        return 1 if failures else 0
    here = os.path.abspath(__file__)
    lines = marked_lines(here)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "frames.tsv")
        held, free = load(lib_path, raw)

        def launch_held():
            return held.cp_probe_launch()  # LINE: held

        def launch_free():
            return free.cp_probe_launch()  # LINE: free

        first = launch_free()  # before the hook: no GIL, nothing noted
        check(first == -2, "a launch without the GIL before the hook is installed: nogil (%d)" % first)
        for _ in range(1000):  # Python runs the pending call at one of these
            pass
        a = launch_held()
        b = launch_free()
        seen = frames(raw)
        check(a in seen and seen[a][0] == here and seen[a][1] == lines["held"] and
              seen[a][2] == "launch_held",
              "with the GIL: the launch's own line %s (%s)" % (lines["held"], seen.get(a)))
        check(b in seen and seen[b][0] == here and seen[b][1] == lines["free"] and
              seen[b][2] == "launch_free",
              "without the GIL: the launch's own line %s, as with it (%s)"
              % (lines["free"], seen.get(b)))
        # a C call (the builtin sum) made from a user line, which calls the launch: that line
        c = sum(map(free.cp_probe_launch, [0]))  # LINE: sum
        seen = frames(raw)
        check(c in seen and seen[c][1] == lines["sum"],
              "a C call (sum) from a user line: that line %s (%s)" % (lines["sum"], seen.get(c)))
        operators(free, raw, here, lines)
        print("frames:", frames(raw))
    child = subprocess.run([sys.executable, here, lib_path, "--prepared"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(child.stdout)
    check(child.returncode == 0, "the hook asked for at CUDA's start (a process of its own)")
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
