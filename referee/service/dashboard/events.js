// events.js: the events page (every event with its state, progress and ETA, kept current by the
// stream's event_changed messages) and the controls an event has (pause, resume, cancel: shown
// when a token is set on the settings page, since the daemon wants one for them).
//
// Layout: long names and game lists wrap (between words, a game string between its
// parameters) so the table fits a desktop without scrolling; on a phone the name, state and
// progress stay, the progress cell saying the ETA and the games playing.

import { get, post, query, subscribe, token } from "./api.js";
import { badge, breakable, clear, errorBox, fmtDuration, fmtTime, h, progressBar, tableWrap } from "./util.js";

const PAGE = 50;

function progressCell(e) {
  if (e.progress === null || e.progress === undefined)
    return h("span", {}, `${e.finished} played`);
  // On a phone the ETA and live columns are hidden: the cell says them under the bar.
  const phoneNote = e.state === "running"
    ? h("span", { class: "small muted show-phone" }, ` · ETA ${fmtDuration(e.eta_s)} · ${e.running || 0} playing`)
    : null;
  return h("div", { class: "row" }, progressBar(e.progress),
    h("span", { class: "small muted" }, `${e.finished}/${e.scheduled}${e.skipped ? ` (${e.skipped} skipped)` : ""}`,
      phoneNote));
}

function eventRow(e) {
  return h("tr", { class: "clickable", "data-event-id": e.id, onclick: () => (location.hash = `#/events/${e.id}`) },
    h("td", { class: "event-name" }, h("a", { href: `#/events/${e.id}` }, e.name)),
    h("td", { class: "hide-phone" }, e.kind),
    h("td", {}, badge(e.state)),
    h("td", { class: "event-progress" }, progressCell(e)),
    h("td", { class: "num hide-phone" }, e.state === "running" ? fmtDuration(e.eta_s) : "–"),
    h("td", { class: "num hide-phone" }, e.running || 0),
    h("td", { class: "hide-phone small event-games" }, (e.games || []).map((g, i) => [i ? ", " : "", breakable(g)])),
    h("td", { class: "hide-phone small" }, fmtTime(e.created_at)));
}

export function eventControls(e, onChange) {
  if (!token()) return null;
  const act = (what) => async (ev) => {
    ev.stopPropagation();
    ev.target.disabled = true;
    try {
      onChange(await post(`/api/events/${e.id}/${what}`));
    } catch (err) {
      alert(err.message);
    } finally {
      ev.target.disabled = false;
    }
  };
  const live = e.state === "running" || e.state === "queued";
  return h("div", { class: "row event-controls" },
    live ? h("button", { onclick: act("pause") }, "Pause") : null,
    e.state === "paused" ? h("button", { onclick: act("resume") }, "Resume") : null,
    live || e.state === "paused"
      ? h("button", { class: "danger", onclick: (ev) => confirm(`Cancel ${e.name}?`) && act("cancel")(ev) }, "Cancel")
      : null);
}

export function eventsPage(root) {
  let offset = 0;
  const panel = h("div", { class: "panel" });
  clear(root, panel);
  const rows = new Map();
  let body = null;

  async function load() {
    let data;
    try {
      data = await get(`/api/events${query({ limit: PAGE, offset })}`);
    } catch (e) {
      clear(panel, errorBox(e));
      return;
    }
    rows.clear();
    body = h("tbody", {}, data.events.map((e) => {
      const r = eventRow(e);
      rows.set(e.id, r);
      return r;
    }));
    const pager = h("div", { class: "row small" },
      h("button", { disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, "‹ Newer"),
      h("span", { class: "muted" }, data.total ? `${offset + 1}–${offset + data.events.length} of ${data.total}` : ""),
      h("button", { disabled: offset + PAGE >= data.total, onclick: () => { offset += PAGE; load(); } }, "Older ›"));
    clear(panel, h("h1", {}, "Events"),
      data.events.length === 0
        ? h("p", { class: "muted" }, "No event yet. Submit a tournament file with referee submit (or POST /api/events).")
        : tableWrap(h("thead", {}, h("tr", {}, h("th", {}, "event"), h("th", { class: "hide-phone" }, "kind"),
          h("th", {}, "state"), h("th", {}, "progress"), h("th", { class: "num hide-phone" }, "ETA"), h("th", { class: "num hide-phone" }, "live"),
          h("th", { class: "hide-phone" }, "games"), h("th", { class: "hide-phone" }, "created"))), body),
      data.total > PAGE ? pager : null);
  }

  const unsubscribe = subscribe({
    event_changed: (e) => {
      const old = rows.get(e.id);
      if (old) {
        const r = eventRow(e);
        old.replaceWith(r);
        rows.set(e.id, r);
      } else if (offset === 0) load();
    },
    resync: load,
  });
  load();
  return unsubscribe;
}
