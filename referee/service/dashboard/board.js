// board.js: draws a BoardView (referee/service/board_view.md) as an SVG element. One renderer for
// every game family: it knows cells, lines, arcs and texts, never a game or a position string.
//
// Decisions:
// - The SVG's viewBox is the view's box, so it scales to its container (width 100 %) and stays
//   sharp at any size; text sizes are in view units (a hole is 8.4 units across).
// - Colours are written on the elements (not only in CSS) so that a board copied out of the page
//   or screenshot alone looks the same; players 1..6 have fixed colours (PLAYER_COLOURS).
// - A hole shows its count in figures and up to 12 seeds drawn (30 in a store), so a glance gives
//   the shape of the board and the figure gives the truth.
// - Every cell is a <g class="cell"> with data-* attributes (id, kind, count, player, king, owner,
//   mark) that tests and tools read instead of pixels.
// - options.portrait turns the board a quarter turn clockwise (North's side to the right), texts
//   staying upright: a long board (4×16) is then readable in a phone's narrow column.

const SVG_NS = "http://www.w3.org/2000/svg";

export const PLAYER_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e"];
const BOARD_WOOD = "#c8995b";
const BOARD_EDGE = "#8a6235";
const PAPER = "#f6efe1";
const LINE = "#5b4630";
const ARC_COLOURS = ["#5b4630", "#2471a3", "#c0392b"];
const MARK = "#f1c40f";

export function playerColour(p) {
  return p >= 1 && p <= PLAYER_COLOURS.length ? PLAYER_COLOURS[p - 1] : "#7f8c8d";
}

function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

const fmt = (v) => (Math.round(v * 100) / 100).toString();

// Ids must be unique per page even with many boards: each board gets its own prefix.
let boardCounter = 0;

function defs(svg, prefix) {
  const d = el("defs", {}, svg);
  const well = el("radialGradient", { id: `${prefix}-well`, cx: "50%", cy: "40%", r: "65%" }, d);
  el("stop", { offset: "0%", "stop-color": "#6e4b26" }, well);
  el("stop", { offset: "100%", "stop-color": "#3e2a14" }, well);
  const seed = el("radialGradient", { id: `${prefix}-seed`, cx: "35%", cy: "35%", r: "70%" }, d);
  el("stop", { offset: "0%", "stop-color": "#fffaf0" }, seed);
  el("stop", { offset: "100%", "stop-color": "#c9b28a" }, seed);
  const wood = el("linearGradient", { id: `${prefix}-wood`, x1: "0", y1: "0", x2: "0", y2: "1" }, d);
  el("stop", { offset: "0%", "stop-color": "#d5a96a" }, wood);
  el("stop", { offset: "100%", "stop-color": BOARD_WOOD }, wood);
}

// Seed positions inside an ellipse of radii rx, ry: a sunflower spiral, the same every time.
function seedSpots(n, rx, ry) {
  const spots = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt((i + 0.5) / n);
    spots.push([Math.cos(i * golden) * r * rx, Math.sin(i * golden) * r * ry]);
  }
  return spots;
}

function cellTitle(c) {
  if (c.kind === "point") {
    if (!c.piece) return `${c.id}: empty`;
    return `${c.id}: player ${c.piece.player}${c.piece.king ? " king" : ""}`;
  }
  const what = c.kind === "store" ? `store ${c.id}` : `hole ${c.id}`;
  if (c.kind === "blind") return `${what}: blind (out of play this round)`;
  const owner = c.owner ? `, player ${c.owner}'s` : "";
  return `${what}${owner}: ${c.count} seed${c.count === 1 ? "" : "s"}`;
}

