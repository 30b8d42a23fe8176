# common.sh: what every CLI test script starts with, sourced as . "$(dirname "$0")/common.sh":
# unset variables are errors, bad MESSAGE records a failure (the script ends with exit $fail),
# cp_scratch makes a scratch directory $s removed when the script exits, and cp_absolute VAR...
# makes each named variable's path absolute against the current directory.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cp_scratch() {
    s=$(mktemp -d) || exit 1
    trap 'rm -rf "$s"' EXIT
}
cp_absolute() {
    for cp_var; do
        eval "case \$$cp_var in /*) ;; *) $cp_var=\$(pwd)/\$$cp_var ;; esac"
    done
}
