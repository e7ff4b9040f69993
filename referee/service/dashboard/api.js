// api.js: the daemon's HTTP API (referee/service/API.md) as small async functions, and the one
// live-stream connection (Server-Sent Events on /api/stream) the pages share.
//
// Decisions:
// - The token for requests that change anything lives in localStorage ("referee.token"), set on
//   the settings page; reads never send it from a loopback page (the daemon allows them).
// - Errors are thrown as Error(message) with the daemon's one-line {"error"} text, so a page shows
//   what the daemon said.
// - One EventSource for the whole page (the daemon caps streams); pages subscribe by event type
//   and unsubscribe when they are left. On "lost" (the daemon dropped messages for us) or a
//   reconnect, subscribers get a "resync" call to reload what they show.

const TOKEN_KEY = "referee.token";

export function token() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET" && token()) headers.Authorization = `Bearer ${token()}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error(`the daemon does not answer (${e.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const why = data && data.error ? data.error : `HTTP ${response.status}`;
    throw new Error(`${method} ${path}: ${why}`);
  }
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body);
export const patch = (path, body) => request("PATCH", path, body);

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

// ---- the live stream ----

// `?live=off` in the page's address (before the #: /?live=off#/events) keeps the stream closed:
// the pages show what they load and are not updated. For tools that wait until the network is
// quiet, such as a headless browser's --screenshot with --virtual-time-budget, which an open
// stream would keep waiting forever (OPERATING.md, "A screenshot of the dashboard").
export const liveUpdates = !/^(off|0|no|false)$/i.test(new URLSearchParams(location.search).get("live") || "");

const listeners = new Map(); // type -> Set of callbacks
let source = null;
let statusCallback = () => {};
let status = "connecting";
let everOpen = false;

function setStatus(state) {
  status = state;
  statusCallback(state);
}

const STREAM_TYPES = ["game_started", "move", "game_finished", "standings", "event_changed", "lost"];

function dispatch(type, data) {
  for (const cb of listeners.get(type) || []) {
    try {
      cb(data);
    } catch (e) {
      console.error(`stream ${type} handler:`, e);
    }
  }
}

// Opens the one stream (once; never when live updates are off). The page opens it at start, so
// the status light says whether the page is live on every page, those that subscribe to nothing
// too (the games list, the viewer).
export function connect() {
  if (source) return;
  if (!liveUpdates) {
    setStatus("off");
    return;
  }
  source = new EventSource("/api/stream");
  source.onopen = () => {
    setStatus("live");
    if (everOpen) dispatch("resync", {}); // back after a cut: what we show may be stale
    everOpen = true;
  };
  source.onerror = () => setStatus(source && source.readyState === EventSource.CLOSED ? "down" : "retrying");
  for (const type of STREAM_TYPES)
    source.addEventListener(type, (e) => {
      let data = null;
      try {
        data = JSON.parse(e.data);
      } catch {
        return;
      }
      dispatch(type, data);
      if (type === "lost") dispatch("resync", data);
    });
}

// `cb(state)` now and at every change: "connecting", "live", "retrying", "down" or "off".
export function onStreamStatus(cb) {
  statusCallback = cb;
  cb(status);
}

// Subscribes `handlers` ({type: callback}); returns the function that unsubscribes them.
export function subscribe(handlers) {
  connect();
  for (const [type, cb] of Object.entries(handlers)) {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type).add(cb);
  }
  return () => {
    for (const [type, cb] of Object.entries(handlers)) listeners.get(type)?.delete(cb);
  };
}
