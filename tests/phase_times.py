#!/usr/bin/env python3
"""The table ./test.sh prints at its end, whether it passed or not.

Usage: phase_times.py PHASES_FILE

PHASES_FILE has one line per phase that ran, tab-separated: name, wall seconds, ok or FAILED, and
for a ctest phase the JUnit file it wrote (ctest --output-junit), else empty. Printed: the wall
time of each phase and the total, then for each ctest phase its ten slowest tests, each over 20 s
marked (tests/README.md: such a test says why in its header).
"""

import sys
import xml.etree.ElementTree as ET

SLOW = 20.0  # seconds: a test above this says why in its header
TOP = 10


def slowest(junit):
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        return None, str(e)
    cases = []
    for case in root.iter("testcase"):
        try:
            seconds = float(case.get("time", "0"))
        except ValueError:
            seconds = 0.0
        cases.append((seconds, case.get("name", "?"), case.get("status", "")))
    cases.sort(reverse=True)
    return cases, ""


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
    for name, _, _, junit in phases:
        if not junit:
            continue
        cases, error = slowest(junit)
        print()
        if cases is None:
            print("%s: no test times (%s)" % (name, error))
            continue
        print("%s: the %d slowest of %d tests (their times add up to %.0f s)"
              % (name, min(TOP, len(cases)), len(cases), sum(c[0] for c in cases)))
        for seconds, test, _ in cases[:TOP]:
            mark = "  over %d s" % SLOW if seconds > SLOW else ""
            print("  %7.1f  %s%s" % (seconds, test, mark))
    print("=" * 72)
    return 0


if __name__ == "__main__":
    sys.exit(main())
