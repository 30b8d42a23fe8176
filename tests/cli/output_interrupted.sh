#!/bin/sh
# output_interrupted.sh: SIGINT in the middle of a sweep, through a real process: the rows
# finished so far are written, marked incomplete, exit 130. The signal is sent once rows exist:
# the run's stderr is a terminal (script(1) gives it one), so it shows its progress, and the
# first progress line "[N/990000] predicting" with N > 1 says that N - 1 configurations are
# done. No fixed delay: a slow (sanitized, loaded) build only takes longer to get there.
# usage: output_interrupted.sh PATH/TO/coalprobe OUTPUT.json
. "$(dirname "$0")/common.sh"
bin=${1:?usage: output_interrupted.sh PATH/TO/coalprobe OUTPUT.json}
out=${2:?usage: output_interrupted.sh PATH/TO/coalprobe OUTPUT.json}
cp_absolute bin out
command -v script > /dev/null 2>&1 || { echo "SKIP: no script(1) to give the run a terminal"; exit 77; }
dir=$(mktemp -d)
spid=
cleanup() { [ -n "$spid" ] && kill -KILL "$spid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
rm -f "$out"
# the shell inside the terminal writes its pid, then becomes coalprobe (exec): that pid is the
# process to signal
script -qefc "echo \$\$ > '$dir/pid'; exec '$bin' gemm --variant naive --m 1..100 --n 1..100 \
--k 1..99 --model --allow-large-sweep --format json -o '$out'" /dev/null < /dev/null > "$dir/tty" 2>&1 &
spid=$!
i=0
# a progress line past the first configuration
while ! grep -Eq '\[([2-9]|[1-9][0-9]+)/990000\] predicting' "$dir/tty" 2>/dev/null &&
    kill -0 $spid 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
pid=$(cat "$dir/pid" 2>/dev/null)
if ! grep -Eq '\[([2-9]|[1-9][0-9]+)/990000\] predicting' "$dir/tty" || [ -z "$pid" ]; then
    bad "no progress within $((i / 10)) s: $(tr '\r' '\n' < "$dir/tty" | tail -3)"
else
    kill -INT "$pid"
fi
wait $spid
rc=$?
spid=
[ $rc -eq 130 ] || bad "exit $rc, expected 130: $(tr '\r' '\n' < "$dir/tty" | tail -3)"
tr '\r' '\n' < "$dir/tty" | sed 's/\x1b\[K//g' > "$dir/stderr"
grep -Eq "^coalprobe: interrupted by SIGINT after [1-9][0-9]* of 990000 configurations; the report holds those and is marked incomplete$" "$dir/stderr" ||
    bad "stderr: $(tail -3 "$dir/stderr")"
[ -f "$out" ] || bad "no report written"
rows=$(grep -Ec '"pattern":[[:space:]]*"gemm"' "$out" 2>/dev/null)
[ "${rows:-0}" -gt 0 ] || bad "the report has no rows: $(head -c 300 "$out")"
grep -Eq '"incomplete":[[:space:]]*true' "$out" || bad "the report is not marked incomplete"

# Other signals while the report file is being written (a model-only JSON sweep to a file
# writes it as it predicts): SIGHUP stops as SIGINT does (the rows so far, marked incomplete,
# exit 129); SIGQUIT and SIGUSR1 end the run at once (128 + n) and SIGKILL kills it, and none
# of them leaves a temporary file (r.json.tmp-XXXXXX) behind. The signal is sent once the run
# holds a descriptor of a file in the report's directory (the temporary file, named or not).
# env --default-signal undoes the ignored SIGINT and SIGQUIT of a background job.
mkdir "$dir/w"
for sig in HUP QUIT USR1 KILL; do
    rm -f "$dir/w/"*
    envd=
    env --default-signal=QUIT true 2> /dev/null && envd="env --default-signal=QUIT,INT"
    $envd "$bin" gemm --variant naive --m 1..100 --n 1..100 --k 1..99 --model --allow-large-sweep \
        --format json -o "$dir/w/r.json" 2> "$dir/err" &
    pid=$!
    i=0
    while ! ls -l /proc/$pid/fd 2> /dev/null | grep -q -- "-> $dir/w/" &&
        kill -0 $pid 2> /dev/null && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    ls -l /proc/$pid/fd 2> /dev/null | grep -q -- "-> $dir/w/" ||
        bad "SIG$sig: the report file was not open within $((i / 10)) s: $(tail -3 "$dir/err")"
    kill -$sig $pid
    wait $pid
    rc=$?
    case $sig in HUP) want=129 ;; QUIT) want=131 ;; KILL) want=137 ;; *) want=138 ;; esac
    [ $rc -eq $want ] || bad "SIG$sig: exit $rc, expected $want: $(tail -3 "$dir/err")"
    left=$(find "$dir/w" -name '*.tmp-*')
    [ -z "$left" ] || bad "SIG$sig: left $left"
    if [ $sig = HUP ]; then
        grep -Eq "^coalprobe: interrupted by SIGHUP after [1-9][0-9]* of 990000 configurations; the report holds those and is marked incomplete$" "$dir/err" ||
            bad "SIGHUP: stderr: $(tail -3 "$dir/err")"
        grep -Eq '"incomplete":[[:space:]]*true' "$dir/w/r.json" 2> /dev/null ||
            bad "SIGHUP: the report is missing or not marked incomplete"
    else
        [ -e "$dir/w/r.json" ] && bad "SIG$sig: a report was written"
    fi
done
[ $fail -eq 0 ] && echo "interrupted: $rows rows written, marked incomplete, exit 130; HUP, QUIT, USR1, KILL leave no temporary file"
exit $fail
