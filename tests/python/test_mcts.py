"""The example MCTS engine (examples/engines/mcts_engine.py): its rewards, its search on every
game, and `referee check-engine` for every game it declares (all 18) and for oware with 3, 4 and
6 players.

Over 20 s (about 40 s in Release): check-engine plays every game against the MCTS engine, which
spends each move's whole movetime searching in Python. The sanitizer build (testenv.QUICK) checks
one game of each kind of board instead: the module's memory errors show on any game, and the
Release build checks them all."""

import importlib.util
import re
import threading
import unittest

import referee_engine as sdk
import referee_games as rg

import testenv


def load_engine():
    spec = importlib.util.spec_from_file_location("mcts_engine", testenv.MCTS_ENGINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mcts = load_engine()


def limits(go_line, player=1, seed=1, stop=None):
    return sdk.Limits(sdk.parse_go(go_line.split()), player, seed, {}, stop)


class RewardTest(unittest.TestCase):
    def test_rank_rewards(self):
        self.assertEqual(mcts.rank_rewards([1, 2]), [1.0, 0.0])
        self.assertEqual(mcts.rank_rewards([2, 1]), [0.0, 1.0])
        self.assertEqual(mcts.rank_rewards([1, 1]), [0.5, 0.5])
        self.assertEqual(mcts.rank_rewards([2, 1, 3]), [0.5, 1.0, 0.0])
        self.assertEqual(mcts.rank_rewards([1, 2, 2, 4]), [1.0, 0.5, 0.5, 0.0])
        self.assertEqual(mcts.rank_rewards([1, 1, 1, 1, 1, 1]), [0.5] * 6)

    def test_material_rewards_are_damped_rank_rewards(self):
        self.assertEqual(mcts.material_rewards([10.0, 3.0]), [0.75, 0.25])
        self.assertEqual(mcts.material_rewards([4.0, 4.0]), [0.5, 0.5])
        self.assertEqual(mcts.material_rewards([0.0, 5.0, 5.0]), [0.25, 0.625, 0.625])


class SearchTest(unittest.TestCase):
    def test_candidates_of_setup_and_forced_positions(self):
        import random
        rng = random.Random(3)
        mweso = rg.game("mweso").initial_state()
        setups = mcts.candidate_moves(mweso, rng, 8)
        self.assertEqual(len(setups), 8)
        self.assertEqual(len(set(setups)), 8)
        for move in setups:
            mweso.child(move)
        lontu = rg.game("lontu-holo").initial_state()
        lontu.apply(lontu.sample_setup(5))
        self.assertEqual(mcts.candidate_moves(lontu, rng, 8), lontu.legal_moves())
        self.assertEqual(len(lontu.legal_moves()), 1)

    def test_finds_the_winning_move(self):
        # PROTOCOL.md §10: hole 6 captures 3 and reaches 25 (a win); hole 5 does not.
        state = rg.game("awale").parse_state("0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60")
        self.assertEqual(mcts.choose(state, limits("nodes 200")), "6")

    def test_every_game_gives_a_legal_move(self):
        for spec in [g.name for g in rg.games()] + testenv.VARIANTS:
            with self.subTest(game=spec):
                state = rg.game(spec).initial_state()
                for _ in range(4):  # the start (setups included), then a few plies in
                    while state.is_forced():
                        state.apply(state.legal_moves()[0])
                    move = mcts.choose(state, limits("nodes 60", state.current_player()))
                    state.apply(move)  # raises if illegal
                    if state.is_terminal():
                        break

    def test_reproducible_from_seed_and_position(self):
        state = rg.game("oware:players=3").state_after(["1", "5"])
        a = mcts.Search(state, 99)
        b = mcts.Search(state, 99)
        for _ in range(300):
            a.iterate()
            b.iterate()
        self.assertEqual([(c.move, c.visits, c.value) for c in a.root.children],
                         [(c.move, c.visits, c.value) for c in b.root.children])
        self.assertEqual(a.root.visits, 300)
        self.assertEqual(sum(c.visits for c in a.root.children), 300)
        # The rewards backed up into the root's children are player 3's.
        self.assertTrue(all(c.mover == 3 for c in a.root.children))

    def test_depth_limits_the_tree(self):
        state = rg.game("kalaha").initial_state()
        search = mcts.Search(state, 1, max_depth=2)
        for _ in range(500):
            search.iterate()
        self.assertLessEqual(search.tree_depth, 2)
        self.assertEqual(search.tree_depth, 2)

    def test_stop_ends_the_search(self):
        stop = threading.Event()
        stop.set()
        state = rg.game("awale").initial_state()
        lim = limits("infinite", stop=stop)
        infos = []
        lim._emit = infos.append
        self.assertIn(mcts.choose(state, lim), state.legal_moves())
        self.assertIn(" nodes 1 ", infos[0])


# Under the sanitizers: a row of pits, pits with stores, four rows, a grid, a graph, circuits.
QUICK_GAMES = ("awale", "kalaha", "mweso", "felli", "perali-kotuma", "permainan")


class CheckEngineTest(unittest.TestCase):
    def check(self, games=()):
        args = [testenv.REFEREE_BIN, "check-engine"]
        for g in games:
            args += ["--game", g]
        out = testenv.run(args + [testenv.PYTHON, testenv.MCTS_ENGINE, "--seed", "1"], timeout=500)
        self.assertIn("ALL PASSED", out)
        return out

    def test_every_game(self):
        games = QUICK_GAMES if testenv.QUICK else ()
        out = self.check(games)
        for info in rg.games():
            if games and info.name not in games:
                continue
            # Games with several player counts are checked once per declared count.
            self.assertRegex(out, r"PASS %s(:players=\d)?: go depth 1" % re.escape(info.name))

    def test_oware_with_more_players(self):
        out = self.check(["oware:players=3", "oware:players=4", "oware:players=6"])
        for players in (3, 4, 6):
            self.assertIn("PASS oware:players=%d: legal bestmove from startpos with clocks" % players,
                          out)
            self.assertIn("PASS oware:players=%d: turn order: player %d to move after" %
                          (players, players), out)


if __name__ == "__main__":
    unittest.main()
