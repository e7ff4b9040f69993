"""The Python engine SDK: write a search function, call run(), and you have a protocol-1 engine
for every game of the rules library (protocol/PROTOCOL.md).

    import referee_engine as re_

    def search(state, limits):          # a referee_games.State, a Limits
        return state.legal_moves()[0]   # a canonical move string (or "resign")

    re_.run(search, name="First", author="Me")

The SDK owns the whole protocol loop over stdin/stdout: the handshake (declaring every game of
the rules library with its parameters), setoption, setgame, isready/readyok with tokens,
uginewgame, position startpos|fen ... moves ..., go with every player's clock, increments,
movetime, depth and nodes, stop, gameover, quit and end of input, and the error replies. Positions
reach the search as states of the `referee_games` module (built by the normal build into
build/python); any object with the module's `games()` and `game(spec)` can stand in for it
(run(rules=...)), e.g. a pure-Python implementation of a few games.

Decisions (as in the C++ SDK, protocol/sdk/engine.h):
- A reader thread keeps reading input while the search runs: `stop` sets Limits.stopped(),
  `isready` is answered at once while searching (when nothing else is queued and no `stop` came;
  after a `stop` it is answered after the bestmove), `quit` and end of
  input stop the search; every other command waits its turn, in order. A `stop`, `isready` or
  `quit` that arrives together with its `go` (before the search began) counts as arriving
  during the search, so `go infinite` followed at once by `stop` or `quit` does not hang.
- `go infinite`: the bestmove waits for `stop` (or `quit`, end of input, any other command)
  however soon the search returns, as PROTOCOL.md §6 asks: a search need not loop until
  Limits.stopped() itself.
- The search runs in the main thread. While run() is active, sys.stdout is sys.stderr, so a stray
  print() in a search goes to the log and can never corrupt the protocol; protocol lines go to
  the real stdout, each written whole under a lock and flushed.
- Setup phases (State.setup_form() non-empty) are answered with State.sample_setup(seed) unless
  run(search_setups=True).
- Every engine has an option `Seed` (spin); its default comes from `--seed N` on the command line
  (or run(seed=...)). Limits.seed mixes it with the position's hash and ply (the C++ SDK's mixing),
  so a search is reproducible from (Seed, position) alone.
- An exception in the search is reported as `error internal ...` followed by `bestmove resign`,
  and the traceback goes to stderr; the engine keeps running.
"""

import collections
import sys
import threading
import time
import traceback

PROTOCOL_VERSION = 1
MASK64 = (1 << 64) - 1
_MAX_PLAYERS = 64


def log(*parts):
    """Writes one line to stderr (the referee keeps it in the engine's log)."""
    print(*parts, file=sys.__stderr__, flush=True)


def mix64(z):
    """splitmix64's finaliser, as the C++ SDK mixes seeds."""
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Option:
    """An engine option declared in the handshake (UCI syntax). type: check|spin|combo|string|button.
    The value set by `setoption` reaches the search in Limits.options[name], converted: int for
    spin, bool for check, str otherwise."""

    def __init__(self, name, type, default=None, min=None, max=None, vars=()):
        if not name or any(c.isspace() for c in name):
            raise ValueError("option name %r must be one word" % name)
        if type not in ("check", "spin", "combo", "string", "button"):
            raise ValueError("option %s: unknown type %r" % (name, type))
        self.name, self.type, self.default = name, type, default
        self.min, self.max, self.vars = min, max, list(vars)

    def declaration(self):
        line = "option name %s type %s" % (self.name, self.type)
        if self.default is not None:
            default = self.default
            if self.type == "check":
                default = "true" if default else "false"
            line += " default %s" % default
        if self.min is not None:
            line += " min %d" % self.min
        if self.max is not None:
            line += " max %d" % self.max
        for v in self.vars:
            line += " var %s" % v
        return line

    def convert(self, text):
        """The value of `setoption ... value <text>`; ValueError when it does not fit."""
        if self.type == "spin":
            if not text.lstrip("-").isdigit():
                raise ValueError("%s needs an integer, got '%s'" % (self.name, text))
            value = int(text)
            if (self.min is not None and value < self.min) or (
                    self.max is not None and value > self.max):
                raise ValueError("%s must be from %s to %s, got %d" %
                                 (self.name, self.min, self.max, value))
            return value
        if self.type == "check":
            if text not in ("true", "false"):
                raise ValueError("%s needs true or false, got '%s'" % (self.name, text))
            return text == "true"
        if self.type == "combo" and self.vars and text not in self.vars:
            raise ValueError("%s must be one of %s, got '%s'" %
                             (self.name, "|".join(self.vars), text))
        return text

    def initial(self):
        if self.type == "spin":
            return int(self.default) if self.default is not None else 0
        if self.type == "check":
            return bool(self.default)
        return "" if self.default is None else str(self.default)


