# setup_tools.sh: what a test does when a tool that scripts/setup.sh installs is missing, sourced
# as . "$ROOT/tests/setup_tools.sh". Off CI the test, or its step, is skipped and says so; under
# CI (CI set, other than empty, 0 or false: CI=true) it fails instead, naming the tool and the
# set-up step, so that a CI whose set-up could not install a tool does not stay green.
#   cp_setup_missing TOOL STEP        ends the test: exit 77 (a skip for ctest), under CI exit 1
#   cp_setup_missing_step TOOL STEP   a step of a longer test: says SKIP and returns 0; under CI
#                                     says FAIL and returns 1 (the caller records the failure)
# STEP says what installs it, e.g. "apt-get install zsh; sh scripts/setup.sh installs it".
cp_setup_under_ci() {
    case ${CI:-} in
    '' | 0 | false | FALSE | False) return 1 ;;
    *) return 0 ;;
    esac
}
cp_setup_missing() {
    if cp_setup_under_ci; then
        echo "FAIL: $1 is missing ($2): under CI a test that needs it fails, not skips" >&2
        exit 1
    fi
    echo "SKIP: $1 is missing ($2)" >&2
    exit 77
}
cp_setup_missing_step() {
    if cp_setup_under_ci; then
        echo "FAIL: $1 is missing ($2): under CI a test that needs it fails, not skips" >&2
        return 1
    fi
    echo "SKIP: $1 is missing ($2)" >&2
    return 0
}
