#!/bin/sh
# results_index.sh: tests/results_index.py passes on this tree (docs/results/README.md lists every
# folder, every citation of one exists) and, on a small tree made here, names each defect: a
# folder left out of the index, an index link to nothing, a citation of a renamed folder, and a
# citation of a file missing from an existing folder.
# usage: results_index.sh SOURCE_DIR
. "$(dirname "$0")/common.sh"
src=${1:?usage: results_index.sh SOURCE_DIR}
check=$src/tests/results_index.py
cp_scratch
python3 "$check" "$src" >"$s/this.txt" 2>&1 || { cat "$s/this.txt"; bad "this tree: results_index.py failed"; }

# the folder names are made of $d, $e and $g, so that this file cites no folder itself
d=2026-01-01 e=2026-01-02 g=2026-01-03
mkdir -p "$s/docs/results/$d-h100-stride" "$s/docs/results/$e-h100-unlisted" "$s/tests"
echo "# stride" >"$s/docs/results/$d-h100-stride/README.md"
echo "{}" >"$s/docs/results/$d-h100-stride/curve.json"
cat >"$s/docs/results/README.md" <<END
| folder | what |
| --- | --- |
| [$d-h100-stride/]($d-h100-stride/) | a curve |
| [$g-h100-gone/]($g-h100-gone/) | removed |
END
cat >"$s/docs/model.md" <<END
The curve (\`docs/results/$d-h100-stride/curve.json\`, [here](results/$d-h100-stride/)).
Renamed since: docs/results/$d-h100/curve.json.
A file it never had: docs/results/$d-h100-stride/table.txt.
END
echo "set(CP_R \${CP_RESULTS}/$d-h100-stride/curve) # the .json added" >"$s/tests/CMakeLists.txt"
python3 "$check" "$s" >"$s/out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "the broken tree: exit $rc, expected 1"
for want in "docs/results/README.md: the folder $e-h100-unlisted is not in the index" \
    "docs/results/README.md:4: links $g-h100-gone/, which does not exist" \
    "docs/model.md:2: cites $d-h100, no folder of docs/results/" \
    "docs/model.md:3: cites $d-h100-stride/table.txt, which does not exist" \
    "results_index: 2 folders, 4 problems"; do
    grep -Fq "$want" "$s/out" || bad "not said: $want"
done
[ $fail -eq 0 ] || cat "$s/out"
exit $fail