function drawWell(g, c, prefix, toMove) {
  const rx = c.w / 2;
  const ry = c.h / 2;
  const ownerColour = c.owner ? playerColour(c.owner) : BOARD_EDGE;
  const turn = c.owner && c.owner === toMove;
  const shape =
    c.kind === "store"
      ? el("rect", { x: fmt(c.x - rx), y: fmt(c.y - ry), width: fmt(c.w), height: fmt(c.h), rx: fmt(rx), ry: fmt(rx) }, g)
      : el("ellipse", { cx: fmt(c.x), cy: fmt(c.y), rx: fmt(rx), ry: fmt(ry) }, g);
  shape.setAttribute("class", "well");
  if (c.kind === "blind") {
    shape.setAttribute("fill", "#9a8a74");
    shape.setAttribute("stroke", "#6d604f");
    shape.setAttribute("stroke-width", "0.5");
    const k = Math.min(rx, ry) * 0.55;
    for (const [dx, dy] of [[1, 1], [1, -1]])
      el("line", { x1: fmt(c.x - k * dx), y1: fmt(c.y - k * dy), x2: fmt(c.x + k * dx), y2: fmt(c.y + k * dy), stroke: "#4a4033", "stroke-width": "0.7", "stroke-linecap": "round" }, g);
    return;
  }
  shape.setAttribute("fill", `url(#${prefix}-well)`);
  shape.setAttribute("stroke", ownerColour);
  shape.setAttribute("stroke-width", turn ? "0.9" : "0.5");
  const count = c.count ?? 0;
  const shown = Math.min(count, c.kind === "store" ? 30 : 12);
  const seedR = 0.8;
  for (const [dx, dy] of seedSpots(shown, Math.max(rx - 1.4, 0.5), Math.max(ry - 1.4, 0.5)))
    el("circle", { cx: fmt(c.x + dx), cy: fmt(c.y + dy), r: seedR, fill: `url(#${prefix}-seed)`, stroke: "#8c7453", "stroke-width": "0.15", class: "seed" }, g);
  el("text", {
    x: fmt(c.x), y: fmt(c.y), class: "count", "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": count >= 100 ? "2.9" : "3.6", "font-weight": "700", fill: "#ffffff",
    stroke: "#2b1a0b", "stroke-width": "0.7", "paint-order": "stroke", "font-family": "system-ui, sans-serif",
  }, g, String(count));
}

function drawPoint(g, c, toMove) {
  el("circle", { cx: fmt(c.x), cy: fmt(c.y), r: "1.1", fill: LINE, class: "spot" }, g);
  if (!c.piece) return;
  const r = c.w / 2;
  const colour = playerColour(c.piece.player);
  el("circle", { cx: fmt(c.x), cy: fmt(c.y + 0.35), r: fmt(r), fill: "rgba(0,0,0,0.25)" }, g);
  el("circle", {
    cx: fmt(c.x), cy: fmt(c.y), r: fmt(r), fill: colour, stroke: c.piece.player === toMove ? "#ffffff" : "#2c2c2c",
    "stroke-width": c.piece.player === toMove ? "0.7" : "0.4", class: "piece",
  }, g);
  el("circle", { cx: fmt(c.x), cy: fmt(c.y), r: fmt(r * 0.62), fill: "none", stroke: "rgba(255,255,255,0.35)", "stroke-width": "0.4" }, g);
  if (c.piece.king) {
    // A crown: a five-pointed star in gold.
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      const rr = i % 2 === 0 ? r * 0.62 : r * 0.27;
      pts.push(`${fmt(c.x + rr * Math.cos(a))},${fmt(c.y + rr * Math.sin(a))}`);
    }
    el("polygon", { points: pts.join(" "), fill: "#f7dc6f", stroke: "#7d6608", "stroke-width": "0.25", class: "king" }, g);
  }
}

