#!/bin/sh
# trace_report_prefetch.sh: a cubin renamed into the raw directory while the program runs is
# disassembled whole then (a fake nvdisasm logs its arguments), and the report after the program
# reads that listing from the cache instead of running nvdisasm again: the same opcodes as a
# report that ran nvdisasm itself; -v says so. Without a listing cache nothing runs ahead. Every
# wait is for an event (a line in the log), bounded by 60 s.
# usage: trace_report_prefetch.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
fake=$(cd "$(dirname "$0")/../trace/fake-nvdisasm" && pwd)/nvdisasm
fixture=$(cd "$golden/handmade-opcodes" && pwd)
cp_scratch
cat >"$s/nvdisasm" <<EOS
#!/bin/sh
# a fake nvdisasm that logs its arguments in \$LOG
echo "run \$*" >>"\$LOG"
exec "$fake" "\$@"
EOS
# the traced "program": its module's cubin appears as the injection library writes it (renamed
# into place), then it waits until coalprobe has disassembled it, then leaves its raw file
cat >"$s/program" <<EOS
#!/bin/sh
cp "$fixture/cubin-1a2b3c4d.cubin" "\$COALPROBE_TRACE_DIR/cubin-1a2b3c4d.cubin.part-\$\$"
mv "\$COALPROBE_TRACE_DIR/cubin-1a2b3c4d.cubin.part-\$\$" "\$COALPROBE_TRACE_DIR/cubin-1a2b3c4d.cubin"
if [ -n "\${WAIT_FOR_RUN:-}" ]; then
    tries=0
    until grep -q cubin-1a2b3c4d "\$LOG" 2>/dev/null || [ \$tries -ge 600 ]; do
        sleep 0.1
        tries=\$((tries + 1))
    done
fi
cp "$fixture/raw-7000.tsv" "\$COALPROBE_TRACE_DIR/raw-7000.tsv"
EOS
chmod +x "$s/nvdisasm" "$s/program"
export LOG="$s/log" COALPROBE_NVDISASM="$s/nvdisasm" COALPROBE_CACHE_DIR="$s/cache"
WAIT_FOR_RUN=1 timeout -s KILL 120 "$bin" trace -v -- "$s/program" >"$s/out" 2>"$s/err" ||
    bad "trace: exit $?: $(cat "$s/err")"
[ "$(grep -c '^run' "$LOG")" -eq 1 ] || bad "nvdisasm did not run once: $(cat "$LOG")"
grep -q "^run -c -ndf /[^ ]*/cubin-1a2b3c4d.cubin$" "$LOG" ||
    bad "not the whole cubin disassembled while the program ran: $(cat "$LOG")"
grep -q "^  nvdisasm .*(1 listing from the cache, 0 run; 1 disassembled while the program ran)" \
    "$s/err" || bad "-v: $(grep nvdisasm "$s/err")"
grep -q "STG.E" "$s/out" || bad "no opcodes in the report: $(cat "$s/out")"
# the same opcodes as when the report runs nvdisasm itself
COALPROBE_CACHE_DIR= timeout -s KILL 120 "$bin" trace --from-raw "$fixture" >"$s/ref" 2>/dev/null ||
    bad "reference: exit $?"
ops() { grep -o "[A-Z][A-Z0-9]*\.[A-Z0-9.]*:" "$1" | sort; }
[ -n "$(ops "$s/ref")" ] && [ "$(ops "$s/out")" = "$(ops "$s/ref")" ] ||
    bad "the opcodes differ: $(ops "$s/out") against $(ops "$s/ref")"
# without a listing cache nothing runs ahead: nvdisasm runs once, in the report
rm -f "$LOG"
COALPROBE_CACHE_DIR= timeout -s KILL 120 "$bin" trace -v -- "$s/program" >"$s/out2" 2>"$s/err2" ||
    bad "no cache: exit $?"
[ "$(grep -c "^run" "$LOG")" -eq 1 ] ||
    bad "no cache: nvdisasm did not run once, in the report: $(cat "$LOG")"
exit $fail
