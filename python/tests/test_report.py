"""test_report.py: the coalprobe package's reports as data, without a GPU: every golden report
loads, its rows as the CSV has them, a pandas DataFrame where pandas is installed, the offline
page for a notebook, the JSON saved again unchanged.

usage: PYTHONPATH=BUILD/python python3 -m unittest discover -s python/tests
(GOLDEN names tests/golden; by default the one beside this file's tree.)
"""
import glob
import html
import json
import os
import re
import tempfile
import unittest

import coalprobe

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.environ.get("GOLDEN", os.path.join(HERE, "..", "..", "tests", "golden"))


def reports():
    """Every JSON report among the goldens (not the charts, the error documents or comparisons
    of other kinds' keys): path and document."""
    out = []
    for path in sorted(glob.glob(os.path.join(GOLDEN, "*.json")) +
                       glob.glob(os.path.join(GOLDEN, "trace", "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "schema_version" in doc and "error" not in doc:
            out.append((path, doc))
    return out


class LoadTest(unittest.TestCase):
    def test_every_golden_report(self):
        found = reports()
        self.assertGreater(len(found), 10)
        kinds = set()
        for path, doc in found:
            r = coalprobe.load(path)
            kinds.add(r.kind)
            self.assertEqual(r.data, doc, path)
            if r.kind == "sweep":
                self.assertEqual(r.rows, doc["rows"], path)
                self.assertEqual(r.kernels, [], path)
            elif r.kind == "trace":
                self.assertEqual(r.kernels, doc["kernels"], path)
                self.assertEqual(r.instructions, doc["instructions"], path)
                self.assertIn("kernels", repr(r))
        self.assertTrue({"sweep", "trace"} <= kinds, kinds)

    def test_not_a_report(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.json")
            with open(path, "w") as f:
                f.write('{"rows": []}')
            with self.assertRaises(ValueError):
                coalprobe.load(path)

    def test_save_is_the_same_bytes(self):
        src = os.path.join(GOLDEN, "report_measured.json")
        r = coalprobe.load(src)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "again.json")
            r.save(out)
            with open(src, "rb") as a, open(out, "rb") as b:
                self.assertEqual(a.read(), b.read())

    def test_version_is_the_tools(self):
        out = coalprobe._tool.run(["--version"]).decode()
        self.assertTrue(out.startswith("coalprobe %s " % coalprobe.__version__), out)


class CsvTest(unittest.TestCase):
    def test_sweep_columns_as_the_csv(self):
        r = coalprobe.load(os.path.join(GOLDEN, "report_measured.json"))
        rows = r.csv_rows()
        with open(os.path.join(GOLDEN, "report_measured.csv")) as f:
            header = f.readline().strip().split(",")
        self.assertEqual(list(rows[0].keys()), header)
        self.assertEqual(len(rows), len(r.rows))

    def test_trace_instructions(self):
        r = coalprobe.load(os.path.join(GOLDEN, "trace", "handmade-kinds.json"))
        rows = r.csv_rows()
        self.assertGreater(len(rows), 0)
        self.assertIn("kernel", rows[0])

    @unittest.skipUnless(__import__("importlib").util.find_spec("pandas"), "no pandas")
    def test_to_pandas(self):
        r = coalprobe.load(os.path.join(GOLDEN, "report_measured.json"))
        df = r.to_pandas()
        rows = r.csv_rows()
        self.assertEqual(list(df.columns), list(rows[0].keys()))
        self.assertEqual(len(df), len(rows))


class PageTest(unittest.TestCase):
    def check_page(self, path):
        r = coalprobe.load(path)
        cell = r._repr_html_()
        m = re.fullmatch(r'<iframe srcdoc="(.*)" style="[^"]*height:\d+px[^"]*" '
                         r'sandbox="allow-scripts"></iframe>', cell, re.S)
        self.assertIsNotNone(m, cell[:200])
        page = html.unescape(m.group(1))
        self.assertTrue(page.lstrip().lower().startswith("<!doctype html"), page[:80])
        # offline: nothing fetched from elsewhere
        self.assertIsNone(re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', page), path)
        self.assertEqual(page, r.page())

    def test_sweep_page(self):
        self.check_page(os.path.join(GOLDEN, "report_measured.json"))

    def test_trace_page(self):
        self.check_page(os.path.join(GOLDEN, "trace", "handmade-tmaps.json"))


if __name__ == "__main__":
    unittest.main()
