#!/usr/bin/env python3
"""make_robustness.py: writes the inputs of compare's robustness tests (tests/cli/compare.cmake)
from the hand-made reports beside it and in ../trace: reports that fail their schema (a string
where a number belongs, a missing required key), huge and long values, and strings that hold
terminal escapes. Run it from this directory to regenerate them: python3 make_robustness.py"""

import copy
import json

ESC = "\x1b"


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


base = load("base.json")

# a sweep report with a string where the schema has a number
doc = copy.deepcopy(base)
doc["rows"][1]["predicted"]["load"]["sectors"] = "123"
save("bad_type.json", doc)

# a sweep report without a required key
doc = copy.deepcopy(base)
del doc["rows"][2]["predicted"]["load"]["requests"]
save("missing_key.json", doc)

# huge values: a count of 1e300 and a time of 1e300 s
doc = copy.deepcopy(base)
doc["rows"][0]["measured"]["counters"]["load"]["sectors"] = 1e300
doc["rows"][1]["measured"]["time_s"]["median"] = 1e300
save("huge.json", doc)

# escapes in the command, the device's name and an expr row's index (shown in the text)
doc = copy.deepcopy(base)
doc["command"] = "coalprobe " + ESC + "]0;owned" + "\x07" + ESC + "[2J"
doc["device"]["name"] = ESC + "[31mNVIDIA" + ESC + "[0m"
row = copy.deepcopy(doc["rows"][0])
row["pattern"] = "expr"
row["config"] = {"index": ESC + "[2J" + ESC + "[31mi" + ESC + "[0m", "params": {},
                 "width_bytes": 4, "op": "load", "elements": 67108864}
doc["rows"].append(row)
save("escape.json", doc)

# trace reports: a string where a number belongs
trace = load("../trace/handmade-transpose.json")
after = load("../trace/handmade-transpose-after.json")
doc = copy.deepcopy(trace)
doc["instructions"][1]["excess_bytes"] = "9"
save("trace_bad_type.json", doc)


# escapes in the process's command and a kernel's name, and a kernel name of 5000 characters
def hostile(doc):
    doc = copy.deepcopy(doc)
    long_name = "transpose_naive_" + "x" * 5000 + "_end"
    for p in doc["processes"]:
        p["command"] = "./transpose " + ESC + "[2J" + ESC + "]0;owned\x07"
    for i in doc["instructions"]:
        if i["kernel"].startswith("transpose_naive"):
            i["kernel"] = long_name
        elif i["kernel"].startswith("transpose_tiled"):
            i["kernel"] = ESC + "[31mtranspose_tiled" + ESC + "[0m"
    for k in doc["kernels"]:
        if k["name"].startswith("transpose_naive"):
            k["name"] = long_name
        elif k["name"].startswith("transpose_tiled"):
            k["name"] = ESC + "[31mtranspose_tiled" + ESC + "[0m"
    return doc


save("trace_escape.json", hostile(trace))
save("trace_escape_after.json", hostile(after))

# a trace report of another GPU: handmade-transpose-after.json on an A100, so that its counts
# that differ from handmade-transpose.json's are not comparable, never regressions
doc = copy.deepcopy(after)
for p in doc["processes"]:
    for d in p["devices"]:
        d.update(chip="GA100", name="NVIDIA A100-SXM4-80GB", compute_capability="8.0")
save("trace_other_gpu.json", doc)

# escapes in what an error message quotes: a value that fails the schema, a failed run's message
doc = copy.deepcopy(base)
doc["rows"][0]["predicted"]["load"]["sectors"] = ESC + "[2J" + ESC + "]0;owned\x07"
save("escape_bad_type.json", doc)
save("escape_error.json", {
    "schema_version": 1, "tool": {"name": "coalprobe", "version": "0.2.0"},
    "command": "coalprobe --stride x",
    "error": {"code": 2, "kind": "usage", "message": ESC + "[2J" + ESC + "[31mboom" + ESC + "[0m",
              "hint": ""},
    "rows": []})
