"""test_region.py: coalprobe.trace() and %%coalprobe_trace without a GPU: with no CUDA driver an
exception that says so, no crash, no variable of the region left in the environment, no directory
left; options checked before anything starts; the region's flow (the environment the injection
library reads, the report from its raw files, an exception marking it incomplete, a second
region) through a stand-in for the library that writes a recorded raw file; the cell magic
registered by `%load_ext coalprobe` where IPython is installed.

usage: PYTHONPATH=BUILD/python python3 -m unittest discover -s python/tests
"""
import ctypes
import glob
import os
import tempfile
import unittest

import coalprobe
from coalprobe import magic, region

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.environ.get("GOLDEN", os.path.join(HERE, "..", "..", "tests", "golden"))
RAW = os.path.join(GOLDEN, "trace", "handmade-transpose", "raw-4242.tsv")
VARS = ("COALPROBE_TRACE_KERNEL", "COALPROBE_TRACE_COUNTER_LAUNCHES", "COALPROBE_TRACE_LAUNCH_SKIP",
        "COALPROBE_TRACE_LAUNCH_COUNT", "COALPROBE_TRACE_NVTX_INCLUDE",
        "COALPROBE_TRACE_CAPTURE_RANGE", "COALPROBE_TRACE_KERNEL_SET",
        "COALPROBE_TRACE_PYTHON_FRAMES", "COALPROBE_TRACE_PYTHON_STACK",
        "COALPROBE_TRACE_INSTRUCTIONS", "COALPROBE_TRACE_DIR",
        "NVTX_INJECTION64_PATH")


def driver_loadable():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def region_dirs():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "coalprobe-region-*")))


class FakeLibrary:
    """Stands for libcoalprobe_inject.so: attach writes the recorded raw file (its end record
    left for detach) and notes the environment it was given; detach ends the file."""

    def __init__(self):
        self.env = None
        self.dir = None
        self.attaches = 0

    def coalprobe_attach(self, raw_dir, why, n):
        self.dir = raw_dir.decode()
        self.env = {v: os.environ.get(v) for v in VARS}
        self.attaches += 1
        with open(RAW) as f:
            lines = [line for line in f if not line.startswith("end\t")]
        with open(os.path.join(self.dir, "raw-4242.tsv"), "w") as f:
            f.writelines(lines)
        return 0

    def coalprobe_detach_interrupted(self, reason, why, n):
        with open(os.path.join(self.dir, "raw-4242.tsv"), "a") as f:
            if reason:
                f.write("interrupted\t%s\n" % reason.decode())
            f.write("end\t1\t4\n")
        return 0


class Faked(unittest.TestCase):
    def setUp(self):
        self.saved = region._library
        self.lib = region._library = FakeLibrary()
        self.env = dict(os.environ)
        self.dirs = region_dirs()

    def tearDown(self):
        region._library = self.saved
        self.assertEqual(dict(os.environ), self.env, "the environment is as it was")
        self.assertEqual(region_dirs(), self.dirs, "no directory left")


class TestRegionFlow(Faked):
    def test_env_and_report(self):
        os.environ["COALPROBE_TRACE_LAUNCH_SKIP"] = "7"  # the user's own: unset for the region
        self.env = dict(os.environ)
        with coalprobe.trace(kernel="transpose", launch_count=3, kernel_counters="full",
                             python_stack=True, group_by="kernel", top=2) as t:
            self.assertTrue(os.path.isdir(t.raw_dir))
        env = self.lib.env
        self.assertIsNone(env["COALPROBE_TRACE_INSTRUCTIONS"])
        self.assertEqual(env["COALPROBE_TRACE_KERNEL"], "transpose")
        self.assertEqual(env["COALPROBE_TRACE_LAUNCH_COUNT"], "3")
        self.assertEqual(env["COALPROBE_TRACE_KERNEL_SET"], "full")
        self.assertEqual(env["COALPROBE_TRACE_PYTHON_STACK"], "1")
        self.assertIsNone(env["COALPROBE_TRACE_LAUNCH_SKIP"])
        self.assertIsNone(env["COALPROBE_TRACE_COUNTER_LAUNCHES"])
        self.assertIsInstance(t.report, coalprobe.Report)
        self.assertEqual(t.report.kind, "trace")
        self.assertTrue(t.report.complete)
        self.assertTrue(t.report.kernels)
        self.assertIn("--group-by", t.report.data["command"])
        self.assertFalse(t.gate_failed)
        self.assertIsNone(t.error)

    def test_instructions_sampled(self):
        with coalprobe.trace(instructions="sampled", counter_launches=3):
            pass
        self.assertEqual(self.lib.env["COALPROBE_TRACE_INSTRUCTIONS"], "sampled")
        self.assertEqual(self.lib.env["COALPROBE_TRACE_COUNTER_LAUNCHES"], "3")

    def test_all_launches(self):
        with coalprobe.trace(all_launches=True):
            pass
        self.assertEqual(self.lib.env["COALPROBE_TRACE_COUNTER_LAUNCHES"], "all")

    def test_exception_keeps_report_incomplete(self):
        t = coalprobe.trace()
        with self.assertRaises(ZeroDivisionError):
            with t:
                1 / 0
        self.assertIsNotNone(t.report)
        self.assertFalse(t.report.complete)
        self.assertIn("raised ZeroDivisionError", t.report.data["incomplete_reason"])
        self.assertTrue(t.report.kernels)

    def test_two_regions(self):
        for _ in range(2):
            with coalprobe.trace() as t:
                pass
            self.assertTrue(t.report.complete)
        self.assertEqual(self.lib.attaches, 2)

    def test_gate(self):
        with coalprobe.trace(max_sectors_per_request=1) as t:
            pass
        self.assertTrue(t.gate_failed)
        self.assertTrue(t.gate_messages)
        self.assertIsNotNone(t.report)

    def test_kept_raw_dir(self):
        with tempfile.TemporaryDirectory() as d:
            keep = os.path.join(d, "raw")
            with coalprobe.trace(raw_dir=keep) as t:
                pass
            self.assertEqual(t.raw_dir, keep)
            self.assertTrue(os.path.exists(os.path.join(keep, "raw-4242.tsv")))


