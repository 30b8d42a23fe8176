#!/bin/sh
# trace_interrupted.sh: a raw file with an `interrupted` record (a region of a running process
# left by an exception, coalprobe.trace()) is reported whole but marked incomplete, with the
# record's reason, in the table and the JSON; without the record the same file is complete.
# usage: trace_interrupted.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1
golden=$2
cp_in_scratch bin golden
mkdir whole cut
cp "$golden/handmade-transpose/raw-4242.tsv" whole/
awk '/^end\t/ { print "interrupted\tthe block of coalprobe.trace() raised ValueError: boom" } { print }' \
    whole/raw-4242.tsv >cut/raw-4242.tsv
"$bin" trace --from-raw whole --format json -o whole.json || bad "the whole file: exit $?"
"$bin" trace --from-raw cut --format json -o cut.json || bad "the interrupted file: exit $?"
python3 - whole.json cut.json <<'PY' || bad "the JSON reports"
import json, sys
whole, cut = (json.load(open(p)) for p in sys.argv[1:3])
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL: " + what)
        ok = False
check(whole["complete"] is True and whole["incomplete_reason"] is None, "the whole file is complete")
check(cut["complete"] is False, "the interrupted file is marked incomplete")
check(cut["incomplete_reason"] == "process 4242 (raw-4242.tsv) ended its trace early: the block "
      "of coalprobe.trace() raised ValueError: boom", "the reason: %r" % cut["incomplete_reason"])
for doc in (whole, cut):
    doc.pop("complete")
    for key in ("incomplete_reason", "command", "from_raw", "from_raw_dirs"):
        doc.pop(key)
check(whole == cut, "the reports are the same beyond their completeness")
sys.exit(0 if ok else 1)
PY
"$bin" trace --from-raw cut >cut.txt || bad "the table: exit $?"
grep -q '^INCOMPLETE: process 4242 (raw-4242.tsv) ended its trace early' cut.txt ||
    bad "no INCOMPLETE line in the table"
exit $fail
