// ladder.js: the ladder page: each game's ladder (the engines registered for it, its standings
// with the Elo chart) and the registered engines.

import { get, subscribe } from "./api.js";
import { standingsPanel } from "./tables.js";
import { badge, clear, debounce, errorBox, h, tableWrap } from "./util.js";

// Where an engine plays: retired, in the ladders of its games (registered), or in events only.
function engineState(x) {
  if (x.retired) return badge("retired");
  if (x.registered) {
    const games = (x.ladders || []).map((g) => g.split(":")[0]);
    return h("span", { class: "small" }, `ladder: ${games.join(", ") || "–"}`);
  }
  return h("span", { class: "small muted" }, "events only");
}

export function ladderPage(root) {
  const ladders = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const engines = h("div", { class: "panel", id: "engines" });
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Ladder"),
    h("p", { class: "muted small" }, "Engines registered for a game play each other continuously; the standings grow as games finish.")),
  ladders, engines);

  async function load() {
    const [l, e] = await Promise.allSettled([get("/api/ladder"), get("/api/engines")]);
    if (l.status === "fulfilled") {
      const list = l.value.ladders || [];
      clear(ladders, list.length === 0
        ? h("div", { class: "panel muted" }, "No ladder yet: register an engine (POST /api/engines).")
        : list.map((x) => h("div", { class: "panel ladder", "data-ladder-id": x.id },
          h("h2", {}, x.game || "ladder", badge(x.state), h("a", { class: "small", href: `#/events/${x.id}` }, "games and live boards ›")),
          h("p", { class: "small muted" }, `engines: ${(x.engines || []).join(", ") || "none"}`),
          standingsPanel({ tables: x.standings || [], confidence: 95 }))));
    } else clear(ladders, errorBox(l.reason));
    if (e.status === "fulfilled") {
      const list = e.value.engines || [];
      clear(engines, h("h2", {}, "Engines"), list.length === 0 ? h("p", { class: "muted" }, "No engine registered.") :
        tableWrap(h("thead", {}, h("tr", {}, h("th", {}, "name"), h("th", {}, "id name"), h("th", { class: "num" }, "games"),
          h("th", { class: "hide-phone" }, "command"), h("th", {}, "plays"))),
        h("tbody", {}, list.map((x) => h("tr", { "data-engine": x.name }, h("td", {}, x.name), h("td", {}, x.id_name || "–"),
          h("td", { class: "num" }, x.games ?? "–"), h("td", { class: "hide-phone mono small" }, x.command || ""),
          h("td", {}, engineState(x)))))));
    } else clear(engines, errorBox(e.reason));
  }
  const reload = debounce(load, 1000);
  const unsubscribe = subscribe({ standings: reload, resync: load });
  load();
  return unsubscribe;
}
