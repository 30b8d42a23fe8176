#!/bin/sh
# trace_report_sass_cache.sh: nvdisasm's listings come from the cache on a second trace of the same
# cubins (a fake nvdisasm that logs each run says whether it ran), with the same report; a cache
# file cut short or of another length is not read; another nvdisasm does not reuse a listing; an
# empty COALPROBE_CACHE_DIR keeps no cache; XDG_CACHE_HOME and HOME place it; an unwritable cache
# does not fail the trace; the directory is bounded to 256 MB of sass-* files.
# usage: trace_report_sass_cache.sh COALPROBE GOLDEN_TRACE_DIR
. "$(dirname "$0")/common.sh"
bin=$1 golden=$2
fake=$(cd "$(dirname "$0")/../trace/fake-nvdisasm" && pwd)/nvdisasm
cp_scratch
mkdir "$s/home"
cat >"$s/nvdisasm" <<EOS
#!/bin/sh
# a fake nvdisasm that says in \$LOG that it ran
echo run >>"\$LOG"
exec "$fake" "\$@"
EOS
chmod +x "$s/nvdisasm"
unset XDG_CACHE_HOME
export HOME="$s/home" LOG="$s/log" COALPROBE_NVDISASM="$s/nvdisasm"
# trace N: one trace of handmade-opcodes into $s/out.N (stderr with -v in $s/err.N)
trace() {
    timeout -s KILL 120 "$bin" trace --from-raw "$golden/handmade-opcodes" -v >"$s/out.$1" 2>"$s/err.$1" ||
        bad "trace $1: exit $?: $(cat "$s/err.$1")"
    grep -q "STG.E" "$s/out.$1" || bad "trace $1: no opcodes in the report"
}
runs() { if [ -f "$LOG" ]; then wc -l <"$LOG" | tr -d ' '; else echo 0; fi; }
expect_runs() { [ "$(runs)" -eq "$1" ] || bad "$2: nvdisasm ran $(runs) times, not $1"; }
same() { cmp -s "$s/out.1" "$s/out.$1" || bad "trace $1: the report differs from the first one"; }

export COALPROBE_CACHE_DIR="$s/cache"
trace 1
expect_runs 1 "a fresh cache"
grep -q "^  nvdisasm .*(0 listings from the cache, 1 run)" "$s/err.1" || bad "-v of a miss: $(cat "$s/err.1")"
[ "$(stat -c %a "$s/cache")" = 700 ] || bad "the cache directory's mode is $(stat -c %a "$s/cache")"
trace 2
expect_runs 1 "the same cubins again"
same 2
grep -q "^  nvdisasm .*(1 listing from the cache, 0 run)" "$s/err.2" || bad "-v of a hit: $(cat "$s/err.2")"
set -- "$s"/cache/sass-*.txt
[ $# -eq 1 ] && [ -f "$1" ] || bad "not one cache file: $*"
entry=$1
tail -n 1 "$entry" | grep -q "^# coalprobe-sass-cache end [0-9]*$" || bad "no end marker: $(tail -n 1 "$entry")"
# a file cut short (its end marker lost) is not read, and is written again whole
head -c 1000 "$entry" >"$s/cut" && cp "$s/cut" "$entry"
trace 3
expect_runs 2 "a cache file cut short"
same 3
tail -n 1 "$entry" | grep -q "^# coalprobe-sass-cache end" || bad "the cut file was not written again"
# a file whose end marker does not give its length (a line lost) is not read
sed '3d' "$entry" >"$s/short" && cp "$s/short" "$entry"
trace 4
expect_runs 3 "a cache file missing a line"
same 4
# another nvdisasm (here: another mtime) does not read this one's listing
touch -d '2001-01-01' "$s/nvdisasm"
trace 5
expect_runs 4 "another nvdisasm"
same 5
[ "$(ls "$s/cache" | grep -c '^sass-')" -eq 2 ] || bad "another nvdisasm's listing is not its own file: $(ls "$s/cache")"
# set and empty: no cache, nvdisasm runs every time, nothing written under HOME
export COALPROBE_CACHE_DIR=
trace 6
trace 7
expect_runs 6 "COALPROBE_CACHE_DIR empty"
same 7
[ -z "$(ls -A "$s/home")" ] || bad "COALPROBE_CACHE_DIR empty wrote under HOME: $(ls -A "$s/home")"
# unset: XDG_CACHE_HOME/coalprobe, else HOME/.cache/coalprobe
unset COALPROBE_CACHE_DIR
export XDG_CACHE_HOME="$s/xdg"
trace 8
unset XDG_CACHE_HOME
ls "$s/xdg/coalprobe"/sass-*.txt >/dev/null 2>&1 || bad "no cache file under XDG_CACHE_HOME"
trace 9
ls "$s/home/.cache/coalprobe"/sass-*.txt >/dev/null 2>&1 || bad "no cache file under HOME/.cache"
expect_runs 8 "the first trace in XDG_CACHE_HOME and in HOME"
trace 10
expect_runs 8 "HOME's cache again"
same 10
# a cache that cannot be written: the trace is whole, -v says why
export COALPROBE_CACHE_DIR="$s/file/cache"
: >"$s/file"
trace 11
same 11
grep -q "^    the listing cache: cannot create the directory in $s/file/cache" "$s/err.11" ||
    bad "-v does not say why the cache could not be written: $(cat "$s/err.11")"
# the bound: past 256 MB of sass-* files, the oldest go (a sparse file of 300 MB, an hour old)
export COALPROBE_CACHE_DIR="$s/bound"
mkdir -m 700 "$s/bound"
truncate -s 300M "$s/bound/sass-00000000-0000000000000000.txt"
touch -d '1 hour ago' "$s/bound/sass-00000000-0000000000000000.txt"
: >"$s/bound/other"
trace 12
[ ! -e "$s/bound/sass-00000000-0000000000000000.txt" ] || bad "the oldest file past the bound is kept"
[ "$(ls "$s/bound" | grep -c '^sass-.*\.txt$')" -eq 1 ] || bad "the new listing is not kept: $(ls "$s/bound")"
[ -e "$s/bound/other" ] || bad "a file not the cache's own was removed"
exit $fail
