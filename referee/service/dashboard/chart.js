// chart.js: the Elo chart of one standings table: one row per engine, a dot at its rating and a
// bar across its confidence interval (lower..upper), a line at 0 (the pool's mean). An engine
// with a one-sided bound (it won, or lost, every game against the rest: bound "lower"/"upper")
// has an open bar from its bound to the chart's edge with an arrow and "> x" or "< x" written;
// an unrated one (bound "unrated", elo null) has its name and "unrated" only; one whose interval
// is unknown otherwise has its dot only and "±?" written, or "ref" for the only finite rating of
// its group (it fixes the scale and measures nothing).

import { playerColour } from "./board.js";

const NS = "http://www.w3.org/2000/svg";

function s(name, attrs, parent, text) {
  const n = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  if (parent) parent.appendChild(n);
  return n;
}

// A "nice" step for an axis spanning `span` Elo.
function niceStep(span) {
  const raw = span / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

// options.narrow: a layout for a phone's width (shorter names column, fewer axis labels).
export function eloChart(table, options = {}) {
  const rows = table.rows || [];
  const narrow = Boolean(options.narrow);
  const W = narrow ? 360 : 460;
  const left = narrow ? 84 : 100;
  const right = narrow ? 70 : 74;
  const rowH = 26;
  const top = 14;
  const H = top + rows.length * rowH + 30;
  let lo = 0;
  let hi = 0;
  for (const r of rows) {
    if (r.elo === null || r.elo === undefined) continue;
    lo = Math.min(lo, r.lower ?? r.elo, r.elo);
    hi = Math.max(hi, r.upper ?? r.elo, r.elo);
  }
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const pad = (hi - lo) * 0.06;
  lo -= pad;
  hi += pad;
  const x = (elo) => left + ((elo - lo) / (hi - lo)) * (W - left - right);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "elo-chart", role: "img",
    "aria-label": `Elo ratings of ${table.game} with ${table.confidence || 95} % intervals` });
  const axisY = top + rows.length * rowH + 4;
  const step = niceStep((hi - lo) * (narrow ? 1.6 : 1));
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    s("line", { x1: x(v), y1: top - 6, x2: x(v), y2: axisY, stroke: v === 0 ? "#8a6235" : "#eee4d4",
      "stroke-width": v === 0 ? 1.4 : 1 }, svg);
    s("text", { x: x(v), y: axisY + 16, "text-anchor": "middle" }, svg, v > 0 ? `+${v}` : `${v}`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const g = s("g", { class: "elo-row", "data-engine": r.engine, "data-elo": r.elo,
      "data-lower": r.lower ?? "", "data-upper": r.upper ?? "" }, svg);
    const cut = narrow ? 12 : 24;
    const name = r.engine.length > cut ? `${r.engine.slice(0, cut - 1)}…` : r.engine;
    s("text", { x: left - 8, y: y + 4, "text-anchor": "end" }, g, name);
    const colour = playerColour((i % 6) + 1);
    if (r.elo === null || r.elo === undefined) {
      s("text", { x: W - right + 8, y: y + 4 }, g, r.bound === "unrated" ? "unrated" : "?");
      return;
    }
    const bar = (from, to) => s("line", { x1: x(from), y1: y, x2: x(to), y2: y, stroke: colour,
      "stroke-width": 5, "stroke-linecap": "round", opacity: 0.35, class: "error-bar" }, g);
    const tick = (at) => s("line", { x1: x(at), y1: y - 6, x2: x(at), y2: y + 6, stroke: colour, "stroke-width": 1.5 }, g);
    const signed = (v) => `${v > 0 ? "+" : ""}${Math.round(v)}`;
    let label;
    if (r.bound === "lower" || r.bound === "upper") {
      // Open towards the edge: the rating is beyond the bound, by an unknown amount.
      const edge = r.bound === "lower" ? hi : lo;
      bar(r.elo, edge);
      tick(r.elo);
      const tip = x(edge), d = r.bound === "lower" ? -7 : 7;
      s("path", { d: `M${tip} ${y}l${d} -5v10z`, fill: colour, class: "bound-arrow" }, g);
      label = `${r.bound === "lower" ? ">" : "<"} ${signed(r.elo)}`;
    } else {
      if (r.lower !== null && r.lower !== undefined && r.upper !== null && r.upper !== undefined) {
        bar(r.lower, r.upper);
        tick(r.lower);
        tick(r.upper);
      }
      s("circle", { cx: x(r.elo), cy: y, r: 5, fill: colour, stroke: "#fff", "stroke-width": 1.5 }, g);
      const error = r.reference ? "ref" : r.error === null || r.error === undefined ? "±?" : `±${Math.round(r.error)}`;
      label = `${signed(r.elo)} ${error}`;
    }
    s("text", { x: W - right + 8, y: y + 4 }, g, label);
  });
  fitTexts(svg, W, H);
  return svg;
}

// Widens the drawing (its viewBox) so that every text lies inside it: names and labels are as
// long as they are (a label such as "+141 ±17" or a bound's text), and a fixed margin would clip
// them at the box's edge. Widths are measured in the chart's font (style.css: 12px system-ui).
function fitTexts(svg, W, H) {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = "12px system-ui, sans-serif";
  let from = 0;
  let to = W;
  for (const t of svg.querySelectorAll("text")) {
    const x = Number(t.getAttribute("x"));
    const w = ctx.measureText(t.textContent).width * 1.05 + 4; // a little slack for the font's own fitting
    const anchor = t.getAttribute("text-anchor");
    from = Math.min(from, anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x);
    to = Math.max(to, anchor === "end" ? x : anchor === "middle" ? x + w / 2 : x + w);
  }
  svg.setAttribute("viewBox", `${Math.floor(from)} 0 ${Math.ceil(to - from)} ${H}`);
}
