#!/bin/sh
# completions.sh: the completions `coalprobe --completions SHELL` writes (the build installs them):
# bash completes commands, options and values, and every value it offers is one the parser takes;
# zsh and fish read theirs (and fish completes `coalprobe g`) where they are installed.
# usage: completions.sh COALPROBE TRACE_GOLDEN_DIR
. "$(dirname "$0")/common.sh"
bin=$1 raw=$2
cp_absolute bin raw
cp_scratch
"$bin" --completions bash >"$s/coalprobe.bash" || bad "--completions bash failed"
"$bin" --completions zsh >"$s/_coalprobe" || bad "--completions zsh failed"
"$bin" --completions fish >"$s/coalprobe.fish" || bad "--completions fish failed"
"$bin" --completions tcsh >/dev/null 2>"$s/err"
[ $? -eq 2 ] && grep -q "not bash, zsh or fish" "$s/err" || bad "--completions tcsh is not a usage error"
bash -n "$s/coalprobe.bash" || bad "the bash completion does not parse"

# words... : what bash offers for the last word, sorted, on one line
offers() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _coalprobe
        [ ${#COMPREPLY[@]} -gt 0 ] && printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
        true' sh "$s/coalprobe.bash" "$@"
}
expect() {
    want=$1
    shift
    got=$(offers "$@")
    [ "$got" = "$want" ] || bad "bash: '$*' offers '$got', not '$want'"
}
expect "gather gemm " coalprobe g
expect "trace transpose " coalprobe help t
expect "all coalesced cublas naive smem " coalprobe gemm --variant ""
expect "--variant --vega-lite --verbose --version " coalprobe gemm --v
expect "--stride " coalprobe --st
expect "--index " coalprobe expr --ind
expect "all broadcast mod random " coalprobe readonly --index ""
expect "json text " coalprobe doctor --format ""
expect "full lean " coalprobe trace --kernel-counters ""
expect "" coalprobe gemm --m ""
expect "" coalprobe gemm --stride
# every value offered is taken by the parser
for f in $(offers coalprobe --format ""); do
    "$bin" --stride 1 --size 4K --model --format "$f" >/dev/null 2>&1 || bad "--format $f is offered but refused"
done
for f in $(offers coalprobe trace --format ""); do
    "$bin" trace --from-raw "$raw/handmade-transpose" --format "$f" >/dev/null 2>&1 ||
        bad "trace --format $f is offered but refused"
done
for f in $(offers coalprobe compare --format ""); do
    "$bin" compare "$raw/handmade-transpose.json" "$raw/handmade-transpose.json" --format "$f" \
        >/dev/null 2>&1 || bad "compare --format $f is offered but refused"
done
for family_option in "gemm --variant" "transpose --variant" "readonly --variant" "readonly --index" \
    "async --variant" "atomic --variant" "atomic --op" "atomic --type" "layout --layout" "smem --op" \
    "stride --op" "expr --op"; do
    case ${family_option%% *} in
    gemm) small="--m 8 --n 8 --k 8" ;;
    transpose) small="--m 64 --n 64" ;;
    readonly) small="--size 4K --table 4K" ;;
    async) small="--size 64K --stages 1" ;;
    expr) small="--index i --size 4K" ;;
    smem) small="--stride 1" ;;
    *) small="--size 4K" ;;
    esac
    for v in $(offers coalprobe $family_option ""); do
        "$bin" $family_option "$v" $small --model >/dev/null 2>"$s/err" ||
            { cat "$s/err"; bad "$family_option $v is offered but refused"; }
    done
done

if command -v zsh >/dev/null 2>&1; then
    zsh -n "$s/_coalprobe" || bad "the zsh completion does not parse"
else
    cp_setup_missing_step "zsh" "its completion is not parsed; sh scripts/setup.sh installs it" ||
        bad "zsh is missing under CI"
fi
if command -v fish >/dev/null 2>&1; then
    fish -n "$s/coalprobe.fish" || bad "the fish completion does not parse"
    got=$(fish -c "source '$s/coalprobe.fish'; complete -C'coalprobe g'" | cut -f1 | sort | tr "\n" " ")
    [ "$got" = "gather gemm " ] || bad "fish: 'coalprobe g' offers '$got'"
    got=$(fish -c "source '$s/coalprobe.fish'; complete -C'coalprobe trace --format '" | cut -f1 | sort | tr "\n" " ")
    [ "$got" = "chrome-trace csv html json table vega-lite " ] || bad "fish: 'coalprobe trace --format' offers '$got'"
else
    cp_setup_missing_step "fish" "its completion is not parsed; sh scripts/setup.sh installs it" ||
        bad "fish is missing under CI"
fi
exit $fail
