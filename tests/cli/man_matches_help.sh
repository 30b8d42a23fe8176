#!/bin/sh
# man_matches_help.sh: the man page `coalprobe --help-man` writes (the build installs it) names
# every option that the --help of each family and command shows, every family and command, and
# each family's examples.
# usage: man_matches_help.sh COALPROBE
. "$(dirname "$0")/common.sh"
bin=$1
cp_scratch
"$bin" --help-man >"$s/coalprobe.1" || bad "--help-man failed"
# the options of a --help: its option lines' long names
options() { sed -n 's/^  \(-[A-Za-z], \)\{0,1\}--\([a-z][a-z-]*\).*/\2/p'; }
for command in stride layout gemm gather smem transpose expr readonly async atomic trace compare doctor; do
    grep -q "^\.S[SH] $command\( \|\$\)" "$s/coalprobe.1" || bad "the man page has no section $command"
    "$bin" help "$command" >"$s/help.txt" || bad "coalprobe help $command failed"
    for o in $(options <"$s/help.txt"); do
        m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q "^\\\\fB\\\\-\\\\-$m\\\\fR\|\\\\fR, \\\\fB\\\\-\\\\-$m\\\\fR" "$s/coalprobe.1" ||
            bad "coalprobe $command --help shows --$o, the man page does not"
    done
done
# the options every family takes (coalprobe --help)
"$bin" --help | options >"$s/sweep.txt"
[ "$(wc -l <"$s/sweep.txt")" -ge 15 ] || bad "coalprobe --help shows too few options"
for o in $(cat "$s/sweep.txt"); do
    m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
    grep -q "\\\\fB\\\\-\\\\-$m\\\\fR" "$s/coalprobe.1" || bad "coalprobe --help shows --$o, the man page does not"
done
exit $fail
