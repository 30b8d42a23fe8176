"""_tool.py: where coalprobe's tool and injection library are, and running the tool.

The paths come from _config.py, which CMake writes beside the package: in the build tree it names
the build's coalprobe and libcoalprobe_inject.so, in an installed prefix the installed ones.
COALPROBE_BIN and COALPROBE_INJECT override them; without either, coalprobe is looked up on PATH.
"""
import os
import shutil
import subprocess

try:
    from . import _config
except ImportError:  # the source tree, not configured by CMake
    _config = None


class CoalprobeError(RuntimeError):
    """coalprobe failed: its exit status and what it wrote on standard error."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def tool():
    """The coalprobe executable's path."""
    path = os.environ.get("COALPROBE_BIN") or getattr(_config, "TOOL", None)
    if path and os.access(path, os.X_OK):
        return path
    found = shutil.which("coalprobe")
    if not found:
        raise CoalprobeError("coalprobe: the tool is not found (set COALPROBE_BIN, or put it on "
                             "PATH)")
    return found


def inject_library():
    """The injection library's path (libcoalprobe_inject.so)."""
    path = os.environ.get("COALPROBE_INJECT") or getattr(_config, "INJECT", None)
    if path and os.path.exists(path):
        return path
    raise CoalprobeError("coalprobe: the injection library is not found (set COALPROBE_INJECT)")


def call(args, stdin=None, ok=(0,), what="coalprobe"):
    """Runs coalprobe with args: the finished process (its output and error as bytes).
    CoalprobeError when its exit status is not one of ok: its standard error, else that what
    exited with the status."""
    p = subprocess.run([tool()] + list(args), input=stdin, capture_output=True)
    if p.returncode not in ok:
        raise CoalprobeError(p.stderr.decode(errors="replace").strip() or
                             "%s exited with %d" % (what, p.returncode), p.returncode)
    return p


def run(args, stdin=None):
    """Runs coalprobe with args; its standard output (bytes). CoalprobeError when it fails."""
    return call(args, stdin).stdout


def version():
    """The package's version: the tool's it was built with."""
    return getattr(_config, "VERSION", "0+unknown")
