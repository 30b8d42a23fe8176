#!/bin/sh
# trace_report_nvdisasm.sh: nvdisasm runs under a time limit and a cap on its listing: a fake one
# that never ends is stopped at COALPROBE_NVDISASM_TIMEOUT (its children too), one whose listing
# passes COALPROBE_NVDISASM_MAX_BYTES is stopped there, and the report says why opcodes are
# missing. `timeout` only bounds a coalprobe that would hang.
# usage: trace_report_nvdisasm.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
cp_scratch
cat >"$s/hang" <<'EOS'
#!/bin/sh
# a fake nvdisasm that never ends, with a child of its own; both pids in $PIDS
sleep 300 &
echo "$$ $!" >"$PIDS"
wait
EOS
cat >"$s/flood" <<'EOS'
#!/bin/sh
# a fake nvdisasm whose listing is 4 MB of one instruction
yes '        /*0000*/                   NOP ;' | head -c 4000000
EOS
chmod +x "$s/hang" "$s/flood"
mkdir "$s/tmp"
# the time limit
TMPDIR=$s/tmp PIDS=$s/pids COALPROBE_NVDISASM=$s/hang COALPROBE_NVDISASM_TIMEOUT=1 \
    timeout -s KILL 120 "$bin" trace --from-raw "$golden/handmade-opcodes" >"$s/out" 2>"$s/err"
rc=$?
[ "$rc" -eq 0 ] || bad "time limit: exit $rc"
joined() { tr '\n' ' ' <"$s/out" | tr -s ' '; } # the notes are wrapped at 100 columns
joined | grep -q "cubin-1a2b3c4d.cubin: it ran past its time limit of 1 s (COALPROBE_NVDISASM_TIMEOUT)" ||
    { bad "time limit: the report does not say why opcodes are missing:"; cat "$s/out" "$s/err"; }
# its own child is killed with it (its process group); once killed, an orphan is gone when
# init has reaped it, so wait for that, bounded
for pid in $(cat "$s/pids" 2>/dev/null); do
    tries=0
    while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 600 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        bad "time limit: process $pid of the fake nvdisasm is still running"
        kill -9 "$pid"
    fi
done
[ -z "$(ls "$s/tmp")" ] || bad "time limit: files left in TMPDIR: $(ls "$s/tmp")"
# the cap on the listing
TMPDIR=$s/tmp COALPROBE_NVDISASM=$s/flood COALPROBE_NVDISASM_MAX_BYTES=100000 \
    timeout -s KILL 120 "$bin" trace --from-raw "$golden/handmade-opcodes" >"$s/out" 2>"$s/err"
rc=$?
[ "$rc" -eq 0 ] || bad "cap: exit $rc"
joined | grep -q "its listing passed the cap of 100000 bytes (COALPROBE_NVDISASM_MAX_BYTES)" ||
    { bad "cap: the report does not say why opcodes are missing:"; cat "$s/out" "$s/err"; }
# a bad value is said, and the default used
COALPROBE_NVDISASM=$s/flood COALPROBE_NVDISASM_TIMEOUT=soon \
    timeout -s KILL 120 "$bin" trace --from-raw "$golden/handmade-opcodes" >"$s/out" 2>"$s/err"
joined | grep -q "COALPROBE_NVDISASM_TIMEOUT=soon is not a number of seconds above 0" ||
    bad "a bad COALPROBE_NVDISASM_TIMEOUT is not noted"
exit $fail
