"""The referee_games module's API: every method, its errors, and agreement with the referee
command (`referee rules`, `referee moves`) on what the module reports."""

import copy
import threading
import unittest

import referee_games as rg

import testenv

ALL_GAMES = ["awale", "awale-v1", "oware", "tamtam-apachi", "kakua", "mweso", "wali", "owani",
             "mefuhva", "katra", "chongkak", "lontu-holo", "kalaha", "pallankuli",
             "perali-kotuma", "kotu-ellima", "felli", "permainan"]


def cli_rules(spec):
    """`referee rules SPEC` as {"canonical", "players", "start"}."""
    lines = testenv.run([testenv.REFEREE_BIN, "rules", spec]).splitlines()
    return {"canonical": lines[1], "players": int(lines[2].split(": ")[1]),
            "start": lines[3].split(": ")[1]}


class RegistryTest(unittest.TestCase):
    def test_games_lists_every_game_in_order_with_titles(self):
        infos = rg.games()
        self.assertEqual([g.name for g in infos], ALL_GAMES)
        self.assertTrue(all(g.title for g in infos))
        permainan = infos[-1]
        self.assertEqual(permainan.aliases, ["surakarta"])

    def test_parameters_with_defaults_and_accepted_values(self):
        oware = next(g for g in rg.games() if g.name == "oware")
        keys = [p.key for p in oware.params]
        self.assertEqual(keys[-3:], ["first", "nocapture", "maxplies"])
        players = next(p for p in oware.params if p.key == "players")
        self.assertEqual(players.default, "2")
        self.assertEqual(players.choices, ["2", "3", "4", "6"])
        self.assertEqual(players.accepted, "2|3|4|6")
        maxplies = oware.params[-1]
        self.assertEqual((maxplies.default, maxplies.min, maxplies.max), ("2000", 1, 1000000))
        self.assertEqual(maxplies.accepted, "1..1000000")
        self.assertEqual(oware.max_players, 6)
        self.assertIn("players", repr(players))

    def test_game_canonical_players_and_start_agree_with_referee_rules(self):
        for spec in ALL_GAMES + testenv.VARIANTS + ["surakarta"]:
            with self.subTest(spec=spec):
                g = rg.game(spec)
                expected = cli_rules(spec)
                self.assertEqual(g.canonical, expected["canonical"])
                self.assertEqual(g.num_players, expected["players"])
                self.assertEqual(g.initial_state().to_string(), expected["start"])
                self.assertEqual(str(g), g.canonical)

    def test_game_attributes(self):
        g = rg.game("oware:players=3,maxplies=500")
        self.assertEqual(g.name, "oware")
        self.assertEqual(g.num_players, 3)
        self.assertEqual(g.max_plies, 500)
        self.assertEqual(g.params["players"], "3")
        self.assertEqual(g.params["nocapture"], "100")
        self.assertEqual(rg.game("surakarta").name, "permainan")
        self.assertEqual(g, rg.game(g.canonical))
        self.assertNotEqual(g, rg.game("oware:players=4"))
        self.assertEqual(hash(g), hash(rg.game(g.canonical)))

    def test_bad_game_strings_raise_value_error_with_the_library_message(self):
        cases = {
            "nope": "unknown game 'nope'",
            "awale:colour=red": "unknown parameter 'colour=red'",
            "oware:players=5": "parameter players=5 must be one of 2|3|4|6",
            "awale:maxplies=0": "parameter maxplies=0 must be an integer from 1 to 1000000",
            "awale:first=3": "parameter first=3 must be an integer from 1 to 2",
            "oware:players=3,first=4": "first=4 but the game has 3 players",
            "awale:first=1,first=2": "parameter first given twice",
        }
        for spec, message in cases.items():
            with self.subTest(spec=spec):
                with self.assertRaises(ValueError) as caught:
                    rg.game(spec)
                self.assertIn(message, str(caught.exception))


