// gallery.js: the board gallery: draws a list of board views (each game's start and a position in
// play) with board.js, one card per view. The views come as JSON from `?data=URL`, or from a
// script calling window.showGallery(data); the browser tests use both and screenshot each card.
import { boardFigure } from "./board.js";

function card(board, index) {
  const div = document.createElement("section");
  div.className = "panel gallery-card";
  div.id = `card-${index}`;
  div.dataset.game = board.game || "";
  div.dataset.family = board.view.family;
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
const url = new URLSearchParams(location.search).get("data");
if (url) {
  fetch(url)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: HTTP ${r.status}`))))
    .then(showGallery)
    .catch((e) => fail(`cannot load ${url}: ${e.message}`));
}
