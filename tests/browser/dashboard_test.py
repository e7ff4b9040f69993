#!/usr/bin/python3
"""Browser test: the dashboard served by a real `referee serve` running a real event.

The daemon plays an event (awale and felli between a slowed mock engine and the random example
engine, two games at a time, a few seconds a game) and headless Chromium checks, on the pages the
daemon serves:
- the live page shows the running games' boards;
- the events page lists the event and leads to its page;
- the standings appear, and change as games finish (their game count follows the event's); the
  Elo chart draws finite ratings, one-sided bounds and unrated engines (a made-up table); a
  table with bounds and a lone reference rating shows figures in rank order, `ref` and its legend;
- a live board shows the position stored in the database for its game: the board's cells (data-*
  attributes: seeds per hole, piece per point) equal the stored position at the ply the board
  shows, the position string decoded here, independently of the rules library;
- the game viewer steps through a finished game (buttons and keys) to its stored result and final
  position (from `referee export` on the database and `referee show` replaying the stored moves);
- pause and resume work from the event page once a token is set in the settings;
- a ladder of two registered engines shows its standings on the ladder page;
- the engines page shows an uploaded engine's versions (label, short hash with the full one on
  hover, uploader, retired);
- the gallery page draws the latest stored game of each board (game) from the database;
- the pages fit a phone's width (375 px) and a desktop's; screenshots of each go to --artifacts.

Over 20 s (about 30 s): the daemon plays its event in real time (a few seconds a game) while
the pages are checked at each stage, from the first live board to the finished standings.

Usage: dashboard_test.py --referee BIN --mock MOCK_ENGINE --random RANDOM_ENGINE --artifacts DIR
"""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def event_file(mock, random_engine):
    return f"""name = "browser test event"
games = ["awale:maxplies=60", "felli:maxplies=60"]
cycles = 2
tc = "30+0.5"
seed = 7
[openings]
random_plies = 2
[[engine]]
name = "mock"
command = "{mock}"
args = ["--slow-ms=250", "--spam-info=2"]
[[engine]]
name = "random"
command = "{random_engine}"
args = ["--seed", "5"]
"""


def decode_position(position):
    """The board field of a position string as {cell id: (seeds, None) or (None, piece)}: mancala
    hole counts by hole number, or grid points by name with (player, king) or None."""
    board = position.split(":")[0]
    out = {}
    if re.fullmatch(r"[0-9x,/]+", board) and "," in board:
        hole = 1
        for block in board.split("/"):
            for n in block.split(","):
                out[str(hole)] = (None if n == "x" else int(n), None)
                hole += 1
        return out
    ranks = board.split("/")
    for r, text in enumerate(ranks):
        rank = len(ranks) - r
        file = 0
        for c in text:
            if c.isdigit():
                for _ in range(int(c)):
                    out[f"{chr(97 + file)}{rank}"] = (None, None)
                    file += 1
            else:
                if c != "-":
                    piece = (1 if c.lower() == "x" else 2, c.isupper())
                    out[f"{chr(97 + file)}{rank}"] = (None, piece)
                file += 1
    return out


def check_cells_match(cells, position, what):
    """`cells` (data-* of the drawn SVG) show exactly `position`."""
    want = decode_position(position)
    drawn = {c["id"]: c for c in cells if c["kind"] in ("hole", "blind", "point")}
    if set(drawn) != set(want):
        browser.fail(f"{what}: cells drawn {sorted(drawn)} but the position has {sorted(want)}")
    for cid, (seeds, piece) in want.items():
        c = drawn[cid]
        if c["kind"] == "point":
            got = None if c["player"] is None else (int(c["player"]), c["king"] == "true")
            if got != piece:
                browser.fail(f"{what}: point {cid} shows {got}, the stored position has {piece} ({position})")
        elif (None if c["count"] is None else int(c["count"])) != seeds:
            browser.fail(f"{what}: hole {cid} shows {c['count']} seeds, the stored position has {seeds} ({position})")


# Every running game's live board at one instant (cards are redrawn at each move: no element is
# held across calls).
LIVE_CARDS = """
return Array.from(document.querySelectorAll('#live .live-card[data-finished="0"]')).map(card => ({
  id: Number(card.dataset.gameId), ply: Number(card.dataset.ply), position: card.dataset.position,
  cells: Array.from(card.querySelectorAll('svg.board g.cell')).map(g => ({id: g.dataset.id,
    kind: g.dataset.kind, count: g.dataset.count ?? null, player: g.dataset.player ?? null,
    king: g.dataset.king ?? null}))}));
"""


