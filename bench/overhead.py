#!/usr/bin/env python3
"""overhead.py: where coalprobe's wall time goes: process start, device set-up, CUPTI
session, and a whole --stride 1..32 sweep with and without counters (median of 3 runs each).
usage: overhead.py PATH/TO/coalprobe"""
import statistics, subprocess, sys, time

CASES = [
    ("start, model only", ["--stride", "1", "--model"]),
    ("device set-up, one tiny config, no counters", ["--stride", "1", "--size", "4K", "--reps", "1", "--no-counters"]),
    ("device set-up + CUPTI session, one tiny config", ["--stride", "1", "--size", "4K", "--reps", "1"]),
    ("--stride 1..32, no counters", ["--stride", "1..32", "--no-counters"]),
    ("--stride 1..32, counters", ["--stride", "1..32"]),
]


def main():
    binary = sys.argv[1]
    for name, args in CASES:
        times = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([binary, *args, "--format", "csv"], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        print(f"{statistics.median(times):7.3f} s  {name}  (coalprobe {' '.join(args)})")


if __name__ == "__main__":
    main()
