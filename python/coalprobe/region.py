"""region.py: `with coalprobe.trace(**options) as t:` counts the kernels launched inside the block,
in the running process (docs/python.md): the injection library (libcoalprobe_inject.so) loaded
with ctypes and attached when the block starts (coalprobe_attach), detached when it ends
(coalprobe_detach_interrupted), its raw files reported by `coalprobe trace --from-raw`; then
`t.report` is the report the CLI writes.
"""
import ctypes
import os
import shutil
import tempfile

from . import _tool
from .report import Report

# The options the injection library reads from its environment, as `coalprobe trace` sets them
# (src/trace/cp_trace_main.c): keyword -> variable. Each one not given is unset for the region.
_ENV = {
    "kernel": "COALPROBE_TRACE_KERNEL",
    "counter_launches": "COALPROBE_TRACE_COUNTER_LAUNCHES",
    "launch_skip": "COALPROBE_TRACE_LAUNCH_SKIP",
    "launch_count": "COALPROBE_TRACE_LAUNCH_COUNT",
    "nvtx_include": "COALPROBE_TRACE_NVTX_INCLUDE",
    "capture_range": "COALPROBE_TRACE_CAPTURE_RANGE",
    "kernel_counters": "COALPROBE_TRACE_KERNEL_SET",
    "python_frames": "COALPROBE_TRACE_PYTHON_FRAMES",
    "python_stack": "COALPROBE_TRACE_PYTHON_STACK",
    "instructions": "COALPROBE_TRACE_INSTRUCTIONS",
}
# The options that apply when the report is made: keyword -> `coalprobe trace` option.
_REPORT = {
    "group_by": "--group-by",
    "top": "--top",
    "max_sectors_per_request": "--max-sectors-per-request",
    "max_excess_pct": "--max-excess-pct",
    "min_requests": "--min-requests",
    "min_coverage": "--min-coverage",
    "rank_spread": "--rank-spread",
}
_CHOICES = {
    "kernel_counters": ("lean", "full"),
    "instructions": ("every", "sampled"),
    "python_frames": ("user", "all"),
    "capture_range": ("profiler-api",),
    "group_by": ("kernel", "line", "callsite", "range"),
}
_COUNTS = ("launch_skip", "launch_count", "top", "min_requests")

_library = None


def _load_library():
    """The injection library, loaded once with ctypes.PyDLL: its entry points run holding the
    GIL, so that the Python frames of the region's launches are followed from its first line."""
    global _library
    if _library is None:
        lib = ctypes.PyDLL(_tool.inject_library())
        lib.coalprobe_attach.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.coalprobe_attach.restype = ctypes.c_int
        lib.coalprobe_detach_interrupted.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                                     ctypes.c_size_t]
        lib.coalprobe_detach_interrupted.restype = ctypes.c_int
        _library = lib
    return _library


def _env_value(name, value):
    """The environment's text of option name, checked as the CLI checks it (ValueError)."""
    if name in _CHOICES and value not in _CHOICES[name]:
        raise ValueError("coalprobe.trace: %s=%r is not one of %s" %
                         (name, value, ", ".join(_CHOICES[name])))
    if name == "python_stack":
        return "1" if value else None
    if name == "counter_launches" and value == "all":
        return "all"
    if name in _COUNTS or name == "counter_launches":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError("coalprobe.trace: %s=%r is not a count (an int >= 0)" % (name, value))
        return str(value)
    if not isinstance(value, str) or not value:
        raise ValueError("coalprobe.trace: %s=%r is not a non-empty string" % (name, value))
    return value


