#!/usr/bin/python3
"""Browser test: the board gallery draws every game family from games stored by a real event.

Before the daemon starts, `referee tournament` plays into its database one short real event of
every game (two seeded random example engines, movetime=10, two random opening plies, one game
pair each; perali-kotuma also with huffing) and oware for 3, 4 and 6 players (every seating of as
many random engines). Then `referee serve` serves that database and headless Chromium loads the
gallery page (referee/service/dashboard/gallery.html), which draws by itself, from the daemon, the
latest stored game of each board at its start and last ply. The test checks the page chose those
games and plies, then has it draw, by script, the stored games' views the daemon gives
(/api/games/ID/position?ply=K): the start, a ply in play and the last ply of each, and a
pallankuli position with blind holes found in the stored games (rounds after the first).

Checks: every family is drawn (the 2x6 and 2x7 boards, stores, columns, blind holes, oware's
ring, 4x8, 4x16, alquerque, felli, permainan); each daemon view equals the one `referee show`
replays from the stored moves (read with `referee export` from the database file, not from the
daemon); per board, one SVG cell per view cell, each cell's data-* attributes (seeds, piece, kind)
equal to the view's, and a screenshot (saved under --artifacts) that is not blank; at a phone width
(375 px) the page does not overflow sideways and each family's screenshot is not blank either.

Over 20 s (about 30 s, 55 s under the sanitizers): it first plays a real event of every game
(the gallery draws stored games), then starts Chromium and draws some 50 boards at two widths.

Usage: gallery_test.py --referee BIN --random RANDOM_ENGINE --artifacts DIR
"""

import json
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()

VARIANTS = ["perali-kotuma:huffing=on"]
MULTI = [3, 4, 6]  # oware's other numbers of players: one event each
FAMILIES = {"2x6", "2x6-stores", "2x6-columns", "2x7", "2x7-blind", "oware-ring", "4x8", "4x16",
            "alquerque", "felli", "permainan"}


def game_names(referee):
    return [line.split()[0] for line in browser.run([referee, "games"]).splitlines() if line.strip()]


def event_file(name, games, engines, random_engine):
    text = (f'name = "{name}"\ngames = {json.dumps(games)}\ncycles = 1\nconcurrency = 2\n'
            'tc = "movetime=10"\nseed = 11\n[openings]\nrandom_plies = 2\n')
    for i in range(engines):
        text += (f'[[engine]]\nname = "random{i + 1}"\ncommand = "{os.path.abspath(random_engine)}"\n'
                 f'args = ["--seed", "{i + 1}"]\n')
    return text


def play_events(referee, random_engine, folder, db):
    """Plays the events into `db`; returns the stored games (`referee export`, JSON Lines)."""
    events = [("every game", game_names(referee) + VARIANTS, 2)]
    events += [(f"oware for {n}", [f"oware:players={n}"], n) for n in MULTI]
    for name, games, engines in events:
        path = os.path.join(folder, re.sub(r"\W+", "-", name) + ".toml")
        with open(path, "w") as f:
            f.write(event_file(name, games, engines, random_engine))
        browser.run([referee, "tournament", path, "--db", db], timeout=300)
    stored = [json.loads(line) for line in
              browser.run([referee, "export", "--format", "jsonl", "--db", db]).splitlines()]
    if not stored or any(g["status"] != "finished" for g in stored):
        browser.fail(f"the events left {[g['status'] for g in stored]}")
    return stored


def board_key(game):
    """As gallery.js tells boards apart: the name, and `players=N` where the game has it."""
    name, _, params = game.partition(":")
    players = [p for p in params.split(",") if p.startswith("players=")]
    return f"{name}:{players[0]}" if players else name


def moves_of(game):
    moves = [m["move"] for m in game["moves"]]
    if len(moves) != game["plies"]:
        browser.fail(f"game {game['id']}: {len(moves)} moves stored for {game['plies']} plies")
    return moves


def replayed_view(referee, game, ply):
    """The view of a stored game at `ply`, replayed by `referee show` from its stored moves."""
    moves = moves_of(game)[:ply]
    return json.loads(browser.run([referee, "show", game["game"], "--json"]
                                  + (["--position", game["start_position"]] if game["start_position"] else [])
                                  + (["--moves"] + moves if moves else [])))["view"]


