# timing.sh: wall-clock helpers the bench scripts source (`. "$(dirname "$0")/timing.sh"`).
# now: seconds since the epoch, to the nanosecond; span T0 T1: T1 - T0 with two decimals.
now() { date +%s.%N; }
span() { awk "BEGIN{printf \"%.2f\", $2 - $1}"; }
