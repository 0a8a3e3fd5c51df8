// The orders app's page: the app (./app.js) in the demo's page, registered as client "web" on
// the session the address bar names, swapping its tools on every screen change.
import { readSessionParams } from "../shared/params.js";
import { App } from "./app.js";
import { HOME, ROUTE_TITLES, routeOf } from "./router.js";
import { saveSettings } from "./store.js";

const SDK_URL = "/pkg/client_tools.js";

/** Loads the SDK, then registers the tab as client "web" with the current screen's tools. */
async function connect(app, params) {
  // Imported here, not at the top, so the app still renders when pkg/ is missing or broken.
  let sdk;
  try {
    sdk = await import(SDK_URL);
    await sdk.default();
  } catch (error) {
    throw new Error(`cannot load the SDK from ${SDK_URL} (run scripts/build-pkg): ${error.message}`);
  }
  app.sdk = sdk;
  await app.connect({
    baseUrl: params.baseUrl,
    sessionId: params.sessionId,
    token: params.token,
    lifetime: { type: "ttl", data: { seconds: 60 } },
    whenHidden: "keep",
    onStatus: (status) => setStatus(...describeStatus(status, app.client?.name)),
    onCall: (event) => showCall(event),
  });
}

/** The page's part of a screen change: its title and the current link. */
function markScreen(route) {
  document.title = `${ROUTE_TITLES[route]} · client-tools demo`;
  for (const link of document.querySelectorAll("nav a[data-route]")) {
    link.toggleAttribute("aria-current", link.dataset.route === route);
  }
}

/** Applies the shop's settings to the page and stores them; whether they were stored. */
function applySettings(settings) {
  document.documentElement.dataset.theme = settings.theme;
  document.documentElement.classList.toggle("compact", settings.compact);
  document.getElementById("shop-name").textContent = settings.displayName;
  return saveSettings(settings);
}

/**
 * Takes the token out of the address bar (keeping it for reloads in sessionStorage): a form's
 * default action is the page's URL, and the describe tool shows it to the model.
 */
function takeToken() {
  const url = new URL(location.href);
  const key = `client-tools-demo.token.${url.searchParams.get("session") ?? ""}`;
  const token = url.searchParams.get("token");
  try {
    if (token === null) return sessionStorage.getItem(key);
    sessionStorage.setItem(key, token);
  } catch {
    // No storage (sandboxed frame, privacy mode): a reload falls back to the default token.
  }
  url.searchParams.delete("token");
  history.replaceState(null, "", url);
  return token;
}

/** The badge text and kind for a `ClientStatus` from the SDK. */
function describeStatus(status, name) {
  switch (status.type) {
    case "registered":
      return [`connected as ${status.name}`, "ok"];
    case "reregistered":
      return [`registered again as ${status.name}`, "ok"];
    case "streamOpen":
      return [`connected as ${name ?? "web"} · live`, "ok"];
    case "streamReconnecting":
      return [`reconnecting (attempt ${status.attempt})…`, "pending"];
    case "lapsed":
      return ["registration lapsed, registering again…", "pending"];
    case "left":
      return ["left the session", "pending"];
    case "error":
      return [status.fatal ? `stopped: ${status.message}` : status.message, "error"];
    default:
      return [String(status.type), "pending"];
  }
}

function setStatus(text, kind = "ok") {
  const badge = document.getElementById("status");
  badge.textContent = text;
  badge.dataset.kind = kind;
}

/** One line under the header about the agent's latest call, from a `CallEvent`. */
function showCall(event) {
  const took = event.elapsedMs === undefined ? "" : ` after ${Math.round(event.elapsedMs)} ms`;
  const what = event.type === "failed" ? `failed (${event.reason})` : event.type === "answered" && event.isError ? "answered with an error" : event.type;
  document.getElementById("activity").textContent = `agent: ${event.tool} ${what}${took}`;
}

async function main() {
  let params;
  try {
    const token = takeToken();
    params = readSessionParams(location.search, location.origin);
    if (token) params.token = token;
  } catch (error) {
    setStatus(error.message, "error");
    return;
  }
  const app = new App({ root: document.getElementById("view"), onShow: markScreen, onSettings: applySettings });
  applySettings(app.settings);
  let route = HOME;
  try {
    route = routeOf(location.href, location.href);
  } catch {
    // An unknown hash falls back to the home screen rather than a blank page.
  }
  history.replaceState(null, "", `${location.pathname}${location.search}#${route}`);
  app.show(route);
  window.addEventListener("hashchange", () => {
    app.go(location.href).catch((error) => setStatus(error.message, "error"));
  });
  try {
    setStatus("connecting…", "pending");
    await connect(app, params);
  } catch (error) {
    setStatus(`not connected: ${error.message}`, "error");
  }
}

main();
