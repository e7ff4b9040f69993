#!/usr/bin/env python3
"""Benchmark: random playouts per second through the Python module, against the same playouts in
C++ (tests/support/seeded_playouts --bench) and, for awale and kalaha, against the pure-Python
rules of examples/engines/random_engine.py. Prints figures; asserts nothing.

    PYTHONPATH=build/python /usr/bin/python3 tests/python/bench_playouts.py [--build build]
        [--seconds S] [GAME ...]

Every playout starts from the start and plays uniformly random moves (the LCG of
test_playouts.py) to the end of the game. The pure-Python rules have no repetition or nocapture
limit and no end-of-game sweep, so their playouts are compared per ply, not per game.
"""

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import time

import referee_games as rg

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
MASK = (1 << 64) - 1


def module_playouts(game, seconds):
    """(playouts, plies, seconds) of seeded random playouts through the module."""
    playouts = plies = 0
    start = time.perf_counter()
    while True:
        state = game.initial_state()
        x = playouts
        while not state.is_terminal():
            x = (x * 6364136223846793005 + 1442695040888963407) & MASK
            if state.setup_form():
                state.apply(state.sample_setup(x >> 33))
            else:
                moves = state.legal_moves()
                state.apply(moves[(x >> 33) % len(moves)])
            plies += 1
        playouts += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return playouts, plies, elapsed


def cpp_playouts(helper, spec, count):
    out = subprocess.run([helper, spec, str(count), "--bench"], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[1]), int(out[3]), float(out[5])


def pure_python_plies(name, seconds):
    """(plies, seconds) of random play with random_engine.py's own awale/kalaha rules, stopping a
    game when no move is left, at 25 captures, or after 100 plies without capture."""
    path = os.path.join(SOURCE, "examples", "engines", "random_engine.py")
    spec = importlib.util.spec_from_file_location("random_engine_rules", path)
    rules = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rules)
    game = {"name": name, "grandslam": "nocapture", "first": "1"}
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos, quiet = rules.start_position(game), 0
        while quiet < 100:
            moves = rules.moves_of(pos, game)
            if not moves:
                break
            before = sum(pos.score)
            pos = rules.play(pos, moves[rng.randrange(len(moves))], game)
            quiet = 0 if sum(pos.score) != before and name != "kalaha" else quiet + 1
            plies += 1
    return plies, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(SOURCE, "build"))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    helper = os.path.join(args.build, "support", "seeded_playouts")
    specs = args.games or [g.name for g in rg.games()] + ["oware:players=3"]
    print("random playouts from the start to the end of the game, single thread (%s)" %
          sys.version.split()[0])
    print("%-16s %10s %10s %12s %12s %9s %7s" % ("game", "plies/game", "py game/s", "C++ game/s",
                                                 "py ply/s", "C++ ply/s", "C++/py"))
    total_py = total_cpp = 0.0
    for spec in specs:
        n, plies, s = module_playouts(rg.game(spec), args.seconds)
        py_rate = n / s
        # As many C++ playouts as take about the same time, at least 200.
        cn, cplies, cs = cpp_playouts(helper, spec, max(200, n * 20))
        cpp_rate = cn / cs
        total_py += py_rate
        total_cpp += cpp_rate
        print("%-16s %10.0f %10.0f %12.0f %12.0f %8.2fM %6.1fx" % (
            spec, plies / n, py_rate, cpp_rate, plies / s, cplies / cs / 1e6, cpp_rate / py_rate))
    print("pure-Python rules (examples/engines/random_engine.py) against the module, per ply:")
    for name in ("awale", "kalaha"):
        if args.games and name not in args.games:
            continue
        pplies, ps = pure_python_plies(name, args.seconds)
        _, plies, s = module_playouts(rg.game(name), args.seconds)
        print("  %-8s pure Python %8.0f plies/s, module %8.0f plies/s (%.1fx)" % (
            name, pplies / ps, plies / s, (plies / s) / (pplies / ps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