def daemon_position(d, game_id, ply):
    with urllib.request.urlopen(f"{d.url}/api/games/{game_id}/position?ply={ply}", timeout=30) as r:
        return json.loads(r.read())


def latest_by_board(stored):
    """The latest stored game of each board, as gallery.js picks it (the highest id)."""
    latest = {}
    for g in sorted(stored, key=lambda g: g["id"]):
        latest[board_key(g["game"])] = g
    return latest


def blind_ply(d, games):
    """(game, ply) of a stored pallankuli position with a blind hole: rounds after the first
    begin at the moves noted "round N", with the holes a player could not fill left blind."""
    for g in games:
        for m in g["moves"]:
            if m.get("note", "").startswith("round"):
                for ply in (m["ply"] - 1, m["ply"]):
                    if any(c["kind"] == "blind" for c in daemon_position(d, g["id"], ply)["view"]["cells"]):
                        return g, ply
    browser.fail("no stored pallankuli game has a position with a blind hole")


def gallery_boards(referee, d, stored):
    """The boards the test has the page draw: start, in play and last of the latest game of each
    board, and a blind pallankuli position; each view from the daemon, checked against the rules."""
    picks = []
    for key, g in sorted(latest_by_board(stored).items()):
        for stage, ply in (("start", 0), ("play", min(14, g["plies"])), ("last", g["plies"])):
            picks.append((key, stage, g, ply))
    pallankuli = [g for g in stored if board_key(g["game"]) == "pallankuli"]
    g, ply = blind_ply(d, pallankuli)
    picks.append(("pallankuli", "blind", g, ply))
    boards = []
    for key, stage, g, ply in picks:
        shown = daemon_position(d, g["id"], ply)
        if shown["view"] != replayed_view(referee, g, ply):
            browser.fail(f"game {g['id']} at ply {ply}: the daemon's view differs from the replay")
        boards.append({"title": f"{key} · {stage} · game {g['id']} · ply {ply}", "game": g["game"],
                       "key": key, "stage": stage, "gameId": g["id"], "ply": ply,
                       "position": shown["position"], "view": shown["view"]})
    return {"boards": boards}


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


CELL_ATTRS = """
const card = document.getElementById(arguments[0]);
const svg = card.querySelector('svg.board');
if (!svg) return null;
return Array.from(svg.querySelectorAll('g.cell')).map(g => ({
  id: g.dataset.id, kind: g.dataset.kind, count: g.dataset.count ?? null,
  player: g.dataset.player ?? null, king: g.dataset.king ?? null, mark: g.dataset.mark}));
"""


def check_board(b, index, board):
    cells = b.js(CELL_ATTRS, f"card-{index}")
    view = board["view"]
    what = board["title"]
    if cells is None:
        browser.fail(f"{what}: no SVG board drawn")
    if len(cells) != len(view["cells"]):
        browser.fail(f"{what}: {len(cells)} cells drawn, the view has {len(view['cells'])}")
    drawn = {c["id"]: c for c in cells}
    for c in view["cells"]:
        d = drawn.get(c["id"])
        if d is None or d["kind"] != c["kind"]:
            browser.fail(f"{what}: cell {c['id']} ({c['kind']}) drawn as {d}")
        want_count = None if c["count"] is None else str(c["count"])
        if d["count"] != want_count:
            browser.fail(f"{what}: cell {c['id']} shows {d['count']} seeds, the view has {want_count}")
        want_player = None if c["piece"] is None else str(c["piece"]["player"])
        if d["player"] != want_player:
            browser.fail(f"{what}: point {c['id']} shows player {d['player']}, the view has {want_player}")
        if c["piece"] is not None and d["king"] != str(c["piece"]["king"]).lower():
            browser.fail(f"{what}: point {c['id']} king {d['king']}")
        if d["mark"] != str(c["mark"]).lower():
            browser.fail(f"{what}: cell {c['id']} mark {d['mark']}")


PAGE_CARDS = """return Array.from(document.querySelectorAll('.gallery-card')).map(c => ({
  game: c.dataset.game, stage: c.dataset.stage, gameId: Number(c.dataset.gameId),
  ply: Number(c.dataset.ply)}));"""


