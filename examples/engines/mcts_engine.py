#!/usr/bin/env python3
"""A Monte Carlo tree search (UCT) engine for all 18 games, in Python over the rules module.

It knows nothing about any game: the referee_games module (the C++ rules library, built into
build/python) gives the legal moves, plays them and scores finished games, and the Python SDK
(protocol/sdk/python/referee_engine.py) runs the protocol. Run it with the interpreter the module
was built for (Debian's /usr/bin/python3 by default):

    PYTHONPATH=build/python:protocol/sdk/python /usr/bin/python3 examples/engines/mcts_engine.py
    build/referee/referee check-engine /usr/bin/python3 examples/engines/mcts_engine.py

(Without PYTHONPATH it looks for the two folders relative to this file: ../../build/python and
../../protocol/sdk/python.)

The search:
- UCT: each iteration walks down the tree by the UCB1 rule, adds one child, plays a random
  playout from it and backs the result up. Every node keeps the player who chose its move, so
  extra turns (kalaha, chongkak) and N-player oware need nothing special.
- Rewards are rank-based, one per player: a player's reward is the share of the other players he
  beat, ties counting half (2 players: win 1, draw 0.5, loss 0; oware with 4 players, ranks
  1,2,2,4: 1, 0.5, 0.5, 0).
- A playout stops at the end of the game, after RolloutPlies plies, or at the move's deadline
  (checked every 8 plies, so one long playout cannot overrun the clock); an unfinished playout is
  scored by ranking the players' material (State.material(): captures, stores, pieces), pulled
  towards a draw (reward 0.25 + 0.5 * rank reward) because it is only an estimate.
- Setups (mweso, lontu-holo): a setup position's children are Setups distinct sampled setups
  (State.sample_setup); the engine asks the SDK for setup positions too (search_setups=True), so
  its own setup is chosen by search among sampled ones. Forced positions (a pass, lontu-holo's
  mirrored setup) have their single move as their only child; the referee never asks for them.
- Limits: movetime or the clock (the SDK's budget: 1/25 of the own clock plus most of the
  increment), `nodes n` = n iterations, `depth d` = the tree grows at most d plies below the root
  and the search stops after 300*d iterations, `infinite` until `stop`; every search also stops
  at `stop`. Without any limit: 1000 iterations. `depth` and `nodes` searches are also cut after
  2 s so that a large request cannot reach the referee's wall cap.
- Reproducible: the random generator is seeded from the Seed option (default --seed N) mixed
  with the position, so a `nodes` or `depth` search always gives the same move.
- The answer is the most visited root move; an `info` line reports iterations, tree depth, the
  expected reward as a score and the principal variation.
"""

import gc
import importlib
import importlib.util
import math
import os
import random
import sys
import time


def _import_modules():
    """Imports referee_games and referee_engine, looking next to the repository if needed."""
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    for name, folder in (("referee_engine", os.path.join(repo, "protocol", "sdk", "python")),
                         ("referee_games", os.path.join(repo, "build", "python"))):
        if importlib.util.find_spec(name) is None and folder not in sys.path:
            sys.path.append(folder)
    return importlib.import_module("referee_games"), importlib.import_module("referee_engine")


rg, sdk = _import_modules()

DEFAULT_ITERATIONS = 1000
ITERATIONS_PER_DEPTH = 300
LIMITED_SEARCH_CAP_S = 2.0
OPTIONS = [
    sdk.Option("Exploration", "spin", 140, 0, 1000),   # UCB1 constant, in hundredths
    sdk.Option("RolloutPlies", "spin", 200, 0, 100000),
    sdk.Option("Setups", "spin", 8, 1, 64),            # sampled setups per setup position
]


def rank_rewards(ranks):
    """Per-player reward in [0, 1] from ranks (1 = best): the share of the others beaten, ties
    counting half."""
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    return [(sum(1 for r in ranks if r > mine) + 0.5 * (sum(1 for r in ranks if r == mine) - 1))
            / (n - 1) for mine in ranks]


def material_rewards(material):
    """Rewards of an unfinished playout: the material ranking, pulled towards a draw."""
    ranks = [1 + sum(1 for other in material if other > mine) for mine in material]
    return [0.25 + 0.5 * r for r in rank_rewards(ranks)]


def candidate_moves(state, rng, setups):
    """The moves a node expands: the legal moves, or `setups` distinct sampled setups."""
    if state.setup_form():
        seen = []
        for _ in range(setups * 4):
            move = state.sample_setup(rng.getrandbits(63))
            if move and move not in seen:
                seen.append(move)
                if len(seen) == setups:
                    break
        return seen
    return state.legal_moves()


