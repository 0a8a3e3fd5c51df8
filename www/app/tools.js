// The tools each screen offers the agent. The list is swapped on every route change, so the
// model only sees what the user could do on the screen in front of them.
import { ROUTE_TITLES } from "./router.js";

const ROUTES_TEXT = Object.entries(ROUTE_TITLES).map(([path, title]) => `${path} (${title})`).join(", ");

/** The navigate tool, routed through the app's router so the new screen's tools land first. */
function navigate(sdk, app) {
  return sdk.navigateTool({
    description: `Open a screen of the orders app: ${ROUTES_TEXT}.`,
    name: "navigate",
    router: (path) => app.go(path),
    confirm: (action) => app.confirmAgent(action),
  });
}

/** describe_form, fill_form and submit_form, scoped to the screen's one form. */
function formTools(sdk, app, form) {
  return [
    sdk.describeFormTool({ name: "describe_form", form }),
    sdk.fillFormTool({ name: "fill_form", form }),
    sdk.submitFormTool({ name: "submit_form", form, confirm: (action) => app.confirmAgent(action) }),
  ];
}

function listOrders(app) {
  return {
    name: "list_orders",
    description: "List the orders in the table on screen: id, customer, product, quantity, express, status.",
    parameters: { type: "object", properties: {} },
    handler: () => ({ orders: app.store.list() }),
  };
}

function highlightRow(app, view) {
  return {
    name: "highlight_row",
    description: "Highlight a row in the table the user is looking at.",
    parameters: {
      type: "object",
      properties: { row_id: { type: "string", description: "The order id, e.g. \"1002\"." } },
      required: ["row_id"],
    },
    handler: (args) => {
      const id = typeof args?.row_id === "number" ? String(args.row_id) : args?.row_id;
      if (typeof id !== "string" || id === "") throw new Error("row_id: expected an order id such as \"1002\"");
      const rows = [...view.querySelectorAll("tr[data-row-id]")];
      const row = rows.find((r) => r.dataset.rowId === id);
      if (!row) throw new Error(`row_id: no order ${id} in the table; its rows are ${rows.map((r) => r.dataset.rowId).join(", ")}`);
      for (const other of rows) other.classList.toggle("highlight", other === row);
      row.scrollIntoView({ block: "nearest" });
      return `Row ${id} is highlighted.`;
    },
  };
}

/**
 * The tool definitions for `route`, whose screen is rendered in `view`; `sdk` is the SDK's module
 * (its ready-made tool factories). Throws when the view lacks what its tools need.
 */
export function toolsFor(sdk, route, app, view) {
  switch (route) {
    case "/orders":
      return [listOrders(app), highlightRow(app, view), navigate(sdk, app)];
    case "/orders/new":
    case "/settings": {
      const form = view.querySelector("form");
      if (!form) throw new Error(`the ${route} screen has no form`);
      return [...formTools(sdk, app, form), navigate(sdk, app)];
    }
    default:
      throw new Error(`no tools for route ${route}`);
  }
}
