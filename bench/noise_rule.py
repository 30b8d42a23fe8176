#!/usr/bin/env python3
"""noise_rule.py: the tables of bench/noise_rule.sh, in Markdown (for docs/results).

usage: noise_rule.py pairs OUTDIR      the stride, width and GEMM sweeps, default rule against
                                       --reps 20 (OUTDIR/SWEEP.MODE.ROUND.json and .err,
                                       OUTDIR/times.txt)
       noise_rule.py families OUTDIR   the launches and noise of every family's default sweep
                                       (OUTDIR/family.FAMILY.json)
       noise_rule.py replay OUTDIR     the default rule replayed on each 20-launch row's own
                                       samples (OUTDIR/SWEEP.reps20.ROUND.samples, written through
                                       COALPROBE_SAMPLES_LOG): where it would have stopped, and
                                       its median against the 20 launches' of the same process

A row's medians agree when |default / reps20 - 1| <= max(0.5%, the 20-launch row's own spread),
its spread being (max - min) / (2 * median) of its 20 launches (issue 27, item 4)."""
import glob, json, os, re, statistics, sys

BOUND = 0.005


def rows_of(path):
    with open(path) as f:
        return json.load(f)["rows"]


def timing_phase(err_path):
    """The own seconds of the 'timing' phase in a -v breakdown (the whole run's), or None."""
    if not os.path.exists(err_path):
        return None
    with open(err_path) as f:
        for line in f:
            if line.startswith("coalprobe:") and "before the first configuration" in line:
                return None  # the start-up block repeats the phases; the run's came first
            m = re.match(r"\s+timing\s+([0-9.]+) s", line)
            if m:
                return float(m.group(1))
    return None


def label(row):
    return " ".join(f"{k}={v}" for k, v in row["config"].items() if k not in ("elements", "offset_bytes"))


def launches_and_noise(rows):
    """(launches list, noise list without nulls, noisy count) of the measured rows."""
    meas = [r["measured"] for r in rows if r.get("measured")]
    launches = [m["reps"] for m in meas]
    noise = [m["noise"] for m in meas if m.get("noise") is not None]
    noisy = sum(1 for m in meas if m.get("noisy"))
    return launches, noise, noisy


def pct(v):
    return "-" if v is None else f"{100 * v:.3f}%"


def spread(lst, q):
    if not lst:
        return None
    s = sorted(lst)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def compare_pair(rule_rows, reps_rows):
    """Per row: (label, relative difference, bound, agrees)."""
    out = []
    for a, b in zip(rule_rows, reps_rows):
        ma, mb = a.get("measured"), b.get("measured")
        if not ma or not mb or ma["time_s"]["median"] is None or mb["time_s"]["median"] is None:
            continue
        t20 = mb["time_s"]
        diff = ma["time_s"]["median"] / t20["median"] - 1
        own = (t20["max"] - t20["min"]) / (2 * t20["median"])
        bound = max(BOUND, own)
        out.append((label(a), diff, bound, abs(diff) <= bound))
    return out


