#!/bin/sh
# sass_atomics.sh: in the SASS of one architecture (cuobjdump -sass), the atomic family's kernels
# (cp_atomic_kernel<type, variant, op>, families/atomic/cp_atomic.cu) execute the instruction
# their counters measure: op 0 (atom) an ATOM (ATOMG), op 1 (red) a RED (REDG) and no ATOM, and
# the aggregated variant (3) shuffles (SHFL.BFLY) before its one atomic. Prints one line, "ok ..."
# or "FAIL ..." with the kernels that do not; exits 1 on FAIL. Called by sass_widths.sh on the
# GPU machine (which has cuobjdump), and by ctest cli.sass_atomics on a canned listing.
# usage: sass_atomics.sh ARCH SASS.txt
set -u
arch=${1:?usage: sass_atomics.sh ARCH SASS.txt}
sass=${2:?usage: sass_atomics.sh ARCH SASS.txt}
awk -v arch="$arch" '
function close_kernel() {
    if (name == "")
        return
    n = split(name, part, "Li")  # cp_atomic_kernelI<j|f>, <variant>E, <op>E
    variant = substr(part[2], 1, 1)
    op = substr(part[3], 1, 1)
    seen++
    why = ""
    if (op == 0 && atom == 0)
        why = "no ATOM"
    if (op == 1 && (red == 0 || atom > 0))
        why = "ATOM " atom ", RED " red
    if (variant == 3 && shfl == 0)
        why = why (why == "" ? "" : ", ") "no SHFL.BFLY"
    if (why != "") {
        bad = bad (bad == "" ? "" : "; ") name ": " why
    }
    name = ""
}
/Function :/ {
    close_kernel()
    if (match($0, /cp_atomic_kernelI[jf]Li[0-3]ELi[01]E/)) {
        name = substr($0, RSTART, RLENGTH)
        atom = red = shfl = 0
    }
    next
}
name != "" && /(^|[^A-Z])ATOMG?\./ { atom++ }
name != "" && /(^|[^A-Z])REDG?\./ { red++ }
name != "" && /SHFL\.BFLY/ { shfl++ }
END {
    close_kernel()
    if (seen != 16)
        bad = bad (bad == "" ? "" : "; ") seen " atomic kernels found, 16 expected"
    if (bad == "") {
        printf "ok   %s: atomic kernels: 16, atom ATOM, red RED, aggregated SHFL.BFLY\n", arch
    } else {
        printf "FAIL %s: atomic kernels: %s\n", arch, bad
        exit 1
    }
}' "$sass"