class TestOptions(unittest.TestCase):
    def test_bad_options(self):
        env = dict(os.environ)
        for bad in (dict(launch_count=-1), dict(launch_skip="3"), dict(kernel_counters="some"),
                    dict(group_by="file"), dict(python_frames="mine"), dict(top=True),
                    dict(counter_launches=2, all_launches=True), dict(min_coverage="x"),
                    dict(kernel=""), dict(instructions="some"),
                    dict(instructions="sampled", counter_launches=0),
                    dict(instructions="sampled", kernel_counters="full")):
            with self.assertRaises(ValueError, msg=repr(bad)):
                coalprobe.trace(**bad)
        with self.assertRaises(TypeError):
            coalprobe.trace(kernels="x")
        self.assertEqual(dict(os.environ), env)


@unittest.skipIf(driver_loadable(), "a CUDA driver is installed: the refusal is not this one")
class TestNoDriver(unittest.TestCase):
    def test_refused_cleanly(self):
        env = dict(os.environ)
        dirs = region_dirs()
        with self.assertRaises(coalprobe.CoalprobeError) as e:
            with coalprobe.trace(kernel="x", group_by="line"):
                self.fail("the block ran")
        self.assertIn("no CUDA driver", str(e.exception))
        self.assertEqual(dict(os.environ), env)
        self.assertEqual(region_dirs(), dirs)
        # the library stays usable: the same answer again
        with self.assertRaises(coalprobe.CoalprobeError):
            with coalprobe.trace():
                pass


try:
    import IPython  # noqa: F401
    from IPython.core.interactiveshell import InteractiveShell
    HAVE_IPYTHON = True
except ImportError:
    HAVE_IPYTHON = False


class TestMagicLine(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(magic.parse_line("--kernel 'a b' --launch-count 3 --python-stack "
                                          "--group-by line --max-excess-pct 20"),
                         dict(kernel="a b", launch_count=3, python_stack=True, group_by="line",
                              max_excess_pct=20.0))
        self.assertEqual(magic.parse_line("--instructions sampled --counter-launches 2"),
                         dict(instructions="sampled", counter_launches=2))
        self.assertEqual(magic.parse_line(""), {})
        with self.assertRaises(Exception):
            magic.parse_line("--no-such-option")
        with self.assertRaises(Exception):
            magic.parse_line("--launch-count many")


@unittest.skipUnless(HAVE_IPYTHON or os.environ.get("CI") not in (None, "", "0", "false"),
                     "IPython is not installed (apt-get install python3-ipython)")
class TestMagic(unittest.TestCase):
    def setUp(self):
        self.ip = InteractiveShell.instance()
        self.ip.extension_manager.load_extension("coalprobe")

    def test_registered(self):
        self.assertIn("coalprobe_trace", self.ip.magics_manager.magics["cell"])

    def test_bad_line(self):
        from IPython.core.error import UsageError
        with self.assertRaises(UsageError):
            self.ip.run_cell_magic("coalprobe_trace", "--launch-count many", "x = 1")
        with self.assertRaises(UsageError):
            self.ip.run_cell_magic("coalprobe_trace", "--group-by file", "x = 1")

    def test_cell_traced(self):
        saved = region._library
        region._library = FakeLibrary()
        shown = []
        import IPython.display
        display = IPython.display.display
        IPython.display.display = lambda *objs, **kw: shown.extend(objs)
        try:
            t = self.ip.run_cell_magic("coalprobe_trace", "--kernel transpose",
                                       "coalprobe_cell_ran = 1")
            self.assertEqual(self.ip.user_ns.get("coalprobe_cell_ran"), 1)
            self.assertEqual(region._library.env["COALPROBE_TRACE_KERNEL"], "transpose")
            self.assertTrue(t.report.complete)
            self.assertEqual(len(shown), 1)
            self.assertIn("<iframe srcdoc=", shown[0].data)
            # a cell that raises: shown by IPython, the report kept and incomplete
            t = self.ip.run_cell_magic("coalprobe_trace", "", "1 / 0")
            self.assertFalse(t.report.complete)
            self.assertIn("ZeroDivisionError", t.report.data["incomplete_reason"])
        finally:
            region._library = saved
            IPython.display.display = display

    @unittest.skipIf(driver_loadable(), "a CUDA driver is installed")
    def test_no_driver(self):
        with self.assertRaises(coalprobe.CoalprobeError):
            self.ip.run_cell_magic("coalprobe_trace", "", "x = 1")


if __name__ == "__main__":
    unittest.main()