VIEWER_CELLS = """
return Array.from(document.querySelectorAll('#viewer svg.board g.cell')).map(g => ({id: g.dataset.id,
  kind: g.dataset.kind, count: g.dataset.count ?? null, player: g.dataset.player ?? null,
  king: g.dataset.king ?? null}));
"""


# The Elo chart of a made-up table with every kind of rating: finite, one-sided bounds, unrated.
CHART_PROBE = """
const done = arguments[arguments.length - 1];
import('/static/chart.js').then((m) => {
  const rows = [
    {engine: 'finite', elo: 20, error: 30, lower: -10, upper: 50, bound: null},
    {engine: 'won-all', elo: 150, error: null, lower: 150, upper: null, bound: 'lower'},
    {engine: 'lost-all', elo: -180, error: null, lower: null, upper: -180, bound: 'upper'},
    {engine: 'no-game', elo: null, error: null, lower: null, upper: null, bound: 'unrated'}];
  const svg = m.eloChart({game: 'probe', confidence: 95, rows});
  document.body.appendChild(svg);
  const out = {};
  for (const g of svg.querySelectorAll('g.elo-row'))
    out[g.dataset.engine] = {text: g.lastElementChild.textContent, dots: g.querySelectorAll('circle').length,
      arrows: g.querySelectorAll('.bound-arrow').length, bars: g.querySelectorAll('.error-bar').length};
  out.nan = svg.outerHTML.includes('NaN');
  svg.remove();
  done(out);
}).catch((e) => done({error: String(e)}));
"""


def check_chart(b):
    got = b.driver.execute_async_script(CHART_PROBE)
    want = {"finite": {"text": "+20 ±30", "dots": 1, "arrows": 0, "bars": 1},
            "won-all": {"text": "> +150", "dots": 0, "arrows": 1, "bars": 1},
            "lost-all": {"text": "< -180", "dots": 0, "arrows": 1, "bars": 1},
            "no-game": {"text": "unrated", "dots": 0, "arrows": 0, "bars": 0}}
    for name, w in want.items():
        if got.get(name) != w:
            browser.fail(f"Elo chart row {name}: drawn {got.get(name)}, expected {w} (whole: {got})")
    if got.get("nan"):
        browser.fail("Elo chart: NaN in the drawing")


# The standings panel of a made-up table from a real daemon's shapes: a perfect winner over the
# group's only finite rating (the reference) and an engine that lost every game; the figures must
# follow the ranks as the daemon gives them, the reference must not read as a measured "± 0", and
# the table's legend lines are shown.
STANDINGS_PROBE = """
const done = arguments[arguments.length - 1];
import('/static/tables.js').then((m) => {
  const legend = ['> X (< X): won (lost) every game against the engines with finite ratings',
                  'ref: the only engine with a finite rating in its group'];
  const rows = [
    {rank: 1, engine: 'won-all', elo: 0, text: '> 0.0', error: null, lower: 0, upper: null, bound: 'lower',
     limit: -290.5, reference: false, games: 4, w: 4, d: 0, l: 0, score: 1, los: null},
    {rank: 2, engine: 'alone', elo: 0, text: '0.0', error: null, lower: null, upper: null, bound: null,
     limit: null, reference: true, games: 8, w: 4, d: 0, l: 4, score: 0.5, los: null},
    {rank: 3, engine: 'lost-all', elo: 0, text: '< 0.0', error: null, lower: null, upper: 0, bound: 'upper',
     limit: 290.5, reference: false, games: 4, w: 0, d: 0, l: 4, score: 0, los: null}];
  const panel = m.standingsPanel({confidence: 95, tables: [{game: 'awale', games: 8, legend, rows}]});
  const box = document.createElement('div');
  for (const n of [].concat(panel)) box.appendChild(n);
  document.body.appendChild(box);
  const out = {rows: {}, legend: Array.from(box.querySelectorAll('p.legend')).map((p) => p.textContent)};
  for (const tr of box.querySelectorAll('tr[data-engine]'))
    out.rows[tr.dataset.engine] = [tr.children[2].textContent, tr.children[3].textContent];
  out.chart = {};
  for (const g of box.querySelectorAll('g.elo-row')) out.chart[g.dataset.engine] = g.lastElementChild.textContent;
  box.remove();
  done(out);
}).catch((e) => done({error: String(e)}));
"""


