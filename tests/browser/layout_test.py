#!/usr/bin/python3
"""Browser test: what a new user sees first, at a desktop's width (1280 px) and a phone's (390 px),
both in one browser session, against a real `referee serve` that has played a small event
(kalaha and awale between two seeds of the random example engine, under a long event name):
- the viewer opens a finished game at its last ply; there, the score shown (the board caption's
  chips) is the stored result's, also when the count at the end moved seeds the board still shows
  (a kalaha game whose last seeds left in a row count for their owner); the move list follows the
  ply shown, its current move highlighted and inside the list's scrolled view, and stepping never
  scrolls the page;
- a finished game's live card, the games list and the viewer say how a game ended once (never
  "rules · game over by the rules (rules)");
- the stream's status light says "live" on the games list and the viewer (the pages that
  subscribe to nothing), and "live updates off" with ?live=off;
- the events table fits its box (no sideways scrolling) with a long name, and on a phone keeps
  the state and progress in view; every text of the Elo charts (the event's and a made-up one with
  long labels) lies inside the chart's box; the state badge does not touch the event's kind; game
  strings wrap between their parameters, never inside one;
- `chromium --headless --screenshot --virtual-time-budget` of the dashboard with ?live=off
  finishes and draws the page (OPERATING.md, "A screenshot of the dashboard").
Screenshots: --artifacts/layout/.

About 12-18 s: the daemon plays its eight games first (a few seconds), then each page is
checked at both widths in one browser, and a second Chromium takes the command-line screenshot.

Usage: layout_test.py --referee BIN --random RANDOM_ENGINE --artifacts DIR
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PHONE = (390, 844)
LONG_NAME = "Kalaha and awale between two seeds of the random engine, a very long event name indeed"


def event_file(random_engine):
    return f"""name = "{LONG_NAME}"