def pairs(outdir):
    times = {}
    with open(os.path.join(outdir, "times.txt")) as f:
        for line in f:
            name, mode, rnd, secs = line.split()[:4]
            times[(name, mode, rnd)] = float(secs)
    sweeps = sorted({k[0] for k in times}, key=["stride", "width", "gemm"].index)
    print("| sweep | rounds | rows | median abs diff | max abs diff | rows beyond the bound | "
          "wall default / reps 20 | timing phase default / reps 20 | launches min/median/max | "
          "noise median / max | noisy rows |")
    print("|" + "---|" * 11)
    worst = []
    for name in sweeps:
        rounds = sorted({k[2] for k in times if k[0] == name}, key=int)
        diffs, beyond, wall, phase, launches, noise, noisy, nrows = [], 0, [], [], [], [], 0, 0
        for rnd in rounds:
            base = os.path.join(outdir, f"{name}.%s.{rnd}")
            rule, reps = rows_of(base % "rule" + ".json"), rows_of(base % "reps20" + ".json")
            for lab, d, bound, ok in compare_pair(rule, reps):
                diffs.append(abs(d))
                nrows += 1
                if not ok:
                    beyond += 1
                    worst.append((abs(d), name, rnd, lab, d, bound))
            wall.append(times[(name, "rule", rnd)] / times[(name, "reps20", rnd)])
            pa, pb = timing_phase(base % "rule" + ".err"), timing_phase(base % "reps20" + ".err")
            if pa is not None and pb:
                phase.append(pa / pb)
            l, n, k = launches_and_noise(rule)
            launches += l
            noise += n
            noisy += k
        print(f"| {name} | {len(rounds)} | {nrows} | {pct(statistics.median(diffs) if diffs else None)} | "
              f"{pct(max(diffs) if diffs else None)} | {beyond} | "
              f"{statistics.median(wall):.3f} | "
              f"{(f'{statistics.median(phase):.3f}' if phase else '-')} | "
              f"{min(launches)}/{statistics.median(launches):g}/{max(launches)} | "
              f"{pct(statistics.median(noise) if noise else None)} / {pct(max(noise) if noise else None)} | "
              f"{noisy} |")
    if worst:
        print("\nRows beyond the bound (max(0.5%, the 20-launch row's own spread)), worst first:\n")
        for absd, name, rnd, lab, d, bound in sorted(worst, reverse=True)[:20]:
            print(f"- {name} round {rnd}: {lab}: {100 * d:+.3f}% (bound {100 * bound:.3f}%)")
    between_rounds(outdir, sweeps, times)


def between_rounds(outdir, sweeps, times):
    """How far one mode's medians move from one process to the next: every pair of rounds of
    the same mode, row by row (what no rule inside one run can see)."""
    print("\nThe same settings in two processes (every pair of rounds), row by row:\n")
    print("| sweep | mode | pairs of rows | median abs diff | max abs diff | rows beyond 0.5% | worst row |")
    print("|" + "---|" * 7)
    for name in sweeps:
        rounds = sorted({k[2] for k in times if k[0] == name}, key=int)
        for mode in ("rule", "reps20"):
            runs = [rows_of(os.path.join(outdir, f"{name}.{mode}.{r}.json")) for r in rounds]
            diffs = []
            for i in range(len(runs)):
                for j in range(i + 1, len(runs)):
                    for a, b in zip(runs[i], runs[j]):
                        ma, mb = a.get("measured"), b.get("measured")
                        if ma and mb and ma["time_s"]["median"] and mb["time_s"]["median"]:
                            diffs.append((abs(mb["time_s"]["median"] / ma["time_s"]["median"] - 1), label(a)))
            if not diffs:
                continue
            worst = max(diffs)
            print(f"| {name} | {'default' if mode == 'rule' else 'reps 20'} | {len(diffs)} | "
                  f"{pct(statistics.median(d for d, _ in diffs))} | {pct(worst[0])} | "
                  f"{sum(1 for d, _ in diffs if d > BOUND)} | {worst[1]} |")


def families(outdir):
    print("| family | rows | launches min/median/max | noise median / 90th pct / max | noisy rows | "
          "command |")
    print("|" + "---|" * 6)
    for path in sorted(glob.glob(os.path.join(outdir, "family.*.json"))):
        with open(path) as f:
            doc = json.load(f)
        rows = doc["rows"]
        l, n, k = launches_and_noise(rows)
        fam = os.path.basename(path).split(".")[1]
        if not l:
            print(f"| {fam} | {len(rows)} | - | - | - | `{doc['command']}` |")
            continue
        print(f"| {fam} | {len(l)} | {min(l)}/{statistics.median(l):g}/{max(l)} | "
              f"{pct(statistics.median(n) if n else None)} / {pct(spread(n, 0.9))} / "
              f"{pct(max(n) if n else None)} | {k} | `{doc['command']}` |")
    timing = next((doc.get("timing") for doc in [json.load(open(p)) for p in
                   sorted(glob.glob(os.path.join(outdir, "family.*.json")))] if doc.get("timing")), None)
    if timing:
        print(f"\nThe rule: {json.dumps(timing)}")


