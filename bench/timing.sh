# timing.sh: wall-clock helpers the bench scripts source (`. "$(dirname "$0")/timing.sh"`).
# now: seconds since the epoch, to the nanosecond; span T0 T1: T1 - T0 with two decimals.
now() { date +%s.%N; }
span() { awk "BEGIN{printf \"%.2f\", $2 - $1}"; }
# wall LABEL COMMAND...: runs COMMAND with its output in $out/LABEL.out and .err (out: the
# caller's output directory), prints its wall seconds; a failure is named on stderr.
wall() {
    wall_label=$1; shift
    wall_t0=$(now); "$@" > "$out/$wall_label.out" 2> "$out/$wall_label.err"; wall_rc=$?
    wall_t1=$(now)
    [ "$wall_rc" = 0 ] || echo "$wall_label: exit $wall_rc" >&2
    span "$wall_t0" "$wall_t1"
}
# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
