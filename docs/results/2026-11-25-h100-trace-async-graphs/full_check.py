# one-off: a --kernel-counters full run of the async sample: kernels, records, unmatched
import json, subprocess, sys, os
out = os.path.join(sys.argv[3], "full.json")
p = subprocess.run([sys.argv[1], "trace", "--kernel-counters", "full", "--top", "9", "--format", "json",
                    "-o", out, "--", sys.argv[2], "2"], capture_output=True, text=True)
print("rc", p.returncode, p.stderr[-2000:])
doc = json.load(open(out))
print("unmatched", doc.get("unmatched"))
for n in doc["notes"]:
    print("note", n["text"][:150])
for k in doc["kernels"]:
    kc = k["kernel_counters"] or {}
    print(k["name"][:40], "launches", k["launches"], "records", kc.get("launches"), "scale", k["instruction_scale"],
          k["counts_from"], "glob instr", kc.get("instructions"), "requests", k["requests"], "ldgsts", k["ldgsts_requests"])
p = subprocess.run([sys.argv[1], "trace", "--kernel-counters", "full", "--top", "2", "--", sys.argv[2], "2"],
                   capture_output=True, text=True)
print(p.stdout[-3500:])
