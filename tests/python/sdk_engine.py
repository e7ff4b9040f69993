"""A small engine on the Python SDK for test_sdk.py; its behaviour is chosen by argv[1]:

first   the first legal move
seeded  legal_moves()[limits.seed % count], and `info string seed <seed> options <options>`
slow    searches until stopped (info lines every 10 ms), then the first move
budget  waits until limits.deadline() (or until stopped), then the first move
crash   raises in the search
none    returns None
print   print()s from the search, then the first move
setups  search_setups=True: answers setups itself with "=setup-by-search" unless the form is
        empty (the referee would refuse it: the test only checks who answered)
"""

import sys
import time

import referee_engine as sdk

MODE = sys.argv[1] if len(sys.argv) > 1 else "first"


def search(state, limits):
    if MODE == "seeded":
        limits.info("string seed %d options %s" % (limits.seed, sorted(limits.options.items())))
        moves = state.legal_moves()
        return moves[limits.seed % len(moves)]
    if MODE == "slow":
        while not limits.stopped():
            limits.info("nodes %d" % int(limits.elapsed_ms()))
            time.sleep(0.01)
    if MODE == "budget":
        deadline = limits.deadline()
        while not limits.stopped() and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.002)
        limits.info("string waited %d" % int(limits.elapsed_ms()))
    if MODE == "crash":
        raise RuntimeError("boom")
    if MODE == "none":
        return None
    if MODE == "print":
        print("this goes to stderr")
    if MODE == "setups" and state.setup_form():
        return "=setup-by-search"
    return state.legal_moves()[0]


sys.exit(sdk.run(search, name="sdk test engine", author="tests",
                 options=[sdk.Option("Width", "spin", 3, 1, 9),
                          sdk.Option("Fast", "check", False),
                          sdk.Option("Style", "combo", "calm", vars=["calm", "wild"]),
                          sdk.Option("Note", "string", "")],
                 search_setups=MODE == "setups"))