class GoCommand:
    """A parsed `go` line (PROTOCOL.md §6)."""

    def __init__(self):
        self.player = None
        self.time_ms = []   # every player's clock, index 0 = player 1; [] without clocks
        self.inc_ms = []
        self.movestogo = None
        self.movetime = None
        self.depth = None
        self.nodes = None
        self.infinite = False


def parse_go(words):
    """Parses the words after `go`; ValueError naming the culprit when malformed."""
    go = GoCommand()
    times, incs, seen = {}, {}, set()
    i = 0
    while i < len(words):
        key = words[i]
        if key == "infinite":
            go.infinite = True
            i += 1
            continue
        if i + 1 >= len(words):
            raise ValueError("'%s' without a value" % key)
        text = words[i + 1]
        i += 2
        if key in seen:
            raise ValueError("'%s' given twice" % key)
        seen.add(key)
        if not text.isdigit() or not text.isascii():
            raise ValueError("'%s' needs a non-negative integer, got '%s'" % (key, text))
        value = int(text)
        if key.startswith("p") and (key.endswith("time") or key.endswith("inc")):
            index = key[1:-4] if key.endswith("time") else key[1:-3]
            if index.isdigit() and index.isascii() and 1 <= int(index) <= _MAX_PLAYERS:
                (times if key.endswith("time") else incs)[int(index)] = value
                continue
        if key == "player":
            if value < 1:
                raise ValueError("'player' needs an integer from 1, got '%s'" % text)
            go.player = value
        elif key in ("movestogo", "movetime", "depth", "nodes"):
            setattr(go, key, value)
        else:
            raise ValueError("unknown go parameter '%s'" % key)
    for table, suffix, out in ((times, "time", go.time_ms), (incs, "inc", go.inc_ms)):
        for k in range(1, max(table, default=0) + 1):
            if k not in table:
                raise ValueError("missing p%d%s" % (k, suffix))
            out.append(table[k])
    return go


