#!/usr/bin/env python3
"""The table ./test.sh prints at its end, whether it passed or not.

Usage: phase_times.py PHASES_FILE

PHASES_FILE has one line per phase that ran, tab-separated: name, wall seconds, ok or FAILED, and
for a ctest phase the JUnit file it wrote (ctest --output-junit), else empty. Printed: the wall
time of each phase and the total, then for each ctest phase its ten slowest tests, each over 20 s
marked (tests/README.md: such a test says why in its header), and last one line counting the
tests of every ctest phase: "test.sh: P passed, F failed, S skipped" (a phase that failed
without running tests, a build, counts as one failure).
"""

import sys
import xml.etree.ElementTree as ET

SLOW = 20.0  # seconds: a test above this says why in its header
TOP = 10


def counts(root):
    """(passed, failed, skipped) of a ctest JUnit file's root element."""
    def number(name):
        try:
            return int(root.get(name, "0"))
        except ValueError:
            return 0
    failed = number("failures")
    skipped = number("skipped") + number("disabled")
    return number("tests") - failed - skipped, failed, skipped


def slowest(root):
    cases = []
    for case in root.iter("testcase"):
        try:
            seconds = float(case.get("time", "0"))
        except ValueError:
            seconds = 0.0
        cases.append((seconds, case.get("name", "?"), case.get("status", "")))
    cases.sort(reverse=True)
    return cases


def main():
    if len(sys.argv) != 2:
        print("usage: phase_times.py PHASES_FILE", file=sys.stderr)
        return 2
    phases = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 3:
                phases.append((fields[0], float(fields[1]), fields[2],
                               fields[3] if len(fields) > 3 else ""))
    width = max([len(p[0]) for p in phases] + [5])
    print()
    print("=" * 72)
    print("test.sh: wall time of each phase")
    print("%-*s  %9s  %s" % (width, "phase", "seconds", "status"))
    for name, seconds, status, _ in phases:
        print("%-*s  %9.1f  %s" % (width, name, seconds, status))
    print("%-*s  %9.1f" % (width, "total", sum(p[1] for p in phases)))
    passed = failed = skipped = 0
    for name, _, status, junit in phases:
        if not junit:
            failed += status != "ok"
            continue
        print()
        try:
            root = ET.parse(junit).getroot()
        except (OSError, ET.ParseError) as e:
            print("%s: no test times (%s)" % (name, e))
            failed += status != "ok"
            continue
        p, f, s = counts(root)
        passed, failed, skipped = passed + p, failed + f, skipped + s
        cases = slowest(root)
        print("%s: the %d slowest of %d tests (their times add up to %.0f s)"
              % (name, min(TOP, len(cases)), len(cases), sum(c[0] for c in cases)))
        for seconds, test, _ in cases[:TOP]:
            mark = "  over %d s" % SLOW if seconds > SLOW else ""
            print("  %7.1f  %s%s" % (seconds, test, mark))
    print("=" * 72)
    print("test.sh: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
