// sprt.js: the sequential test of an sprt event (EventSummary.sprt, API.md): the LLR drawn as a
// marker on a bar that spans its two bounds (H0 accepted at the left end, H1 at the right), with
// the hypotheses, the pair counts and the verdict once decided.

import { h } from "./util.js";

const fixed = (x, d = 2) => Number(x).toFixed(d);

export function sprtPanel(s) {
  if (!s) return null;
  const span = s.upper - s.lower;
  const at = span > 0 ? Math.min(1, Math.max(0, (s.llr - s.lower) / span)) : 0.5;
  const zero = span > 0 ? Math.min(1, Math.max(0, -s.lower / span)) : 0.5;
  const decided = s.decision === "H1" ? "sprt-h1" : s.decision === "H0" ? "sprt-h0" : "";
  const p = s.pentanomial || [];
  return h("div", { class: `sprt ${decided}`, id: "sprt", "data-llr": s.llr, "data-decision": s.decision || "" },
    h("div", { class: "sprt-head" },
      h("strong", {}, `SPRT [${s.elo0}, ${s.elo1}]`),
      h("span", { class: "sprt-llr" }, ` LLR ${fixed(s.llr)}`),
      h("span", { class: "muted small" }, ` (${fixed(s.lower)}, ${fixed(s.upper)}) · ${s.model}, α ${s.alpha}, β ${s.beta}`),
      s.verdict ? h("span", { class: "sprt-verdict" }, ` → ${s.verdict}`) : null),
    h("div", { class: "sprt-bar", role: "meter", "aria-valuemin": s.lower, "aria-valuemax": s.upper, "aria-valuenow": s.llr },
      h("div", { class: "sprt-zero", style: { left: `${100 * zero}%` } }),
      h("div", { class: "sprt-mark", style: { left: `${100 * at}%` } })),
    h("div", { class: "sprt-ends small muted" }, h("span", {}, "H0"), h("span", {}, "H1")),
    h("p", { class: "small muted" },
      `${s.pairs} game pairs (pentanomial ${p.join(", ")}) · games W ${s.games?.wins ?? 0} D ${s.games?.draws ?? 0} L ${s.games?.losses ?? 0}`,
      s.engine ? ` for ${s.engine} against ${s.opponent}` : ""));
}