games = ["kalaha", "awale:maxplies=120"]
cycles = 2
tc = "30+0.5"
seed = 3
[[engine]]
name = "random-north-seed"
command = "{random_engine}"
args = ["--seed", "5"]
[[engine]]
name = "random-south-seed"
command = "{random_engine}"
args = ["--seed", "9"]
"""


# Line breaks inside a word: for each element, every place where the text goes to a new line
# between two characters neither of which is a space and the first of which is not a comma.
BAD_BREAKS = """
const out = [];
let wrapped = 0;
for (const el of document.querySelectorAll(arguments[0])) {
  if (!el.offsetParent) continue;
  const range = document.createRange();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let prevTop = null, prev = null, lines = 1;
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (let i = 0; i < n.length; i++) {
      range.setStart(n, i); range.setEnd(n, i + 1);
      const r = range.getClientRects();
      if (!r.length) continue;
      const ch = n.data[i];
      if (prevTop !== null && r[0].top > prevTop + 2) {
        lines++;
        if (!/\\s/.test(ch) && prev !== null && !/[\\s,]/.test(prev)) out.push(`${prev}|${ch} in "${el.textContent.trim().slice(0, 60)}"`);
      }
      prevTop = r[0].top; prev = ch;
    }
  if (lines > 1) wrapped++;
}
return {bad: out.slice(0, 5), wrapped};
"""

# Texts of every Elo chart on the page outside its viewBox (as drawn, with the real fonts).
CLIPPED_TEXTS = """
const out = [];
for (const svg of document.querySelectorAll(arguments[0])) {
  const [x0, y0, w, h] = svg.getAttribute('viewBox').split(/\\s+/).map(Number);
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (b.x < x0 - 0.5 || b.x + b.width > x0 + w + 0.5 || b.y < y0 - 0.5 || b.y + b.height > y0 + h + 0.5)
      out.push(`"${t.textContent}" spans ${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)}, the box ${x0}..${x0 + w}`);
  }
}
return out;
"""

# A made-up chart with long names and labels, put on the page, then checked as above.
CHART_PROBE = """
const done = arguments[arguments.length - 1];
import('/static/chart.js').then((m) => {
  const rows = [
    {engine: 'an-engine-with-a-long-name-v12', elo: 1411, error: 1733, lower: -322, upper: 3144, bound: null},
    {engine: 'b', elo: -1411, error: 17, lower: -1428, upper: -1394, bound: null},
    {engine: 'won-every-game-against-all', elo: 2141, error: null, lower: 2141, upper: null, bound: 'lower'}];
  for (const narrow of [false, true]) {
    const svg = m.eloChart({game: 'probe', confidence: 95, rows}, {narrow});
    svg.classList.add('chart-probe');
    svg.style.width = narrow ? '360px' : '460px';
    document.getElementById('app').appendChild(svg);
  }
  done(true);
}).catch((e) => done(String(e)));
"""


def check_fits_box(b, what, selector):
    """No element matching `selector` scrolls sideways: its content fits its width."""
    over = b.js("""return Array.from(document.querySelectorAll(arguments[0])).filter(e => e.offsetParent)
                     .map(e => [e.scrollWidth, e.clientWidth]).filter(([s, c]) => s > c + 1);""", selector)
    if over:
        browser.fail(f"{what} is wider than its box (scroll width, box width): {over}")


def check_viewer(b, d, gid, stored, width):
    """The viewer of a finished game: opened at its last ply with the stored result's score, its
    move list following the ply shown, the page never scrolled by stepping."""
    b.driver.get(f"{d.url}/#/games/{gid}")
    viewer = b.wait("the viewer", lambda: b.driver.find_elements(By.ID, "viewer"))[0]
    plies = b.wait("the viewer's ply count", lambda: viewer.get_attribute("data-plies"))
    b.wait(f"the viewer at its last ply ({plies}) when opened without one", lambda: viewer.get_attribute("data-shown") == plies)
    chips = b.js("return Array.from(document.querySelectorAll('#viewer-board .board-caption .chip'))"
                 ".map(c => Number(c.dataset.score));")
    if chips != stored["scores"]:
        caption = b.js("return document.querySelector('#viewer-board .board-caption').textContent;")
        browser.fail(f"at {width} px, the last ply of game {gid} shows the score {chips} ({caption}), "
                     f"its stored result {stored['result']} has {stored['scores']}")
    text = b.js("return document.querySelector('#viewer-board .board-text').textContent;")
    final = " – ".join(f"{s:g}" for s in stored["scores"])
    if final not in text:
        browser.fail(f"at {width} px the caption of the last ply says '{text}', not the final score {final}")
    b.js("window.scrollTo(0, 0);")
    body = b.driver.find_element(By.TAG_NAME, "body")

    def follows(k):
        return b.js("""
          const box = document.getElementById('viewer-moves'), rows = box.querySelectorAll('tr.current');
          if (rows.length !== 1) return `${rows.length} current rows`;
          const r = rows[0].getBoundingClientRect(), v = box.getBoundingClientRect();
          const head = box.querySelector('thead').getBoundingClientRect().height;
          if (rows[0].dataset.ply !== arguments[0]) return `the current row is ply ${rows[0].dataset.ply}`;
          if (r.top < v.top + head - 1 || r.bottom > v.bottom + 1) return `row at ${r.top}..${r.bottom}, list ${v.top}..${v.bottom}`;
          return 'ok';""", str(k))

    last = int(plies)
    got = follows(last)
    if got != "ok":
        browser.fail(f"at {width} px, the move list at the last ply {last}: {got}")
    for key, k in ((Keys.HOME, 0), (Keys.PAGE_DOWN, 10), (Keys.PAGE_DOWN, 20), (Keys.END, last),
                   (Keys.PAGE_UP, last - 10), (Keys.ARROW_LEFT, last - 11)):
        body.send_keys(key)
        b.wait(f"ply {k}", lambda k=k: viewer.get_attribute("data-shown") == str(k))
        if k > 0:
            got = follows(k)
            if got != "ok":
                browser.fail(f"at {width} px, the move list at ply {k}: {got}")
        elif b.js("return document.querySelectorAll('#viewer-moves tr.current').length;") != 0:
            browser.fail(f"at {width} px, a move is highlighted at ply 0")
        if b.js("return window.scrollY;") != 0:
            browser.fail(f"at {width} px, stepping to ply {k} scrolled the page to {b.js('return window.scrollY;')}")
    banner_check = b.js("return document.getElementById('viewer-result-text');")
    if banner_check is not None:
        browser.fail("the result is shown away from the last ply")


def check_endings(what, shown):
    """Each ending shown ([termination as stored, text shown]) says its termination once, plainly."""
    if not shown:
        browser.fail(f"{what}: no ending shown")
    for word, text in shown:
        if not text or f"({word})" in text or text.count("rules") > 1 or text.count(word) > 1:
            browser.fail(f"{what}: the ending of a game ended by '{word}' reads '{text}'")


def check_pages(b, d, eid, gid, stored, width, shot):
    """Every check of one width."""
    # The status light on the pages that subscribe to nothing.
    for route in ("#/games", f"#/games/{gid}"):
        b.driver.get("about:blank")  # a fresh page: a change of the # alone keeps the page's stream
        b.driver.get(f"{d.url}/{route}")
        b.wait(f"'live' on {route} at {width} px",
               lambda: b.js("return document.getElementById('stream-text').textContent;") == "live", timeout=30)

    check_viewer(b, d, gid, stored, width)
    b.driver.get(f"{d.url}/#/games/{gid}?ply={d.api(f'/api/games/{gid}/position')['plies']}")
    b.wait("the result at the last ply", lambda: b.driver.find_elements(By.ID, "viewer-result-text"))
    check_endings(f"the viewer's result at {width} px",
                  [[stored["termination"], b.js("return document.getElementById('viewer-result-text').innerText;")]])
    bad = b.js(BAD_BREAKS, "#viewer-header .game-title")
    if bad["bad"]:
        browser.fail(f"at {width} px the viewer's game string breaks inside a word: {bad['bad']}")
    b.screenshot(None, shot(f"viewer-{width}.png"))

    # The games list: endings said once.
    b.driver.get(f"{d.url}/#/games?event={eid}")
    b.wait("the games list", lambda: b.driver.find_elements(By.CSS_SELECTOR, "tr[data-game-id]"))
    endings = {g["id"]: g["termination"] for g in d.api(f"/api/games?event={eid}&limit=100")["games"]}
    check_endings(f"the games list at {width} px", [[endings[gid], text] for gid, text in b.js(
        "return Array.from(document.querySelectorAll('tr[data-game-id]')).map(r =>"
        " [Number(r.dataset.gameId), r.children[4].innerText.trim()]);")])
    if width != PHONE[0]:  # on a phone the games table may scroll in its box (two long names)
        check_fits_box(b, f"the games list at {width} px", ".table-wrap")
    b.screenshot(None, shot(f"games-{width}.png"))

    # The events table with its long name.
    b.driver.get(f"{d.url}/#/events")
    b.wait("the events table", lambda: b.driver.find_elements(By.CSS_SELECTOR, f'tr[data-event-id="{eid}"]'))
    check_fits_box(b, f"the events table at {width} px", ".table-wrap")
    hidden = b.js("""const row = document.querySelector(arguments[0]), out = [];
        for (const [i, name] of [[0, 'event'], [2, 'state'], [3, 'progress']]) {
          const c = row.children[i], r = c.getBoundingClientRect();
          if (!c.offsetParent || r.width === 0 || r.right > window.innerWidth + 1) out.push(`${name} at ${r.left}..${r.right}`);
        }
        return out;""", f'tr[data-event-id="{eid}"]')
    if hidden:
        browser.fail(f"at {width} px the events table hides or pushes out of view: {hidden}")
    b.screenshot(None, shot(f"events-{width}.png"))

    # The event page: badge and kind apart, charts unclipped, game strings broken between
    # parameters.
    b.driver.get(f"{d.url}/#/events/{eid}")
    b.wait("the standings", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#standings svg.elo-chart"))
    b.wait("the header", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#event-header .badge"))
    gap = b.js("""const h = document.querySelector('#event-header h1'), badge = h.querySelector('.badge');
        const kind = badge.nextElementSibling, a = badge.getBoundingClientRect(), k = kind.getBoundingClientRect();
        if (k.top >= a.bottom - 1) return 99;  // on its own line
        return k.left - a.right;""")
    if gap < 4:
        browser.fail(f"at {width} px the state badge and the event's kind are {gap:.1f} px apart")
    clipped = b.js(CLIPPED_TEXTS, "#standings svg.elo-chart")
    if clipped:
        browser.fail(f"at {width} px the event's Elo chart clips: {clipped}")
    bad = b.js(BAD_BREAKS, "#event-header p, #standings .game-title")
    if bad["bad"]:
        browser.fail(f"at {width} px a game string breaks inside a word: {bad['bad']}")
    if width == PHONE[0] and not bad["wrapped"]:
        browser.fail("at a phone's width no game string wraps: the check above tested nothing")
    b.screenshot(None, shot(f"event-{width}.png"))
    if width == PHONE[0]:
        browser.check_fits(b, "the event page", PHONE[0])
    if b.driver.execute_async_script(CHART_PROBE) is not True:
        browser.fail("the made-up chart could not be drawn")
    clipped = b.js(CLIPPED_TEXTS, "svg.chart-probe")
    if clipped:
        browser.fail(f"at {width} px a chart with long labels clips: {clipped}")


def check_screenshot(d, out):
    """The documented command-line screenshot finishes and shows the page."""
    path = os.path.join(out, "cli-screenshot.png")
    profile = os.path.join(out, "cli-profile")
    command = [browser.CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--window-size=1280,900", "--virtual-time-budget=5000",
               f"--screenshot={path}", f"{d.url}/?live=off#/events"]
    start = time.monotonic()
    try:
        subprocess.run(command, capture_output=True, timeout=90)
    except subprocess.TimeoutExpired:
        browser.fail(f"the screenshot command did not finish in 90 s: {' '.join(command)}")
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if not os.path.exists(path):
        browser.fail(f"the screenshot command wrote no file: {' '.join(command)}")
    with open(path, "rb") as f:
        browser.check_not_blank(f.read(), "the command-line screenshot")
    print(f"screenshot: done in {time.monotonic() - start:.1f} s")


def main():
    args, out = browser.test_arguments("layout", "random")
    shot = lambda name: os.path.join(out, name)  # noqa: E731

    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, concurrency=2) as d:
        # The live page watches the games as they are played: a finished game's card says how it
        # ended, once.
        b.driver.get(f"{d.url}/#/live")
        b.wait("the live page's stream", lambda: b.js("return document.body.dataset.stream;") == "live")
        event = d.api("/api/events", event_file(os.path.abspath(args.random)), content_type="application/toml")
        eid = event["id"]
        finished_cards = b.wait("a finished game's live card", lambda: b.js(
            "return Array.from(document.querySelectorAll('.live-card[data-finished=\"1\"]')).map(c =>"
            " [Number(c.dataset.gameId), c.querySelector('.result-banner').innerText.trim()]);"), timeout=120)
        b.wait("the event to finish", lambda: d.api(f"/api/events/{eid}")["state"] == "finished", timeout=180)
        check_endings("the live page's finished cards", [
            [d.api(f"/api/games/{gid}")["termination"], text] for gid, text in finished_cards])

        # A kalaha game whose end counted seeds the board still shows: its stores are not its score.
        gid, stored = None, None
        for g in d.api(f"/api/games?event={eid}&status=finished&limit=100")["games"]:
            if not g["game"].startswith("kalaha") or g["termination"] != "rules":
                continue
            full = d.api(f"/api/games/{g['id']}")
            stores = d.api(f"/api/games/{g['id']}/position")["view"]["scores"]
            if stores != full["scores"]:
                gid, stored = g["id"], full
                break
        if gid is None:
            browser.fail("no kalaha game of the event ended with seeds left in a row")
        print(f"game {gid}: stored {stored['result']} {stored['scores']}")

        for size in (browser.DESKTOP, PHONE):
            b.resize(size)
            check_pages(b, d, eid, gid, stored, size[0], shot)
            print(f"{size[0]} px: checked")

        # Live updates off: no stream opened, and the light says so.
        b.resize(browser.DESKTOP)
        b.driver.get(f"{d.url}/?live=off#/events")
        b.wait("'live updates off'", lambda: b.js(
            "return document.getElementById('stream-text').textContent;") == "live updates off")
        b.wait("the events table without the stream", lambda: b.driver.find_elements(By.CSS_SELECTOR, "tr[data-event-id]"))
        errors = [e for e in b.console_errors() if "favicon" not in e]
        if errors:
            browser.fail(f"console errors: {errors}")
        check_screenshot(d, out)
    print("PASSED")


if __name__ == "__main__":
    main()
