#!/bin/sh
# shared_and_expr.sh: the results of the shared-memory and user-expression families on a GPU:
# the smem bank-conflict sweep (strides 1..33, 4/8/16-byte lanes, loads and stores), the
# transpose ladder at 8192 x 8192 and a ragged size, and user expressions (the example, a
# swept parameter). Tables on stdout files, JSON reports beside them.
# usage: shared_and_expr.sh PATH/TO/coalprobe OUTDIR
set -u
bin=${1:?usage: shared_and_expr.sh PATH/TO/coalprobe OUTDIR}
out=${2:?usage: shared_and_expr.sh PATH/TO/coalprobe OUTDIR}
mkdir -p "$out"
run() { # NAME ARGS...: the table, then the same sweep as JSON
    name=$1
    shift
    printf '$ coalprobe' > "$out/$name.txt"
    for a in "$@"; do # quoted as a shell would need it
        case $a in *[!A-Za-z0-9_.,=:/-]*) printf " '%s'" "$a" ;; *) printf ' %s' "$a" ;; esac
    done >> "$out/$name.txt"
    echo >> "$out/$name.txt"
    "$bin" "$@" >> "$out/$name.txt" 2>&1
    echo "exit $?" >> "$out/$name.txt"
    "$bin" "$@" --format json -o "$out/$name.json" 2>/dev/null
}
run smem_load smem --stride 1..33 --width 4,8,16 --op load
run smem_store smem --stride 1..33 --width 4,8,16 --op store
run transpose transpose --variant all
run transpose_ragged transpose --variant all --m 1000 --n 1100
run expr_example expr --index "(i % 32) * 1024 + i / 32" --width 4,16
run expr_sweep expr --index "(i * s) % n" --param s=1..8,16,32,33 --op all
