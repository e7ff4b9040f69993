#!/usr/bin/python3
"""Browser test: a knockout's bracket and a Swiss event's standings on the event's page.

`referee tournament` plays a knockout of five mock engines of known strength (each resigns once a
game has N plies) and a Swiss of the same five through three rounds into one database; a real
`referee serve` on that database serves the dashboard, and headless Chromium checks the event
pages: the bracket has one column per round with the byes of the top seeds, each match's winner
and the champion the API names; the Swiss panel ranks the engines as the API does. No console
errors. Screenshots: --artifacts/bracket/.

Usage: bracket_test.py --referee BIN --mock MOCK_ENGINE --artifacts DIR
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()
from selenium.webdriver.common.by import By  # noqa: E402


def event_file(name, fmt, table, db, mock):
    text = f'name = "{name}"\ndatabase = "{db}"\ngames = ["awale"]\ntc = "10+0.1"\nformat = "{fmt}"\n{table}'
    for engine, ply in [("a", 12), ("b", 2), ("c", 10), ("d", 4), ("e", 6)]:
        text += f'[[engine]]\nname = "{engine}"\ncommand = "{mock}"\nargs = ["--resign-at-ply={ply}"]\n'
    return text


def main():
    args, out = browser.test_arguments("bracket", "mock")
    work = tempfile.mkdtemp(prefix="referee-bracket-")
    db = os.path.join(work, "events.db")
    mock = os.path.abspath(args.mock)
    for name, fmt, table in [("ko", "knockout", ""), ("sw", "swiss", "[swiss]\nrounds = 3\n")]:
        path = os.path.join(work, f"{name}.toml")
        with open(path, "w") as f:
            f.write(event_file(name, fmt, table, db, mock))
        ran = subprocess.run([os.path.abspath(args.referee), "tournament", path, "-q"],
                             capture_output=True, text=True, timeout=300)
        if ran.returncode != 0:
            browser.fail(f"referee tournament {name}: status {ran.returncode}: {ran.stderr[-2000:]}")

    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, db=db) as d:
        ko = d.api("/api/events/1/rounds")
        if ko["champion"] != "a":
            browser.fail(f"the knockout's champion is not a: {ko}")
        b.driver.get(f"{d.url}/#/events/1")
        b.wait("the bracket", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#bracket .ko-round"))
        columns = b.driver.find_elements(By.CSS_SELECTOR, "#bracket .ko-round")
        if len(columns) != len(ko["rounds"]) + 1:  # the rounds, then the winner
            browser.fail(f"{len(columns)} columns for {len(ko['rounds'])} rounds and the winner")
        byes = b.driver.find_elements(By.CSS_SELECTOR, "#bracket .ko-round:first-child .ko-bye")
        if len(byes) != 3:
            browser.fail(f"{len(byes)} byes in round 1, not 3 (seeds 1 to 3 of five)")
        if b.js("return document.getElementById('bracket').dataset.champion;") != "a":
            browser.fail("the page's champion is not the API's")
        winners = [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, "#bracket .ko-decided .ko-winner")]
        decided = [m["winner"] for r in ko["rounds"] for m in r if m["state"] == "decided"]
        if not all(any(w in text for text in winners) for w in decided):
            browser.fail(f"the page's winners {winners} miss some of the API's {decided}")
        b.screenshot(b.driver.find_element(By.ID, "rounds"), os.path.join(out, "knockout.png"))

        sw = d.api("/api/events/2/rounds")
        b.driver.get(f"{d.url}/#/events/2")
        b.wait("the Swiss standings", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#swiss-standings tbody tr"))
        rows = [r.find_elements(By.TAG_NAME, "td")[1].text
                for r in b.driver.find_elements(By.CSS_SELECTOR, "#swiss-standings tbody tr")]
        if rows != [s["engine"] for s in sw["standings"]]:
            browser.fail(f"the page ranks {rows}, the API {[s['engine'] for s in sw['standings']]}")
        b.screenshot(b.driver.find_element(By.ID, "rounds"), os.path.join(out, "swiss.png"))
        errors = [e for e in b.console_errors() if "favicon" not in e]
        if errors:
            browser.fail(f"console errors: {errors}")
    shutil.rmtree(work, ignore_errors=True)
    print("PASSED")


if __name__ == "__main__":
    main()
