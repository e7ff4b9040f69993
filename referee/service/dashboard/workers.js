// workers.js: the workers page: every process that plays games on this database (workers, this
// daemon and others, tournament runs), their state by lease (alive, lost: killed or hung,
// stopped), last heartbeat and the games they play now, linked to the viewer. Polled every 2 s:
// heartbeats are not on the live stream.

import { get } from "./api.js";
import { badge, clear, errorBox, gameLink, h, tableWrap } from "./util.js";

const POLL_MS = 2000;

function age(seconds) {
  if (seconds == null) return "–";
  if (seconds < 1) return "now";
  if (seconds < 120) return `${Math.round(seconds)} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

function row(w) {
  const games = (w.running_games || []);
  return h("tr", { "data-worker": w.id, "data-state": w.state },
    h("td", {}, w.name || "–", w.this_daemon ? h("span", { class: "small muted" }, " (this daemon)") : null),
    h("td", {}, w.kind),
    h("td", { class: "hide-phone" }, w.host, h("span", { class: "muted small" }, ` pid ${w.pid}`)),
    h("td", {}, badge(w.state)),
    h("td", { class: "small", title: w.heartbeat_at || "" }, age(w.heartbeat_age_s)),
    h("td", { class: "num" }, String(games.length)),
    h("td", { class: "small" }, games.length === 0 ? h("span", { class: "muted" }, "–")
      : games.slice(0, 16).flatMap((id, i) => [i ? " " : null, gameLink(id, `#${id}`)]),
      games.length > 16 ? h("span", { class: "muted" }, ` +${games.length - 16}`) : null));
}

export function workersPage(root) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Workers"),
    h("p", { class: "muted small" }, "Processes playing games on this database: `referee worker`, daemons and tournament runs. " +
      "Lost: its lease ran out without a heartbeat (killed or hung); its games are played again elsewhere."),
    body));
  let timer = null;
  let stopped = false;
  async function load() {
    try {
      const data = await get("/api/workers");
      const list = data.workers || [];
      clear(body, list.length === 0 ? h("p", { class: "muted" }, "No worker.") :
        tableWrap(h("thead", {}, h("tr", {}, h("th", {}, "name"), h("th", {}, "kind"), h("th", { class: "hide-phone" }, "host"),
          h("th", {}, "state"), h("th", {}, "heartbeat"), h("th", { class: "num" }, "games"), h("th", {}, "live games"))),
        h("tbody", { id: "workers" }, list.map(row))));
    } catch (e) {
      clear(body, errorBox(e));
    }
    if (!stopped) timer = setTimeout(load, POLL_MS);
  }
  load();
  return () => { stopped = true; clearTimeout(timer); };
}
