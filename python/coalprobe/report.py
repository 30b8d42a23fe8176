"""report.py: a coalprobe report as data: loaded from a JSON file, its rows as lists of dicts,
a pandas DataFrame, and the offline page in a notebook (docs/python.md)."""
import csv
import html
import io
import json
import os
import tempfile

from . import _tool


def load(path):
    """The report saved at path (`coalprobe --format json`, `coalprobe trace --format json`)."""
    with open(path, "rb") as f:
        return Report(f.read())


class Report:
    """One report: a sweep's (`rows`), a trace's (`kernels`, `instructions`) or a comparison's.

    `data` is the JSON document as Python objects; `kind` is "sweep", "trace" or "compare".
    """

    def __init__(self, text):
        self._text = text if isinstance(text, bytes) else text.encode()
        self._csv_text = None
        self.data = json.loads(self._text)
        if not isinstance(self.data, dict) or "schema_version" not in self.data:
            raise ValueError("not a coalprobe report (no schema_version)")
        kind = self.data.get("kind")
        self.kind = kind if kind in ("trace", "compare") else "sweep"

    # ---- as lists of dicts --------------------------------------------------------------
    @property
    def rows(self):
        """A sweep's configurations, as the JSON has them (predicted beside measured)."""
        return list(self.data.get("rows") or [])

    @property
    def kernels(self):
        """A trace's kernels."""
        return list(self.data.get("kernels") or [])

    @property
    def instructions(self):
        """A trace's instructions."""
        return list(self.data.get("instructions") or [])

    @property
    def complete(self):
        """False for a trace cut short (an exception in a traced region, a crash)."""
        return bool(self.data.get("complete", not self.data.get("incomplete")))

    def _csv(self):
        """The report as `coalprobe show --format csv` writes it (a sweep's configurations, a
        trace's instructions), once: the tool is run the first time only."""
        if self._csv_text is None:
            self._csv_text = _tool.run(["show", "-", "--format", "csv"], stdin=self._text).decode()
        return self._csv_text

    def csv_rows(self):
        """The CSV's rows: dicts whose keys are its columns."""
        return list(csv.DictReader(io.StringIO(self._csv())))

    def to_pandas(self):
        """A pandas DataFrame of the CSV's rows and columns, typed by pandas (ImportError
        without pandas)."""
        import pandas  # noqa: the optional dependency

        return pandas.read_csv(io.StringIO(self._csv()))

    # ---- files and pages -----------------------------------------------------------------
    def save(self, path):
        """Writes the report's JSON to path, as coalprobe wrote it."""
        tmp = path + ".part"
        with open(tmp, "wb") as f:
            f.write(self._text)
        os.replace(tmp, path)

    def page(self):
        """The offline page of `--format html` (str)."""
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "page.html")
            _tool.run(["show", "-", "--format", "html", "-o", out], stdin=self._text)
            with open(out, encoding="utf-8") as f:
                return f.read()

    def _repr_html_(self):
        """The page in a notebook's cell: an iframe of fixed height holding it (srcdoc), so that
        its script and styles stay its own."""
        return ('<iframe srcdoc="%s" style="width:100%%;height:640px;border:1px solid #ccc" '
                'sandbox="allow-scripts"></iframe>' % html.escape(self.page(), quote=True))

    def __repr__(self):
        n = len(self.rows) if self.kind == "sweep" else len(self.kernels)
        what = "configurations" if self.kind == "sweep" else "kernels"
        return "<coalprobe %s report: %d %s>" % (self.kind, n, what)
