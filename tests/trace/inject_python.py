#!/usr/bin/env python3
"""inject_python.py: the injection library's Python frames against a real CPython, no GPU.

Loads tests/trace/cp_inject_python_probe.c's library with ctypes and plays kernel launches:
through ctypes.PyDLL (the GIL held: the stack is read at the launch) and through ctypes.CDLL
(the GIL released, as PyTorch's operators do: the line comes from the profile hook, which the
first launch asks Python to install). Each launch must be filed under the line that made it.

usage: inject_python.py PATH/TO/libcp_inject_python_probe.so
Exit status: 0 passed, 1 failed.
"""
import ctypes
import os
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


def main():
    lib_path = sys.argv[1]
    here = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "frames.tsv")
        held = ctypes.PyDLL(lib_path)      # calls keep the GIL
        free = ctypes.CDLL(lib_path)       # calls release the GIL
        for lib in (held, free):
            lib.cp_probe_launch.restype = ctypes.c_int64
        check(held.cp_probe_open(raw.encode()) == 0, "the frame file opens")

        def launch_held():
            return held.cp_probe_launch()  # LINE: held

        def launch_free():
            return free.cp_probe_launch()  # LINE: free

        first = launch_free()  # before the hook: no GIL, nothing noted
        check(first == -2, "a launch without the GIL before the hook is installed: nogil (%d)" % first)
        for _ in range(1000):  # Python runs the pending call at one of these
            pass
        a = launch_held()  # LINE: caller of held
        b = launch_free()  # LINE: caller of free
        seen = frames(raw)
        lines = {}
        for n, text in enumerate(open(here), 1):
            if "# LINE: " in text:
                lines[text.split("# LINE: ")[1].strip()] = n
        check(a in seen and seen[a][0] == here and seen[a][1] == lines["held"] and
              seen[a][2] == "launch_held",
              "with the GIL: the launch's own line %s (%s)" % (lines["held"], seen.get(a)))
        check(b in seen and seen[b][0] == here and seen[b][1] == lines["caller of free"],
              "without the GIL: the line that called into the launch, %s, from the profile hook (%s)"
              % (lines["caller of free"], seen.get(b)))
        # a C call (the builtin sum) made from a user line, which calls the launch: that line
        c = sum(map(free.cp_probe_launch, [0]))  # LINE: sum
        seen = frames(raw)
        check(c in seen and seen[c][1] == lines["sum"],
              "a C call (sum) from a user line: that line %s (%s)" % (lines["sum"], seen.get(c)))
        print("frames:", frames(raw))
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
