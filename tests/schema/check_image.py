#!/usr/bin/env python3
"""check_image.py: checks the SVG and PNG that scripts/plot wrote for a report (a CTest helper).

PREFIX.svg must be well-formed XML with an <svg> root and a real drawing in it (paths and
text); PREFIX.png must start with the PNG signature, have a positive size and exceed 10 kB.
With --render REPORT, scripts/plot REPORT -o PREFIX runs first (old images are removed before);
without matplotlib it exits 77, which CTest reports as a skip.
"""

import argparse
import importlib.util
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

PLOT = Path(__file__).resolve().parents[2] / "scripts" / "plot"
SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MIN_PNG_BYTES = 10_000
MIN_SVG_ELEMENTS = 100


def has_matplotlib():
    """Whether scripts/plot can run: this python3 has matplotlib, or Debian's, which it falls
    back to, has."""
    if importlib.util.find_spec("matplotlib"):
        return True
    debian = "/usr/bin/python3"
    return os.access(debian, os.X_OK) and subprocess.run(
        [debian, "-c", "import matplotlib"], capture_output=True).returncode == 0


def check_svg(path):
    root = ET.parse(path).getroot()  # raises ParseError when not well-formed
    if root.tag != SVG_NS + "svg":
        return f"root element is {root.tag}, not <svg>"
    elements = list(root.iter())
    paths = sum(e.tag == SVG_NS + "path" for e in elements)
    if len(elements) < MIN_SVG_ELEMENTS or paths < 10:
        return f"only {len(elements)} elements ({paths} paths): no real drawing"
    return None


def check_png(path):
    data = path.read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        return "does not start with the PNG signature"
    if len(data) <= MIN_PNG_BYTES:
        return f"{len(data)} bytes, not more than {MIN_PNG_BYTES}"
    width, height = struct.unpack(">II", data[16:24])  # IHDR, the first chunk
    if data[12:16] != b"IHDR" or not width or not height:
        return "no IHDR chunk with a positive size"
    return None


def main():
    parser = argparse.ArgumentParser(
        description="Check PREFIX.svg and PREFIX.png as drawn by scripts/plot.")
    parser.add_argument("prefix", metavar="PREFIX", type=Path, help="the images, less .svg/.png")
    parser.add_argument("--render", metavar="REPORT.json",
                        help="first draw REPORT.json with scripts/plot -o PREFIX")
    args = parser.parse_args()
    svg, png = (args.prefix.with_name(args.prefix.name + ext) for ext in (".svg", ".png"))

    if args.render:
        if not has_matplotlib():
            print("check_image.py: skipped: matplotlib is missing (Debian: python3-matplotlib; "
                  "sh scripts/setup.sh installs it)", file=sys.stderr)
            return 77
        for old in (svg, png):
            old.unlink(missing_ok=True)
        run = subprocess.run([sys.executable, str(PLOT), args.render, "-o", str(args.prefix)])
        if run.returncode != 0:
            print(f"check_image.py: scripts/plot exited with {run.returncode}", file=sys.stderr)
            return 1

    failed = 0
    for path, check in ((svg, check_svg), (png, check_png)):
        try:
            problem = check(path)
        except (OSError, ET.ParseError) as e:
            problem = str(e)
        print(f"{path}: {'FAIL: ' + problem if problem else 'ok'}")
        failed += problem is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