def check_standings_bounds(b):
    got = b.driver.execute_async_script(STANDINGS_PROBE)
    want_rows = {"won-all": ["> 0.0", ""], "alone": ["0.0", "ref"], "lost-all": ["< 0.0", ""]}
    if got.get("rows") != want_rows:
        browser.fail(f"standings with bounds: rows {got.get('rows')}, expected {want_rows} (whole: {got})")
    if len(got.get("legend") or []) != 2 or not got["legend"][1].startswith("ref: "):
        browser.fail(f"standings with bounds: legend {got.get('legend')}, expected the table's two lines")
    if got.get("chart", {}).get("alone") != "0 ref":
        browser.fail(f"standings with bounds: the reference's chart label is {got.get('chart')}, expected '0 ref'")


# The terminations table of the event page: {engine: {games, kinds: {kind: count}}}.
PAGE_TERMINATIONS = """
return Object.fromEntries(Array.from(document.querySelectorAll('#terminations tr[data-engine]')).map(r =>
  [r.dataset.engine, {games: Number(r.children[1].textContent), kinds: Object.fromEntries(
    Array.from(r.querySelectorAll('td[data-kind]')).map(c => [c.dataset.kind, Number(c.textContent)]))}]));
"""


# The terminations panel of made-up counts: one engine lost on time and by a crash.
TERMINATIONS_PROBE = """
const done = arguments[arguments.length - 1];
import('/static/tables.js').then((m) => {
  const zero = {time: 0, crash: 0, illegal: 0, stall: 0, protocol: 0, resign: 0, other: {}};
  const panel = m.terminationsPanel({engines: {
    flaky: {...zero, games: 5, time: 2, crash: 1, other: {rules: 2}}, solid: {...zero, games: 5}}});
  document.body.appendChild(panel);
  const out = {heads: Array.from(panel.querySelectorAll('th')).map(x => x.textContent),
    flaky: Array.from(panel.querySelectorAll('tr[data-engine="flaky"] td')).map(x => x.textContent),
    errors: panel.querySelectorAll('td.error').length,
    none: panel.querySelector('[data-none]')?.dataset.none ?? null};
  panel.remove();
  done(out);
}).catch((e) => done({error: String(e)}));
"""


def check_terminations_panel(b):
    got = b.driver.execute_async_script(TERMINATIONS_PROBE)
    want = {"heads": ["engine", "games", "time", "crash", "other endings"],
            "flaky": ["flaky", "5", "2", "1", "rules 2"], "errors": 2, "none": "illegal stall protocol resign"}
    if got != want:
        browser.fail(f"terminations panel of made-up counts: {got}, expected {want}")


def standings_games(b):
    """The finished games the event page's standings count (every game's table but "all games"),
    or None before the first table."""
    return b.js("""const t = Array.from(document.querySelectorAll('#standings .standings'))
                     .filter(t => t.dataset.game !== 'all games');
                   return t.length ? t.reduce((n, x) => n + Number(x.dataset.games), 0) : null;""")


