"""Paths and helpers shared by the Python tests (tests/python/CMakeLists.txt sets the variables).

REFEREE_BIN      the built referee command
SUPPORT_DIR      the built test helpers (seeded_playouts)
SOURCE_DIR       the repository
REFEREE_PY_QUICK set in the sanitizer build: smaller depths and fewer playouts
"""

import os
import subprocess
import sys

REFEREE_BIN = os.environ.get("REFEREE_BIN", "")
SUPPORT_DIR = os.environ.get("SUPPORT_DIR", "")
SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
QUICK = os.environ.get("REFEREE_PY_QUICK", "") not in ("", "0")
PYTHON = sys.executable

MCTS_ENGINE = os.path.join(SOURCE_DIR, "examples", "engines", "mcts_engine.py")

# Every registered game, plus the parameter values that change the board or the player count.
VARIANTS = ["oware:players=3", "oware:players=4", "oware:players=6", "awale:grandslam=illegal",
            "oware:first=2"]


def run(args, timeout=600, check=True):
    """Runs a program; its stdout (stderr is shown when it fails)."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError("%s exited with %d:\n%s%s" % (" ".join(args), done.returncode,
                                                            done.stdout[-2000:], done.stderr[-2000:]))
    return done.stdout


def lcg_draws(seed):
    """The seeded draws shared with tests/support/seeded_playouts.cpp."""
    x = seed
    while True:
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        yield x >> 33
