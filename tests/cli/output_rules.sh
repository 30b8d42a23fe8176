#!/bin/sh
# output_rules.sh: -o follows the rules of src/base/cp_output.h through the real binary, on files
# this script creates in a directory of its own (never the machine's /dev): a FIFO with a reader
# and one whose reader leaves (EPIPE), symbolic links (reports, compare, --explain), a directory
# refused before any work, a missing parent, a read-only directory, new files' modes under
# umask 022 and 077, a replaced file's mode kept, a write past the file size limit, standard
# output closed by `head -1`; after every failure no temporary file is left.
# usage: output_rules.sh PATH/TO/coalprobe GOLDEN_DIR
. "$(dirname "$0")/common.sh"
usage="usage: output_rules.sh PATH/TO/coalprobe GOLDEN_DIR"
bin=${1:?$usage} golden=${2:?$usage}
cp_absolute bin golden
dir=$(mktemp -d)
chmod 755 "$dir" # the unprivileged user of the read-only case must reach it
cd "$dir" || exit 1
cleanup() { chmod -R u+w "$dir" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
no_temps() { # no temporary file left anywhere under the directory
    left=$(find "$dir" -name '*.tmp-*' | head -3)
    [ -z "$left" ] || bad "$1: temporary files left: $left"
}
kind() { stat -c %F "$1" 2>/dev/null; }
# waits up to 5 s for a FIFO's reader, then stops it (a FIFO replaced by a file leaves its reader
# waiting for ever)
wait_reader() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill "$1" 2>/dev/null
    wait "$1"
}
mode() { stat -L -c %a "$1" 2>/dev/null; }
small="--stride 1..4 --size 4K --model"
"$bin" $small > want.txt 2>/dev/null || bad "the reference run failed"

# a FIFO with a reader gets the report; the FIFO stays
mkfifo fifo
cat fifo > got.txt &
reader=$!
"$bin" $small -o fifo 2> err.txt
rc=$?
wait_reader $reader
[ $rc -eq 0 ] || bad "FIFO: exit $rc: $(cat err.txt)"
cmp -s want.txt got.txt || bad "FIFO: the reader got something else than the report"
[ "$(kind fifo)" = "fifo" ] || bad "FIFO: it is now a $(kind fifo)"
no_temps FIFO

# a FIFO whose reader leaves after one byte: exit 1 naming the path and the reason
head -c 1 fifo > /dev/null &
reader=$!
"$bin" --stride 1..4096 --model --format json -o fifo > /dev/null 2> err.txt
rc=$?
wait_reader $reader
[ $rc -eq 1 ] || bad "FIFO, reader gone: exit $rc, expected 1"
grep -q "^coalprobe: cannot write 'fifo': Broken pipe" err.txt || bad "FIFO, reader gone: $(cat err.txt)"
[ "$(kind fifo)" = "fifo" ] || bad "FIFO, reader gone: it is now a $(kind fifo)"
no_temps "FIFO, reader gone"

# a symbolic link: its target is replaced and keeps its mode, the link stays
echo old > target.txt
chmod 640 target.txt
ln -s target.txt link.txt
"$bin" $small -o link.txt 2> err.txt || bad "link: exit $?: $(cat err.txt)"
[ "$(kind link.txt)" = "symbolic link" ] || bad "link: it is now a $(kind link.txt)"
cmp -s want.txt target.txt || bad "link: the target does not hold the report"
[ "$(mode target.txt)" = 640 ] || bad "link: the target's mode is $(mode target.txt), expected 640"
# compare's output and --explain through links too
"$bin" compare "$golden/compare/base.json" "$golden/compare/base.json" > want_cmp.txt 2>/dev/null
ln -s cmp_target.txt cmp_link.txt
"$bin" compare "$golden/compare/base.json" "$golden/compare/base.json" -o cmp_link.txt 2> err.txt ||
    bad "compare through a link: exit $?: $(cat err.txt)"
[ "$(kind cmp_link.txt)" = "symbolic link" ] || bad "compare: the link is now a $(kind cmp_link.txt)"
cmp -s want_cmp.txt cmp_target.txt || bad "compare: the link's target does not hold the comparison"
ln -s explain_target.txt explain_link.txt
"$bin" --stride 2 --explain --model -o explain_link.txt 2> err.txt || bad "explain: exit $?"
[ "$(kind explain_link.txt)" = "symbolic link" ] || bad "explain: the link is now a $(kind explain_link.txt)"
grep -q "sectors" explain_target.txt || bad "explain: the link's target does not hold the drawing"
no_temps links

