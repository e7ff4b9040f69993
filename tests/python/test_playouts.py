"""1,000 seeded random playouts per game through the module and through C++
(tests/support/seeded_playouts.cpp) give identical positions and results, line by line.

Both sides draw from the same LCG (testenv.lcg_draws) and choose alike: a setup move is
sample_setup(draw), any other move legal_moves()[draw % count]. A line holds the seed, the plies
played, the CRC-32 of every position string along the way, the final position and the outcome.
Playouts are not capped: every one runs to the end of its game (at most the game's maxplies, 2000;
pallankuli's often do), which takes a few seconds per game.

Over 20 s (about 35 s in Release): 1,000 playouts of each of the 23 games and variants, in
Python; the sanitizer build runs 50 (testenv.QUICK)."""

import os
import unittest
import zlib

import referee_games as rg

import testenv

COUNT = 50 if testenv.QUICK else 1000


def python_line(game, seed, cap=None):
    state = game.initial_state()
    draws = testenv.lcg_draws(seed)
    crc = zlib.crc32((state.to_string() + "\n").encode())
    plies = 0
    while not state.is_terminal() and (cap is None or plies < cap):
        if state.setup_form():
            move = state.sample_setup(next(draws))
        else:
            moves = state.legal_moves()
            move = moves[next(draws) % len(moves)]
        state.apply(move)
        plies += 1
        crc = zlib.crc32((state.to_string() + "\n").encode(), crc)
    if state.is_terminal():
        o = state.outcome()
        result = "%s %s %s" % (o.reason, ",".join(map(str, o.ranks)),
                               ",".join("%g" % x for x in o.scores))
    else:
        result = "- - -"
    return "%d %d %08x %s %s" % (seed, plies, crc, state.to_string(), result)


def cpp_lines(spec, count, cap=None):
    helper = os.path.join(testenv.SUPPORT_DIR, "seeded_playouts")
    args = [helper, spec, str(count)] + ([] if cap is None else ["--max-plies", str(cap)])
    return testenv.run(args).splitlines()


class PlayoutsTest(unittest.TestCase):
    def compare(self, spec, cap=None):
        game = rg.game(spec)
        expected = cpp_lines(spec, COUNT, cap)
        self.assertEqual(len(expected), COUNT)
        for seed, line in enumerate(expected):
            self.assertEqual(python_line(game, seed, cap), line,
                             "%s playout %d differs" % (spec, seed))
        return expected

    def test_every_game_and_variant(self):
        for spec in [g.name for g in rg.games()] + testenv.VARIANTS:
            with self.subTest(game=spec):
                lines = self.compare(spec)
                # Every playout ended, so final positions and results were all compared.
                self.assertFalse([line for line in lines if line.endswith(" - - -")])

    def test_capped_playouts(self):
        lines = self.compare("pallankuli", cap=150)
        self.assertTrue(all(line.split()[1] == "150" for line in lines))
        self.assertTrue(all(line.endswith(" - - -") for line in lines))

    def test_the_helper_rejects_bad_arguments(self):
        helper = os.path.join(testenv.SUPPORT_DIR, "seeded_playouts")
        for args, message in [(["nope", "1"], "unknown game 'nope'"),
                              (["awale", "x"], "COUNT must be"),
                              (["awale", "1", "--max-plies", "-3"], "--max-plies needs"),
                              (["awale", "1", "--what"], "unknown argument '--what'")]:
            with self.subTest(args=args):
                done = testenv.subprocess.run([helper] + args, capture_output=True, text=True)
                self.assertEqual(done.returncode, 2)
                self.assertIn(message, done.stderr)


if __name__ == "__main__":
    unittest.main()
