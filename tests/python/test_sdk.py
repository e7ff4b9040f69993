"""The Python engine SDK (protocol/sdk/python/referee_engine.py): the protocol loop driven through
pipes (tests/python/sdk_engine.py), its pure helpers (parse_go, Limits, Option, seed_from_args),
an in-process run on a rules object that is not the module, and `referee check-engine`."""

import io
import os
import queue
import re
import subprocess
import threading
import time
import unittest

import referee_engine as sdk
import referee_games as rg

import testenv

ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sdk_engine.py")
TIMEOUT = 20  # seconds; generous, the machine is shared


class Engine:
    """An engine process with a line reader that never blocks the test forever."""

    def __init__(self, mode="first", args=()):
        self.proc = subprocess.Popen([testenv.PYTHON, ENGINE, mode] + list(args),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.err = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    @staticmethod
    def _pump(stream, out):
        for line in stream:
            out.put(line.rstrip("\n"))
        out.put(None)

    def _drain(self):
        for line in self.proc.stderr:
            self.err.append(line)

    def send(self, *lines):
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def read(self, timeout=TIMEOUT):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no line from the engine within %.1f s" % timeout)
        if line is None:
            raise AssertionError("the engine closed its output; stderr:\n" + "".join(self.err))
        return line

    def until(self, prefix, timeout=TIMEOUT):
        """Lines up to and including the first one starting with `prefix`, within `timeout`."""
        seen, deadline = [], time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no '%s' within %d s; last lines: %s" %
                                     (prefix, timeout, seen[-3:]))
            seen.append(self.read(left))
            if seen[-1].startswith(prefix):
                return seen

    def no_output(self, wait=0.3):
        """True when nothing is written for `wait` seconds (used after commands without reply)."""
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return True
        self.lines.put(line)
        return False

    def handshake(self):
        self.send("ugi")
        lines = self.until("ugiok")
        self.send("protocol 1")
        return lines

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()

    def exit_code(self, timeout=TIMEOUT):
        return self.proc.wait(timeout=timeout)


