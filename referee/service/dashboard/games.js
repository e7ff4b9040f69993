// games.js: the games list with filters (event, engine, game, result, status) and paging; the
// filters live in the page's address (#/games?engine=x&offset=50) so a filtered list can be
// linked and the back button works.

import { get, query } from "./api.js";
import { clear, errorBox, h } from "./util.js";
import { gamesTable } from "./tables.js";

const PAGE = 50;
const FIELDS = ["event", "engine", "game", "result", "status"];

export function gamesPage(root, params) {
  const offset = Math.max(0, Number(params.get("offset")) || 0);
  const filters = Object.fromEntries(FIELDS.map((k) => [k, params.get(k) || ""]));
  const go = (changes) => {
    const next = { ...filters, offset: 0, ...changes };
    location.hash = `#/games${query(next)}`;
  };
  const input = (name, placeholder, width) =>
    h("label", {}, name, h("input", { name, value: filters[name], placeholder, style: { width } }));
  const select = (name, options) =>
    h("label", {}, name, h("select", { name }, options.map((o) => h("option", { value: o, selected: filters[name] === o }, o || "any"))));
  const form = h("form", { class: "filters", onsubmit: (e) => {
    e.preventDefault();
    const data = new FormData(e.target);
    go(Object.fromEntries(FIELDS.map((k) => [k, (data.get(k) || "").trim()])));
  } },
  input("event", "id", "5rem"), input("engine", "name", "9rem"), input("game", "awale…", "9rem"),
  select("result", ["", "1-0", "0-1", "1/2-1/2"]), select("status", ["", "finished", "running", "unfinished"]),
  h("button", { class: "primary", type: "submit" }, "Filter"),
  h("button", { type: "button", onclick: () => go(Object.fromEntries(FIELDS.map((k) => [k, ""]))) }, "Clear"));
  const list = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Games"), form, list));

  get(`/api/games${query({ ...filters, limit: PAGE, offset })}`).then((data) => {
    const pager = h("div", { class: "row small", style: { marginTop: "0.6rem" } },
      h("button", { disabled: offset === 0, onclick: () => go({ offset: Math.max(0, offset - PAGE) }) }, "‹ Newer"),
      h("span", { class: "muted", id: "games-range" },
        data.total ? `${offset + 1}–${offset + data.games.length} of ${data.total}` : "none"),
      h("button", { disabled: offset + PAGE >= data.total, onclick: () => go({ offset: offset + PAGE }) }, "Older ›"));
    clear(list, gamesTable(data.games), pager);
  }).catch((e) => clear(list, errorBox(e)));
  return null;
}
