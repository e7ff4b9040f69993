#!/usr/bin/env python3
"""A protocol-1 engine in plain Python 3 (standard library only) for awale, awale-v1 and kalaha.

It implements the rules itself (protocol/rules/awale.md, awale-v1.md and kalaha.md) to show that
an engine needs nothing from this project but protocol/PROTOCOL.md and the rules pages. It plays greedily: the move that gains the most seeds for itself right now (captures for
awale, its store for kalaha), ties broken at random; with probability Randomness/100 it plays a
uniformly random legal move instead.

Position strings, as the rules library prints them:
  awale, awale-v1: "h1,...,h6/h7,...,h12:c1,c2:p:quiet:ply"  (captures of South and North)
  kalaha:          "h1,...,h6/h7,...,h12:s1,s2:p:quiet:ply"  (stores S1 and S2)
Holes are numbered 1..12 counter-clockwise, South (player 1) owning 1..6.

Usage: random_engine.py [--seed N]
"""

import random
import sys

GAMES = {
    # name: (seeds per hole, parameters with their declared ranges)
    "awale": (4, {"grandslam": "nocapture|illegal"}),
    "awale-v1": (4, {"grandslam": "nocapture|illegal"}),
    "kalaha": (6, {}),
}
COMMON = {"first": "1..2", "nocapture": "0..100000", "maxplies": "1..1000000"}


class Position:
    """holes[0..11] = holes 1..12; score = captures (awale) or stores (kalaha); mover 1 or 2."""

    def __init__(self, holes, score, mover):
        self.holes = holes
        self.score = score
        self.mover = mover

    def copy(self):
        return Position(list(self.holes), list(self.score), self.mover)


def own_row(player):
    return range(1, 7) if player == 1 else range(7, 13)


def row_sum(holes, player):
    return sum(holes[h - 1] for h in own_row(player))


# ---- awale and awale-v1 ----

def awale_sow(pos, hole, capture_after):
    """Returns (holes after, seeds taken, grand slam?, fed the opponent?)."""
    holes = list(pos.holes)
    opponent = 3 - pos.mover
    seeds, holes[hole - 1] = holes[hole - 1], 0
    h, feeds = hole, False
    while seeds:
        h = h % 12 + 1
        if h == hole:
            continue  # a full lap skips the hole sown from
        holes[h - 1] += 1
        seeds -= 1
        feeds |= h in own_row(opponent)

    def takes(x):
        return x in own_row(opponent) and holes[x - 1] in (2, 3)

    if not takes(h):
        return holes, 0, False, feeds
    taken = [h]
    x = h - 1
    while x >= 1 and takes(x):
        taken.append(x)
        x -= 1
    if capture_after:
        x = h + 1
        while x <= 12 and takes(x):
            taken.append(x)
            x += 1
    total = sum(holes[x - 1] for x in taken)
    if total == row_sum(holes, opponent):
        return holes, 0, True, feeds  # grand slam: nothing is captured
    for x in taken:
        holes[x - 1] = 0
    return holes, total, False, feeds


def awale_moves(pos, game):
    if max(pos.score) >= 25:
        return []
    must_feed = row_sum(pos.holes, 3 - pos.mover) == 0
    moves = []
    for h in own_row(pos.mover):
        if pos.holes[h - 1] == 0:
            continue
        _, _, slam, feeds = awale_sow(pos, h, game["name"] == "awale")
        if must_feed and not feeds:
            continue
        if slam and game["grandslam"] == "illegal":
            continue
        moves.append(h)
    return moves


def awale_play(pos, hole, game):
    holes, taken, _, _ = awale_sow(pos, hole, game["name"] == "awale")
    after = Position(holes, list(pos.score), 3 - pos.mover)
    after.score[pos.mover - 1] += taken
    return after


# ---- kalaha ----
# The sowing ring: slots 0..5 = holes 1..6, 6 = store S1, 7..12 = holes 7..12, 13 = store S2.

def kalaha_slot(hole):
    return hole - 1 if hole <= 6 else hole


def kalaha_moves(pos, game):
    if row_sum(pos.holes, pos.mover) == 0:
        return []
    return [h for h in own_row(pos.mover) if pos.holes[h - 1] > 0]


def kalaha_play(pos, hole, game):
    ring = pos.holes[0:6] + [pos.score[0]] + pos.holes[6:12] + [pos.score[1]]
    mover = pos.mover
    own_store, other_store = (6, 13) if mover == 1 else (13, 6)
    origin = kalaha_slot(hole)
    seeds, ring[origin] = ring[origin], 0
    slot = origin
    while seeds:
        slot = (slot + 1) % 14
        if slot in (origin, other_store):
            continue
        ring[slot] += 1
        seeds -= 1
    after = Position(ring[0:6] + ring[7:13], [ring[6], ring[13]], 3 - mover)
    if slot == own_store:
        after.mover = mover  # extra turn
    else:
        last_hole = slot + 1 if slot < 6 else slot
        opposite = 13 - last_hole
        if last_hole in own_row(mover) and after.holes[last_hole - 1] == 1:
            after.score[mover - 1] += after.holes[opposite - 1]
            after.holes[opposite - 1] = 0
    return after


