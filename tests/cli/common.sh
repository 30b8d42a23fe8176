# common.sh: what every CLI test script starts with, sourced as . "$(dirname "$0")/common.sh":
# unset variables are errors, bad MESSAGE records a failure (the script ends with exit $fail),
# cp_scratch makes a scratch directory $s removed when the script exits, cp_absolute VAR...
# makes each named variable's path absolute against the current directory, cp_in_scratch VAR...
# does both and changes into $s; cp_setup_missing and cp_setup_missing_step
# (tests/setup_tools.sh) skip, or fail under CI, without a set-up tool.
set -u
. "$(dirname "$0")/../setup_tools.sh"
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
cp_in_scratch() {
    cp_absolute "$@"
    cp_scratch
    cd "$s" || exit 1
}
# cp_unprivileged: sets as_user to the command prefix that runs a command as the unprivileged
# uid 65534 when this script runs as root (empty otherwise); returns 1 when root cannot drop its
# privileges (no setpriv).
cp_unprivileged() {
    as_user=
    [ "$(id -u)" -ne 0 ] && return 0
    command -v setpriv >/dev/null 2>&1 &&
        setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null || return 1
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
}
