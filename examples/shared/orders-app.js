// The demo app (www/app/app.js) as the examples test it: the demo's App in a <main> of its own,
// with the default settings, registering with the options it is given (a TestAgent's).
// `navigation: "router"` swaps the demo's navigate tool (the SDK's navigateTool, which declares
// the new screen's tools before it answers) for a handler that navigates with the app's router
// and returns, the new screen's tools declared by the route's effect a moment later: the mistake
// the agent names (tools_declared_before_navigating_result).
import { App } from "../../www/app/app.js";
import { ROUTE_TITLES, routeOf } from "../../www/app/router.js";
import { loadSettings } from "../../www/app/store.js";

/** Puts the demo's screen templates (the `<template>`s of www/index.html's text) into the document. */
export function addTemplates(indexHtml) {
  const holder = document.createElement("div");
  holder.innerHTML = [...indexHtml.matchAll(/<template[\s\S]*?<\/template>/g)].map((m) => m[0]).join("");
  document.body.append(...holder.children);
}

export class OrdersApp extends App {
  /** `sdk`: the package's module (`client-tools`), for its page-tool factories and Client. */
  constructor(sdk, { navigation = "sdk" } = {}) {
    const root = document.createElement("main");
    document.body.append(root);
    // No storage: the defaults.
    super({ root, sdk, settings: loadSettings(null) });
    this.navigation = navigation;
    this.show();
  }

  /** The screen's tools: the demo's, with the navigate tool the app was built with. */
  tools() {
    const tools = super.tools();
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

  /** Leaves and takes the app out of the page. */
  async close() {
    await this.client?.leave();
    this.root.remove();
  }
}