class Limits:
    """What a search may use: the player it moves for, every player's clock, the limits of `go`,
    the options, a seed, and ways to report (info) and to notice `stop` (stopped)."""

    # Milliseconds kept for pipes, scheduling and Python's own pauses.
    OVERHEAD_MS = 30

    def __init__(self, go=None, player=1, seed=0, options=None, stop_event=None, emit=None,
                 start=None):
        go = go or GoCommand()
        self.player = player
        self.time_ms = list(go.time_ms)
        self.inc_ms = list(go.inc_ms)
        self.movestogo = go.movestogo
        self.movetime = go.movetime
        self.depth = go.depth
        self.nodes = go.nodes
        self.infinite = go.infinite
        self.seed = seed
        self.options = dict(options or {})
        self.start = time.monotonic() if start is None else start
        self._stop = stop_event
        self._emit = emit

    def stopped(self):
        """True once `stop`, `quit` or end of input arrived during this search."""
        return self._stop is not None and self._stop.is_set()

    def elapsed_ms(self):
        """Milliseconds since `go` was read."""
        return (time.monotonic() - self.start) * 1000.0

    def budget_ms(self, fraction=1.0 / 25):
        """This move's time budget in milliseconds: movetime minus a safety margin; otherwise
        `fraction` of the own clock (1/(movestogo+1) with movestogo) plus 3/4 of the increment,
        never more than a third of the clock; None when there is no clock (depth, nodes,
        infinite)."""
        if self.movetime is not None:
            return max(1, self.movetime - min(self.OVERHEAD_MS, self.movetime // 4))
        i = self.player - 1
        if not 0 <= i < len(self.time_ms):
            return None
        clock = self.time_ms[i]
        inc = self.inc_ms[i] if i < len(self.inc_ms) else 0
        share = 1.0 / (self.movestogo + 1) if self.movestogo else fraction
        budget = min(int(clock * share) + inc * 3 // 4, clock // 3)
        return max(1, budget - self.OVERHEAD_MS)

    def deadline(self, fraction=1.0 / 25):
        """time.monotonic() value by which to answer, or None without a clock."""
        budget = self.budget_ms(fraction)
        return None if budget is None else self.start + budget / 1000.0

    def info(self, text):
        """Writes `info <text>` (depth, score cp, nodes, pv, string ...)."""
        if self._emit:
            self._emit("info " + text)


def seed_from_args(argv=None, default=0):
    """`--seed N` or `--seed=N` from the command line; `default` when absent or malformed."""
    argv = sys.argv[1:] if argv is None else argv
    for i, arg in enumerate(argv):
        value = None
        if arg == "--seed" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--seed="):
            value = arg[len("--seed="):]
        if value is not None:
            return int(value) if value.isdigit() and value.isascii() else default
    return default


def declarations(rules, names=None):
    """The `game ...` handshake lines for every game of `rules` (or those named)."""
    lines = []
    for info in rules.games():
        if names is not None and info.name not in names:
            continue
        lines.append(" ".join(["game", info.name] +
                              ["%s=%s" % (p.key, p.accepted) for p in info.params]))
    return lines


class _Channel:
    """What the reader thread and the main thread share."""

    def __init__(self, out):
        self.lock = threading.Lock()
        self.ready = threading.Condition(self.lock)
        self.queue = collections.deque()
        self.closed = False      # quit read or end of input
        self.searching = False   # the main thread is inside the search function
        self.stop = threading.Event()
        self._out = out
        self._out_lock = threading.Lock()

    def write(self, line):
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()


def _read_input(ch, stream):
    for raw in stream:
        line = raw.rstrip("\n")
        if line.endswith("\r"):
            line = line[:-1]
        words = line.split()
        cmd = words[0] if words else ""
        with ch.lock:
            # Answered here only while a search runs that was not told to stop: once stopped,
            # what follows waits for its bestmove (an isready after stop comes after it).
            idle_queue = ch.searching and not ch.queue and not ch.stop.is_set()
            if idle_queue and cmd == "stop":
                ch.stop.set()
                ch.ready.notify()  # a go infinite whose search is over waits for it
                continue
            if idle_queue and cmd == "isready" and len(words) <= 2:
                ch.write(" ".join(["readyok"] + words[1:]))
                continue
            if cmd == "quit":
                ch.stop.set()
            ch.queue.append(line)
            ch.ready.notify()
        if cmd == "quit":
            break
    with ch.lock:
        if ch.searching and not ch.queue:
            ch.stop.set()  # the referee is gone
        ch.closed = True
        ch.ready.notify()


class _Session:
    """The engine's protocol state between commands."""

    def __init__(self, search, ch, rules, name, author, options, games, seed, search_setups,
                 new_game):
        self.search, self.ch, self.rules = search, ch, rules
        self.name, self.author = name, author
        self.options = {o.name: o for o in options}
        self.values = {o.name: o.initial() for o in options}
        self.games = None if games is None else set(games)
        self.seed = seed
        self.search_setups = search_setups
        self.new_game = new_game
        self.game = None
        self.state = None

    def error(self, kind, text=""):
        self.ch.write(("error %s %s" % (kind, text)).rstrip())

    def handle(self, line):
        """Handles one line; False once `quit` was read."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        handler = getattr(self, "on_" + cmd, None) if cmd.isidentifier() else None
        if handler is None:
            self.error("unknown-command", cmd)
            return True
        return handler(args) is not False

    def on_ugi(self, args):
        self.ch.write("id name " + self.name)
        self.ch.write("id author " + self.author)
        self.ch.write("id protocol %d" % PROTOCOL_VERSION)
        for line in declarations(self.rules, self.games):
            self.ch.write(line)
        self.ch.write(Option("Seed", "spin", self.seed % 1000000000, 0, 999999999).declaration())
        for option in self.options.values():
            self.ch.write(option.declaration())
        self.ch.write("ugiok")

    def on_protocol(self, args):
        pass

    def on_setoption(self, args):
        if len(args) < 2 or args[0] != "name" or (len(args) > 2 and args[2] != "value"):
            self.error("syntax", "setoption name <name> [value <value>]")
            return
        name, value = args[1], " ".join(args[3:])
        if name == "Seed":
            if value.isdigit() and value.isascii():
                self.seed = int(value)
            else:
                self.error("syntax", "Seed needs a non-negative integer, got '%s'" % value)
            return
        option = self.options.get(name)
        if option is None:
            self.error("unsupported-option", name)
            return
        try:
            self.values[name] = option.convert(value)
        except ValueError as e:
            self.error("syntax", str(e))

    def on_setgame(self, args):
        self.game, self.state = None, None
        if not args:
            self.error("syntax", "setgame needs a game name")
            return
        name = args[0]
        if self.games is not None and name not in self.games:
            self.error("unsupported-game", name + " not played by this engine")
            return
        spec = name + (":" + ",".join(args[1:]) if len(args) > 1 else "")
        try:
            self.game = self.rules.game(spec)
        except ValueError as e:
            self.error("unsupported-game", "%s %s" % (name, e))

    def on_isready(self, args):
        self.ch.write(" ".join(["readyok"] + args[:1]))

    def on_uginewgame(self, args):
        self.state = None
        if self.new_game:
            self.new_game()

    def on_position(self, args):
        self.state = None
        if self.game is None:
            self.error("illegal-position", "no game selected (send setgame first)")
            return
        if args[:1] == ["startpos"]:
            rest = args[1:]
            state = self.game.initial_state()
        elif args[:1] == ["fen"] and len(args) >= 2 and args[1] != "moves":
            rest = args[2:]
            try:
                state = self.game.parse_state(args[1])
            except ValueError as e:
                self.error("illegal-position", str(e))
                return
        else:
            self.error("syntax", "position needs 'startpos' or 'fen <state>'")
            return
        if rest and rest[0] != "moves":
            self.error("syntax", "expected 'moves' after the position, got '%s'" % rest[0])
            return
        for move in rest[1:]:
            try:
                state.apply(move)
            except ValueError as e:
                self.error("illegal-move", "%s %s in %s" % (move, e, state.to_string()))
                return
        self.state = state

    def on_go(self, args):
        try:
            go = parse_go(args)
        except ValueError as e:
            self.error("syntax", "go: %s" % e)
            return
        state = self.state
        if state is None:
            self.error("illegal-position", "no valid position (send setgame and position first)")
            return
        if state.is_terminal():
            self.error("illegal-position", "the game is over in " + state.to_string())
            return
        if go.player is not None and go.player != state.current_player():
            self.error("illegal-position", "go player %d but player %d is to move" %
                       (go.player, state.current_player()))
            return
        seed = mix64(self.seed ^ mix64((state.hash() ^ state.ply()) & MASK64))
        limits = Limits(go, state.current_player(), seed, self.values, self.ch.stop,
                        self.ch.write)
        move, failed = None, False
        self._begin_search()
        try:
            if state.setup_form() and not self.search_setups:
                move = state.sample_setup(seed)
            else:
                move = self.search(state.copy(), limits)
        except Exception as e:  # the engine's own bug: report it, keep the session
            traceback.print_exc(file=sys.__stderr__)
            self.error("internal", "search failed: %s: %s" % (type(e).__name__, e))
            failed = True
        finally:
            with self.ch.lock:
                # go infinite: the bestmove waits for stop (PROTOCOL.md §6), or for anything
                # else the referee sends, however soon the search ends.
                if go.infinite:
                    self.ch.ready.wait_for(lambda: self.ch.stop.is_set() or self.ch.closed
                                           or self.ch.queue)
                self.ch.searching = False
        if not isinstance(move, str) or not move or any(c.isspace() for c in move):
            if not failed:
                self.error("internal", "the search returned %r, not a move" % (move,))
            move = "resign"
        self.ch.write("bestmove " + move)

    def _begin_search(self):
        """Marks the search as running. Lines that arrived after `go` but before the search
        began are queued: an `isready` or `stop` right behind the `go` is handled now, as it
        would have been during the search, and a queued `quit` or the end of input stops the
        search at once (no later `stop` can come)."""
        ch = self.ch
        with ch.lock:
            ch.searching = True
            ch.stop.clear()
            while ch.queue:
                words = ch.queue[0].split()
                if words[:1] == ["stop"]:
                    ch.stop.set()
                elif words[:1] == ["isready"] and len(words) <= 2 and not ch.stop.is_set():
                    ch.write(" ".join(["readyok"] + words[1:]))
                else:
                    break
                ch.queue.popleft()
            if ch.closed or any(line.split()[:1] == ["quit"] for line in ch.queue):
                ch.stop.set()

    def on_stop(self, args):
        pass  # not searching: nothing to stop

    def on_gameover(self, args):
        pass

    def on_quit(self, args):
        return False


def run(search, name="Python engine", author="unknown", options=(), games=None, seed=None,
        search_setups=False, new_game=None, rules=None, stdin=None, stdout=None):
    """Runs the protocol loop until `quit` or end of input; returns 0 (the exit status).

    search(state, limits) -> move string: state is a copy of the position to play (a
      referee_games.State), limits a Limits; return a canonical move or "resign".
    options: Option values declared after the built-in `Seed`; their values reach the search in
      limits.options.
    games: names of the games to declare (default: every game of the rules library).
    seed: the Seed option's default (default: `--seed N` from the command line, else 0).
    search_setups: True to be asked for setup moves too (default: a random valid setup).
    new_game: called on every `uginewgame` (clear tables).
    rules: the rules module (default: referee_games).
    stdin, stdout: text streams (default: the process's).
    """
    if rules is None:
        import referee_games as rules
    if stdin is None:
        sys.stdin.reconfigure(errors="replace")
    in_stream = sys.stdin if stdin is None else stdin
    out_stream = sys.stdout if stdout is None else stdout
    ch = _Channel(out_stream)
    session = _Session(search, ch, rules, name, author, list(options), games,
                       seed_from_args() if seed is None else seed, search_setups, new_game)
    saved_stdout = sys.stdout
    if stdout is None:
        sys.stdout = sys.stderr  # print() in a search goes to the log
    reader = threading.Thread(target=_read_input, args=(ch, in_stream), daemon=True)
    reader.start()
    try:
        while True:
            with ch.lock:
                while not ch.queue and not ch.closed:
                    ch.ready.wait()
                if not ch.queue:
                    break  # end of input
                line = ch.queue.popleft()
            if not session.handle(line):
                break  # quit
    finally:
        sys.stdout = saved_stdout
    return 0
