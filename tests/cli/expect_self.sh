#!/bin/sh
# expect_self.sh: expect.sh checks every --stdout and --stderr pattern it is given, not the
# last one alone (a test with a wrong first pattern must fail); --no-stderr lets through the
# notice of a long model run only.
# usage: expect_self.sh EXPECT_SH
set -u
expect=$1
fail=0
sh "$expect" 0 --stdout '^one$' --stdout '^two$' -- printf 'one\ntwo\n' > /dev/null ||
    { echo "FAIL: two matching stdout patterns rejected"; fail=1; }
sh "$expect" 0 --stdout '^absent$' --stdout '^two$' -- printf 'one\ntwo\n' > /dev/null &&
    { echo "FAIL: a first stdout pattern that matches nothing was ignored"; fail=1; }
sh "$expect" 0 --stderr '^absent$' --stderr '^e$' -- sh -c 'echo e >&2' > /dev/null &&
    { echo "FAIL: a first stderr pattern that matches nothing was ignored"; fail=1; }
sh "$expect" 0 --no-stderr -- sh -c 'echo "coalprobe: the model evaluates 5242880 GPU threads one by one (20 configurations): about 6 s on 2 CPU threads" >&2' > /dev/null ||
    { echo "FAIL: --no-stderr refused the notice of a long model run"; fail=1; }
sh "$expect" 0 --no-stderr -- sh -c 'echo "coalprobe: warning: other" >&2' > /dev/null &&
    { echo "FAIL: --no-stderr let another line through"; fail=1; }
[ $fail -eq 0 ] && echo "every pattern is checked; --no-stderr lets only the model notice through"
exit $fail
