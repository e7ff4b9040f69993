#!/usr/bin/python3
"""Browser test: an sprt event's page shows its test live, against a real `referee serve`.

The daemon plays an sprt event (a slowed mock engine against one that always resigns, elo1 100:
H1 after 10 game pairs) and headless Chromium checks on the event's page: the SPRT panel appears
with its bar; its LLR follows the stream (the marker moves while the event runs) and ends at the
daemon's own LLR with the H1 verdict; no console errors. Screenshot: --artifacts/sprt/.

Usage: sprt_test.py --referee BIN --mock MOCK_ENGINE --artifacts DIR
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

browser.preflight()
from selenium.webdriver.common.by import By  # noqa: E402


def sprt_file(mock):
    return f"""name = "browser sprt"
games = ["awale:maxplies=20"]
tc = "30+0.5"
max_games = 100
sprt = {{ elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05, model = "normalized" }}
[openings]
random_plies = 2
[[engine]]
name = "strong"
command = "{mock}"
args = ["--slow-ms=600"]
[[engine]]
name = "weak"
command = "{mock}"
args = ["--always-resign"]
"""


def main():
    args, out = browser.test_arguments("sprt", "mock")

    with browser.Browser(browser.DESKTOP) as b, browser.Daemon(args.referee, concurrency=2) as d:
        event = d.api("/api/events", sprt_file(os.path.abspath(args.mock)),
                      content_type="application/toml")
        eid = event["id"]
        if event["kind"] != "sprt" or event["sprt"]["llr"] != 0:
            browser.fail(f"the submitted event is not a fresh sprt event: {event}")
        b.driver.get(f"{d.url}/#/events/{eid}")
        b.wait("the SPRT panel", lambda: b.driver.find_elements(By.CSS_SELECTOR, "#sprt .sprt-bar .sprt-mark"))
        page_llr = lambda: float(b.js("return document.getElementById('sprt').dataset.llr;"))  # noqa: E731
        b.wait("the LLR to move while the event runs", lambda: page_llr() > 0, timeout=120)
        if d.api(f"/api/events/{eid}")["state"] == "finished":
            print("note: the event had finished when the LLR first moved on the page")
        b.wait("the event to finish", lambda: d.api(f"/api/events/{eid}")["state"] == "finished", timeout=240)
        final = d.api(f"/api/events/{eid}")["sprt"]
        if final["decision"] != "H1":
            browser.fail(f"the daemon's test did not accept H1: {final}")
        b.wait("the page's decision", lambda: b.js("return document.getElementById('sprt').dataset.decision;") == "H1",
               timeout=30)
        if abs(page_llr() - final["llr"]) > 1e-9:
            browser.fail(f"the page shows LLR {page_llr()}, the daemon {final['llr']}")
        verdict = b.js("return document.querySelector('#sprt .sprt-verdict').textContent;")
        if final["verdict"] not in verdict:
            browser.fail(f"the page's verdict '{verdict}' is not the daemon's '{final['verdict']}'")
        # The marker sits at the right end: the LLR is past the upper bound.
        left = b.js("return document.querySelector('#sprt .sprt-mark').style.left;")
        if left != "100%":
            browser.fail(f"the marker of a decided H1 is at {left}, not at the right end")
        panel = b.driver.find_element(By.ID, "sprt")
        b.screenshot(panel, os.path.join(out, "sprt-panel.png"))
        errors = [e for e in b.console_errors() if "favicon" not in e]
        if errors:
            browser.fail(f"console errors: {errors}")
    print("PASSED")


if __name__ == "__main__":
    main()
