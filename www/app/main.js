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
      onStatus: (status) => setStatus(describeStatus(status)),
      onCall: (event) => showCall(event),
    });
    setStatus(`connected as ${this.client.name}`);
    // The user may have changed screens while the registration was in flight.
    if (this.route !== registeredRoute) await this.declareTools();
  }
}

function describeStatus(status) {
  if (typeof status === "string") return status;
  const kind = status?.kind ?? status?.type ?? status?.status ?? "status";
  return status?.message ? `${kind}: ${status.message}` : String(kind);
}

function setStatus(text, kind = "ok") {
  const badge = document.getElementById("status");
  badge.textContent = text;
  badge.dataset.kind = kind;
}

function showCall(event) {
  const line = document.getElementById("activity");
  const what = event?.kind ?? event?.type ?? "call";
  const tool = event?.tool ? ` ${event.tool}` : "";
  const reason = event?.reason ? ` (${event.reason})` : "";
  line.textContent = `agent:${tool} ${what}${reason}`;
}

async function main() {
  let params;
  try {
    params = readSessionParams(location.search, location.origin);
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
