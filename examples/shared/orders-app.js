// The demo app (www/app/) as the examples test it: its screens, store and tools, put together as
// www/app/main.js does, minus the session parameters and the status badge: it registers with the
// options it is given (a TestAgent's). `navigation: "router"` swaps the demo's navigate tool
// (the SDK's navigateTool, which declares the new screen's tools before it answers) for a
// handler that navigates with the app's router and returns, the new screen's tools declared by
// the route's effect a moment later: the mistake the agent names
// (tools_declared_before_navigating_result).
import { HOME, ROUTE_TITLES, routeOf } from "../../www/app/router.js";
import { OrderStore } from "../../www/app/store.js";
import { toolsFor } from "../../www/app/tools.js";
import { renderOrderForm, renderOrders, renderSettings } from "../../www/app/views.js";

/** Puts the demo's screen templates (the `<template>`s of www/index.html's text) into the document. */
export function addTemplates(indexHtml) {
  const holder = document.createElement("div");
  holder.innerHTML = [...indexHtml.matchAll(/<template[\s\S]*?<\/template>/g)].map((m) => m[0]).join("");
  document.body.append(...holder.children);
}

export class OrdersApp {
  /** `sdk`: the package's module (`client-tools`), for its page-tool factories and Client. */
  constructor(sdk, { navigation = "sdk" } = {}) {
    this.sdk = sdk;
    this.navigation = navigation;
    this.store = new OrderStore();
    this.settings = { displayName: "Demo shop", currency: "EUR", theme: "light", compact: false, confirmAgent: false };
    this.root = document.createElement("main");
    document.body.append(this.root);
    this.route = null;
    this.view = null;
    this.client = null;
    this.toolsUpdate = Promise.resolve();
    this.show(HOME);
  }

  /** The screen's tools: the demo's, with the navigate tool the app was built with. */
  tools() {
    const tools = toolsFor(this.sdk, this.route, this, this.view);
    if (this.navigation !== "router") return tools;
    return tools.map((tool) => (tool.name === "navigate" ? this.routerNavigate() : tool));
  }

  /** A navigate handler that pushes the route and returns; the route's effect declares the tools. */
  routerNavigate() {
    return {
      name: "navigate",
      description: `Open a screen of the orders app: ${Object.keys(ROUTE_TITLES).join(", ")}.`,
      parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      handler: ({ url }) => {
        const route = routeOf(url, location.href);
        history.pushState(null, "", `${location.pathname}${location.search}#${route}`);
        // The router renders the new screen; its effect declares the screen's tools after the
        // render has committed (a React useEffect, a Vue watcher): after this handler returned.
        this.show(route);
        setTimeout(() => this.declareTools(), 20);
        return `Now on ${ROUTE_TITLES[route]} (${route}).`;
      },
    };
  }

  /** As the demo's: shows the screen and resolves once the server holds its tools. */
  async go(target) {
    const route = routeOf(target, location.href);
    if (route !== this.route) {
      if (location.hash !== `#${route}`) history.pushState(null, "", `${location.pathname}${location.search}#${route}`);
      this.show(route);
    }
    await this.declareTools();
    return `Now on ${ROUTE_TITLES[route]} (${route}).`;
  }

  show(route) {
    const render = {
      "/orders": () => renderOrders(this.store),
      "/orders/new": () => renderOrderForm(this.store),
      "/settings": () => renderSettings(this.settings, (settings) => (this.settings = settings)),
    }[route];
    this.route = route;
    this.view = render();
    this.root.replaceChildren(this.view);
  }

  confirmAgent() {
    return true;
  }

  declareTools() {
    const next = this.toolsUpdate.then(async () => {
      if (this.client) await this.client.setTools(this.tools());
    });
    this.toolsUpdate = next.catch(() => {});
    return next;
  }

  /** Registers as client "web" with `options` (`agent.options()`) and the screen's tools. */
  async connect(options) {
    this.client = await this.sdk.Client.register({ ...options, name: "web", tools: this.tools() });
    return this.client;
  }

  /** Leaves and takes the app out of the page. */
  async close() {
    await this.client?.leave();
    this.root.remove();
  }
}
