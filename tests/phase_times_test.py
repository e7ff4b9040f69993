#!/usr/bin/env python3
"""tests/phase_times.py, the table ./test.sh ends with: each phase's time and the total, the ten
slowest tests of each ctest phase with those over 20 s marked, and the closing count line; a phase
that failed is shown as FAILED and counted, and a missing JUnit file is said, not fatal.

Usage: phase_times_test.py (ctest runs it with the Python it was configured with)."""

import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "phase_times.py")


def junit(path, cases, failures=0, skipped=0):
    """A ctest JUnit file with `cases` [(name, seconds)]."""
    body = "".join('<testcase name="%s" time="%s" status="run"/>\n' % (n, t) for n, t in cases)
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0"?>\n<testsuite tests="%d" failures="%d" disabled="0" '
                'skipped="%d">\n%s</testsuite>\n' % (len(cases), failures, skipped, body))


def run(phases_text):
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write(phases_text)
    try:
        done = subprocess.run([sys.executable, SCRIPT, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return done.returncode, done.stdout


class PhaseTimesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_phases_total_slowest_and_count(self):
        cases = [("t%02d" % i, "%d.5" % i) for i in range(12)] + [("long one", "25")]
        junit(self.path("r.xml"), cases, failures=1, skipped=2)
        status, out = run("deps\t0.5\tok\t\nbuild\t100.0\tok\t\nctest\t50.25\tok\t%s\n"
                          % self.path("r.xml"))
        self.assertEqual(status, 0)
        self.assertRegex(out, r"build\s+100\.0\s+ok")
        self.assertRegex(out, r"total\s+150\.8")
        self.assertIn("ctest: the 10 slowest of 13 tests", out)
        self.assertRegex(out, r"25\.0  long one  over 20 s")
        self.assertIn("11.5  t11\n", out)  # under 20 s: not marked
        self.assertNotIn("t01", out)  # not among the ten slowest
        self.assertEqual(out.rstrip().splitlines()[-1], "test.sh: 10 passed, 1 failed, 2 skipped")

    def test_a_failed_build_is_shown_and_counted(self):
        status, out = run("deps\t1\tok\t\nrelease: configure + build\t5\tFAILED\t\n")
        self.assertEqual(status, 0)
        self.assertRegex(out, r"release: configure \+ build\s+5\.0\s+FAILED")
        self.assertEqual(out.rstrip().splitlines()[-1], "test.sh: 0 passed, 1 failed, 0 skipped")

    def test_a_missing_junit_file_is_said(self):
        status, out = run("ctest\t3\tFAILED\t%s\n" % self.path("none.xml"))
        self.assertEqual(status, 0)
        self.assertIn("ctest: no test times", out)
        self.assertEqual(out.rstrip().splitlines()[-1], "test.sh: 0 passed, 1 failed, 0 skipped")

    def test_usage(self):
        done = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("usage", done.stderr)


if __name__ == "__main__":
    unittest.main()
