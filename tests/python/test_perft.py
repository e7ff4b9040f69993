"""Perft through the module equals `referee perft` for every game (and the variants that change the
board or the number of players), at every depth up to one whose count passes LIMIT nodes, from the
start and from a mid-game position string. The C++ numbers come from running the referee, never
from a table. Games that start with setup moves (mweso, lontu-holo) are counted after sampled
setups, as `referee bench` does: from the start their perft is 0 (setups are not listed)."""

import unittest

import referee_games as rg

import testenv

LIMIT = 20000 if testenv.QUICK else 200000
MAX_DEPTH = 12


def module_counts(state):
    """perft(1), perft(2), ... through the module, up to the first count above LIMIT."""
    counts = []
    for depth in range(1, MAX_DEPTH + 1):
        counts.append(state.perft(depth))
        if counts[-1] > LIMIT or counts[-1] == 0:
            break
    return counts


def referee_counts(spec, depth, moves=(), position=None):
    args = [testenv.REFEREE_BIN, "perft", spec, str(depth)]
    if position:
        args += ["--position", position]
    if moves:
        args += ["--moves"] + list(moves)
    return [int(line.split()[1]) for line in testenv.run(args).splitlines()]


def after_setups(game):
    """The start position after sampled setup moves, and those moves."""
    state, moves, seed = game.initial_state(), [], 1
    while state.setup_form():
        moves.append(state.sample_setup(seed))
        state.apply(moves[-1])
        seed += 1
    return state, moves


class PerftTest(unittest.TestCase):
    def test_from_the_start_every_game(self):
        for spec in [g.name for g in rg.games()] + testenv.VARIANTS:
            with self.subTest(game=spec):
                game = rg.game(spec)
                start = game.initial_state()
                if start.setup_form():
                    self.assertEqual(start.perft(1), 0)  # setups are checked by form, not listed
                state, moves = after_setups(game)
                counts = module_counts(state)
                self.assertGreaterEqual(len(counts), 3, "perft(%d) is already %d" %
                                        (len(counts), counts[-1]))
                self.assertEqual(referee_counts(spec, len(counts), moves), counts)

    def test_from_a_position_string_every_game(self):
        for info in rg.games():
            with self.subTest(game=info.name):
                game = rg.game(info.name)
                state, _ = after_setups(game)
                draws = testenv.lcg_draws(11)
                for _ in range(12):
                    moves = state.legal_moves()
                    nxt = state.child(moves[next(draws) % len(moves)])
                    if nxt.is_terminal():
                        break
                    state = nxt
                position = state.to_string()
                parsed = game.parse_state(position)
                counts = module_counts(parsed)
                self.assertEqual(referee_counts(info.name, len(counts), position=position), counts)


if __name__ == "__main__":
    unittest.main()
