#!/usr/bin/env python3
"""validate.py: checks coalprobe JSON reports and error documents against the JSON Schema.

The schema is docs/schema/coalprobe-report.schema.json (draft 2020-12).

Beyond the schema, the JSON text itself is held to docs/json.md: NaN and Infinity are refused,
keys may not repeat, and a field the schema types as "integer" must be written as an integer
(digits only, never 4.0 or 1e3), since counts are never printed in exponent form.

A directory argument stands for every *.json file in it; with --skip-other, files that are not
coalprobe documents (JSON objects with neither schema_version nor tool) are named and skipped,
e.g. the Vega-Lite specs beside the reports in tests/golden/.

Exit status: 0 when every file is valid (or, with --expect-invalid, when every file is
rejected), 1 otherwise, 2 on a usage error or an unreadable schema, 77 when the jsonschema
package is missing (ctest reports a skip; sh scripts/setup.sh installs python3-jsonschema), 1
then instead under CI (CI=true), whose set-up must have installed it.
"""

import argparse
import json
import os
import reprlib
import sys
from pathlib import Path

try:
    import jsonschema
except ImportError:
    # a pyenv or venv python3 ahead on PATH does not see Debian's python3-jsonschema
    DEBIAN = "/usr/bin/python3"
    if sys.executable != DEBIAN and os.access(DEBIAN, os.X_OK) \
            and "CP_VALIDATE_REEXEC" not in os.environ:
        os.environ["CP_VALIDATE_REEXEC"] = "1"
        os.execv(DEBIAN, [DEBIAN, *sys.argv])
    # a skip (77) off CI; under CI (CI=true) a failure, as tests/setup_tools.sh says for the
    # shell tests: CI's set-up must have installed it
    UNDER_CI = os.environ.get("CI", "") not in ("", "0", "false", "FALSE", "False")
    print("validate.py: %s: the Python package jsonschema is missing "
          "(Debian: apt-get install python3-jsonschema; sh scripts/setup.sh installs it)%s"
          % ("FAIL" if UNDER_CI else "skipped",
             ": under CI a test that needs it fails, not skips" if UNDER_CI else ""),
          file=sys.stderr)
    sys.exit(1 if UNDER_CI else 77)

SHORT = reprlib.Repr()  # an instance in an error message: its first level only
SHORT.maxlevel, SHORT.maxdict, SHORT.maxlist, SHORT.maxstring = 1, 4, 4, 80
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "coalprobe-report.schema.json"


def strict_validator_class():
    """Draft 2020-12 with "integer" meaning a JSON integer literal (a Python int, not a float)."""
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
    return jsonschema.validators.extend(base, type_checker=checker)


def refuse_constant(name):
    raise ValueError(f"{name} is not allowed (docs/json.md: nan and inf are never printed)")


def refuse_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"key {key!r} appears twice in one object")
        obj[key] = value
    return obj


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=refuse_constant, object_pairs_hook=refuse_duplicates)


def where(error):
    """A JSON-pointer-like location of a validation error, e.g. /rows/3/config/stride."""
    return "/" + "/".join(str(p) for p in error.absolute_path)


def problems(validator, path):
    """The list of problems of one file; empty when it is valid."""
    try:
        doc = load_json(path)
    except (UnicodeDecodeError, ValueError) as e:  # JSONDecodeError is a ValueError
        return [f"not a JSON document: {e}"]
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    out = []
    for e in errors:
        # a oneOf/anyOf failure is clearest through the cause best_match picks from its context
        leaf = jsonschema.exceptions.best_match([e])
        message = leaf.message.replace(repr(leaf.instance), SHORT.repr(leaf.instance))
        out.append(f"{where(leaf)}: {message}")
    return out


def is_coalprobe_document(path):
    """True unless path holds valid JSON that is not a coalprobe report or error document."""
    try:
        doc = load_json(path)
    except (OSError, UnicodeDecodeError, ValueError):
        return True  # let validation say what is wrong with it
    return not isinstance(doc, dict) or "schema_version" in doc or "tool" in doc


def expand(paths):
    """The files named: a directory stands for its *.json files, sorted."""
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    return out


def main():
    parser = argparse.ArgumentParser(
        description="Validate coalprobe JSON reports and error documents against the schema.")
    parser.add_argument("files", nargs="+", metavar="REPORT.json",
                        help="documents to check; a directory means every *.json in it")
    parser.add_argument("--schema", type=Path, default=SCHEMA,
                        help="the JSON Schema (default: %(default)s)")
    parser.add_argument("--expect-invalid", action="store_true",
                        help="succeed only when every file is rejected (for negative tests)")
    parser.add_argument("--skip-other", action="store_true",
                        help="skip JSON files that are not coalprobe documents (no schema_version"
                             " and no tool member) instead of failing them")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    args = parser.parse_args()

    try:
        schema = load_json(args.schema)
        cls = strict_validator_class()
        cls.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"validate.py: bad schema {args.schema}: {e}", file=sys.stderr)
        return 2
    validator = cls(schema)

    files = expand(args.files)
    if args.skip_other:
        for path in [f for f in files if not is_coalprobe_document(f)]:
            print(f"{path}: skipped: not a coalprobe document")
            files.remove(path)
    if not files:
        print("validate.py: no coalprobe document to check", file=sys.stderr)
        return 1

    failed = 0
    for path in files:
        try:
            found = problems(validator, path)
        except OSError as e:
            print(f"validate.py: cannot read {path}: {e.strerror or e}", file=sys.stderr)
            return 2
        if args.expect_invalid:
            if found:
                if not args.quiet:
                    print(f"{path}: rejected as expected: {found[0]}")
            else:
                print(f"{path}: FAIL: valid, but it was expected to be rejected")
                failed += 1
        elif found:
            print(f"{path}: INVALID ({len(found)} problem{'s' if len(found) > 1 else ''})")
            for p in found[:20]:
                print(f"  {p}")
            if len(found) > 20:
                print(f"  ... and {len(found) - 20} more")
            failed += 1
        elif not args.quiet:
            print(f"{path}: valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
