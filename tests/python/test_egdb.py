"""Endgame tables through the Python module: open_table() and probe() answer as
`referee egdb probe` does, and refuse a corrupted file and another game."""

import os
import tempfile
import unittest

import referee_games as rg

import testenv


class EgdbTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "awale.egdb")
        testenv.run([testenv.REFEREE_BIN, "egdb", "build", "awale", "--seeds", "4",
                     "--out", cls.path])

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_probe_agrees_with_the_command(self):
        table = rg.open_table(self.path)
        self.assertEqual(table.game, "awale:grandslam=nocapture,nocapture=100")
        self.assertEqual(table.seeds, 4)
        position = "0,0,0,1,0,0/1,0,0,0,0,1:22,23:1:5:10"
        game = rg.game("awale")
        p = rg.probe(table, game, game.parse_state(position))
        out = testenv.run([testenv.REFEREE_BIN, "egdb", "probe", "awale", "--db", self.path,
                           "--position", position])
        lines = dict(line.split(": ", 1) for line in out.splitlines())
        self.assertEqual(lines["best"].split(), p["best_moves"])
        self.assertEqual(lines["final"].split()[0], "%d-%d" % tuple(p["final_scores"]))
        self.assertTrue(lines["table"].endswith(table.checksum))
        self.assertTrue(p["exact"])
        # Playing a best move keeps the final score.
        after = game.parse_state(position)
        after.apply(p["best_moves"][0])
        q = rg.probe(table, game, after)
        self.assertEqual(q["final_scores"], p["final_scores"])

    def test_none_outside_the_table_and_errors(self):
        table = rg.open_table(self.path)
        awale = rg.game("awale")
        self.assertIsNone(rg.probe(table, awale, awale.initial_state()))
        kalaha = rg.game("kalaha")
        with self.assertRaises(ValueError):
            rg.probe(table, kalaha, kalaha.initial_state())
        broken = os.path.join(self.dir.name, "broken.egdb")
        with open(self.path, "rb") as f:
            data = bytearray(f.read())
        data[-1] ^= 1
        with open(broken, "wb") as f:
            f.write(data)
        with self.assertRaises(ValueError):
            rg.open_table(broken)


if __name__ == "__main__":
    unittest.main()
