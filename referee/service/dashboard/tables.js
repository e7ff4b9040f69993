// tables.js: the tables the event and ladder pages share: standings (with the Elo chart),
// crosstable, terminations per engine, and a list of games.

import { eloChart } from "./chart.js";
import { ending, fmtNumber, fmtPercent, fmtSigned, fmtTime, gameLink, gameTitle, h, narrowScreen, tableWrap } from "./util.js";

// A rating as written in the table: "+12.3", "> 0.0" for a lower bound, "< ..." for an upper
// one, "unrated". A bound's `elo` is the figure the daemon shows for it, never past the next
// engine's, so the column follows the ranks.
function eloText(r) {
  if (r.bound === "unrated") return "unrated";
  if (r.bound === "lower") return `> ${fmtSigned(r.elo)}`;
  if (r.bound === "upper") return `< ${fmtSigned(r.elo)}`;
  return fmtSigned(r.elo);
}

// Its error: "ref" for the only finite rating of a group (it fixes the scale, measures nothing),
// nothing for a bound, "?" when unknown.
function errorText(r) {
  if (r.reference) return "ref";
  if (r.error === null || r.error === undefined) return r.bound ? "" : "?";
  return fmtNumber(r.error);
}

export function standingsPanel(standings) {
  const tables = (standings && standings.tables) || [];
  if (tables.length === 0) return h("p", { class: "muted" }, "No finished game yet.");
  return tables.map((t) =>
    h("div", { class: "standings", "data-game": t.game, "data-games": t.games ?? "" },
      h("h3", {}, gameTitle(t.game)),
      h("p", { class: "muted small" }, `${t.games ?? ""} games · ${standings.confidence || 95} % confidence intervals`),
      h("div", { class: "standings-body" },
      eloChart({ ...t, confidence: standings.confidence }, { narrow: narrowScreen() }),
      tableWrap(
        h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, "engine"), h("th", { class: "num" }, "Elo"),
          h("th", { class: "num" }, "±"), h("th", { class: "num" }, "games"), h("th", { class: "num" }, "W"),
          h("th", { class: "num" }, "D"), h("th", { class: "num" }, "L"), h("th", { class: "num" }, "score"),
          h("th", { class: "num hide-phone" }, "LOS"))),
        h("tbody", {}, t.rows.map((r) =>
          h("tr", { "data-engine": r.engine, "data-games": r.games },
            h("td", { class: "num" }, r.rank), h("td", {}, r.engine), h("td", { class: "num" }, eloText(r)),
            h("td", { class: "num" }, errorText(r)), h("td", { class: "num" }, r.games),
            h("td", { class: "num" }, r.w), h("td", { class: "num" }, r.d), h("td", { class: "num" }, r.l),
            h("td", { class: "num" }, fmtPercent(r.score)), h("td", { class: "num hide-phone" }, fmtPercent(r.los))))))),
      (t.legend || []).map((line) => h("p", { class: "muted small legend" }, line))));
}

export function crosstablePanel(data) {
  const tables = (data && data.tables) || (data && data.engines ? [data] : []);
  if (tables.length === 0) return h("p", { class: "muted" }, "No finished game yet.");
  const cell = (t, i, j) => {
    const c = t.cells[i][j];
    if (i === j || !c) return h("td", { class: "self" }, "");
    return h("td", { title: `${t.engines[i]} v ${t.engines[j]}: ${c.w} won, ${c.d} drawn, ${c.l} lost` },
      c.w + c.d + c.l === 0 ? "·" : `+${c.w} =${c.d} −${c.l}`);
  };
  return tables.map((t) =>
    h("div", { class: "crosstable-block", "data-game": t.game }, tables.length > 1 ? h("h3", {}, gameTitle(t.game)) : null,
      h("div", { class: "table-wrap" }, h("table", { class: "crosstable" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), t.engines.map((e, j) => h("th", { title: e }, `${j + 1}`)))),
        h("tbody", {}, t.engines.map((e, i) =>
          h("tr", {}, h("th", {}, `${i + 1}. ${e}`), t.engines.map((_, j) => cell(t, i, j)))))))));
}

const FORFEITS = ["time", "crash", "illegal", "stall", "protocol", "resign"];

// Forfeit kinds no engine has are not columns (a line names them), so the table stays narrow.
export function terminationsPanel(data) {
  const engines = Object.entries((data && data.engines) || {});
  if (engines.length === 0) return h("p", { class: "muted" }, "No finished game yet.");
  const shown = FORFEITS.filter((k) => engines.some(([, t]) => t[k]));
  const none = FORFEITS.filter((k) => !shown.includes(k));
  return h("div", {},
    tableWrap(
      h("thead", {}, h("tr", {}, h("th", {}, "engine"), h("th", { class: "num" }, "games"),
        shown.map((k) => h("th", { class: "num" }, k)), h("th", { class: "hide-phone" }, "other endings"))),
      h("tbody", {}, engines.map(([name, t]) =>
        h("tr", { "data-engine": name }, h("td", {}, name), h("td", { class: "num" }, t.games ?? "–"),
          shown.map((k) => h("td", { class: `num${t[k] ? " error" : ""}`, "data-kind": k }, t[k] ?? 0)),
          h("td", { class: "hide-phone small muted" },
            Object.entries(t.other || {}).map(([k, v]) => `${k} ${v}`).join(", ")))))),
    none.length ? h("p", { class: "small muted", "data-none": none.join(" ") }, `No game lost by ${none.join(", ")}.`) : null);
}

// The players of a game, each name kept whole when the cell wraps on a phone.
function playerNames(players) {
  const list = players || [];
  const sep = list.length === 2 ? " – " : ", ";
  return list.map((p, i) => [h("span", { class: "seat-name" }, i < list.length - 1 ? `${p}${sep.trimEnd()}` : p), " "]);
}

// The ending said once: a sentence on a desktop, the word on a phone, both as stored in the title.
function endingCell(g) {
  const e = ending(g.termination, g.reason);
  return h("td", { class: "small ending", title: e.title, "data-termination": g.termination || "" },
    h("span", { class: "hide-phone" }, e.long), h("span", { class: "show-phone" }, e.short));
}

export function gamesTable(games) {
  if (!games.length) return h("p", { class: "muted" }, "No game.");
  return tableWrap(
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, "players"), h("th", {}, "result"),
      h("th", { class: "hide-phone" }, "game"), h("th", {}, "ending"), h("th", { class: "num hide-phone" }, "plies"),
      h("th", { class: "hide-phone" }, "finished"))),
    h("tbody", {}, games.map((g) =>
      h("tr", { class: "clickable", "data-game-id": g.id, onclick: () => (location.hash = `#/games/${g.id}`) },
        h("td", { class: "num" }, gameLink(g.id, g.id)), h("td", { class: "players" }, playerNames(g.players)),
        h("td", {}, g.result || g.status), h("td", { class: "hide-phone small" }, gameTitle(g.game)),
        endingCell(g),
        h("td", { class: "num hide-phone" }, g.plies), h("td", { class: "hide-phone small" }, fmtTime(g.finished_at))))));
}
