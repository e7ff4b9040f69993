// util.js: small DOM and formatting helpers shared by the pages (no framework: elements are
// built with h() and replaced wholesale when their data changes).

// h("div", {class: "x", onclick: f}, child, "text", [more children]) -> HTMLElement.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") {
      for (const [p, val] of Object.entries(v))
        if (p.startsWith("--")) node.style.setProperty(p, val);
        else node.style[p] = val;
    }
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export function fmtNumber(v, digits = 1) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return Number(v).toFixed(digits);
}

export function fmtSigned(v, digits = 1) {
  if (v === null || v === undefined) return "–";
  const s = Number(v).toFixed(digits);
  return v > 0 ? `+${s}` : s;
}

export function fmtPercent(v) {
  return v === null || v === undefined ? "–" : `${(100 * v).toFixed(1)} %`;
}

// Seconds as "1 h 05 min", "4 min 10 s", "12 s".
export function fmtDuration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${s} s`;
}

// A clock in milliseconds as m:ss.t (h:mm:ss past an hour).
export function fmtClock(ms) {
  if (ms === null || ms === undefined) return "–";
  const neg = ms < 0;
  const t = Math.abs(ms);
  const tenths = Math.floor((t % 1000) / 100);
  const secs = Math.floor(t / 1000) % 60;
  const mins = Math.floor(t / 60000) % 60;
  const hours = Math.floor(t / 3600000);
  const body = hours > 0
    ? `${hours}:${String(mins).padStart(2, "0")}:${String(secs).padStart(2, "0")}`
    : `${mins}:${String(secs).padStart(2, "0")}.${tenths}`;
  return (neg ? "-" : "") + body;
}

export function fmtTime(iso) {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });
}

export function badge(state) {
  return h("span", { class: `badge ${state || ""}` }, state || "?");
}

export function progressBar(fraction) {
  const f = Math.max(0, Math.min(1, fraction || 0));
  return h("div", { class: "progress", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100,
    "aria-valuenow": Math.round(f * 100) }, h("div", { style: { width: `${(f * 100).toFixed(1)}%` } }));
}

export function tableWrap(...children) {
  return h("div", { class: "table-wrap" }, h("table", {}, ...children));
}

export function errorBox(e) {
  return h("div", { class: "panel error", role: "alert" }, String(e && e.message ? e.message : e));
}

// Runs fn at most once per `ms`, the last call winning.
export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// The seats of a game summary as "a – b" (or "a, b, c" for more players).
export function seats(players) {
  return (players || []).join(players && players.length === 2 ? " – " : ", ");
}

export function gameLink(id, text) {
  return h("a", { href: `#/games/${id}` }, text ?? `#${id}`);
}

// Text with a line-break opportunity after each comma (a <wbr>): a game string
// ("grandslam=nocapture,first=1") is one word to the browser, which would break it anywhere on a
// phone; it breaks between its parameters instead.
export function breakable(text) {
  const parts = String(text ?? "").split(",");
  return parts.flatMap((p, i) => (i < parts.length - 1 ? [`${p},`, h("wbr")] : [p]));
}

// A canonical game string as its name in bold and its parameters in small print
// ("awale" + "grandslam=nocapture,first=1,..."), broken between parameters; the whole string as
// the tooltip.
export function gameTitle(canonical) {
  const text = canonical || "";
  const colon = text.indexOf(":");
  const name = colon < 0 ? text : text.slice(0, colon);
  const params = colon < 0 ? "" : text.slice(colon + 1);
  return h("span", { class: "game-title", title: text },
    h("span", { class: "game-name" }, name), params ? h("span", { class: "game-params" }, " ", breakable(params)) : null);
}

// The endings by the rules, said plainly: their stored reason only repeats the word
// ("rules", "game over by the rules (rules)").
const RULE_ENDINGS = {
  rules: ["rules", "game over by the rules"],
  relay: ["relay", "every move left breaks the relay guard"],
  repetition: ["repetition", "a position occurred a third time"],
  nocapture: ["no capture", "too many plies without a capture"],
  maxplies: ["ply limit", "the game reached its ply limit"],
  agreement: ["agreement", "ended by agreement"],
};

// What ended a game, said once: {short, long, title}. `short` for a narrow column (the
// termination's word), `long` a sentence (a rules ending plainly; otherwise the stored reason,
// which names the engine and what it did), `title` both as stored.
export function ending(termination, reason) {
  const t = termination || "";
  const r = reason || "";
  const rule = RULE_ENDINGS[t];
  const restates = !r || /^game over by the rules( \(.*\))?$/.test(r) || r === t;
  return {
    short: rule ? rule[0] : t,
    long: restates ? (rule ? rule[1] : t) : r,
    title: [t, r].filter(Boolean).join(": "),
  };
}

export const narrowScreen = () => window.matchMedia("(max-width: 720px)").matches;
