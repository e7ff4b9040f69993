// live.js: live boards of the running games (all, or one event's), kept current by the stream:
// game_started adds a board, each move redraws it from the view the move carries, game_finished
// shows the result and removes the board a little later. Clocks count down locally between moves
// from the clocks_ms each move reports (the player to move's clock runs).
//
// Decisions: boards are fetched once (/api/games?status=running, then each game's position) and
// then only follow the stream; a message older than what a board shows (lower ply) is ignored,
// so the fetch and the stream may race freely. After a stream cut ("resync") everything reloads.

import { get, query, subscribe } from "./api.js";
import { boardFigure, playerColour } from "./board.js";
import { clear, ending, fmtClock, gameLink, gameTitle, h } from "./util.js";

const FINISHED_KEEP_MS = 8000;
const MAX_BOARDS = 24;

export function liveBoards(container, options = {}) {
  const eventId = options.event ?? null;
  const games = new Map(); // id -> {summary, view, ply, clocks, stamp, finished, card}
  let destroyed = false;
  const grid = h("div", { class: "cards live-boards" });
  const empty = h("p", { class: "muted" }, options.emptyText || "No game is being played right now.");
  clear(container, empty, grid);

  const mine = (data) => eventId === null || data.event_id === eventId;

  function clocksOf(g) {
    return (g.summary.players || []).map((name, i) => {
      const ms = g.clocks ? g.clocks[i] : null;
      const running = !g.finished && g.view && g.view.to_move === i + 1 && ms !== null && ms !== undefined;
      const shown = running ? ms - (performance.now() - g.stamp) : ms;
      return h("span", {
        class: `clock${running ? " running" : ""}${shown !== null && shown !== undefined && shown < 10000 ? " low" : ""}`,
        style: { "--chip": playerColour(i + 1) }, "data-seat": i + 1,
      }, `${name} ${ms === null || ms === undefined ? "" : fmtClock(shown)}`);
    });
  }

  function draw(g) {
    const s = g.summary;
    const head = h("h3", {}, gameLink(s.id), h("span", {}, s.players ? s.players.join(" – ") : ""),
      s.game ? gameTitle(s.game) : null);
    const footer = h("div", { class: "muted small" },
      g.finished
        ? h("span", { class: "result-banner", title: ending(s.termination, s.reason).title },
          `${s.result || "finished"}${s.termination ? ` · ${ending(s.termination, s.reason).long}` : ""}`)
        : `ply ${g.ply}${g.lastMove ? ` · last move ${g.lastMove}` : ""}`);
    const card = h("section", {
      class: "panel live-card", "data-game-id": s.id, "data-ply": g.ply, "data-position": g.position || "",
      "data-finished": g.finished ? "1" : "0",
    }, head, h("div", { class: "clocks" }, clocksOf(g)),
    g.view ? boardFigure(g.view, { names: s.players, title: `game ${s.id}` }) : h("p", { class: "muted" }, "(no board)"),
    footer);
    if (g.card) g.card.replaceWith(card);
    else {
      // Cards in game order, whichever game's news came first.
      const next = Array.from(grid.children).find((c) => Number(c.dataset.gameId) > Number(s.id));
      grid.insertBefore(card, next || null);
    }
    g.card = card;
    empty.style.display = games.size ? "none" : "";
  }

  function tick() {
    for (const g of games.values()) {
      if (g.finished || !g.card) continue;
      const row = g.card.querySelector(".clocks");
      if (row) row.replaceChildren(...clocksOf(g));
    }
  }

  function upsert(id, summary, update) {
    let g = games.get(id);
    if (!g) {
      if (games.size >= MAX_BOARDS) return;
      g = { summary, view: null, ply: -1, clocks: null, stamp: performance.now(), finished: false, card: null };
      games.set(id, g);
    }
    if (summary) g.summary = { ...g.summary, ...summary };
    if (update.ply !== undefined && update.ply < g.ply) return; // older than what is shown
    Object.assign(g, update, { stamp: performance.now() });
    draw(g);
  }

  function remove(id) {
    const g = games.get(id);
    if (!g) return;
    g.card?.remove();
    games.delete(id);
    empty.style.display = games.size ? "none" : "";
  }

  async function load() {
    for (const id of [...games.keys()]) remove(id);
    let list;
    try {
      list = await get(`/api/games${query({ status: "running", event: eventId, limit: MAX_BOARDS })}`);
    } catch (e) {
      empty.textContent = e.message;
      return;
    }
    await Promise.all(list.games.map(async (s) => {
      try {
        const p = await get(`/api/games/${s.id}/position`);
        if (!destroyed) upsert(s.id, s, { view: p.view, ply: p.ply, position: p.position, clocks: p.clocks_ms });
      } catch {
        /* finished meanwhile: the stream says so */
      }
    }));
    empty.style.display = games.size ? "none" : "";
  }

  const unsubscribe = subscribe({
    game_started: (d) => {
      if (mine(d)) upsert(d.id, d, { view: d.view, ply: 0, position: d.position, clocks: d.clocks_ms });
    },
    move: (d) => {
      if (!mine(d)) return;
      const known = games.has(d.game_id);
      upsert(d.game_id, known ? null : { id: d.game_id, event_id: d.event_id, players: [] },
        { view: d.view, ply: d.ply, position: d.position, clocks: d.clocks_ms, lastMove: d.move });
      if (!known) {
        // A game started before we listened: its players and game come from its summary.
        get(`/api/games/${d.game_id}`).then((s) => {
          const g = games.get(d.game_id);
          if (destroyed || !g) return;
          const { moves, ...summary } = s;
          g.summary = { ...summary, ...g.summary, players: summary.players, game: summary.game };
          draw(g);
        }).catch(() => {});
      }
    },
    game_finished: (d) => {
      if (!mine(d) || !games.has(d.id)) return;
      const g = games.get(d.id);
      g.finished = true;
      g.summary = { ...g.summary, ...d };
      if (d.position) g.position = d.position;
      if (g.view) g.view = { ...g.view, to_move: 0 };
      draw(g);
      setTimeout(() => {
        if (games.get(d.id) === g) remove(d.id);
      }, FINISHED_KEEP_MS);
    },
    resync: () => load(),
  });
  const timer = setInterval(tick, 200);
  load();
  return {
    destroy() {
      destroyed = true;
      clearInterval(timer);
      unsubscribe();
    },
    count: () => games.size,
  };
}
