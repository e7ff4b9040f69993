// rounds.js: the rounds of a knockout or Swiss event (GET /api/events/{id}/rounds, API.md): a
// knockout's bracket as one column per round, each match with its seeds, points and winner (a bye,
// a match waiting for a side, a match played); a Swiss event's standings with Buchholz and
// Sonneborn-Berger, then each finished round's pairings.

import { h, tableWrap } from "./util.js";

const pts = (x) => (Number.isInteger(x) ? String(x) : Number(x).toFixed(1));

function seedOf(data, name) {
  const i = (data.seeds || []).indexOf(name);
  return i < 0 ? "" : `#${i + 1} `;
}

function side(data, m, k) {
  const name = m.engines[k];
  if (name === null) return h("div", { class: "ko-side muted" }, m.state === "bye" && k === 1 ? "bye" : "?");
  const won = m.winner === name && m.state !== "bye";
  return h("div", { class: `ko-side${won ? " ko-winner" : ""}` },
    h("span", { class: "muted small" }, seedOf(data, name)), name,
    m.state === "playing" || m.state === "decided" ? h("span", { class: "ko-points" }, pts(m.points[k])) : null);
}

function roundTitle(r, count) {
  const left = count - r;
  return left === 1 ? "Final" : left === 2 ? "Semi-finals" : `Round ${r + 1}`;
}

function bracket(data) {
  const rounds = data.rounds || [];
  return h("div", { class: "ko-bracket", id: "bracket", "data-champion": data.champion || "" },
    rounds.map((matches, r) => h("div", { class: "ko-round" },
      h("h3", { class: "small" }, roundTitle(r, rounds.length)),
      h("div", { class: "ko-matches" }, matches.map((m) => h("div", { class: `ko-match ko-${m.state}`, "data-state": m.state },
        side(data, m, 0), side(data, m, 1),
        m.state === "playing" || m.state === "decided"
          ? h("div", { class: "muted small" }, `${m.pairs_settled}/${m.pairs_scheduled} pairs`,
            m.by_seed ? " · higher seed advances" : "")
          : null))))),
    data.champion ? h("div", { class: "ko-round" }, h("h3", { class: "small" }, "Winner"),
      h("div", { class: "ko-matches" },
        h("div", { class: "ko-match ko-decided" }, h("div", { class: "ko-side ko-winner" }, data.champion)))) : null);
}

function swiss(data) {
  const rows = (data.standings || []).map((s, i) => h("tr", {},
    h("td", {}, String(i + 1)), h("td", {}, s.engine), h("td", {}, pts(s.score)),
    h("td", {}, pts(s.buchholz)), h("td", {}, pts(s.sonneborn_berger)), h("td", {}, pts(s.game_points)),
    h("td", {}, String(s.byes))));
  const played = (data.rounds || []).map((r, i) => h("li", {}, `Round ${i + 1}: `,
    r.pairings.map((p, k) => [k ? " · " : "", `${p.engines[0]} ${pts(p.points[0])}–${pts(p.points[1])} ${p.engines[1]}`]),
    r.bye ? ` · bye ${r.bye}` : ""));
  return [
    h("p", { class: "small muted" }, `${(data.rounds || []).length} of ${data.rounds_total} rounds finished`),
    tableWrap(h("table", { id: "swiss-standings" },
      h("thead", {}, h("tr", {}, ["#", "engine", "score", "Buchholz", "S-B", "game points", "byes"].map((t) => h("th", {}, t)))),
      h("tbody", {}, rows))),
    h("ul", { class: "small" }, played),
  ];
}

export function roundsPanel(data) {
  return data.format === "knockout" ? bracket(data) : swiss(data);
}