class trace:  # noqa: N801 (a context manager named as a function: `with coalprobe.trace():`)
    """Counts the kernels launched inside a `with` block of this process.

        with coalprobe.trace(kernel="gemm", group_by="line") as t:
            y = model(x)
        t.report.kernels

    Options as `coalprobe trace`'s, in snake case: what is counted (kernel, launch_skip,
    launch_count, counter_launches, all_launches, nvtx_include, capture_range, kernel_counters,
    python_frames, python_stack, instructions) and how it is reported (group_by, top and the gate's
    max_sectors_per_request, max_excess_pct, min_requests, min_coverage; rank_spread). raw_dir
    keeps the raw files there (created) instead of a temporary directory.

    After the block: `report` (a coalprobe Report, None when it could not be made: `error`
    says why), `gate_failed` (the gate's limits were passed: `gate_messages` lists the lines).
    An exception in the block ends the region and propagates; the report is kept, marked
    incomplete. One region at a time in a process; a region may follow another.
    """

    def __init__(self, kernel=None, launch_skip=None, launch_count=None, counter_launches=None,
                 all_launches=False, nvtx_include=None, capture_range=None,
                 kernel_counters=None, python_frames=None, python_stack=False, instructions=None,
                 group_by=None,
                 top=None, max_sectors_per_request=None, max_excess_pct=None, min_requests=None,
                 min_coverage=None, rank_spread=None, raw_dir=None):
        given = dict(kernel=kernel, launch_skip=launch_skip, launch_count=launch_count,
                     counter_launches=counter_launches, nvtx_include=nvtx_include,
                     capture_range=capture_range, kernel_counters=kernel_counters,
                     python_frames=python_frames, python_stack=python_stack,
                     instructions=instructions)
        # --instructions sampled counts the launches with counters: refused as the CLI refuses it
        if instructions == "sampled" and (counter_launches == 0 or kernel_counters == "full"):
            raise ValueError("coalprobe.trace: instructions='sampled' counts the launches with "
                             "per-kernel counters: not with counter_launches=0 or "
                             "kernel_counters='full'")
        if all_launches:
            if counter_launches is not None:
                raise ValueError("coalprobe.trace: counter_launches and all_launches together")
            given["counter_launches"] = "all"
        self._env = {var: (_env_value(k, given[k]) if given[k] is not None else None)
                     for k, var in _ENV.items()}
        self._args = []
        reported = dict(group_by=group_by, top=top,
                        max_sectors_per_request=max_sectors_per_request,
                        max_excess_pct=max_excess_pct, min_requests=min_requests,
                        min_coverage=min_coverage, rank_spread=rank_spread)
        for k, opt in _REPORT.items():
            v = reported[k]
            if v is None:
                continue
            if k in _CHOICES or k in _COUNTS:
                v = _env_value(k, v)
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError("coalprobe.trace: %s=%r is not a number" % (k, v))
            self._args += [opt, str(v)]
        if kernel is not None:  # the report is filtered as the CLI's is
            self._args += ["--kernel", self._env["COALPROBE_TRACE_KERNEL"]]
        self._keep = raw_dir
        self._dir = None
        self._saved = None
        self._reason = None  # set by the cell magic: the cell raised
        self.report = None
        self.error = None
        self.raw_dir = None
        self.gate_failed = False
        self.gate_messages = []

    # ---- the environment of the region --------------------------------------------------
    @staticmethod
    def _put_env(values):
        """Sets each variable of values, or unsets it where its value is None."""
        for var, value in values.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value

    def _set_env(self):
        self._saved = {var: os.environ.get(var) for var in self._env}
        self._put_env(self._env)

    def _restore_env(self):
        self._put_env(self._saved or {})
        self._saved = None

    def _remove_dir(self):
        if self._dir and not self._keep:
            shutil.rmtree(self._dir, ignore_errors=True)
        self._dir = None

    # ---- the region -----------------------------------------------------------------------
    def __enter__(self):
        lib = _load_library()
        if self._keep:
            os.makedirs(self._keep, exist_ok=True)
            self._dir = os.path.abspath(self._keep)
        else:
            self._dir = tempfile.mkdtemp(prefix="coalprobe-region-")
        self.raw_dir = self._dir
        self._set_env()
        why = ctypes.create_string_buffer(2048)
        try:
            if lib.coalprobe_attach(self._dir.encode(), why, len(why)) != 0:
                raise _tool.CoalprobeError("coalprobe: %s" % why.value.decode(errors="replace"))
        except BaseException:  # refused or interrupted: no region, nothing left behind
            self._restore_env()
            self._remove_dir()
            raise
        return self

    def __exit__(self, kind, value, tb):
        reason = self._reason
        if kind is not None:
            reason = "the block of coalprobe.trace() raised %s: %s" % (kind.__name__, value)
        why = ctypes.create_string_buffer(2048)
        try:
            rc = _load_library().coalprobe_detach_interrupted(
                reason.encode(errors="replace") if reason else None, why, len(why))
        finally:
            self._restore_env()
        try:
            if rc != 0:
                raise _tool.CoalprobeError("coalprobe: %s" % why.value.decode(errors="replace"))
            self._make_report()
        except Exception as e:  # the block's own exception, where there is one, goes first
            self.error = e
            if kind is None:
                raise
        finally:
            self._remove_dir()
        return False

    def _make_report(self):
        """`coalprobe trace --from-raw DIR --format json -o FILE` with the report's options; a
        gate that fails (exit 3) still gives the report."""
        fd, out = tempfile.mkstemp(prefix="coalprobe-region-", suffix=".json")
        os.close(fd)
        try:
            p = _tool.call(["trace", "--from-raw", self._dir, "--format", "json", "-o", out] +
                           self._args, ok=(0, 3), what="coalprobe trace --from-raw")
            self.gate_failed = p.returncode == 3
            self.gate_messages = (p.stderr.decode(errors="replace").splitlines()
                                  if self.gate_failed else [])
            with open(out, "rb") as f:
                self.report = Report(f.read())
        finally:
            os.unlink(out)
