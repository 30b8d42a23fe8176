# common.sh: what every CLI test script starts with, sourced as . "$(dirname "$0")/common.sh":
# unset variables are errors, bad MESSAGE records a failure (the script ends with exit $fail),
# and cp_scratch makes a scratch directory $s removed when the script exits.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cp_scratch() {
    s=$(mktemp -d) || exit 1
    trap 'rm -rf "$s"' EXIT
}
