// The orders app: registers the tab as client "web" and swaps its tools on every screen change.
import { readSessionParams } from "../shared/params.js";
import { HOME, ROUTE_TITLES, routeOf } from "./router.js";
import { OrderStore, loadSettings, saveSettings } from "./store.js";
import { toolsFor } from "./tools.js";
import { renderOrderForm, renderOrders, renderSettings } from "./views.js";

const SDK_URL = "/pkg/client_tools.js";

class App {
  constructor(params) {
    this.params = params;
    this.store = new OrderStore();
    this.settings = loadSettings();
    this.route = null;
    this.view = null;
    this.client = null;
    this.sdk = null;
    // setTools calls run one after another, each declaring the screen current at its turn.
    this.toolsUpdate = Promise.resolve();
  }

  /**
   * Shows the screen `target` names and declares its tools; resolves once the server has them,
   * so the navigate tool answers only after the new list is in place.
   */
  async go(target) {
    const route = routeOf(target, location.href);
    if (route !== this.route) {
      // A link click already changed the hash; a tool call or script did not.
      if (location.hash !== `#${route}`) history.pushState(null, "", `${location.pathname}${location.search}#${route}`);
      this.show(route);
    }
    await this.declareTools();
    return `Now on ${ROUTE_TITLES[route]} (${route}).`;
  }

  /** Renders `route` into the page without touching the history (back/forward, links). */
  show(route) {
    const render = {
      "/orders": () => renderOrders(this.store),
      "/orders/new": () => renderOrderForm(this.store),
      "/settings": () => renderSettings(this.settings, (settings) => this.applySettings(settings)),
    }[route];
    this.route = route;
    this.view = render();
    document.getElementById("view").replaceChildren(this.view);
    document.title = `${ROUTE_TITLES[route]} · client-tools demo`;
    for (const link of document.querySelectorAll("nav a[data-route]")) {
      link.toggleAttribute("aria-current", link.dataset.route === route);
    }
  }

  /** The human in the loop: asks before an agent's submit or screen change when the setting is on. */
  confirmAgent(action) {
    if (!this.settings.confirmAgent) return true;
    const what = action.kind === "submit" ? "submit this form" : `open ${screenName(action.url)}`;
    return window.confirm(`The agent wants to ${what}. Allow it?`);
  }

  applySettings(settings) {
    this.settings = settings;
    document.documentElement.dataset.theme = settings.theme;
    document.documentElement.classList.toggle("compact", settings.compact);
    document.getElementById("shop-name").textContent = settings.displayName;
    return saveSettings(settings);
  }

  declareTools() {
    const next = this.toolsUpdate.then(async () => {
      if (this.client) await this.client.setTools(toolsFor(this.sdk, this.route, this, this.view));
    });
    // A failed update must not block the next one; the caller still sees this one's error.
    this.toolsUpdate = next.catch(() => {});
    return next;
  }

  /** Loads the SDK, registers the tab as client "web" with the current screen's tools. */
  async connect() {
    // Imported here, not at the top, so the app still renders when pkg/ is missing or broken.
    let sdk;
    try {
      sdk = await import(SDK_URL);
      await sdk.default();
    } catch (error) {
      throw new Error(`cannot load the SDK from ${SDK_URL} (run scripts/build-pkg): ${error.message}`);
    }
    this.sdk = sdk;
    const registeredRoute = this.route;
    this.client = await sdk.Client.register({
      baseUrl: this.params.baseUrl,
      sessionId: this.params.sessionId,
      token: this.params.token,
      name: "web",
      lifetime: { type: "ttl", data: { seconds: 60 } },
      whenHidden: "keep",
      tools: toolsFor(sdk, this.route, this, this.view),
      onStatus: (status) => setStatus(...describeStatus(status, this.client?.name)),
      onCall: (event) => showCall(event),
    });
    // The user may have changed screens while the registration was in flight.
    if (this.route !== registeredRoute) await this.declareTools();
  }
}

function screenName(url) {
  try {
    return `the ${ROUTE_TITLES[routeOf(url, location.href)]} screen`;
  } catch {
    return url;
  }
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
  const app = new App(params);
  app.applySettings(app.settings);
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
    await app.connect();
  } catch (error) {
    setStatus(`not connected: ${error.message}`, "error");
  }
}

main();