# ---- the game in play ----

def moves_of(pos, game):
    return (kalaha_moves if game["name"] == "kalaha" else awale_moves)(pos, game)


def play(pos, hole, game):
    return (kalaha_play if game["name"] == "kalaha" else awale_play)(pos, hole, game)


def start_position(game):
    seeds = GAMES[game["name"]][0]
    return Position([seeds] * 12, [0, 0], int(game["first"]))


def parse_position(text, game):
    """Parses a position string; raises ValueError on bad text."""
    fields = text.split(":")
    if len(fields) != 5:
        raise ValueError("expected 5 ':'-separated fields")
    rows = fields[0].split("/")
    if len(rows) != 2:
        raise ValueError("expected two rows")
    holes = [int(x) for row in rows for x in row.split(",")]
    score = [int(x) for x in fields[1].split(",")]
    if len(holes) != 12 or len(score) != 2 or min(holes + score) < 0:
        raise ValueError("expected 12 hole counts and 2 scores")
    if sum(holes) + sum(score) != 12 * GAMES[game["name"]][0]:
        raise ValueError("wrong number of seeds")
    if fields[2] not in ("1", "2"):
        raise ValueError("player to move must be 1 or 2")
    return Position(holes, score, int(fields[2]))


def choose(pos, game, rng, randomness):
    moves = moves_of(pos, game)
    if not moves:
        return None
    if rng.random() * 100 < randomness:
        return rng.choice(moves)
    gains = {m: play(pos, m, game).score[pos.mover - 1] - pos.score[pos.mover - 1] for m in moves}
    best = max(gains.values())
    return rng.choice([m for m in moves if gains[m] == best])


# ---- the protocol loop ----

def main():
    seed = 0
    args = sys.argv[1:]
    for i, arg in enumerate(args):
        if arg == "--seed" and i + 1 < len(args) and args[i + 1].isdigit():
            seed = int(args[i + 1])
        elif arg.startswith("--seed=") and arg[7:].isdigit():
            seed = int(arg[7:])
    rng = random.Random(seed)
    randomness = 10
    game = None
    position = None
    infinite_reply = None  # the answer to a go infinite, sent at stop

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        if cmd == "ugi":
            say("id name random_engine.py")
            say("id author referee examples")
            say("id protocol 1")
            for name, (_, params) in GAMES.items():
                decl = dict(params, **COMMON)
                say("game " + name + "".join(" %s=%s" % kv for kv in decl.items()))
            say("option name Seed type spin default %d min 0 max 999999999" % seed)
            say("option name Randomness type spin default 10 min 0 max 100")
            say("ugiok")
        elif cmd == "isready":
            say(" ".join(["readyok"] + args[:1]))
        elif cmd == "setgame":
            name = args[0] if args else ""
            if name not in GAMES:
                game = None
                say("error unsupported-game " + name)
                continue
            game = {"name": name, "grandslam": "nocapture", "first": "1"}
            for kv in args[1:]:
                key, _, value = kv.partition("=")
                allowed = dict(GAMES[name][1], **COMMON).get(key)
                if allowed is None:
                    game = None
                    say("error unsupported-game %s unknown parameter %s" % (name, key))
                    break
                game[key] = value
            if game is not None and game["first"] not in ("1", "2"):
                game = None
                say("error unsupported-game %s first must be 1 or 2" % name)
        elif cmd == "setoption":
            if len(args) >= 4 and args[0] == "name" and args[2] == "value" and args[3].isdigit():
                if args[1] == "Seed":
                    rng = random.Random(int(args[3]))
                    continue
                if args[1] == "Randomness":
                    randomness = int(args[3])
                    continue
            say("error unsupported-option " + " ".join(args))
        elif cmd == "uginewgame":
            position = None
        elif cmd == "position":
            position = None
            if game is None:
                say("error illegal-position no game selected")
                continue
            try:
                if args[:1] == ["startpos"]:
                    pos, rest = start_position(game), args[1:]
                elif args[:1] == ["fen"] and len(args) >= 2:
                    pos, rest = parse_position(args[1], game), args[2:]
                else:
                    raise ValueError("expected startpos or fen <state>")
            except ValueError as e:
                say("error illegal-position %s" % e)
                continue
            if rest and rest[0] != "moves":
                say("error syntax expected 'moves'")
                continue
            for move in rest[1:]:
                if not move.isdigit() or int(move) not in moves_of(pos, game):
                    say("error illegal-move " + move)
                    pos = None
                    break
                pos = play(pos, int(move), game)
            position = pos
        elif cmd == "go":
            if position is None:
                say("error illegal-position no valid position")
                continue
            move = choose(position, game, rng, randomness)
            reply = "bestmove %s" % move if move is not None else "error illegal-position game over"
            if "infinite" in args:
                infinite_reply = reply  # go infinite: the answer waits for stop (PROTOCOL.md §6)
            else:
                say(reply)
        elif cmd == "stop":
            if infinite_reply is not None:
                say(infinite_reply)
                infinite_reply = None
        elif cmd == "quit":
            break
        elif cmd in ("gameover", "protocol"):
            pass
        else:
            say("error unknown-command " + cmd)


if __name__ == "__main__":
    main()
