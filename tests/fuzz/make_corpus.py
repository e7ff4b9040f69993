#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target into tests/fuzz/corpus/<target>/ (README.md here).

Run from the repository with a built referee: tests/fuzz/make_corpus.py build/referee/referee.
Positions and moves come from the referee itself (start positions, random walks through legal
moves), protocol lines from protocol/PROTOCOL.md, tournament files from examples/tournaments/.
Deterministic (fixed seed); files the fuzzers found and someone added by hand are kept.
"""
import json
import pathlib
import random
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"


def run(referee, *args):
    return subprocess.run([referee, *args], capture_output=True, text=True, check=False).stdout


def write(target, name, data):
    path = CORPUS / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def positions(referee, rng):
    games = [line.split()[0] for line in run(referee, "games").splitlines()]
    specs = games + ["oware:players=3", "oware:players=6", "awale:grandslam=illegal",
                     "perali-kotuma:huffing=on", "awale:maxplies=6", "surakarta"]
    for spec in specs:
        name = spec.replace(":", "_").replace("=", "-")
        write("positions", name + "-walk", spec + "\n\n@" + "".join(
            chr(rng.randrange(32, 127)) for _ in range(60)))
        # A random line of legal moves, as text, and the position it reaches.
        moves = []
        for _ in range(12):
            # "key: value" lines: position, player, setup, forced, legal (result once over).
            out = run(referee, "moves", spec, *(["--moves", *moves] if moves else []))
            keys = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
            legal = keys.get("legal", "").split()
            if "setup" in keys or "result" in keys or not legal:
                break
            moves.append(rng.choice(legal))
        if moves:
            write("positions", name + "-moves", spec + "\n\n" + "\n".join(moves) + "\n")
            shown = run(referee, "show", spec, "--moves", *moves)
            found = re.search(r"^position: (\S+)$", shown, re.M)
            if found:
                write("positions", name + "-position",
                      spec + "\n" + found.group(1) + "\n@" + chr(rng.randrange(32, 127)) * 4)


def protocol():
    text = (ROOT / "protocol" / "PROTOCOL.md").read_text()
    seen = set()
    for line in text.splitlines():
        found = re.match(r"^([RE]): (.*?)(\s{2,}\(.*)?$", line)
        if not found or found.group(2) in seen or "…" in found.group(2) or "..." in found.group(2):
            continue
        seen.add(found.group(2))
        word = re.sub(r"[^a-z0-9]+", "-", found.group(2).lower())[:40].strip("-")
        write("protocol", f"{found.group(1)}-{word}", found.group(1) + found.group(2))
    for line in ["bestmove resign", "bestmove", "readyok", "error unsupported-game chess",
                 "info depth 3 score mate -2 nodes 99 pv 1 7 2", "id protocol 1",
                 "option name Style type combo default calm var calm var wild"]:
        write("protocol", "E-" + re.sub(r"[^a-z0-9]+", "-", line.lower())[:40], "E" + line)
    for line in ["go infinite", "position fen 4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0 moves 3",
                 "gameover draw maxplies", "setoption name Hash value 16", "stop", "quit"]:
        write("protocol", "R-" + re.sub(r"[^a-z0-9]+", "-", line.lower())[:40], "R" + line)


def time_controls():
    for i, tc in enumerate(["10+0.1", "40/60+0.5", "60", "0.25+0.005", "movetime=200", "depth=6",
                            "nodes=5000,cap=3000", "10+0.1,margin=100", "5+0,depth=4",
                            "movetime=100,margin=0", "3/1.5", "1000000", "100000/1+0",
                            "nodes=1000000000000000", "10+0.1,cap=3000"]):
        write("time_control", f"tc-{i:02d}", tc + "\n" + "".join(
            chr(c) for c in [0, 100, 3, 232, 0, 0, 39, 16, 0, 50]))


def tournament_files():
    for path in sorted((ROOT / "examples" / "tournaments").glob("*.toml")):
        write("tournament_file", path.stem + ".toml", path.read_text())
    engines = [{"name": "a", "command": "./a"}, {"name": "b", "command": "/usr/bin/b",
                                                 "args": ["--x"], "options": {"Hash": 16}}]
    write("tournament_file", "small.json", json.dumps(
        {"name": "j", "games": ["awale"], "tc": "movetime=50", "cycles": 2, "engine": engines}))
    write("tournament_file", "full.json", json.dumps(
        {"name": "f", "games": ["awale", "oware:players=3"], "tc": "40/60+0.5",
         "format": "gauntlet", "seed": 9, "concurrency": 2, "max_crashes": 4,
         "openings": {"random_plies": 3, "per_pairing": 2},
         "engine": engines + [{"name": "c", "command": "c", "tc": "10+0.1", "protocol0": True,
                               "env": {"LANG": "C"}, "memory_mb": 64}]}))
    head = 'name = "t"\ngames = ["awale"]\ntc = "10+0.1"\n'
    two = '[[engine]]\nname = "a"\ncommand = "bin/a"\n[[engine]]\nname = "b"\ncommand = "b"\n'
    variants = {
        "minimal": head + two,
        "gauntlet": head + 'format = "gauntlet"\ncycles = 3\n' + two +
                    '[[engine]]\nname = "c"\ncommand = "c"\n',
        "openings": head + '[openings]\nrandom_plies = 4\nper_pairing = 2\n' + two,
        "engine-keys": head + two + 'args = ["--a", "b c"]\ndir = "w"\ntc = "movetime=100"\n'
                       'protocol0 = true\nstart_timeout_ms = 1500\nready_timeout_ms = 700\n'
                       'memory_mb = 256\ncpu_seconds = 60\nprocesses = 8\n'
                       'options = { Hash = 16, Ponder = false, Style = "calm" }\n'
                       'env = { LANG = "C" }\n',
        "book": head + '[openings]\nbook = "/etc/hostname"\n' + two,
        "too-large": head + 'cycles = 100000\n[openings]\nper_pairing = 10000\n' + two,
        "kalaha-oware": 'name = "k"\ngames = ["kalaha", "oware:players=4"]\ntc = "depth=3"\n' +
                        two + '[[engine]]\nname = "c"\ncommand = "c"\n'
                        '[[engine]]\nname = "d"\ncommand = "d"\n',
    }
    for name, text in variants.items():
        write("tournament_file", name + ".toml", text)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py PATH/TO/referee")
    rng = random.Random(2026)
    positions(sys.argv[1], rng)
    protocol()
    time_controls()
    tournament_files()


if __name__ == "__main__":
    main()
