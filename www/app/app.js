// The orders app without its page: its screens, store, settings and tools, and the client that
// serves them. www/app/main.js puts it into the demo's page (the session from the address bar,
// the status badge, the stored settings); the examples of client-tools/testing (examples/) test
// it with the in-page agent. Importing it runs nothing.
import { HOME, ROUTE_TITLES, routeOf } from "./router.js";
import { OrderStore, loadSettings } from "./store.js";
import { toolsFor } from "./tools.js";
import { renderOrderForm, renderOrders, renderSettings } from "./views.js";

export class App {
  /**
   * `root`: the element the screens render into. `sdk`: the package's module (`client-tools`:
   * its Client and page-tool factories), or null until the page has loaded it. `settings`: the
   * shop's (the stored ones by default). `onShow(route)`: after a screen is rendered.
   * `onSettings(settings)`: after the settings screen saved new settings.
   */
  constructor({ root, sdk = null, settings = loadSettings(), onShow = () => {}, onSettings = () => {} }) {
    this.root = root;
    this.sdk = sdk;
    this.store = new OrderStore();
    this.settings = settings;
    this.onShow = onShow;
    this.onSettings = onSettings;
    this.route = null;
    this.view = null;
    this.client = null;
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

  /** Renders `route` (the home screen by default) without touching the history (back/forward, links). */
  show(route = HOME) {
    const render = {
      "/orders": () => renderOrders(this.store),
      "/orders/new": () => renderOrderForm(this.store),
      "/settings": () => renderSettings(this.settings, (settings) => this.applySettings(settings)),
    }[route];
    this.route = route;
    this.view = render();
    this.root.replaceChildren(this.view);
    this.onShow(route);
  }

  /** The human in the loop: asks before an agent's submit or screen change when the setting is on. */
  confirmAgent(action) {
    if (!this.settings.confirmAgent) return true;
    const what = action.kind === "submit" ? "submit this form" : `open ${screenName(action.url)}`;
    return window.confirm(`The agent wants to ${what}. Allow it?`);
  }

  /** Takes new settings; what `onSettings` answers (the demo: whether they were stored). */
  applySettings(settings) {
    this.settings = settings;
    return this.onSettings(settings);
  }

  /** The current screen's tools. */
  tools() {
    return toolsFor(this.sdk, this.route, this, this.view);
  }

  declareTools() {
    const next = this.toolsUpdate.then(async () => {
      if (this.client) await this.client.setTools(this.tools());
    });
    // A failed update must not block the next one; the caller still sees this one's error.
    this.toolsUpdate = next.catch(() => {});
    return next;
  }

  /**
   * Registers as client "web" with the current screen's tools and `options` (the session and
   * token, or a TestAgent's `agent.options()`, and any of the Client's options); the client.
   */
  async connect(options) {
    const registeredRoute = this.route;
    this.client = await this.sdk.Client.register({ ...options, name: "web", tools: this.tools() });
    // The user may have changed screens while the registration was in flight.
    if (this.route !== registeredRoute) await this.declareTools();
    return this.client;
  }
}

function screenName(url) {
  try {
    return `the ${ROUTE_TITLES[routeOf(url, location.href)]} screen`;
  } catch {
    return url;
  }
}
