#!/bin/sh
# output_read_only.sh: -o on a file this user may not write is refused before any work (exit 1),
# as the shell's `>` refuses it: another user's read-only file in a directory everyone may write
# (no sticky bit) keeps its content and its owner, and a 0444 file of one's own is refused too. Root
# may write any file, so as root the runs are made as the unprivileged uid 65534 (setpriv);
# without a way to become it, the test is skipped (77).
# usage: output_read_only.sh PATH/TO/coalprobe
. "$(dirname "$0")/common.sh"
bin=${1:?usage: output_read_only.sh PATH/TO/coalprobe}
cp_absolute bin
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cd "$dir" || exit 1
cp_unprivileged || { echo "SKIP: running as root without setpriv to become uid 65534"; exit 77; }
mkdir shared
chmod 777 shared
small="--stride 1..4 --size 4K --model"
# another user's read-only file (as root: root's; otherwise the test's own, read-only for it)
echo theirs > shared/theirs.txt
chmod 444 shared/theirs.txt
owner=$(stat -c %u shared/theirs.txt)
$as_user "$bin" $small -o shared/theirs.txt > /dev/null 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "another user's read-only file: exit $rc, expected 1"
grep -q "^coalprobe: cannot write 'shared/theirs.txt': the file is read-only for this user, so it is not replaced$" err.txt ||
    bad "another user's read-only file: $(cat err.txt)"
grep -q "^hint: .*chmod u+w" err.txt || bad "another user's read-only file: no hint: $(cat err.txt)"
[ "$(cat shared/theirs.txt)" = theirs ] || bad "another user's read-only file: it changed"
[ "$(stat -c %u shared/theirs.txt)" = "$owner" ] || bad "another user's read-only file: its owner changed"
# a 0444 file of one's own
$as_user sh -c 'echo mine > shared/mine.txt && chmod 444 shared/mine.txt' || bad "cannot create mine.txt"
$as_user "$bin" $small -o shared/mine.txt > /dev/null 2> err.txt
rc=$?
[ $rc -eq 1 ] || bad "own 0444 file: exit $rc, expected 1"
grep -q "read-only for this user" err.txt || bad "own 0444 file: $(cat err.txt)"
[ "$(cat shared/mine.txt)" = mine ] || bad "own 0444 file: it changed"
[ -z "$(find . -name '*.tmp-*')" ] || bad "left $(find . -name '*.tmp-*')"
[ $fail -eq 0 ] && echo "read-only files refused, left as they were"
exit $fail
