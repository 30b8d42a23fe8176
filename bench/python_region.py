#!/usr/bin/env python3
"""python_region.py: the added wall time of `with coalprobe.trace():` around a PyTorch region of a
running process (issue 46): the region of tests/gpu/python_region_work.py (elementwise ops and a
matmul) timed alone and traced, the median of N of each, alternating, in one process that used
CUDA before; prints both medians and their ratio. The traced time includes the attach, the
detach and the report (`coalprobe trace --from-raw`).

usage: PYTHONPATH=BUILD/python python3 bench/python_region.py [N (default 5)] [REPEAT (default 1:
       how many times the work runs inside one region)]
"""
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    import coalprobe
    import python_region_work as w
    import torch

    a, b, m = w.inputs()
    for _ in range(3):  # warm: cuBLAS's choice, the allocator, lazy module loads
        w.work(a, b, m)
    alone, traced, region = [], [], []
    for _ in range(n):
        t = time.perf_counter()
        for _ in range(repeat):
            w.work(a, b, m)
        torch.cuda.synchronize()
        alone.append(time.perf_counter() - t)
        t = time.perf_counter()
        with coalprobe.trace() as r:
            for _ in range(repeat):
                w.work(a, b, m)
            torch.cuda.synchronize()
            inside_end = time.perf_counter()
        traced.append(time.perf_counter() - t)
        region.append(inside_end - t)
        assert r.report is not None and r.report.data["counted"], "the region counted nothing"
    ma, mt, mr = statistics.median(alone), statistics.median(traced), statistics.median(region)
    print("GPU: %s, torch %s, N=%d, work x%d" % (torch.cuda.get_device_name(), torch.__version__,
                                                n, repeat))
    print("alone:                 %9.4f s (median)" % ma)
    print("traced (with report):  %9.4f s (median)  ratio %.1fx" % (mt, mt / ma))
    print("traced, block only:    %9.4f s (median: attach + work, no detach or report)  "
          "ratio %.1fx" % (mr, mr / ma))


if __name__ == "__main__":
    main()
