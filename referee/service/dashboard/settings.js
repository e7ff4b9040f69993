// settings.js: the settings page: the token that lets this browser pause, resume and cancel
// events (kept in this browser's localStorage only), and the daemon's health.

import { get, setToken, token } from "./api.js";
import { clear, errorBox, fmtDuration, h } from "./util.js";

export function settingsPage(root) {
  const field = h("input", { type: "password", id: "token", value: token(), autocomplete: "off", style: { width: "100%" } });
  const saved = h("span", { class: "muted small" });
  const health = h("div", { class: "panel", id: "health" }, h("p", { class: "muted" }, "Loading…"));
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Settings"),
    h("form", { onsubmit: (e) => {
      e.preventDefault();
      setToken(field.value.trim());
      saved.textContent = field.value.trim() ? "saved in this browser" : "removed";
    } },
    h("label", { style: { width: "100%", maxWidth: "32rem" } }, "API token (the first line of the daemon's --token-file)", field),
    h("div", { class: "row", style: { marginTop: "0.5rem" } }, h("button", { class: "primary", type: "submit" }, "Save"), saved)),
    h("p", { class: "small muted" }, "With a token, event pages show Pause, Resume and Cancel. Reads need no token from this machine.")),
  health);
  get("/api/health").then((x) => clear(health, h("h2", {}, "Daemon"),
    h("p", {}, `status ${x.status}${x.reason ? ` (${x.reason})` : ""} · version ${x.version} · database ${x.db} · up ${fmtDuration(x.uptime_s)}`),
    x.slots ? h("p", {}, `game threads: ${x.slots.busy} busy of ${x.slots.total} · events running: ${x.events_running}`) : null))
    .catch((e) => clear(health, errorBox(e)));
  return null;
}
