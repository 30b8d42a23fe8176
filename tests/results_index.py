#!/usr/bin/env python3
"""results_index.py: docs/results/ has an index that lists every folder, and every citation of
a results folder points at a path that exists.

    results_index.py SOURCE_DIR

Checks, with the file and line of each failure:
  - docs/results/README.md links every entry of docs/results/ (a folder as [NAME/](NAME/), a
    file as [NAME](NAME)), and every entry it links exists;
  - every citation of a dated results folder in the sources, docs and tests (README.md, docs/,
    bench/, tests/, src/, kernels/, patterns/, scripts/, .ci/, CMakeLists.txt): a word
    DATE-NAME (2026-11-21-h100-stride-gemm-ncu), as in docs/results/DATE-NAME/x.json,
    results/DATE-NAME/, ../DATE-NAME/, ${CP_RESULTS}/DATE-NAME, names a folder of docs/results/,
    and the path after it, where one is given, exists there (or with an extension added).
The logs kept in results folders (*.log, *.txt, *.csv, *.json, ...) are what programs printed and
are not read; their folders' README.md files are.
Exit status: 0 when everything holds, 1 otherwise, 2 on a usage error.
"""

import os
import re
import sys
from pathlib import Path

CITED_IN = ["README.md", "CMakeLists.txt", "docs", "bench", "tests", "src", "kernels", "patterns",
            "scripts", ".ci"]
SKIP_DIRS = {"node_modules", ".git", "__pycache__"}
# in docs/results/DIR/, only the prose is read: what programs printed may hold any path
RESULTS_PROSE = {".md"}
DATED = re.compile(r"(?<![A-Za-z0-9_.-])(\d{4}-\d{2}-\d{2}-[A-Za-z0-9._-]*[A-Za-z0-9])(/[^\s`'\"()<>\[\],;|*]*)?")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def text_files(root):
    """Every text file under the cited places, as (path relative to root, text)."""
    for top in CITED_IN:
        p = root / top
        if p.is_file():
            paths = [p]
        elif p.is_dir():
            paths = sorted(f for f in p.rglob("*")
                           if f.is_file() and not SKIP_DIRS.intersection(f.relative_to(root).parts))
        else:
            continue
        for f in paths:
            rel = f.relative_to(root)
            parts = rel.parts
            if (len(parts) > 3 and parts[:2] == ("docs", "results")
                    and f.suffix not in RESULTS_PROSE):
                continue
            data = f.read_bytes()
            if b"\0" in data[:8192]:
                continue
            try:
                yield rel, data.decode("utf-8")
            except UnicodeDecodeError:
                continue


def check_index(results, problems):
    index = results / "README.md"
    if not index.is_file():
        problems.append("docs/results/README.md: missing (the index of docs/results/)")
        return
    text = index.read_text(encoding="utf-8")
    linked = set()
    for number, line in enumerate(text.splitlines(), 1):
        for target in LINK.findall(line):
            if "://" in target or target.startswith("#"):
                continue
            name = target.split("#")[0]
            if not (results / name).exists():
                problems.append(f"docs/results/README.md:{number}: links {target}, which does not exist")
            linked.add(name.rstrip("/").split("/")[0])
    for entry in sorted(results.iterdir()):
        if entry.name == "README.md":
            continue
        if entry.name not in linked:
            kind = "folder" if entry.is_dir() else "file"
            problems.append(f"docs/results/README.md: the {kind} {entry.name} is not in the index")


def cited_path_exists(folder, rest):
    """The path after a folder's name exists, or names a file without its extension (CMake's
    lists of reports: 2026-11-21-h100-stride-gemm-ncu/stride_curve, .json added)."""
    path = folder / rest.strip("/")
    return path.exists() or any(path.parent.glob(path.name + ".*"))


def check_citations(root, results, problems):
    folders = {e.name for e in results.iterdir() if e.is_dir()}
    for rel, text in text_files(root):
        if rel == Path("docs/results/README.md"):
            continue  # the index: its links are checked above
        for number, line in enumerate(text.splitlines(), 1):
            for m in DATED.finditer(line):
                name, rest = m.group(1), (m.group(2) or "").rstrip(".:")
                if name not in folders:
                    problems.append(f"{rel}:{number}: cites {name}, no folder of docs/results/")
                elif rest.strip("/") and "$" not in rest and not cited_path_exists(results / name, rest):
                    problems.append(f"{rel}:{number}: cites {name}{rest}, which does not exist")


def main(argv):
    if len(argv) != 2:
        print("usage: results_index.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = Path(argv[1]).resolve()
    results = root / "docs" / "results"
    if not results.is_dir():
        print(f"results_index.py: {results} is not a directory", file=sys.stderr)
        return 2
    problems = []
    check_index(results, problems)
    check_citations(root, results, problems)
    for p in problems:
        print("FAIL: " + p)
    folders = sum(1 for e in results.iterdir() if e.is_dir())
    print(f"results_index: {folders} folders, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
