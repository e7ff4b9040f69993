// viewer.js: the game viewer: any stored game step by step (first/prev/next/last buttons, the
// keyboard's arrows, Home and End, PageUp/PageDown by ten), the board and both clocks at each
// ply, the move list with the mover of each move (a click jumps there), the engine's `info`
// lines for the move shown, the result at the end and the whole engine transcript.
//
// Decisions: the board at ply K comes from the daemon (/api/games/{id}/position?ply=K: the rules
// library replays the stored moves), fetched once per ply and cached, the next plies prefetched;
// a game's first plies may be opening plies the referee played (not in the move list): the move
// list starts after them. The ply shown is kept in the address (#/games/12?ply=30); without one
// the viewer opens at the last ply (a finished game's end, a running game's latest move). The
// move list follows the ply shown: its move highlighted and scrolled into the list's view (the
// list scrolls, never the page: on a phone the list is under the board). At a finished game's
// last ply the board's caption gives the final score the result counts (BoardView.final_scores).

import { get } from "./api.js";
import { boardFigure, playerColour } from "./board.js";
import { clear, ending, errorBox, fmtClock, fmtTime, gameTitle, h, tableWrap } from "./util.js";

const TRANSCRIPT_LINES = 3000;

export function viewerPage(root, id, params) {
  const cache = new Map();
  let game = null;
  let plies = 0;
  let offset = 0; // plies before the first recorded move (the opening)
  let ply = 0;

  const headerBox = h("div", { class: "panel", id: "viewer-header" }, h("p", { class: "muted" }, "Loading…"));
  const boardBox = h("div", { id: "viewer-board" });
  const counter = h("span", { class: "ply-counter", id: "ply-counter" }, "");
  const button = (label, title, to) => h("button", { title, "aria-label": title, onclick: () => go(to()) }, label);
  const controls = h("div", { class: "viewer-controls" },
    button("|◀", "first (Home)", () => 0), button("◀", "previous (←)", () => ply - 1),
    button("▶", "next (→)", () => ply + 1), button("▶|", "last (End)", () => plies), counter);
  const clocksBox = h("div", { class: "clocks", id: "viewer-clocks" });
  const resultBox = h("div", { id: "viewer-result" });
  const movesBox = h("div", { class: "movelist", id: "viewer-moves" });
  const infoBox = h("div", { class: "infolines", id: "viewer-info" }, "");
  const transcriptBox = h("div", { class: "transcript", id: "viewer-transcript" }, "");
  const main = h("div", { class: "viewer", id: "viewer", "data-game-id": id },
    h("div", { class: "panel" }, controls, clocksBox, boardBox, resultBox),
    h("div", {},
      h("div", { class: "panel" }, h("h3", {}, "Moves"), movesBox),
      h("div", { class: "panel" }, h("h3", {}, "Engine info for this move"), infoBox)));
  const transcriptPanel = h("details", { class: "panel" }, h("summary", {}, "Transcript (every line exchanged)"), transcriptBox);
  clear(root, headerBox, main, transcriptPanel);

  function position(k) {
    if (!cache.has(k)) cache.set(k, get(`/api/games/${id}/position?ply=${k}`));
    return cache.get(k);
  }

  function go(k) {
    if (!game) return;
    ply = Math.max(0, Math.min(plies, k));
    history.replaceState(null, "", `#/games/${id}?ply=${ply}`);
    render();
  }

  function moveAt(k) {
    const i = k - offset - 1;
    return i >= 0 && i < game.moves.length ? game.moves[i] : null;
  }

  async function render() {
    const k = ply;
    counter.textContent = `ply ${k} / ${plies}`;
    main.dataset.ply = String(k);
    main.dataset.plies = String(plies);
    followMove(k);
    const m = moveAt(k);
    infoBox.textContent = m ? (m.info || "(no info lines)") + (m.note ? `\nnote: ${m.note}` : "") : k <= offset && k > 0 ? "(an opening ply played by the referee)" : "";
    let p;
    try {
      p = await position(k);
    } catch (e) {
      clear(boardBox, errorBox(e));
      return;
    }
    if (k !== ply) return; // the user moved on meanwhile
    main.dataset.position = p.position;
    main.dataset.shown = String(k);
    clear(boardBox, boardFigure(p.view, { names: game.players, title: `game ${id} at ply ${k}` }));
    clear(clocksBox, (game.players || []).map((name, i) => {
      const ms = p.clocks_ms ? p.clocks_ms[i] : null;
      return h("span", { class: `clock${p.view && p.view.to_move === i + 1 ? " running" : ""}`, style: { "--chip": playerColour(i + 1) } },
        `${name} ${ms === null || ms === undefined ? "–" : fmtClock(ms)}`);
    }));
    const atEnd = k === plies && game.status === "finished";
    main.dataset.atEnd = atEnd ? "1" : "0";
    clear(resultBox, atEnd
      ? h("p", { class: "result-banner", id: "viewer-result-text", "data-result": game.result,
        "data-termination": game.termination, title: ending(game.termination, game.reason).title },
      `${game.result || "no result"} · ${ending(game.termination, game.reason).long}`)
      : null);
    for (const next of [k + 1, k + 2]) if (next <= plies) position(next).catch(() => {});
  }

  // Highlights the move that led to ply k and scrolls the list (only the list) to show it.
  function followMove(k) {
    let current = null;
    for (const row of movesBox.querySelectorAll("tr[data-ply]")) {
      const on = Number(row.dataset.ply) === k;
      row.classList.toggle("current", on);
      if (on) current = row;
    }
    if (!current) {
      if (k <= offset) movesBox.scrollTop = 0;
      return;
    }
    const box = movesBox.getBoundingClientRect();
    const row = current.getBoundingClientRect();
    const head = movesBox.querySelector("thead")?.getBoundingClientRect().height || 0;
    if (row.top < box.top + head) movesBox.scrollTop -= box.top + head - row.top;
    else if (row.bottom > box.bottom) movesBox.scrollTop += row.bottom - box.bottom;
  }

  function movesTable() {
    if (!game.moves.length) return h("p", { class: "muted" }, "No move recorded.");
    return tableWrap(
      h("thead", {}, h("tr", {}, h("th", { class: "num" }, "ply"), h("th", {}, "player"), h("th", {}, "move"),
        h("th", { class: "num" }, "time"), h("th", { class: "num hide-phone" }, "clock"))),
      h("tbody", {}, game.moves.map((m, i) => {
        const k = offset + i + 1;
        const name = game.players?.[m.player - 1] ?? `player ${m.player}`;
        return h("tr", { class: "clickable", "data-ply": k, onclick: () => go(k) },
          h("td", { class: "num" }, k),
          h("td", {}, h("span", { class: "chip", style: { "--chip": playerColour(m.player) } }, name)),
          h("td", { class: "mono" }, m.move, m.source && m.source !== "engine" ? h("span", { class: "muted small" }, ` (${m.source})`) : null),
          h("td", { class: "num" }, m.time_ms === null ? "–" : `${(m.time_ms / 1000).toFixed(2)} s`),
          h("td", { class: "num hide-phone" }, m.clock_ms === null ? "–" : fmtClock(m.clock_ms)));
      })));
  }

  function onKey(e) {
    if (e.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies, PageUp: ply - 10, PageDown: ply + 10 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  }
  document.addEventListener("keydown", onKey);

  async function load() {
    try {
      const [g, last] = await Promise.all([get(`/api/games/${id}`), get(`/api/games/${id}/position`)]);
      game = g;
      plies = last.plies ?? last.ply;
      cache.set(last.ply, Promise.resolve(last));
      offset = Math.max(0, plies - game.moves.length);
    } catch (e) {
      clear(headerBox, errorBox(e));
      return;
    }
    clear(headerBox,
      h("h1", {}, `Game ${game.id}`), h("p", {}, gameTitle(game.game)),
      h("div", { class: "row" }, (game.players || []).map((p, i) =>
        h("span", { class: "chip", style: { "--chip": playerColour(i + 1) } }, p)),
      h("strong", {}, game.result || game.status),
      h("span", { class: "muted small", title: ending(game.termination, game.reason).title },
        game.termination ? ending(game.termination, game.reason).long : "")),
      h("p", { class: "small muted" },
        game.event_id ? h("a", { href: `#/events/${game.event_id}` }, game.event || `event ${game.event_id}`) : "no event",
        ` · ${plies} plies`, game.time_control ? ` · tc ${game.time_control}` : "",
        game.opening?.length ? ` · opening ${[].concat(game.opening).join(" ")}` : "", ` · started ${fmtTime(game.started_at)}`,
        game.finished_at ? ` · finished ${fmtTime(game.finished_at)}` : ""));
    clear(movesBox, movesTable());
    const wanted = params.get("ply");
    go(wanted === null ? plies : Number(wanted));
    get(`/api/games/${id}/transcript`).then((t) => {
      const lines = t.lines || [];
      clear(transcriptBox, lines.length === 0 ? "(no transcript kept)" : lines.slice(0, TRANSCRIPT_LINES).map((l) =>
        h("div", { class: l.dir === ">" ? "dir-out" : l.dir === "<" ? "dir-in" : "dir-err" },
          `${(l.at_ms / 1000).toFixed(3).padStart(9)} s  seat ${l.seat} ${l.dir} ${l.text}`)),
      lines.length > TRANSCRIPT_LINES ? h("div", { class: "muted" }, `… ${lines.length - TRANSCRIPT_LINES} more lines`) : null);
    }).catch((e) => clear(transcriptBox, errorBox(e)));
  }
  load();
  return () => document.removeEventListener("keydown", onKey);
}
