// artifacts.js: the engines page: every engine uploaded as an artifact (GET /api/artifacts), one
// panel per name with its versions: label, hash (short; the full one on hover), size, files,
// uploader, date and whether it is retired. Polled every 10 s: uploads are not on the live stream.

import { get } from "./api.js";
import { badge, clear, errorBox, fmtTime, h, tableWrap } from "./util.js";

const POLL_MS = 10000;

function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1 << 20) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

function versionRow(v) {
  return h("tr", { "data-label": v.label, "data-retired": v.retired_at ? "yes" : "no" },
    h("td", {}, v.label),
    h("td", { class: "mono small", title: v.sha256 }, v.sha256.slice(0, 12)),
    h("td", { class: "num" }, size(v.size)),
    h("td", { class: "num" }, String(v.files)),
    h("td", {}, v.uploaded_by),
    h("td", { class: "small", title: v.created_at }, fmtTime(v.created_at)),
    h("td", {}, v.retired_at ? badge("retired") : h("span", { class: "small muted" }, "in play")),
    h("td", { class: "hide-phone mono small" }, v.command));
}

function namePanel(name, versions) {
  return h("div", { class: "panel artifact", "data-artifact": name },
    h("h2", {}, name, h("span", { class: "small muted" }, ` owner ${versions[0].owner}`)),
    tableWrap(h("thead", {}, h("tr", {}, h("th", {}, "version"), h("th", {}, "sha256"), h("th", { class: "num" }, "size"),
      h("th", { class: "num" }, "files"), h("th", {}, "uploaded by"), h("th", {}, "date"), h("th", {}, "state"),
      h("th", { class: "hide-phone" }, "command"))),
    h("tbody", {}, versions.map(versionRow))));
}

export function artifactsPage(root) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  clear(root, h("div", { class: "panel" }, h("h1", {}, "Engines"),
    h("p", { class: "muted small" }, "Engines uploaded by their authors (", h("code", {}, "referee engine upload"),
      "), by version; a tournament file plays one as ", h("code", {}, "artifact = \"name@N\""), ".")), body);
  let timer = null;
  let stopped = false;
  async function load() {
    try {
      const list = (await get("/api/artifacts")).versions || [];
      const byName = new Map();
      for (const v of list) byName.set(v.name, [...(byName.get(v.name) || []), v]);
      clear(body, byName.size === 0 ? h("div", { class: "panel muted" }, "No engine uploaded yet.")
        : Array.from(byName, ([name, versions]) => namePanel(name, versions)));
    } catch (e) {
      clear(body, errorBox(e));
    }
    if (!stopped) timer = setTimeout(load, POLL_MS);
  }
  load();
  return () => { stopped = true; clearTimeout(timer); };
}