function drawCell(parent, c, prefix, toMove) {
  const g = el("g", {
    class: `cell cell-${c.kind}${c.mark ? " marked" : ""}`,
    "data-id": c.id, "data-kind": c.kind,
    "data-count": c.count ?? null,
    "data-owner": c.owner ?? null,
    "data-player": c.piece ? c.piece.player : null,
    "data-king": c.piece ? String(c.piece.king) : null,
    "data-mark": String(Boolean(c.mark)),
  }, parent);
  el("title", {}, g, cellTitle(c));
  if (c.mark) {
    const r = Math.max(c.w, c.h) / 2 + 1.0;
    const ring =
      c.kind === "store"
        ? el("rect", { x: fmt(c.x - c.w / 2 - 1), y: fmt(c.y - c.h / 2 - 1), width: fmt(c.w + 2), height: fmt(c.h + 2), rx: fmt(c.w / 2 + 1) }, g)
        : el("circle", { cx: fmt(c.x), cy: fmt(c.y), r: fmt(r) }, g);
    ring.setAttribute("fill", "none");
    ring.setAttribute("stroke", MARK);
    ring.setAttribute("stroke-width", "0.7");
    ring.setAttribute("stroke-dasharray", "1.2 0.8");
    ring.setAttribute("class", "mark");
  }
  if (c.kind === "point") drawPoint(g, c, toMove);
  else drawWell(g, c, prefix, toMove);
  if (c.label_at && c.kind !== "point")
    el("text", {
      x: fmt(c.label_at[0]), y: fmt(c.label_at[1]), class: "label", "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": "2.6", fill: "#3b2a18", "font-family": "system-ui, sans-serif",
    }, g, c.label);
}

function arcPath(a) {
  const rad = Math.PI / 180;
  const x1 = a.cx + a.r * Math.cos(a.from * rad);
  const y1 = a.cy + a.r * Math.sin(a.from * rad);
  const x2 = a.cx + a.r * Math.cos(a.to * rad);
  const y2 = a.cy + a.r * Math.sin(a.to * rad);
  const large = a.to - a.from > 180 ? 1 : 0;
  return `M ${fmt(x1)} ${fmt(y1)} A ${fmt(a.r)} ${fmt(a.r)} 0 ${large} 1 ${fmt(x2)} ${fmt(y2)}`;
}

// The view turned a quarter turn clockwise: (x, y) -> (height - y, x); arcs' angles grow by 90.
function turned(view) {
  const H = view.height;
  const at = ([x, y]) => [H - y, x];
  return {
    ...view, width: view.height, height: view.width,
    cells: view.cells.map((c) => {
      const [x, y] = at([c.x, c.y]);
      return { ...c, x, y, w: c.h, h: c.w, label_at: c.label_at ? at(c.label_at) : null };
    }),
    lines: view.lines.map(([x1, y1, x2, y2]) => [...at([x1, y1]), ...at([x2, y2])]),
    arcs: (view.arcs || []).map((a) => {
      const [cx, cy] = at([a.cx, a.cy]);
      return { ...a, cx, cy, from: a.from + 90, to: a.to + 90 };
    }),
    texts: (view.texts || []).map((t) => {
      const [x, y] = at([t.x, t.y]);
      return { ...t, x, y };
    }),
  };
}

// A board as wide as 4×16 is drawn turned in a narrow column.
export function wantsPortrait(view, narrow) {
  return Boolean(narrow) && view.width > 2.5 * view.height && view.width > 12 * 10;
}