# a directory: refused before any work (this model run alone would take minutes)
mkdir adir
timeout 60 "$bin" expr --index 'i ^ (i >> 1)' --size 16G --model -o adir > /dev/null 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "directory: exit $rc, expected 1 (124: the model ran first)"
grep -q "^coalprobe: cannot write 'adir': it is a directory" err.txt || bad "directory: $(cat err.txt)"
[ -z "$(ls adir)" ] || bad "directory: something was written into it"

# a missing parent directory
"$bin" $small -o missing/r.txt > /dev/null 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "missing parent: exit $rc, expected 1"
grep -q "cannot write 'missing/r.txt': No such file or directory" err.txt || bad "missing parent: $(cat err.txt)"
[ ! -e missing ] || bad "missing parent: it was created"

# new files follow the umask; a replaced file keeps its mode
(umask 022 && "$bin" $small -o new022.txt) || bad "umask 022: exit $?"
[ "$(mode new022.txt)" = 644 ] || bad "umask 022: mode $(mode new022.txt), expected 644"
(umask 077 && "$bin" $small -o new077.txt) || bad "umask 077: exit $?"
[ "$(mode new077.txt)" = 600 ] || bad "umask 077: mode $(mode new077.txt), expected 600"
echo old > kept.txt
chmod 604 kept.txt
(umask 077 && "$bin" $small -o kept.txt) || bad "replace: exit $?"
[ "$(mode kept.txt)" = 604 ] || bad "replace: mode $(mode kept.txt), expected 604"
cmp -s want.txt kept.txt || bad "replace: the file does not hold the report"
no_temps modes

# a read-only directory (as root, run as the unprivileged user 65534: root may write anywhere)
mkdir ro
echo precious > ro/kept.txt
chmod 644 ro/kept.txt
chmod 555 ro
cp_unprivileged || as_user=skip
if [ "$as_user" = skip ]; then
    echo "SKIP read-only directory: running as root without setpriv to become uid 65534"
else
    $as_user "$bin" $small -o ro/kept.txt > /dev/null 2> err.txt
    rc=$?
    [ $rc -eq 1 ] || bad "read-only directory: exit $rc, expected 1"
    grep -q "cannot write 'ro/kept.txt': Permission denied" err.txt || bad "read-only directory: $(cat err.txt)"
    [ "$(cat ro/kept.txt)" = precious ] || bad "read-only directory: the file changed"
    [ "$(ls ro)" = kept.txt ] || bad "read-only directory: left $(ls ro)"
fi
chmod 755 ro

# a write past the file size limit (SIGXFSZ has its default action: coalprobe catches it)
echo precious > big.json
(ulimit -f 1 && exec "$bin" --stride 1..4096 --model --format json -o big.json > /dev/null 2> err.txt)
rc=$?
[ $rc -eq 1 ] || bad "file size limit: exit $rc, expected 1"
grep -q "cannot write 'big.json': File too large" err.txt || bad "file size limit: $(cat err.txt)"
[ "$(cat big.json)" = precious ] || bad "file size limit: the old file changed"
no_temps "file size limit"

# standard output closed by its reader: exit 141, nothing on stderr
{ "$bin" --stride 1..4096 --model --format json 2> err.txt; echo $? > rc.txt; } | head -1 > /dev/null
[ "$(cat rc.txt)" = 141 ] || bad "| head -1: exit $(cat rc.txt), expected 141"
[ ! -s err.txt ] || bad "| head -1: stderr is not quiet: $(head -3 err.txt)"

# a character device of our own (the null device's numbers), as root: written in place
if mknod null-clone c 1 3 2>/dev/null; then
    "$bin" $small -o null-clone 2> err.txt || bad "character device: exit $?: $(cat err.txt)"
    [ "$(kind null-clone)" = "character special file" ] || bad "character device: it is now a $(kind null-clone)"
    no_temps "character device"
else
    echo "SKIP character device: mknod refused (not root); the FIFO covers writing in place"
fi

[ $fail -eq 0 ] && echo "output rules: all cases pass"
exit $fail