class Node:
    __slots__ = ("move", "mover", "state", "children", "untried", "visits", "value", "depth")

    def __init__(self, state, move, mover, depth, rng, setups):
        self.state = state        # the position after `move`
        self.move = move
        self.mover = mover        # the player who chose `move` (0 at the root)
        self.depth = depth
        self.children = []
        self.untried = [] if state.is_terminal() else candidate_moves(state, rng, setups)
        rng.shuffle(self.untried)
        self.visits = 0
        self.value = 0.0          # sum of the mover's rewards

    def best_child(self, c):
        log_n = math.log(self.visits)
        return max(self.children,
                   key=lambda ch: ch.value / ch.visits + c * math.sqrt(log_n / ch.visits))


def playout(state, rng, max_plies, deadline=None):
    """Plays random moves on `state` (changed in place); the per-player rewards. A playout that
    reaches `deadline` (time.monotonic()) stops there and is scored like a capped one."""
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        if deadline is not None and plies % 8 == 7 and time.monotonic() >= deadline:
            break
        if state.setup_form():
            state.apply(state.sample_setup(rng.getrandbits(63)))
        else:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        plies += 1
    if state.is_terminal():
        return rank_rewards(state.outcome().ranks)
    return material_rewards(state.material())


class Search:
    """One UCT search from a root state."""

    def __init__(self, root_state, seed, exploration=1.4, rollout_plies=200, setups=8,
                 max_depth=None):
        self.rng = random.Random(seed)
        self.c = exploration
        self.rollout_plies = rollout_plies
        self.setups = setups
        self.max_depth = max_depth
        self.root = Node(root_state, None, 0, 0, self.rng, setups)
        self.iterations = 0
        self.tree_depth = 0

    def iterate(self, deadline=None):
        node, path = self.root, [self.root]
        while not node.untried and node.children:
            node = node.best_child(self.c)
            path.append(node)
        if node.untried and (self.max_depth is None or node.depth < self.max_depth):
            move = node.untried.pop()
            child = Node(node.state.child(move), move, node.state.current_player(),
                         node.depth + 1, self.rng, self.setups)
            node.children.append(child)
            node = child
            path.append(node)
            self.tree_depth = max(self.tree_depth, node.depth)
        rewards = playout(node.state.copy(), self.rng, self.rollout_plies, deadline)
        for n in path:
            n.visits += 1
            if n.mover:
                n.value += rewards[n.mover - 1]
        self.iterations += 1

    def best(self):
        return max(self.root.children, key=lambda ch: (ch.visits, ch.value))

    def principal_variation(self, limit=8):
        pv, node = [], self.root
        while node.children and len(pv) < limit:
            node = max(node.children, key=lambda ch: (ch.visits, ch.value))
            pv.append(node.move)
        return pv


def choose(state, limits):
    """The SDK's search function: a move for the player to move in `state`."""
    opts = limits.options
    search = Search(state, limits.seed, exploration=opts.get("Exploration", 140) / 100.0,
                    rollout_plies=opts.get("RolloutPlies", 200), setups=opts.get("Setups", 8),
                    max_depth=None if limits.depth is None else max(1, limits.depth))
    if len(search.root.untried) == 1:
        return search.root.untried[0]  # one move: nothing to search
    deadline = None if limits.infinite else limits.deadline()
    iterations = None
    if limits.nodes is not None:
        iterations = max(1, limits.nodes)
    elif limits.depth is not None:
        iterations = ITERATIONS_PER_DEPTH * max(1, limits.depth)
    elif deadline is None and not limits.infinite:
        iterations = DEFAULT_ITERATIONS
    if deadline is None and not limits.infinite:
        deadline = limits.start + LIMITED_SEARCH_CAP_S
    gc.disable()  # the tree has no cycles; a collection pass over it only costs time
    try:
        while True:
            search.iterate(deadline)
            if limits.stopped():
                break
            if iterations is not None and search.iterations >= iterations:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        gc.enable()
    best = search.best()
    expected = best.value / best.visits
    cp = int(round(400 * math.log10(max(1e-6, expected) / max(1e-6, 1 - expected))))
    limits.info("depth %d nodes %d time %d score cp %d pv %s" % (
        search.tree_depth, search.iterations, int(limits.elapsed_ms()), cp,
        " ".join(search.principal_variation())))
    return best.move


def main():
    return sdk.run(choose, name="mcts_engine.py", author="referee examples", options=OPTIONS,
                   search_setups=True)


if __name__ == "__main__":
    sys.exit(main())
