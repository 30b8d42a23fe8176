"""coalprobe: coalprobe's reports in Python (docs/python.md).

    import coalprobe
    r = coalprobe.load("trace.json")   # a sweep's or a trace's JSON report
    r.kernels, r.instructions, r.rows  # lists of dicts
    r.to_pandas()                      # the CSV's columns, when pandas is installed
    r                                  # in a notebook: the offline page

    with coalprobe.trace(kernel="gemm") as t:   # a region of this running process
        y = model(x)
    t.report.kernels

    %load_ext coalprobe                # IPython: %%coalprobe_trace [options] runs a cell traced

Pure Python over the coalprobe tool; the standard library only (pandas and IPython used when
present).
"""
from ._tool import CoalprobeError, version
from .magic import load_ipython_extension
from .region import trace
from .report import Report, load

__version__ = version()
__all__ = ["CoalprobeError", "Report", "load", "trace", "load_ipython_extension", "__version__"]
