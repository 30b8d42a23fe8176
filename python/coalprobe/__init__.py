"""coalprobe: coalprobe's reports in Python (docs/python.md).

    import coalprobe
    r = coalprobe.load("trace.json")   # a sweep's or a trace's JSON report
    r.kernels, r.instructions, r.rows  # lists of dicts
    r.to_pandas()                      # the CSV's columns, when pandas is installed
    r                                  # in a notebook: the offline page

Pure Python over the coalprobe tool; the standard library only (pandas and IPython used when
present).
"""
from ._tool import CoalprobeError, version
from .report import Report, load

__version__ = version()
__all__ = ["CoalprobeError", "Report", "load", "__version__"]