class ProtocolLoopTest(unittest.TestCase):
    def engine(self, mode="first", args=()):
        e = Engine(mode, args)
        self.addCleanup(e.close)
        return e

    def ready(self, e, token="1"):
        e.send("isready " + token)
        self.assertEqual(e.read(), "readyok " + token)

    def test_handshake_declares_every_game_as_the_cpp_sdk_does(self):
        lines = self.engine().handshake()
        self.assertEqual(lines[:3], ["id name sdk test engine", "id author tests", "id protocol 1"])
        games = [line for line in lines if line.startswith("game ")]
        cpp = subprocess.run([os.path.join(os.path.dirname(testenv.REFEREE_BIN), "..", "engines",
                                           "random_engine")], input="ugi\nquit\n",
                             capture_output=True, text=True, timeout=TIMEOUT).stdout.splitlines()
        self.assertEqual(games, [line for line in cpp if line.startswith("game ")])
        self.assertEqual(len(games), 18)
        options = [line for line in lines if line.startswith("option ")]
        self.assertEqual(options, [
            "option name Seed type spin default 0 min 0 max 999999999",
            "option name Width type spin default 3 min 1 max 9",
            "option name Fast type check default false",
            "option name Style type combo default calm var calm var wild",
            "option name Note type string default "])
        self.assertEqual(lines[-1], "ugiok")

    def test_isready_echoes_its_token(self):
        e = self.engine()
        e.handshake()
        self.ready(e, "7")
        e.send("isready")
        self.assertEqual(e.read(), "readyok")

    def test_a_game_from_start_and_from_fen(self):
        e = self.engine()
        e.handshake()
        e.send("setgame awale grandslam=nocapture first=1 nocapture=100 maxplies=2000",
               "uginewgame")
        self.ready(e)
        e.send("position startpos moves 1 7", "go player 1 p1time 1000 p2time 1000 p1inc 0 p2inc 0")
        self.assertEqual(e.read(), "bestmove 2")
        e.send("position fen 0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60", "go movetime 50")
        self.assertEqual(e.read(), "bestmove 5")
        e.send("gameover p1win rules", "stop", "protocol 1")
        self.assertTrue(e.no_output())
        e.send("setgame oware players=3", "position startpos moves 1 5",
               "go player 3 p1time 10 p2time 10 p3time 10")
        expected = rg.game("oware:players=3").state_after(["1", "5"]).legal_moves()[0]
        self.assertEqual(e.read(), "bestmove " + expected)
        e.send("quit")
        self.assertEqual(e.exit_code(), 0)

    def test_error_replies(self):
        e = self.engine()
        e.handshake()
        cases = [
            ("go depth 1", "error illegal-position no valid position"),
            ("position startpos", "error illegal-position no game selected"),
            ("setgame nope", "error unsupported-game nope unknown game 'nope'"),
            ("setgame oware players=5", "error unsupported-game oware game 'oware': parameter "
                                        "players=5 must be one of 2|3|4|6"),
            ("setgame", "error syntax setgame needs a game name"),
            ("frobnicate now", "error unknown-command frobnicate"),
            ("setgame awale", None),
            ("position startpos moves 1 1", "error illegal-move 1 illegal move '1' in "
                                            "0,5,5,5,5,4/4,4,4,4,4,4:0,0:2:1:1"),
            ("go depth 1", "error illegal-position no valid position"),
            ("position fen 1,2,3:0:0", "error illegal-position bad awale position"),
            ("position middle", "error syntax position needs 'startpos' or 'fen <state>'"),
            ("position startpos 1 7", "error syntax expected 'moves' after the position, got '1'"),
            ("position startpos", None),
            ("go player 2 p1time 5 p2time 5", "error illegal-position go player 2 but player 1"),
            ("go p1time abc", "error syntax go: 'p1time' needs a non-negative integer, got 'abc'"),
            ("go p2time 5", "error syntax go: missing p1time"),
            ("go depth 1 depth 2", "error syntax go: 'depth' given twice"),
            ("go colour 3", "error syntax go: unknown go parameter 'colour'"),
            ("go movetime", "error syntax go: 'movetime' without a value"),
            ("go p1time -5", "error syntax go: 'p1time' needs a non-negative integer, got '-5'"),
            ("position fen 0,0,0,0,0,0/0,0,0,0,0,0:25,23:2:0:61", None),
            ("go movetime 10", "error illegal-position the game is over in"),
            ("setoption name Nope value 1", "error unsupported-option Nope"),
            ("setoption name Width value 12", "error syntax Width must be from 1 to 9, got 12"),
            ("setoption name Width value x", "error syntax Width needs an integer, got 'x'"),
            ("setoption name Fast value maybe", "error syntax Fast needs true or false"),
            ("setoption name Style value odd", "error syntax Style must be one of calm|wild"),
            ("setoption name Seed value -1", "error syntax Seed needs a non-negative integer"),
            ("setoption Seed 1", "error syntax setoption name <name> [value <value>]"),
        ]
        for command, reply in cases:
            with self.subTest(command=command):
                e.send(command)
                if reply is None:
                    self.assertTrue(e.no_output(0.1), command)
                else:
                    self.assertTrue(e.read().startswith(reply), reply)
        self.ready(e, "99")  # still alive and in order

    def test_options_and_seed_reach_the_search_reproducibly(self):
        def best(e, *setup):
            e.send(*setup)
            e.send("setgame kalaha", "position startpos moves 3", "go nodes 1")
            lines = e.until("bestmove")
            return lines[-2], lines[-1]

        e = self.engine("seeded", ["--seed", "12"])
        e.handshake()
        first = best(e)
        self.assertIn("options [('Fast', False), ('Note', ''), ('Style', 'calm'), ('Width', 3)]",
                      first[0])
        self.assertEqual(best(e), first)  # same seed, same position: same search
        other = best(e, "setoption name Seed value 13", "setoption name Width value 5",
                     "setoption name Fast value true", "setoption name Note value two words",
                     "setoption name Style value wild")
        self.assertNotEqual(other[0].split()[3], first[0].split()[3])
        self.assertIn("('Fast', True), ('Note', 'two words'), ('Style', 'wild'), ('Width', 5)",
                      other[0])
        again = self.engine("seeded", ["--seed=12"])
        self.assertIn("option name Seed type spin default 12 min 0 max 999999999",
                      again.handshake())
        self.assertEqual(best(again), first)

    def test_stop_and_isready_while_searching(self):
        e = self.engine("slow")
        e.handshake()
        e.send("setgame awale", "position startpos", "go infinite")
        self.assertTrue(e.read().startswith("info nodes"))
        e.send("isready 5")
        self.assertIn("readyok 5", e.until("readyok"))  # answered during the search
        e.send("stop")
        lines = e.until("bestmove")
        self.assertEqual(lines[-1], "bestmove 1")
        self.ready(e, "6")
        # Sent in one write with the go: they may be read before the search begins.
        e.send("position startpos", "go infinite", "isready 7", "stop")
        lines = e.until("bestmove")
        self.assertIn("readyok 7", lines)
        self.assertEqual(lines[-1], "bestmove 1")

    def test_an_isready_after_stop_is_answered_after_the_bestmove(self):
        e = self.engine("slow")
        e.handshake()
        e.send("setgame awale", "position startpos", "go infinite")
        self.assertTrue(e.read().startswith("info nodes"))
        e.send("stop", "isready 8")  # the search sees the stop within 10 ms
        lines = [line for line in e.until("readyok") if not line.startswith("info")]
        self.assertEqual(lines, ["bestmove 1", "readyok 8"])
        # Right behind its go, the same.
        e.send("position startpos", "go infinite", "stop", "isready 9")
        lines = [line for line in e.until("readyok") if not line.startswith("info")]
        self.assertEqual(lines, ["bestmove 1", "readyok 9"])

    def test_quit_and_end_of_input_end_a_search_and_the_process(self):
        e = self.engine("slow")
        e.handshake()
        e.send("setgame awale", "position startpos", "go infinite", "quit")
        self.assertEqual(e.until("bestmove")[-1], "bestmove 1")
        self.assertEqual(e.exit_code(), 0)
        e = self.engine("slow")
        e.handshake()
        e.send("setgame awale", "position startpos", "go infinite")
        self.assertTrue(e.read().startswith("info"))
        e.proc.stdin.close()
        self.assertEqual(e.until("bestmove")[-1], "bestmove 1")
        self.assertEqual(e.exit_code(), 0)
        idle = self.engine()
        idle.handshake()
        idle.proc.stdin.close()
        self.assertEqual(idle.exit_code(), 0)

    def test_the_clock_budget_is_respected(self):
        e = self.engine("budget")
        e.handshake()
        e.send("setgame awale", "position startpos moves 1",
               "go player 2 p1time 1000 p2time 2500 p1inc 0 p2inc 400")
        lines = e.until("bestmove")
        waited = int(lines[-2].split()[-1])
        # 2500/25 + 400*3/4 - 30 = 370 ms
        self.assertGreaterEqual(waited, 360)
        self.assertLess(waited, 2500 // 3)

    def test_a_failing_search_resigns_and_the_engine_goes_on(self):
        for mode, error in [("crash", "error internal search failed: RuntimeError: boom"),
                            ("none", "error internal the search returned None, not a move")]:
            with self.subTest(mode=mode):
                e = self.engine(mode)
                e.handshake()
                e.send("setgame awale", "position startpos", "go depth 1")
                self.assertEqual(e.read(), error)
                self.assertEqual(e.read(), "bestmove resign")
                self.ready(e)
        self.assertIn("RuntimeError: boom", "".join(self.engine_err("crash")))

    def engine_err(self, mode):
        e = self.engine(mode)
        e.handshake()
        e.send("setgame awale", "position startpos", "go depth 1", "quit")
        e.until("bestmove")
        e.exit_code()
        time.sleep(0.1)
        return e.err

    def test_print_in_a_search_goes_to_stderr(self):
        e = self.engine("print")
        e.handshake()
        e.send("setgame awale", "position startpos", "go depth 1")
        self.assertEqual(e.read(), "bestmove 1")
        e.send("quit")
        e.exit_code()
        deadline = time.monotonic() + TIMEOUT
        while "this goes to stderr\n" not in e.err and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertIn("this goes to stderr\n", e.err)

    def test_setups_are_sampled_unless_the_engine_searches_them(self):
        sampled = self.engine("first")
        sampled.handshake()
        sampled.send("setgame mweso", "position startpos", "go depth 1")
        move = sampled.read().split()[1]
        rg.game("mweso").initial_state().apply(move)  # a valid setup
        searched = self.engine("setups")
        searched.handshake()
        searched.send("setgame mweso", "position startpos", "go depth 1")
        self.assertEqual(searched.read(), "bestmove =setup-by-search")


class HelpersTest(unittest.TestCase):
    def test_parse_go(self):
        go = sdk.parse_go("player 3 p1time 100 p2time 200 p3time 300 p1inc 1 p2inc 2 p3inc 3 "
                          "movestogo 7".split())
        self.assertEqual((go.player, go.time_ms, go.inc_ms, go.movestogo), (3, [100, 200, 300],
                                                                            [1, 2, 3], 7))
        go = sdk.parse_go("movetime 200 depth 4 nodes 99 infinite".split())
        self.assertEqual((go.movetime, go.depth, go.nodes, go.infinite), (200, 4, 99, True))
        self.assertEqual(sdk.parse_go([]).time_ms, [])
        for words, message in [("player 0", "'player' needs an integer from 1"),
                               ("p1time 5 p3time 5", "missing p2time"),
                               ("p1inc 5 p2inc x", "'p2inc' needs a non-negative integer"),
                               ("p0time 5", "unknown go parameter 'p0time'"),
                               ("p1time 1 p1time 2", "'p1time' given twice"),
                               ("nodes ٣", "'nodes' needs a non-negative integer")]:
            with self.subTest(words=words):
                with self.assertRaises(ValueError) as caught:
                    sdk.parse_go(words.split())
                self.assertIn(message, str(caught.exception))

    def test_budget(self):
        def limits(line, player=1):
            return sdk.Limits(sdk.parse_go(line.split()), player)

        self.assertEqual(limits("movetime 200").budget_ms(), 170)
        self.assertEqual(limits("movetime 20").budget_ms(), 15)
        self.assertEqual(limits("movetime 0").budget_ms(), 1)
        self.assertEqual(limits("p1time 10000 p2time 5 p1inc 100 p2inc 0").budget_ms(), 445)
        self.assertEqual(limits("p1time 10000 p2time 5 p1inc 100 p2inc 0", 2).budget_ms(), 1)
        self.assertEqual(limits("p1time 9000 movestogo 2").budget_ms(), 2970)
        self.assertEqual(limits("p1time 10000").budget_ms(fraction=0.5), 3333 - 30)
        self.assertIsNone(limits("depth 3").budget_ms())
        self.assertIsNone(limits("p1time 10 p2time 10", 3).budget_ms())
        self.assertIsNone(limits("depth 3").deadline())
        lim = limits("movetime 200")
        self.assertAlmostEqual(lim.deadline(), lim.start + 0.17)
        self.assertFalse(lim.stopped())
        self.assertLess(lim.elapsed_ms(), 10000)

    def test_seed_from_args(self):
        self.assertEqual(sdk.seed_from_args(["--seed", "5"]), 5)
        self.assertEqual(sdk.seed_from_args(["x", "--seed=6"]), 6)
        self.assertEqual(sdk.seed_from_args(["--seed", "-1"], default=3), 3)
        self.assertEqual(sdk.seed_from_args(["--seed"], default=4), 4)
        self.assertEqual(sdk.seed_from_args([]), 0)

    def test_option_declarations_and_bad_options(self):
        self.assertEqual(sdk.Option("Go", "button").declaration(), "option name Go type button")
        with self.assertRaises(ValueError):
            sdk.Option("two words", "spin")
        with self.assertRaises(ValueError):
            sdk.Option("X", "float")

    def test_mix64_is_the_cpp_sdks_mixing(self):
        # splitmix64 of 0 (first output of splitmix64 seeded with 0).
        self.assertEqual(sdk.mix64(0), 0xE220A8397B1DCDAF)


class FakeRules:
    """A rules object that is not the module: one game, `count`, where players say 1 or 2 and the
    game ends at 5 plies. Shows that run(rules=...) needs only games() and game(spec)."""

    class Param:
        key, accepted, default = "first", "1..2", "1"

    class Info:
        name = "count"

    Info.params = [Param()]

    class State:
        def __init__(self, plies=0):
            self.plies = plies

        def copy(self):
            return FakeRules.State(self.plies)

        def apply(self, move):
            if move not in ("1", "2"):
                raise ValueError("illegal move '%s'" % move)
            self.plies += 1

        def is_terminal(self):
            return self.plies >= 5

        def current_player(self):
            return self.plies % 2 + 1

        def legal_moves(self):
            return ["1", "2"]

        def setup_form(self):
            return ""

        def hash(self):
            return self.plies

        def ply(self):
            return self.plies

        def to_string(self):
            return "count:%d" % self.plies

    class Game:
        def initial_state(self):
            return FakeRules.State()

        def parse_state(self, text):
            if not text.startswith("count:"):
                raise ValueError("bad count position '%s'" % text)
            return FakeRules.State(int(text[6:]))

    def games(self):
        return [self.Info()]

    def game(self, spec):
        if spec.split(":")[0] != "count":
            raise ValueError("unknown game '%s'" % spec)
        return self.Game()


class InProcessTest(unittest.TestCase):
    def test_run_with_other_rules_and_streams(self):
        stdin = io.StringIO("ugi\nsetgame count first=1\nsetgame awale\nposition startpos "
                            "moves 1 2\ngo player 1 p1time 5 p2time 5\nposition fen count:4 "
                            "moves 3\nposition fen count:4\ngo movetime 5\nquit\nisready 1\n")
        stdout = io.StringIO()
        status = sdk.run(lambda s, lim: s.legal_moves()[-1], name="fake", games=["count"],
                         rules=FakeRules(), stdin=stdin, stdout=stdout, seed=0)
        self.assertEqual(status, 0)
        self.assertEqual(stdout.getvalue().splitlines(), [
            "id name fake", "id author unknown", "id protocol 1", "game count first=1..2",
            "option name Seed type spin default 0 min 0 max 999999999", "ugiok",
            "error unsupported-game awale not played by this engine",
            "error illegal-position no game selected (send setgame first)",
            "error illegal-position no valid position (send setgame and position first)",
            "error illegal-position no game selected (send setgame first)",
            "error illegal-position no game selected (send setgame first)",
            "error illegal-position no valid position (send setgame and position first)"])

    def test_run_with_other_rules_plays(self):
        stdin = io.StringIO("setgame count\nposition startpos moves 1 2\n"
                            "go player 1 p1time 5 p2time 5\nposition fen count:4 moves 3\n"
                            "position fen count:4\ngo movetime 5\nposition fen nope\n")
        stdout = io.StringIO()
        sdk.run(lambda s, lim: s.legal_moves()[-1], rules=FakeRules(), stdin=stdin,
                stdout=stdout, seed=0)
        self.assertEqual(stdout.getvalue().splitlines(), [
            "bestmove 2", "error illegal-move 3 illegal move '3' in count:4", "bestmove 2",
            "error illegal-position bad count position 'nope'"])


class InfiniteTest(unittest.TestCase):
    def test_go_infinite_waits_for_stop_however_soon_the_search_ends(self):
        """PROTOCOL.md section 6: the bestmove of a go infinite comes after stop, even from a
        search that returns at once; a stop while idle gets no answer."""
        read_end, write_end = os.pipe()
        stdin, feed = os.fdopen(read_end, "r"), os.fdopen(write_end, "w")
        lines = queue.Queue()

        class Out:
            def write(self, text):
                for line in text.splitlines():
                    lines.put(line)

            def flush(self):
                pass

        engine = threading.Thread(target=sdk.run, daemon=True, kwargs=dict(
            search=lambda s, lim: s.legal_moves()[-1], rules=FakeRules(), stdin=stdin,
            stdout=Out(), seed=0))
        engine.start()
        feed.write("setgame count\nposition startpos\ngo infinite\n")
        feed.flush()
        with self.assertRaises(queue.Empty):
            lines.get(timeout=0.5)
        feed.write("stop\n")
        feed.flush()
        self.assertEqual(lines.get(timeout=TIMEOUT), "bestmove 2")
        feed.write("stop\nisready 3\n")
        feed.flush()
        self.assertEqual(lines.get(timeout=TIMEOUT), "readyok 3")
        # Sent with its go, the stop ends it the same.
        feed.write("position startpos\ngo infinite\nstop\n")
        feed.flush()
        self.assertEqual(lines.get(timeout=TIMEOUT), "bestmove 2")
        feed.close()
        engine.join(TIMEOUT)
        self.assertFalse(engine.is_alive())
        stdin.close()


class CheckEngineTest(unittest.TestCase):
    def test_a_minimal_sdk_engine_passes_check_engine_for_every_game(self):
        out = testenv.run([testenv.REFEREE_BIN, "check-engine", testenv.PYTHON, ENGINE, "first"],
                          timeout=300)
        self.assertIn("ALL PASSED", out)
        for info in rg.games():
            self.assertRegex(out, r"PASS %s(:players=\d)?: legal bestmove from startpos with clocks"
                             % re.escape(info.name))


if __name__ == "__main__":
    unittest.main()
