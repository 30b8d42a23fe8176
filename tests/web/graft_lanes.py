#!/usr/bin/env python3
"""graft_lanes.py: a saved measured report, written before reports carried lane maps, with the
lane maps of this build's model for the same configurations: its command is run again with
--model (the model only, on any machine) and each row's accesses take the lane_map of the row with
the same pattern and config. The measured numbers stay as they were; the lanes come from the C
model, as in a report written now. usage: graft_lanes.py COALPROBE REPORT.json OUT.json"""
import json
import shlex
import subprocess
import sys


def model_command(command):
    words = shlex.split(command)[1:]  # without "coalprobe"
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("-o", "--output", "--format"):
            skip = True
        elif not w.startswith("--format=") and not w.startswith("--output="):
            out.append(w)
    return out + ["--model", "--format", "json"]


def key(row):
    return json.dumps([row["pattern"], row["config"]], sort_keys=True)


def main():
    binary, src, dst = sys.argv[1:4]
    report = json.load(open(src))
    model = json.loads(subprocess.run([binary] + model_command(report["command"]), check=True,
                                      capture_output=True, text=True).stdout)
    maps = {key(r): r["predicted"]["accesses"] for r in model["rows"] if r.get("predicted")}
    grafted = 0
    for row in report["rows"]:
        accesses = maps.get(key(row))
        if not accesses or not row.get("predicted"):
            continue
        for mine, theirs in zip(row["predicted"]["accesses"], accesses):
            if mine["name"] == theirs["name"]:
                mine["lane_map"] = theirs.get("lane_map")
        grafted += 1
    json.dump(report, open(dst, "w"), indent="\t")
    print(f"graft_lanes: lane maps for {grafted} of {len(report['rows'])} rows of {src}", file=sys.stderr)


if __name__ == "__main__":
    main()