# ---- the rule, replayed ------------------------------------------------------------------------
# An independent reading of the rule of src/measure/cp_samples.c with its defaults
# (CP_SAMPLING_* in src/measure/cp_measure.h): at least 5 samples; stop when the noise, the
# relative half-width of the median's distribution-free 90% confidence interval, is at most 0.5%,
# or once 0.5 s were spent. The time spent is taken as the samples' own times added (the backend's
# clock also holds the L2 flushes between them, so the real rule stops no later).
MIN_SAMPLES, MAX_NOISE, MAX_TIME_S, TAIL = 5, 0.005, 0.5, 0.05


def interval_rank(n):
    """j: P(B <= j - 1) <= TAIL < P(B <= j) for B ~ Binomial(n, 1/2); 0 below 5 samples."""
    if n < MIN_SAMPLES:
        return 0
    pmf, cdf = 0.5 ** n, 0.0
    for k in range(n):
        cdf += pmf
        if cdf > TAIL:
            return k
        pmf *= (n - k) / (k + 1)
    return n


def noise_of(xs):
    s = sorted(xs)
    j = interval_rank(len(s))
    if j == 0:
        return float("nan")
    med = statistics.median(s)
    return 0.0 if s[-j] == s[j - 1] else (s[-j] - s[j - 1]) / (2 * med)


def rule_stop(samples):
    """How many of the samples the rule takes (all of them when it would want more)."""
    spent = 0.0
    for n in range(1, len(samples) + 1):
        spent += samples[n - 1]
        if n < MIN_SAMPLES:
            continue
        if noise_of(samples[:n]) <= MAX_NOISE or spent >= MAX_TIME_S:
            return n
    return len(samples)


def replay(outdir):
    print("The default rule replayed on the samples of each `--reps 20` row, in the order they "
          "were taken (the same process: what stopping early changes, without the differences "
          "between processes). Bound: max(0.5%, the 20 launches' own spread).\n")
    print("| sweep | rows | rule stops at min/median/max | median abs diff | max abs diff | "
          "rows beyond the bound | worst row |")
    print("|---|---|---|---|---|---|---|")
    beyond_all = []
    for sweep in ("stride", "width", "gemm"):
        stops, diffs, beyond = [], [], []
        for path in sorted(glob.glob(os.path.join(outdir, f"{sweep}.reps20.*.samples"))):
            rnd = path.rsplit(".", 2)[-2]
            with open(path) as f:
                for line in f:
                    name, _, times = line.rstrip("\n").partition("\t")
                    xs = [float(x) for x in times.split()]
                    if len(xs) < MIN_SAMPLES:
                        continue
                    k = rule_stop(xs)
                    m20 = statistics.median(xs)
                    diff = statistics.median(xs[:k]) / m20 - 1
                    bound = max(BOUND, (max(xs) - min(xs)) / (2 * m20))
                    stops.append(k)
                    diffs.append((abs(diff), f"{name} (round {rnd})"))
                    if abs(diff) > bound:
                        beyond.append((abs(diff), f"{sweep} round {rnd}: {name}: {100 * diff:+.3f}% "
                                                  f"(bound {100 * bound:.3f}%, stopped at {k})"))
        if not stops:
            continue
        worst = max(diffs)
        print(f"| {sweep} | {len(stops)} | {min(stops)}/{statistics.median(stops):g}/{max(stops)} | "
              f"{pct(statistics.median(d for d, _ in diffs))} | {pct(worst[0])} | {len(beyond)} | "
              f"{worst[1]} |")
        beyond_all += beyond
    if beyond_all:
        print("\nRows beyond the bound:\n")
        for _, text in sorted(beyond_all, reverse=True):
            print(f"- {text}")


def main():
    modes = {"pairs": pairs, "families": families, "replay": replay}
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
