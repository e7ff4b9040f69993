// app.js: the dashboard's single page: hash routes to pages, the navigation bar and the live
// stream's status light. Each page is a function (root, ...) returning its clean-up (or null).
//   #/events  #/events/ID  #/live  #/games?filters  #/games/ID?ply=K  #/ladder  #/workers
//   #/engines  #/settings

import { connect, get, onStreamStatus } from "./api.js";
import { artifactsPage } from "./artifacts.js";
import { eventPage } from "./event.js";
import { eventsPage } from "./events.js";
import { gamesPage } from "./games.js";
import { ladderPage } from "./ladder.js";
import { liveBoards } from "./live.js";
import { settingsPage } from "./settings.js";
import { clear, h } from "./util.js";
import { viewerPage } from "./viewer.js";
import { workersPage } from "./workers.js";

const root = document.getElementById("app");
let cleanup = null;

function livePage(el) {
  const body = h("div");
  clear(el, h("div", { class: "panel" }, h("h1", {}, "Live games"), body));
  const boards = liveBoards(body, {});
  return () => boards.destroy();
}

const routes = [
  [/^#?\/?(events)?$/, () => eventsPage(root), "events"],
  [/^#\/events\/(\d+)$/, (m) => eventPage(root, Number(m[1])), "events"],
  [/^#\/live$/, () => livePage(root), "live"],
  [/^#\/games$/, (m, q) => gamesPage(root, q), "games"],
  [/^#\/games\/(\d+)$/, (m, q) => viewerPage(root, Number(m[1]), q), "games"],
  [/^#\/ladder$/, () => ladderPage(root), "ladder"],
  [/^#\/workers$/, () => workersPage(root), "workers"],
  [/^#\/engines$/, () => artifactsPage(root), "engines"],
  [/^#\/settings$/, () => settingsPage(root), "settings"],
];

function route() {
  const [path, search] = (location.hash || "#/events").split("?");
  const params = new URLSearchParams(search || "");
  if (cleanup) cleanup();
  cleanup = null;
  window.scrollTo(0, 0);
  for (const [re, page, nav] of routes) {
    const m = path.match(re);
    if (!m) continue;
    document.querySelectorAll(".topbar nav a").forEach((a) => a.classList.toggle("active", a.dataset.nav === nav));
    cleanup = page(m, params) || null;
    document.body.dataset.route = nav;
    return;
  }
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Not found"), h("p", {}, `No page ${location.hash}. `,
    h("a", { href: "#/events" }, "Events"))));
}

const light = document.getElementById("stream-light");
const lightText = document.getElementById("stream-text");
const STATUS_TEXT = { connecting: "connecting…", live: "live", retrying: "reconnecting…", down: "stream closed",
  off: "live updates off" };
onStreamStatus((state) => {
  light.className = `dot ${state === "live" ? "live" : state === "down" ? "down" : ""}`;
  lightText.textContent = STATUS_TEXT[state] || state;
  document.body.dataset.stream = state;
});
connect();

// The daemon's health on every page: a banner while it is degraded (no new games: a low disk)
// or failed, gone once it is ok again. Polled, because the stream does not carry it.
const banner = document.getElementById("health-banner");
function checkHealth() {
  get("/api/health").then((x) => {
    const bad = x.status !== "ok" && x.status !== "draining";
    banner.hidden = !bad;
    banner.textContent = bad
      ? `The daemon is ${x.status}: ${x.reason || x.failure || "see its log"}. No new games start until it recovers; reads go on.`
      : "";
  }).catch(() => {});
}
checkHealth();
setInterval(checkHealth, 10000);

// The viewer rewrites its own ply in the address with replaceState: only real navigations route.
window.addEventListener("hashchange", route);
route();