def main():
    started = time.monotonic()
    args, out = browser.test_arguments("gallery", "random")
    folder = tempfile.mkdtemp(prefix="referee-gallery-")
    try:
        db = os.path.join(folder, "games.db")
        stored = play_events(args.referee, args.random, folder, db)
        latest = latest_by_board(stored)
        print(f"played {len(stored)} games of {len(latest)} boards in {time.monotonic() - started:.1f} s")
        with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, concurrency=1, db=db) as d:
            run(b, d, args, stored, latest, out)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"PASSED in {time.monotonic() - started:.1f} s")


def run(b, d, args, stored, latest, out):
    # By itself, the page draws the latest stored game of each board, at its start and last ply.
    b.driver.get(f"{d.url}/static/gallery.html")
    b.wait("the gallery drawn from the daemon's games", lambda: b.js("return document.body.dataset.ready;") == "1")
    got = sorted((c["game"], c["stage"], c["gameId"], c["ply"]) for c in b.js(PAGE_CARDS))
    want = sorted((g["game"], stage, g["id"], ply) for g in latest.values()
                  for stage, ply in (("start", 0), ("last", g["plies"])))
    if got != want:
        browser.fail(f"the gallery drew {got}, the latest stored games are {want}")
    b.screenshot(None, os.path.join(out, "page-from-database.png"))

    # Then, by script, the stored games' views at their start, in play, at the last ply, and a
    # blind pallankuli position.
    data = gallery_boards(args.referee, d, stored)
    families = {board["view"]["family"] for board in data["boards"]}
    if not FAMILIES <= families:
        browser.fail(f"families missing from the stored games: {sorted(FAMILIES - families)}")
    b.js("window.showGallery(arguments[0]);", data)
    b.wait("the gallery to draw the stored games' views",
           lambda: b.js("return document.querySelectorAll('.gallery-card').length;") == len(data["boards"]))
    # The blank check itself must catch a blank picture.
    blank = b.js("""const d = document.createElement('div'); d.id = 'blank-probe';
        d.style.cssText = 'width:300px;height:200px;background:#fff';
        document.body.prepend(d); return d;""")
    colours, deviation = browser.image_stats(blank.screenshot_as_png)
    if colours >= 12 or deviation >= 8.0:
        browser.fail(f"a white box passes the blank check ({colours} colours, {deviation:.1f})")
    b.js("document.getElementById('blank-probe').remove();")
    for i, board in enumerate(data["boards"]):
        check_board(b, i, board)
        card = b.driver.find_element("id", f"card-{i}")
        b.js("arguments[0].scrollIntoView({block: 'center'});", card)
        png = b.screenshot(card, os.path.join(out, f"{safe_name(board['key'])}-{board['stage']}.png"))
        browser.check_not_blank(png, board["title"])
    print(f"desktop: {len(data['boards'])} boards checked and saved under {out}")

    # A phone's width: one column, no sideways scrolling, every family still drawn.
    b.resize(browser.PHONE)
    b.wait("the phone layout", lambda: b.js("return matchMedia('(max-width: 720px)').matches;"))
    browser.check_fits(b, "the gallery")
    done = set()
    for i, board in enumerate(data["boards"]):
        family = board["view"]["family"]
        if family in done:
            continue
        done.add(family)
        check_board(b, i, board)
        portrait = b.js(f"return document.querySelector('#card-{i} svg.board').dataset.portrait;")
        if (portrait == "true") != (family == "4x16"):
            browser.fail(f"{board['title']}: portrait is {portrait} at a phone width")
        card = b.driver.find_element("id", f"card-{i}")
        width = b.js("return arguments[0].querySelector('svg.board').getBoundingClientRect().width;", card)
        if not 0 < width <= browser.PHONE[0]:
            browser.fail(f"{board['title']}: the board is {width} px wide on a phone")
        b.js("arguments[0].scrollIntoView({block: 'center'});", card)
        png = b.screenshot(card, os.path.join(out, f"phone-{safe_name(family)}.png"))
        browser.check_not_blank(png, f"{board['title']} at a phone width")
    errors = b.console_errors()
    if errors:
        browser.fail(f"console errors: {errors}")
    print(f"phone: {len(done)} families checked: {', '.join(sorted(done))}")


if __name__ == "__main__":
    main()
