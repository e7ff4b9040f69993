// gallery.js: the board gallery: draws a list of board views (each game's start and a position in
// play) with board.js, one card per view. The views come as JSON from `?data=URL`, or from a
// script calling window.showGallery(data) (the browser test does, and screenshots each card), or
// else, served by `referee serve`, from its database: the start and last positions of the latest
// stored game of each board (each game, and oware for each number of players).
import { boardFigure } from "./board.js";

function card(board, index) {
  const div = document.createElement("section");
  div.className = "panel gallery-card";
  div.id = `card-${index}`;
  div.dataset.game = board.game || "";
  div.dataset.family = board.view.family;
  div.dataset.stage = board.stage || "";
  if (board.gameId !== undefined) div.dataset.gameId = board.gameId;  // a stored game's, at a ply
  if (board.ply !== undefined) div.dataset.ply = board.ply;
  const h = document.createElement("h3");
  h.textContent = board.title || board.game || board.view.family;
  const fam = document.createElement("span");
  fam.className = "family";
  fam.textContent = board.view.family;
  h.appendChild(fam);
  div.appendChild(h);
  div.appendChild(boardFigure(board.view, { title: h.firstChild.textContent }));
  if (board.position) {
    const p = document.createElement("div");
    p.className = "muted small mono";
    p.textContent = board.position;
    div.appendChild(p);
  }
  return div;
}

let shown = null;

function showGallery(data) {
  shown = data;
  const root = document.getElementById("gallery");
  root.replaceChildren(...data.boards.map(card));
  document.getElementById("gallery-status").textContent = `${data.boards.length} boards`;
  document.body.dataset.ready = "1";
}

function fail(message) {
  const status = document.getElementById("gallery-status");
  status.textContent = message;
  status.className = "error";
  document.body.dataset.ready = "error";
}

window.showGallery = showGallery;
// Long boards turn at a phone's width: redraw when the width crosses the line.
window.matchMedia("(max-width: 720px)").addEventListener("change", () => shown && showGallery(shown));

async function getJson(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
}

// What tells boards apart: the game's name, and its number of players where it has that
// parameter (oware with 3, 4 or 6 players is another board); other parameters do not change it.
function boardKey(game) {
  const [name, params = ""] = game.split(":");
  const players = params.split(",").find((p) => p.startsWith("players="));
  return players ? `${name}:${players}` : name;
}

// The daemon's latest game of each board (boardKey), at its start and at its last ply.
async function fromDaemon() {
  const list = (await getJson("/api/games?limit=500")).games || [];
  const latest = new Map();
  for (const g of list) {
    const key = boardKey(g.game);
    if (!latest.has(key)) latest.set(key, g);
  }
  const boards = [];
  for (const [key, g] of [...latest.entries()].sort()) {
    for (const [stage, suffix] of [["start", "?ply=0"], ["last", ""]]) {
      const p = await getJson(`/api/games/${g.id}/position${suffix}`);
      if (p.view)
        boards.push({ title: `${key} · game ${g.id} · ply ${p.ply}`, game: g.game, stage, view: p.view,
                      position: p.position, gameId: g.id, ply: p.ply });
    }
  }
  return boards;
}

const url = new URLSearchParams(location.search).get("data");
if (url) {
  getJson(url).then(showGallery).catch((e) => fail(`cannot load ${url}: ${e.message}`));
} else if (location.protocol !== "file:") {
  fromDaemon()
    .then((boards) => {
      if (shown) return; // a script gave its own views meanwhile
      if (boards.length) showGallery({ boards });
      else document.getElementById("gallery-status").textContent = "No stored game yet: the gallery draws the latest game of each game once there is one.";
    })
    .catch(() => {}); // not served by the daemon: the page waits for views
}