class StateTest(unittest.TestCase):
    def setUp(self):
        self.awale = rg.game("awale")

    def test_start_state(self):
        s = self.awale.initial_state()
        self.assertEqual(s.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0")
        self.assertEqual(str(s), s.to_string())
        self.assertIn(s.to_string(), repr(s))
        self.assertEqual(s.current_player(), 1)
        self.assertEqual(s.num_players(), 2)
        self.assertEqual(s.legal_moves(), ["1", "2", "3", "4", "5", "6"])
        self.assertFalse(s.is_terminal())
        self.assertIsNone(s.outcome())
        self.assertEqual((s.ply(), s.plies_without_capture(), s.round()), (0, 0, 1))
        self.assertEqual(s.material(), [0.0, 0.0])
        self.assertEqual(s.setup_form(), "")
        self.assertEqual(s.sample_setup(1), "")
        self.assertFalse(s.is_forced())
        self.assertIn("\n", s.draw())

    def test_draw_speaks_english_unless_asked_for_the_seeds_words(self):
        s = self.awale.initial_state().child("1")
        self.assertIn("North has 0 seeds.\nSouth has 0 seeds.\n", s.draw())
        self.assertNotIn("NORD", s.draw())
        self.assertIn("NORD a 0 bille(s).\nSUD a 0 bille(s).\n", s.draw(seed_words=True))
        self.assertIn("SUD  [ 0] [ 5]", s.draw(seed_words=True))

    def test_apply_plays_in_place_as_referee_moves_does(self):
        s = self.awale.initial_state()
        s.apply("1")
        self.assertEqual(s.to_string(), "0,5,5,5,5,4/4,4,4,4,4,4:0,0:2:1:1")
        self.assertEqual(s.current_player(), 2)
        out = testenv.run([testenv.REFEREE_BIN, "moves", "awale", "--moves", "1"])
        fields = dict(line.partition(":")[::2] for line in out.splitlines())
        self.assertEqual(fields["position"].strip(), s.to_string())
        self.assertEqual(s.legal_moves(), fields["legal"].split())

    def test_illegal_and_unparseable_moves_raise_and_leave_the_state_unchanged(self):
        s = self.awale.initial_state()
        for move in ["7", "06", "", "x", "1 2"]:
            with self.subTest(move=move):
                with self.assertRaises(ValueError) as caught:
                    s.apply(move)
                self.assertIn("illegal move '%s'" % move, str(caught.exception))
                self.assertEqual(s.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0")
        with self.assertRaises(ValueError):
            s.child("12")

    def test_child_returns_a_new_state(self):
        s = self.awale.initial_state()
        c = s.child("3")
        self.assertEqual(s.ply(), 0)
        self.assertEqual(c.ply(), 1)
        self.assertEqual(c, self.awale.state_after(["3"]))

    def test_copies_are_independent(self):
        s = self.awale.state_after(["1", "7"])
        for dup in (s.copy(), copy.copy(s), copy.deepcopy(s), copy.deepcopy([s])[0]):
            with self.subTest(dup=dup):
                self.assertEqual(dup, s)
                self.assertIsNot(dup, s)
                dup.apply("2")
                self.assertNotEqual(dup, s)
                self.assertEqual(s.ply(), 2)

    def test_copy_keeps_the_repetition_history(self):
        # Seeded playout 20 of awale ends by repetition at ply 222 (found by search): a copy taken
        # just before the last move ends the same way, a position parsed from its string (no
        # history) does not.
        g = rg.game("awale")
        s = g.initial_state()
        draws = testenv.lcg_draws(20)
        while True:
            before = s.copy()
            moves = s.legal_moves()
            move = moves[next(draws) % len(moves)]
            s.apply(move)
            if s.is_terminal():
                break
        self.assertEqual((s.outcome().reason, s.ply()), ("repetition", 222))
        again = copy.deepcopy(before)
        again.apply(move)
        self.assertEqual(again.outcome(), s.outcome())
        fresh = g.parse_state(before.to_string())
        fresh.apply(move)
        self.assertFalse(fresh.is_terminal())

    def test_hash_and_equality(self):
        a = self.awale.state_after(["1", "7"])
        b = self.awale.initial_state()
        b.apply("1")
        b.apply("7")
        self.assertEqual(a, b)
        self.assertEqual(hash(a), hash(b))
        self.assertEqual(a.hash(), b.hash())
        self.assertEqual(len({a, b}), 1)
        c = self.awale.state_after(["2", "7"])
        self.assertNotEqual(a, c)
        self.assertNotEqual(a.hash(), c.hash())
        self.assertNotEqual(a, "not a state")
        self.assertFalse(a == 1)
        # Equal positions at different ply counts: equal hashes, unequal states.
        d = self.awale.parse_state("0,5,5,5,5,4/0,5,5,5,5,4:0,0:1:2:30")
        self.assertEqual(d.hash(), a.hash())
        self.assertNotEqual(d, a)
        self.assertNotEqual(a, rg.game("kalaha").initial_state())

    def test_parse_state_round_trips_and_rejects_bad_text(self):
        s = self.awale.parse_state("0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60")
        self.assertEqual(s.to_string(), "0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60")
        self.assertEqual((s.ply(), s.plies_without_capture()), (60, 40))
        self.assertEqual(s.material(), [22.0, 15.0])
        for text, message in [("nonsense", "lacks ':<quiet plies>:<ply>'"),
                              ("4,4,4/4,4,4:0,0:1:0:0", "bad awale position"),
                              ("4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:x:0", "the last two fields")]:
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as caught:
                    self.awale.parse_state(text)
                self.assertIn(message, str(caught.exception))

    def test_state_after(self):
        s = self.awale.state_after(["1", "7", "2"])
        self.assertEqual(s.to_string(), "0,0,6,6,6,5/1,5,5,5,5,4:0,0:2:3:3")
        t = self.awale.state_after(["6"], position="0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60")
        self.assertEqual(t.to_string(), "0,0,0,0,3,0/0,5,0,0,0,0:25,15:2:0:61")
        self.assertEqual(self.awale.state_after([]), self.awale.initial_state())
        with self.assertRaises(ValueError) as caught:
            self.awale.state_after(["1", "1"])
        self.assertIn("move 2 '1': illegal move '1'", str(caught.exception))
        with self.assertRaises(ValueError):
            self.awale.state_after([], position="bad")

    def test_terminal_state_and_outcome(self):
        # PROTOCOL.md §10: South reaches 25 and the remaining seeds go to their owners.
        s = self.awale.state_after(["6"], position="0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60")
        self.assertTrue(s.is_terminal())
        self.assertEqual(s.current_player(), 0)
        self.assertEqual(s.legal_moves(), [])
        o = s.outcome()
        self.assertEqual((o.scores, o.ranks, o.reason), ([28.0, 20.0], [1, 2], "rules"))
        self.assertFalse(o.is_draw())
        self.assertIn("ranks=[1, 2]", repr(o))
        with self.assertRaises(ValueError) as caught:
            s.apply("1")
        self.assertIn("the game is over", str(caught.exception))

    def test_agree_to_end(self):
        s = self.awale.initial_state()
        s.agree_to_end()
        self.assertTrue(s.is_terminal())
        self.assertEqual(s.outcome().reason, "agreement")
        self.assertTrue(s.outcome().is_draw())
        with self.assertRaises(ValueError) as caught:
            s.agree_to_end()
        self.assertIn("the game is over", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            rg.game("felli").initial_state().agree_to_end()
        self.assertIn("no agreed end", str(caught.exception))

    def test_setups_and_forced_moves(self):
        mweso = rg.game("mweso").initial_state()
        self.assertTrue(mweso.setup_form().startswith("="))
        self.assertEqual(mweso.legal_moves(), [])
        setups = {mweso.sample_setup(seed) for seed in range(10)}
        self.assertGreater(len(setups), 1)
        for setup in setups:
            mweso.child(setup)  # every sample is valid
        lontu = rg.game("lontu-holo").initial_state()
        lontu.apply(lontu.sample_setup(3))
        self.assertTrue(lontu.is_forced())
        self.assertEqual(lontu.setup_form(), "")
        self.assertEqual(len(lontu.legal_moves()), 1)
        lontu.apply(lontu.legal_moves()[0])
        self.assertFalse(lontu.is_forced())
        self.assertEqual(lontu.current_player(), 1)

    def test_oware_three_players(self):
        s = rg.game("oware:players=3").initial_state()
        self.assertEqual(s.num_players(), 3)
        movers = []
        for _ in range(3):
            movers.append(s.current_player())
            s.apply(s.legal_moves()[0])
        self.assertEqual(movers, [1, 2, 3])
        self.assertEqual(len(s.material()), 3)

    def test_perft(self):
        s = self.awale.initial_state()
        self.assertEqual([s.perft(d) for d in range(3)], [1, 6, 36])
        for depth in (-1, 65):
            with self.assertRaises(ValueError):
                s.perft(depth)

    def test_perft_releases_the_gil(self):
        # While one thread is inside perft, another thread keeps running Python code. With the
        # GIL held it could not run at all until perft returned.
        s = rg.game("awale").initial_state()
        depth = 8 if testenv.QUICK else 9
        started, finished = threading.Event(), threading.Event()
        ticks = []

        def worker():
            started.set()
            s.perft(depth)
            finished.set()

        t = threading.Thread(target=worker)
        t.start()
        started.wait()
        while not finished.is_set():
            ticks.append(1)
            finished.wait(0.001)
        t.join()
        self.assertGreater(len(ticks), 20)

    def test_last_move_captured(self):
        s = self.awale.state_after(["6"], position="2,1,7,7,7,1/2,1,7,7,0,6:0,0:1:6:6")
        self.assertTrue(s.last_move_captured())
        self.assertEqual(s.to_string(), "2,1,7,7,7,0/0,1,7,7,0,6:3,0:2:0:7")
        self.assertFalse(self.awale.state_after(["1"]).last_move_captured())


if __name__ == "__main__":
    unittest.main()