def main():
    args, out = browser.test_arguments("dashboard", "mock", "random")
    shot = lambda name: os.path.join(out, name)  # noqa: E731

    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, concurrency=2) as d:
        # Engine commands are paths on the daemon's side, which runs in its own folder.
        engines = (os.path.abspath(args.mock), os.path.abspath(args.random))
        event = d.api("/api/events", event_file(*engines), content_type="application/toml")
        eid = event["id"]
        total = event["scheduled"]

        # The live page: every running game's board, drawn from the stream.
        b.driver.get(f"{d.url}/#/live")
        b.wait("a live board on the live page", lambda: b.js(
            "return document.querySelectorAll('.live-card[data-finished=\"0\"] svg.board g.cell').length;"), timeout=60)
        b.screenshot(None, shot("live-desktop.png"))
        ids = b.js("return Array.from(document.querySelectorAll('.live-card')).map(c => Number(c.dataset.gameId));")
        if ids != sorted(ids):
            browser.fail(f"the live page's cards are not in game order: {ids}")

        # The events page lists it; a click opens its page.
        b.driver.get(f"{d.url}/")
        b.wait("the event in the events list",
               lambda: b.driver.find_elements(By.CSS_SELECTOR, f'tr[data-event-id="{eid}"]'))
        b.screenshot(None, shot("events-desktop.png"))
        check_chart(b)
        check_standings_bounds(b)
        check_terminations_panel(b)
        b.click("the event's row", f'tr[data-event-id="{eid}"]')
        b.wait("the event page", lambda: b.driver.current_url.endswith(f"#/events/{eid}"))
        b.wait("the event's header", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#event-header .event-counts"))

        # A live board shows the stored position of its game, at the ply it shows.
        checked = set()
        deadline = time.monotonic() + 90
        while len(checked) < 3 and time.monotonic() < deadline:
            for state in b.js(LIVE_CARDS):
                if state["ply"] < 3 or not state["cells"] or state["id"] in checked:
                    continue
                stored = None
                for _ in range(50):  # the recorder may be a move behind the stream
                    if d.api(f"/api/games/{state['id']}/position")["plies"] >= state["ply"]:
                        stored = d.api(f"/api/games/{state['id']}/position?ply={state['ply']}")
                        break
                    time.sleep(0.1)
                if stored is None:
                    browser.fail(f"game {state['id']}: the board shows ply {state['ply']}, the database never reached it")
                if stored["position"] != state["position"]:
                    browser.fail(f"game {state['id']} ply {state['ply']}: the board shows {state['position']}, "
                                 f"the database {stored['position']}")
                check_cells_match(state["cells"], stored["position"], f"live board of game {state['id']} at ply {state['ply']}")
                if not checked:
                    b.screenshot(None, shot("live-boards.png"))
                checked.add(state["id"])
            time.sleep(0.3)
        checked = len(checked)
        if checked < 3:
            browser.fail(f"only {checked} live boards could be compared with the database in 90 s")
        print(f"live boards: {checked} compared with the stored positions")

        # The standings appear, then change as games finish, following the event's count.
        first = b.wait("the standings", lambda: standings_games(b), timeout=120)
        b.screenshot(None, shot("event-desktop.png"))
        later = b.wait("the standings to change as games finish",
                       lambda: (standings_games(b) or 0) > first and standings_games(b), timeout=120)
        print(f"standings: {first} then {later} games")
        finished_games = lambda: sum(t["games"] for t in d.api(f"/api/events/{eid}/standings")["tables"]  # noqa: E731
                                     if t["game"] != "all games")
        b.wait("the standings to count the games the daemon counts",
               lambda: standings_games(b) == finished_games(), timeout=60)

        # Pause and resume from the event page, with a token set in the settings.
        b.driver.get(f"{d.url}/#/settings")
        field = b.wait("the token field", lambda: b.driver.find_elements(By.ID, "token"))[0]
        field.send_keys(d.token)
        field.submit()
        b.driver.get(f"{d.url}/#/events/{eid}")
        state = d.api(f"/api/events/{eid}")["state"]
        if state in ("running", "queued"):
            b.click("the Pause button", ".event-controls button", "Pause")
            b.wait("the event to be paused", lambda: d.api(f"/api/events/{eid}")["state"] == "paused")
            b.wait("the paused badge", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#event-header .badge.paused"))
            b.click("the Resume button", ".event-controls button", "Resume")
            b.wait("the event to run again", lambda: d.api(f"/api/events/{eid}")["state"] in ("running", "finished"))
            print("pause and resume: done from the page")

        # Wait for the event to finish, then its page shows every game.
        b.wait("the event to finish", lambda: d.api(f"/api/events/{eid}")["state"] == "finished", timeout=240)
        b.wait("the page to show the event finished",
               lambda: b.driver.find_elements(By.CSS_SELECTOR, "#event-header .badge.finished"), timeout=30)
        b.wait("the standings of every game", lambda: b.js(
            "return document.querySelector('#event-header .event-counts').dataset.finished;") == str(total))
        b.wait("the crosstable", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#crosstable table.crosstable"))
        b.wait("the terminations", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#terminations tr[data-engine]"))
        # Terminations as the daemon counts them: games per engine, forfeit kinds no engine has
        # named in one line instead of columns of zeros.
        api_terms = d.api(f"/api/events/{eid}/terminations")["engines"]
        kinds = ["time", "crash", "illegal", "stall", "protocol", "resign"]
        page_terms = lambda: b.js(PAGE_TERMINATIONS)  # noqa: E731
        want_terms = {name: {"games": t["games"],
                             "kinds": {k: t[k] for k in kinds if any(x[k] for x in api_terms.values())}}
                      for name, t in api_terms.items()}
        b.wait(f"the terminations the daemon counts ({want_terms})", lambda: page_terms() == want_terms, timeout=30)
        none = b.js("const p = document.querySelector('#terminations [data-none]'); return p ? p.dataset.none : '';")
        if none.split() != [k for k in kinds if not any(x[k] for x in api_terms.values())]:
            browser.fail(f"terminations: the kinds named as none are '{none}' ({api_terms})")

        # The viewer steps through a finished game to its stored result.
        export = [json.loads(line) for line in browser.run(
            [args.referee, "export", "--format", "jsonl", "--db", d.db]).splitlines() if line.strip()]
        game = max(export, key=lambda g: g["plies"])
        gid, plies = game["id"], len(game["moves"])
        b.driver.get(f"{d.url}/#/games/{gid}?ply=0")
        viewer = b.wait("the viewer", lambda: b.driver.find_elements(By.ID, "viewer"))[0]
        shown = lambda: (viewer.get_attribute("data-shown"), viewer.get_attribute("data-position"))  # noqa: E731
        b.wait("ply 0", lambda: shown()[0] == "0")
        start = shown()[1]
        body = b.driver.find_element(By.TAG_NAME, "body")
        positions = [start]
        for k in range(1, 4):  # three steps with the arrow key
            body.send_keys(Keys.ARROW_RIGHT)
            b.wait(f"ply {k}", lambda k=k: shown()[0] == str(k))
            positions.append(shown()[1])
        replay = lambda n: json.loads(browser.run(  # noqa: E731
            [args.referee, "show", game["game"], "--json"]
            + (["--position", game["start_position"]] if game["start_position"] else [])
            + (["--moves"] + [m["move"] for m in game["moves"][:n]] if n else [])))
        for k, pos in enumerate(positions):
            if pos != replay(k)["position"]:
                browser.fail(f"viewer: ply {k} shows {pos}, the stored moves give {replay(k)['position']}")
        b.click("the next button", 'button[title="next (→)"]')
        b.wait("ply 4 by the button", lambda: shown()[0] == "4")
        body.send_keys(Keys.END)
        b.wait("the last ply", lambda: shown()[0] == str(plies), timeout=30)
        final = replay(plies)
        if shown()[1] != final["position"]:
            browser.fail(f"viewer: the last ply shows {shown()[1]}, the stored moves give {final['position']}")
        result = b.wait("the result", lambda: b.driver.find_elements(By.ID, "viewer-result-text"))[0]
        ranks = game["ranks"]
        want = "1/2-1/2" if ranks[0] == ranks[1] else ("1-0" if ranks[0] < ranks[1] else "0-1")
        if result.get_attribute("data-result") != want or want not in result.text:
            browser.fail(f"viewer: the result shown is '{result.text}', the database has {want} ({ranks})")
        if result.get_attribute("data-termination") != game["termination"]:
            browser.fail(f"viewer: the ending shown is '{result.text}' "
                         f"({result.get_attribute('data-termination')}), the database has {game['termination']}")
        check_cells_match(b.js(VIEWER_CELLS), final["position"], "viewer at the last ply")
        b.screenshot(None, shot("viewer-desktop.png"))
        body.send_keys(Keys.HOME)
        b.wait("back to ply 0", lambda: shown()[0] == "0")
        body.send_keys(Keys.ARROW_LEFT)  # stays at 0
        time.sleep(0.2)
        if shown()[0] != "0":
            browser.fail("viewer: left of ply 0 went somewhere")

        # The info lines of a move the mock played (it says two before each bestmove), and the
        # transcript, opened by a click.
        with_info = [k for k, m in enumerate(game["moves"], 1) if m.get("info")]
        if not with_info:
            browser.fail(f"game {gid}: no stored move has info lines (the mock sends them)")
        k = with_info[-1]
        b.driver.get(f"{d.url}/#/games/{gid}?ply={k}")
        b.wait(f"ply {k} from the address", lambda: b.js(
            "const v = document.getElementById('viewer'); return v && v.dataset.shown;") == str(k))
        stored_info = game["moves"][k - 1]["info"]
        stored_info = stored_info if isinstance(stored_info, str) else "\n".join(stored_info)
        shown_info = b.wait("the info lines", lambda: b.js(
            "return document.getElementById('viewer-info').textContent;"))
        for line in stored_info.splitlines():
            if line.strip() and line.strip() not in shown_info:
                browser.fail(f"viewer at ply {k}: the info line '{line}' is not shown ('{shown_info}')")
        b.click("the transcript's summary", "details summary")
        transcript = b.wait("the transcript", lambda: b.js(
            "const t = document.getElementById('viewer-transcript');"
            "return t && t.offsetHeight > 0 && t.textContent.includes('bestmove') && t.textContent;"))
        if "go " not in transcript:
            browser.fail(f"viewer: the transcript shows no go command: {transcript[:300]}")
        print(f"viewer: game {gid} stepped to its {plies} plies and its result {want}")

        # The games list, with a filter from the address.
        b.driver.get(f"{d.url}/#/games?event={eid}&result={want}")
        b.wait("the filtered games list", lambda: b.driver.find_elements(By.CSS_SELECTOR, "tr[data-game-id]"))
        shown_results = {r.text for r in b.driver.find_elements(By.CSS_SELECTOR, "tr[data-game-id] td:nth-child(3)")}
        if shown_results != {want}:
            browser.fail(f"games list filtered on {want} shows results {shown_results}")
        b.screenshot(None, shot("games-desktop.png"))

        # A ladder: two engines registered for felli play each other; the ladder page shows its
        # standings, growing with the games the daemon counts.
        for name, command, extra in (("ladder-mock", engines[0], ["--slow-ms=20"]), ("ladder-random", engines[1], [])):
            d.api("/api/engines", {"name": name, "command": command, "args": extra, "games": ["felli"]})
        b.driver.get(f"{d.url}/#/ladder")
        ladder_games = lambda: b.js(  # noqa: E731
            "const t = document.querySelector('.ladder .standings'); return t ? Number(t.dataset.games) : 0;")
        b.wait("the ladder's standings", lambda: ladder_games() >= 2, timeout=120)
        # The ladder never stops: the page must reach what the daemon counted a moment ago.
        counted = sum(t["games"] for x in d.api("/api/ladder")["ladders"]
                      for t in x["standings"] if t["game"] != "all games")
        b.wait(f"the ladder page to count the {counted} games the daemon counted",
               lambda: ladder_games() >= counted, timeout=60)
        names = b.js("return Array.from(document.querySelectorAll('.ladder .standings tr[data-engine]'))"
                     ".map(r => r.dataset.engine).sort();")
        if names != ["ladder-mock", "ladder-random"]:
            browser.fail(f"ladder standings show {names}")
        plays = b.js("return Object.fromEntries(Array.from(document.querySelectorAll('#engines tr[data-engine]'))"
                     ".map(r => [r.dataset.engine, r.lastElementChild.textContent]));")
        want_plays = {"ladder-mock": "ladder: felli", "ladder-random": "ladder: felli",
                      "mock": "events only", "random": "events only"}
        if plays != want_plays:
            browser.fail(f"the engines table says {plays}, expected {want_plays}")
        b.screenshot(None, shot("ladder-desktop.png"))
        print(f"ladder: standings with {ladder_games()} games")

        # The gallery served by the daemon draws the latest stored game of each board (game), at its
        # start and its last ply, each board showing its position.
        b.driver.get(f"{d.url}/static/gallery.html")
        b.wait("the gallery from the database", lambda: b.js("return document.body.dataset.ready;") == "1")
        cards = b.js("""return Array.from(document.querySelectorAll('.gallery-card')).map(c => ({
            game: c.dataset.game, position: c.querySelector('.mono').textContent,
            cells: Array.from(c.querySelectorAll('svg.board g.cell')).map(g => ({id: g.dataset.id,
              kind: g.dataset.kind, count: g.dataset.count ?? null, player: g.dataset.player ?? null,
              king: g.dataset.king ?? null}))}));""")
        if sorted(c["game"].split(":")[0] for c in cards) != ["awale", "awale", "felli", "felli"]:
            browser.fail(f"the gallery from the database shows {[c['game'] for c in cards]}")
        for c in cards:
            check_cells_match(c["cells"], c["position"], f"gallery board of {c['game']}")
        b.screenshot(None, shot("gallery-from-database.png"))

        # The workers page: this daemon is listed, alive by its lease.
        b.driver.get(f"{d.url}/#/workers")
        rows = b.wait("the workers page", lambda: b.driver.find_elements(By.CSS_SELECTOR, '#workers tr[data-worker]'))
        states = b.js("return Array.from(document.querySelectorAll('#workers tr[data-worker]')).map(r => r.dataset.state);")
        if "alive" not in states or "this daemon" not in rows[0].text:
            browser.fail(f"the workers page shows {states}: {rows[0].text}")
        print(f"workers: {states}")

        # The engines page: each uploaded engine's versions, the full hash on hover, retired ones.
        bot = "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n    pass\n"
        upload = "/api/artifacts?name=webbot&kind=file&file_name=bot.py"
        first = d.api(upload, bot, content_type="application/octet-stream")
        second = d.api(upload + "&command=python3%20bot.py", bot, content_type="application/octet-stream")
        d.api("/api/artifacts/webbot@1/retire", "", method="POST", content_type="text/plain")
        b.driver.get(f"{d.url}/#/engines")
        b.wait("the engines page", lambda: len(b.driver.find_elements(By.CSS_SELECTOR, '[data-artifact="webbot"] tr[data-label]')) == 2)
        rows = b.js("return Array.from(document.querySelectorAll('[data-artifact=\"webbot\"] tr[data-label]'))"
                    ".map(r => [r.dataset.label, r.dataset.retired, r.cells[1].title, r.cells[1].textContent,"
                    " r.cells[4].textContent]);")
        want = [["webbot@1", "yes", first["sha256"], first["sha256"][:12], "operator"],
                ["webbot@2", "no", second["sha256"], second["sha256"][:12], "operator"]]
        if rows != want:
            browser.fail(f"the engines page shows {rows}, expected {want}")
        b.screenshot(None, shot("engines-desktop.png"))
        print(f"engines: {rows}")

        # A phone's width: every page fits, and looks like something.
        b.resize(browser.PHONE)
        for name, route, ready in (("events", "#/events", f'tr[data-event-id="{eid}"]'),
                                   ("event", f"#/events/{eid}", "#standings .standings"),
                                   ("viewer", f"#/games/{gid}?ply=10", "#viewer svg.board"),
                                   ("games", "#/games", "tr[data-game-id]"),
                                   ("ladder", "#/ladder", ".ladder .standings"),
                                   ("workers", "#/workers", "#workers tr[data-worker]"),
                                   ("engines", "#/engines", "tr[data-label]")):
            b.driver.get(f"{d.url}/{route}")
            b.wait(f"the {name} page at a phone width", lambda ready=ready: b.driver.find_elements(By.CSS_SELECTOR, ready))
            browser.check_fits(b, f"the {name} page")
            png = b.screenshot(None, shot(f"{name}-phone.png"))
            browser.check_not_blank(png, f"the {name} page at a phone width")
        check_standings_bounds(b)  # the narrow chart too
        errors = [e for e in b.console_errors() if "favicon" not in e]
        if errors:
            browser.fail(f"console errors: {errors}")
        b.resize(browser.DESKTOP)
        # While healthy, no banner; a daemon below its free-space headroom shows one on every page.
        if b.js("return document.getElementById('health-banner').hidden;") is not True:
            browser.fail("a healthy daemon's pages show the health banner")
    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(
            args.referee, concurrency=1, extra=("--min-free-mb", "1000000000", "--space-check", "0.1")) as d:
        b.driver.get(f"{d.url}/#/events")
        banner = b.wait("the degraded banner", lambda: b.js(
            "const e = document.getElementById('health-banner'); return !e.hidden && e.textContent;"))
        if "degraded" not in banner or "low disk" not in banner:
            browser.fail(f"the degraded daemon's banner says: {banner}")
        print(f"banner: {banner}")
    print("PASSED")


if __name__ == "__main__":
    main()
