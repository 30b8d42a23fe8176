#!/bin/sh
# output_interrupt_early.sh: a signal that arrives before any configuration finished stops the
# run at once, even in the middle of a long model configuration (the model's loops, on every CPU
# thread, poll for it): exit 128 + the signal, stderr says nothing was written, the report that
# was there is left untouched, and no temporary file is left. The signal is sent once the
# "long model run" notice is on stderr (the handlers are in place by then); the run must end
# within 15 s of it, though its first configuration alone takes minutes.
# usage: output_interrupt_early.sh PATH/TO/coalprobe
. "$(dirname "$0")/common.sh"
bin=${1:?usage: output_interrupt_early.sh PATH/TO/coalprobe}
cp_absolute bin
dir=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
cd "$dir" || exit 1
# starts "$@" in the background with stdout in out.txt, stderr in err.txt, waits (60 s at most) for the model
# notice, sends signal $sig, then waits at most 15 s for the exit: $rc and $waited (tenths)
run_and_signal() {
    rm -f out.txt err.txt
    "$@" > out.txt 2> err.txt &
    pid=$!
    i=0
    while ! grep -q "the model evaluates" err.txt 2>/dev/null && kill -0 $pid 2>/dev/null &&
        [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    grep -q "the model evaluates" err.txt || bad "$sig: no model notice within $((i / 10)) s: $(cat err.txt)"
    kill -$sig $pid
    waited=0
    while kill -0 $pid 2>/dev/null && [ $waited -lt 150 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 $pid 2>/dev/null; then
        bad "$sig: still running 15 s after the signal"
        kill -KILL $pid
    fi
    wait $pid
    rc=$?
    pid=
}

# SIGTERM while the first of three 2G configurations is predicted: the old report stays
"$bin" --stride 1..4 --size 4K --model --format json -o existing.json 2>/dev/null ||
    bad "the reference run failed"
cp existing.json before.json
sig=TERM
run_and_signal "$bin" expr --model --size 2G --index '(i ^ (i >> s)) % n' --param s=1..3 --format json \
    -o existing.json
[ $rc -eq 143 ] || bad "SIGTERM: exit $rc, expected 143: $(cat err.txt)"
grep -q "^coalprobe: interrupted by SIGTERM before any configuration finished (0 of 3): nothing was written, and 'existing.json' is left as it was$" err.txt ||
    bad "SIGTERM: $(cat err.txt)"
cmp -s before.json existing.json || bad "SIGTERM: existing.json changed"
[ -z "$(find . -name '*.tmp-*')" ] || bad "SIGTERM: left $(find . -name '*.tmp-*')"

# SIGINT in a single 16G configuration (minutes of model time) written to stdout
sig=INT
run_and_signal "$bin" expr --model --size 16G --index '(i ^ (i >> 3)) % n' --format csv
[ $rc -eq 130 ] || bad "SIGINT: exit $rc, expected 130: $(cat err.txt)"
grep -q "^coalprobe: interrupted by SIGINT before any configuration finished (0 of 1): nothing was written$" err.txt ||
    bad "SIGINT: $(cat err.txt)"
[ -s out.txt ] && bad "SIGINT: something was written to stdout: $(head -c 200 out.txt)"
# SIGTERM while -o names a FIFO nobody reads: the open waits for a reader (wchan
# wait_for_partner, or the openat system call, 257) and the signal ends it: exit 143, a message
mkfifo fifo
"$bin" --stride 1..4 --model --format json -o fifo > out.txt 2> err.txt &
pid=$!
i=0
while ! { grep -q wait_for_partner /proc/$pid/wchan || grep -q '^257 ' /proc/$pid/syscall; } 2>/dev/null &&
    kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -TERM $pid
waited=0
while kill -0 $pid 2>/dev/null && [ $waited -lt 150 ]; do
    sleep 0.1
    waited=$((waited + 1))
done
kill -0 $pid 2>/dev/null && { bad "FIFO: still running 15 s after SIGTERM"; kill -KILL $pid; }
wait $pid
rc=$?
pid=
[ $rc -eq 143 ] || bad "SIGTERM while -o FIFO waits: exit $rc, expected 143: $(cat err.txt)"
grep -q "^coalprobe: interrupted by signal 15 (Terminated) while 'fifo' waited for its reader: nothing was written to it$" err.txt ||
    bad "SIGTERM while -o FIFO waits: $(cat err.txt)"
[ -s out.txt ] && bad "SIGTERM while -o FIFO waits: stdout: $(head -c 200 out.txt)"

[ $fail -eq 0 ] && echo "interrupted before any configuration: nothing written, exit 143 and 130; FIFO 143"
exit $fail
