// event.js: one event: its state and progress with ETA (and its controls when a token is set),
// standings per game with the Elo chart, the live boards of its running games, the crosstable,
// the terminations per engine and its latest games; an sprt event's LLR against its bounds; a
// knockout's bracket or a Swiss event's standings (rounds.js). Standings and progress follow the stream;
// the tables drawn from finished games reload (debounced) when a game finishes.

import { get, query, subscribe } from "./api.js";
import { eventControls } from "./events.js";
import { liveBoards } from "./live.js";
import { roundsPanel } from "./rounds.js";
import { sprtPanel } from "./sprt.js";
import { crosstablePanel, gamesTable, standingsPanel, terminationsPanel } from "./tables.js";
import { badge, breakable, clear, debounce, errorBox, fmtDuration, fmtTime, h, progressBar } from "./util.js";

function header(e, onChange) {
  const sprt = sprtPanel(e.sprt);
  return [
    h("h1", { class: "event-title" }, h("span", {}, e.name), badge(e.state), h("span", { class: "muted small event-kind" }, e.kind)),
    h("div", { class: "row" },
      e.progress !== null && e.progress !== undefined ? progressBar(e.progress) : null,
      h("span", { class: "event-counts", "data-finished": e.finished, "data-scheduled": e.scheduled },
        `${e.finished} of ${e.scheduled} played`, e.skipped ? `, ${e.skipped} skipped` : "", e.running ? `, ${e.running} playing` : ""),
      e.state === "running" ? h("span", { class: "muted" }, `ETA ${fmtDuration(e.eta_s)}`) : null,
      h("span", { class: "spacer" }), eventControls(e, onChange)),
    h("p", { class: "small muted" },
      "games: ", (e.games || []).map((g, i) => [i ? ", " : "", breakable(g)]), ` · engines: ${(e.engines || []).join(", ")}`,
      e.tc ? ` · tc ${typeof e.tc === "string" ? e.tc : JSON.stringify(e.tc)}` : "",
      ` · created ${fmtTime(e.created_at)}`, e.finished_at ? ` · finished ${fmtTime(e.finished_at)}` : ""),
    sprt,
  ];
}

export function eventPage(root, id) {
  const top = h("div", { class: "panel", id: "event-header" }, h("p", { class: "muted" }, "Loading…"));
  const standings = h("div", { class: "panel", id: "standings" }, h("h2", {}, "Standings"));
  const live = h("div", { class: "panel", id: "live" }, h("h2", {}, "Live boards"));
  const liveBody = h("div");
  live.appendChild(liveBody);
  const cross = h("div", { class: "panel", id: "crosstable" });
  const terms = h("div", { class: "panel", id: "terminations" });
  const recent = h("div", { class: "panel", id: "recent" });
  const rounds = h("div", { class: "panel", id: "rounds", hidden: true });
  clear(root, top, rounds, standings, live, h("div", { class: "grid grid-2" }, cross, terms), recent);

  let format = "";
  const showHeader = (e) => {
    if (e.spec) format = e.spec.format || "";  // the stream's summaries have no spec
    clear(top, header(e, showHeader));
  };
  const showStandings = (s) => clear(standings, h("h2", {}, "Standings"), standingsPanel(s));

  async function loadEvent() {
    try {
      showHeader(await get(`/api/events/${id}`));
    } catch (e) {
      clear(top, errorBox(e));
    }
  }
  async function loadStandings() {
    try {
      showStandings(await get(`/api/events/${id}/standings`));
    } catch (e) {
      clear(standings, h("h2", {}, "Standings"), errorBox(e));
    }
  }
  async function loadTables() {
    const [c, t, g] = await Promise.allSettled([
      get(`/api/events/${id}/crosstable`), get(`/api/events/${id}/terminations`),
      get(`/api/games${query({ event: id, status: "finished", limit: 10 })}`)]);
    clear(cross, h("h2", {}, "Crosstable"), c.status === "fulfilled" ? crosstablePanel(c.value) : errorBox(c.reason));
    clear(terms, h("h2", {}, "Terminations"), t.status === "fulfilled" ? terminationsPanel(t.value) : errorBox(t.reason));
    if (format === "knockout" || format === "swiss") {
      rounds.hidden = false;
      const title = h("h2", {}, format === "knockout" ? "Bracket" : "Swiss standings");
      try {
        clear(rounds, title, roundsPanel(await get(`/api/events/${id}/rounds`)));
      } catch (e) {
        clear(rounds, title, errorBox(e));
      }
    }
    clear(recent, h("h2", {}, "Latest games", h("a", { class: "small", href: `#/games?event=${id}` }, "all games ›")),
      g.status === "fulfilled" ? gamesTable(g.value.games) : errorBox(g.reason));
  }
  const reloadTables = debounce(loadTables, 700);

  const boards = liveBoards(liveBody, { event: id, emptyText: "No game of this event is being played right now." });
  const unsubscribe = subscribe({
    event_changed: (e) => e.id === id && showHeader(e),
    standings: (s) => s.event_id === id && showStandings(s),
    game_finished: (g) => g.event_id === id && reloadTables(),
    resync: () => { loadEvent(); loadStandings(); loadTables(); },
  });
  loadEvent().then(loadTables);
  loadStandings();
  return () => {
    unsubscribe();
    boards.destroy();
  };
}
