#!/usr/bin/python3
"""Test of the browser tests' skip: each browser test, run where Selenium cannot be imported (a
`selenium` package that raises ImportError, first on PYTHONPATH) or where Chromium is missing
($REFEREE_CHROMIUM naming no file), must
- exit 77 (ctest's skip) after a loud banner naming the reason, without REFEREE_REQUIRE_BROWSER;
- exit 1 with a FAILED banner under REFEREE_REQUIRE_BROWSER=1 (what test.sh and CI set);
and in both cases stop at once, before starting a daemon or playing anything.

This test needs neither Selenium nor Chromium: it never skips.

Usage: skip_test.py --python PYTHON --referee BIN --mock MOCK_ENGINE --random RANDOM_ENGINE
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = ["gallery_test.py", "dashboard_test.py", "sprt_test.py", "layout_test.py"]
BANNER = "!" * 78


def fail(message):
    print(f"FAILED: {message}", flush=True)
    sys.exit(1)


def run(python, script, args, env):
    start = time.monotonic()
    r = subprocess.run([python, os.path.join(HERE, script), *args], capture_output=True, text=True,
                       env=env, timeout=60)
    return r.returncode, r.stdout + r.stderr, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True)
    ap.add_argument("--referee", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--random", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-skip-test-") as tmp:
        fake = os.path.join(tmp, "selenium")
        os.makedirs(fake)
        with open(os.path.join(fake, "__init__.py"), "w") as f:
            f.write('raise ImportError("selenium hidden by skip_test.py")\n')
        artifacts = os.path.join(tmp, "artifacts")
        args = {"gallery_test.py": ["--referee", a.referee, "--random", a.random,
                                    "--artifacts", artifacts],
                "dashboard_test.py": ["--referee", a.referee, "--mock", a.mock, "--random", a.random,
                                      "--artifacts", artifacts],
                "sprt_test.py": ["--referee", a.referee, "--mock", a.mock, "--artifacts", artifacts],
                "layout_test.py": ["--referee", a.referee, "--random", a.random, "--artifacts", artifacts]}
        base = {k: v for k, v in os.environ.items()
                if k not in ("REFEREE_REQUIRE_BROWSER", "PYTHONPATH", "REFEREE_CHROMIUM")}
        cases = [("no selenium", {"PYTHONPATH": tmp}, "selenium hidden by skip_test.py"),
                 ("no chromium", {"REFEREE_CHROMIUM": os.path.join(tmp, "no-chromium")},
                  None)]
        for what, extra, reason in cases:
            for required in (False, True):
                env = dict(base, **extra)
                if required:
                    env["REFEREE_REQUIRE_BROWSER"] = "1"
                for script in TESTS:
                    status, out, seconds = run(a.python, script, args[script], env)
                    label = f"{script} with {what}{' under REFEREE_REQUIRE_BROWSER=1' if required else ''}"
                    want = 1 if required else 77
                    if status != want:
                        fail(f"{label} exited {status}, expected {want}: {out.strip()[-2000:]}")
                    banner = ("FAILED: the browser test cannot run and REFEREE_REQUIRE_BROWSER=1"
                              if required else "SKIPPED: the browser test cannot run")
                    if BANNER not in out or banner not in out:
                        fail(f"{label} did not say so loudly: {out.strip()[-2000:]}")
                    # The reason is named: the import error, or the missing binary (when Selenium
                    # itself is there; without it, that is the reason given).
                    named = reason or os.path.join(tmp, "no-chromium")
                    if named not in out and "python3-selenium is not installed" not in out:
                        fail(f"{label} does not name its reason ({named}): {out.strip()[-2000:]}")
                    if reason and reason not in out:
                        fail(f"{label} does not name its reason ({reason}): {out.strip()[-2000:]}")
                    if seconds > 20 or os.path.exists(artifacts):
                        fail(f"{label} did work before it stopped ({seconds:.1f} s)")
                    print(f"ok: {label}: exit {status} ({seconds:.1f} s)")
    print("PASSED")


if __name__ == "__main__":
    main()
