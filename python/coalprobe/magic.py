"""magic.py: coalprobe in IPython and Jupyter: `%load_ext coalprobe` registers the cell magic
`%%coalprobe_trace [options]`, which runs the cell inside coalprobe.trace() and shows the report's
page below it (docs/python.md). The options are `coalprobe trace`'s that apply to a region."""
import argparse
import shlex

from .region import trace

# keyword of coalprobe.trace() -> type; its option is `coalprobe trace`'s of that name in kebab
# case (--launch-skip); a type None is a flag
_OPTIONS = {
    "kernel": str, "launch_skip": int, "launch_count": int, "counter_launches": int,
    "all_launches": None, "nvtx_include": str, "capture_range": str, "kernel_counters": str,
    "python_frames": str, "python_stack": None, "instructions": str, "group_by": str, "top": int,
    "max_sectors_per_request": float, "max_excess_pct": float, "min_requests": int,
    "min_coverage": float, "raw_dir": str,
}


def _usage_error(message):
    try:
        from IPython.core.error import UsageError
    except ImportError:  # called without IPython: a ValueError says the same
        return ValueError(message)
    return UsageError(message)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # never exit the kernel
        raise _usage_error("%%coalprobe_trace: " + message)


def parse_line(line):
    """The keyword options of coalprobe.trace() that a magic's line asks for."""
    parser = _Parser(prog="%%coalprobe_trace", add_help=False)
    for dest, kind in _OPTIONS.items():
        opt = "--" + dest.replace("_", "-")
        if kind is None:
            parser.add_argument(opt, dest=dest, action="store_true", default=None)
        else:
            parser.add_argument(opt, dest=dest, type=kind, default=None)
    try:
        words = shlex.split(line)
    except ValueError as e:
        raise _usage_error("%%coalprobe_trace: " + str(e))
    return {k: v for k, v in vars(parser.parse_args(words)).items() if v is not None}


def coalprobe_trace(line, cell, shell=None):
    """%%coalprobe_trace [options]: the cell run inside coalprobe.trace(), its page shown."""
    try:
        opts = parse_line(line)
        region = trace(**opts)
    except ValueError as e:
        raise _usage_error(str(e))
    if shell is None:
        from IPython import get_ipython
        shell = get_ipython()
    with region:
        result = shell.run_cell(cell, store_history=False)
        err = result.error_before_exec or result.error_in_exec
        if err is not None:  # shown by IPython already: the region ends, its report incomplete
            region._reason = "the cell of %%coalprobe_trace raised %s: %s" % (
                type(err).__name__, err)
    from IPython.display import HTML, display
    if region.report is not None:
        display(HTML("<div>%s</div>" % region.report._repr_html_()))
    return region


def load_ipython_extension(ip):
    """`%load_ext coalprobe`: registers %%coalprobe_trace."""
    ip.register_magic_function(lambda line, cell: coalprobe_trace(line, cell, ip),
                               magic_kind="cell", magic_name="coalprobe_trace")