// The SVG of one view. options.title: an accessible name for the picture; options.portrait: turn
// it a quarter turn (see above).
export function renderBoard(original, options = {}) {
  const view = options.portrait ? turned(original) : original;
  const prefix = `b${++boardCounter}`;
  const points = view.cells.length > 0 && view.cells[0].kind === "point";
  const svg = el("svg", {
    xmlns: SVG_NS, viewBox: `0 0 ${fmt(view.width)} ${fmt(view.height)}`,
    class: `board family-${view.family}`, role: "img", "aria-label": options.title || `${view.family} board`,
    "data-family": view.family, "data-to-move": view.to_move, "data-cells": view.cells.length,
    "data-portrait": options.portrait ? "true" : "false",
    preserveAspectRatio: "xMidYMid meet",
  });
  defs(svg, prefix);
  el("rect", {
    x: "0.3", y: "0.3", width: fmt(view.width - 0.6), height: fmt(view.height - 0.6), rx: points ? "2" : "4",
    fill: points ? PAPER : `url(#${prefix}-wood)`, stroke: BOARD_EDGE, "stroke-width": "0.6", class: "board-bg",
  }, svg);
  const lines = el("g", { class: "lines", stroke: LINE, "stroke-width": points ? "0.55" : "0.35", "stroke-linecap": "round" }, svg);
  for (const [x1, y1, x2, y2] of view.lines) el("line", { x1, y1, x2, y2 }, lines);
  const arcs = el("g", { class: "arcs", fill: "none", "stroke-width": "0.8" }, svg);
  for (const a of view.arcs || [])
    el("path", { d: arcPath(a), stroke: ARC_COLOURS[a.group] || LINE, "data-group": a.group }, arcs);
  const texts = el("g", { class: "texts", "font-family": "system-ui, sans-serif" }, svg);
  for (const t of view.texts || [])
    el("text", {
      x: t.x, y: t.y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": t.player ? "3.4" : "3",
      "font-weight": t.player ? "700" : "400", fill: t.player ? playerColour(t.player) : "#6b5a45",
    }, texts, t.text);
  const cells = el("g", { class: "cells" }, svg);
  for (const c of view.cells) drawCell(cells, c, prefix, view.to_move);
  return svg;
}

// The final scores of a finished game (what its result counts), or null while it goes on.
function finalScores(view) {
  return view.final_scores && view.final_scores.length ? view.final_scores : null;
}

// One line about the view: who moves, the scores and what they are (at the end, the final score
// the result counts, and the board's own figure too when the count changed it: kalaha's seeds
// left in a row), the round, the phase.
export function describeView(view, names = []) {
  const who = (p) => names[p - 1] || `player ${p}`;
  const parts = [];
  parts.push(view.to_move ? `${who(view.to_move)} to move` : "game over");
  const final = finalScores(view);
  const text = (list) => list.map((s) => fmt(s)).join(" – ");
  if (final) {
    parts.push(`final score: ${text(final)}`);
    if (view.scores && text(view.scores) !== text(final))
      parts.push(`${view.score_label} ${text(view.scores)} before the final count`);
  } else if (view.scores && view.scores.length)
    parts.push(`${view.score_label}: ${text(view.scores)}`);
  if (view.round > 1) parts.push(`round ${view.round}`);
  if (view.phase) parts.push(`${view.phase} phase`);
  return parts.join(" · ");
}

// A board with its caption (scores, legend, notes) in a <figure>; `names` names the seats.
export function boardFigure(view, options = {}) {
  const fig = document.createElement("figure");
  fig.className = "board-figure";
  const narrow = options.narrow ?? window.matchMedia("(max-width: 720px)").matches;
  fig.appendChild(renderBoard(view, { ...options, portrait: options.portrait ?? wantsPortrait(view, narrow) }));
  const cap = document.createElement("figcaption");
  const line = document.createElement("div");
  line.className = "board-caption";
  (finalScores(view) || view.scores || []).forEach((s, i) => {
    const chip = document.createElement("span");
    chip.className = `chip${view.to_move === i + 1 ? " chip-turn" : ""}`;
    chip.style.setProperty("--chip", playerColour(i + 1));
    chip.textContent = `${(options.names || [])[i] || `P${i + 1}`} ${fmt(s)}`;
    chip.dataset.player = String(i + 1);
    chip.dataset.score = String(s);
    line.appendChild(chip);
  });
  const text = document.createElement("span");
  text.className = "board-text";
  text.textContent = describeView(view, options.names || []);
  line.appendChild(text);
  cap.appendChild(line);
  const extra = [];
  if (view.legend && view.cells.some((c) => c.mark)) extra.push(`marked: ${view.legend}`);
  for (const n of view.notes || []) extra.push(n);
  if (extra.length) {
    const notes = document.createElement("div");
    notes.className = "board-notes";
    notes.textContent = extra.join(" · ");
    cap.appendChild(notes);
  }
  fig.appendChild(cap);
  return fig;
}
