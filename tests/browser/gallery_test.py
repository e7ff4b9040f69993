#!/usr/bin/python3
"""Browser test: the board gallery draws every game family in headless Chromium.

For every game (and oware with 3, 4 and 6 players) the views of the start position and of a
position some plies in (moves drawn by a seeded generator from `referee moves`) come from
`referee show GAME --json`; the gallery page (referee/service/dashboard/gallery.html) draws them.
Checks, per board: one SVG cell per view cell, each cell's data-* attributes (seeds, piece, kind)
equal to the view's, and a screenshot (saved under --artifacts) that is not blank; at a phone width
(375 px) the page does not overflow sideways and each family's screenshot is not blank either.

The page is served by a real `referee serve` (the dashboard's files embedded in the binary, on a
free loopback port, no event); the views are handed to the page by script.

Usage: gallery_test.py --referee BIN --artifacts DIR
"""

import argparse
import json
import os
import random
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()

VARIANTS = ["oware:players=3", "oware:players=4", "oware:players=6", "perali-kotuma:huffing=on"]
# Positions random plies do not reach: pallankuli's second round with blind holes.
POSITIONS = [("pallankuli", "blind", "2,6,6,6,6,6,6/6,6,6,2,x,x,x:26,0:1:2:1:0:0")]


def game_names(referee):
    return [line.split()[0] for line in browser.run([referee, "games"]).splitlines() if line.strip()]


def setup_move(form, rng):
    """A setup move for a form such as "=c1,...,c6: 6 counts for holes ... sum 24"."""
    m = re.search(r"(\d+) counts .* sum (\d+)", form)
    if not m:
        browser.fail(f"cannot read the setup form '{form}'")
    n, total = int(m.group(1)), int(m.group(2))
    counts = [0] * n
    for _ in range(total):
        counts[rng.randrange(n)] += 1
    return "=" + ",".join(map(str, counts))


def mid_game(referee, spec, plies, seed):
    """Moves of a game `plies` plies in (fewer if it ends), drawn from `referee moves`."""
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        # "key: value" lines (PROTOCOL.md §11); status 3 once the game is over.
        out, status = browser.run([referee, "moves", spec] + (["--moves"] + moves if moves else []),
                                  ok=(0, 3))
        if status == 3:
            break
        facts = dict((line.split(":", 1) + [""])[:2] for line in out.splitlines())
        if facts.get("setup", "").strip():
            moves.append(setup_move(facts["setup"], rng))
        else:
            moves.append(rng.choice(facts["legal"].split()))
    return moves


def show(referee, spec, moves, position=""):
    return json.loads(browser.run([referee, "show", spec, "--json"]
                                  + (["--position", position] if position else [])
                                  + (["--moves"] + moves if moves else [])))


def gallery_data(referee):
    boards = []
    for i, spec in enumerate(game_names(referee) + VARIANTS):
        for stage, moves in (("start", []), ("play", mid_game(referee, spec, 14, 1000 + i))):
            shown = show(referee, spec, moves)
            boards.append({"title": f"{spec} · {stage}" + (f" (ply {shown['ply']})" if moves else ""),
                           "game": spec, "stage": stage, "position": shown["position"],
                           "view": shown["view"]})
    for spec, stage, position in POSITIONS:
        shown = show(referee, spec, [], position)
        boards.append({"title": f"{spec} · {stage}", "game": spec, "stage": stage,
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--referee", required=True)
    ap.add_argument("--artifacts", required=True)
    args = ap.parse_args()

    data = gallery_data(args.referee)
    families = sorted({b["view"]["family"] for b in data["boards"]})
    expected = {"2x6", "2x6-stores", "2x6-columns", "2x7", "2x7-blind", "oware-ring", "4x8", "4x16",
                "alquerque", "felli", "permainan"}
    if not expected <= set(families):
        browser.fail(f"families missing from the views: {sorted(expected - set(families))}")
    if not any(c["kind"] == "blind" for b in data["boards"] for c in b["view"]["cells"]):
        browser.fail("no view with a blind hole")
    out = os.path.join(args.artifacts, "gallery")
    shutil.rmtree(out, ignore_errors=True)
    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, concurrency=1) as d:
        b.driver.get(f"{d.url}/static/gallery.html")
        b.wait("the gallery script", lambda: b.js("return typeof window.showGallery === 'function';"))
        b.js("window.showGallery(arguments[0]);", data)
        b.wait("the gallery to be drawn", lambda: b.js("return document.body.dataset.ready;"))
        if b.js("return document.body.dataset.ready;") != "1":
            browser.fail("the gallery did not load its data: "
                         + b.js("return document.getElementById('gallery-status').textContent;"))
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
            png = b.screenshot(card, os.path.join(out, f"{safe_name(board['game'])}-{board['stage']}.png"))
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
    print("PASSED")


if __name__ == "__main__":
    main()
