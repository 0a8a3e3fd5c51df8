// @vitest-environment happy-dom
// The demo app's page tools in a DOM environment (happy-dom): client-tools (the full build, its
// page tools included) registered with client-tools/testing's agent; the test reads the page.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import * as sdk from "client-tools";
import { TestAgent, rules } from "client-tools/testing";
import { OrdersApp, addTemplates } from "../shared/orders-app.js";

const home = location.href;
let app;

beforeAll(async () => {
  // The DOM environment gives import.meta.url the page's scheme; the file's directory is kept.
  addTemplates(await readFile(resolve(import.meta.dirname, "../../www/index.html"), "utf8"));
});

afterEach(async () => {
  await app?.close();
  history.replaceState(null, "", home);
});

describe("the orders app's tools, in a page", () => {
  it("highlights the row the agent names", async () => {
    const agent = new TestAgent();
    app = new OrdersApp(sdk);
    await app.connect(agent.options());
    expect(agent.tools()).toEqual(["client__web__list_orders", "client__web__highlight_row", "client__web__navigate"]);

    const out = await agent.call("highlight_row", { row_id: "1003" });
    expect(out).toMatchObject({ text: "Row 1003 is highlighted.", isError: false });
    expect(app.view.querySelector("tr.highlight")?.dataset.rowId).toBe("1003");

    const wrong = await agent.call("highlight_row", { row_id: "9999" });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain("no order 9999 in the table");
    agent.check();
  });

  it("navigates with the SDK's navigate tool: the new screen's tools are there at the result", async () => {
    const agent = new TestAgent();
    app = new OrdersApp(sdk);
    await app.connect(agent.options());
    const out = await agent.call("navigate", { url: "/orders/new" });
    expect(out.isError).toBe(false);
    expect(app.route).toBe("/orders/new");
    expect(out.tools).toContain("client__web__fill_form");
    expect(out.tools).not.toContain("client__web__highlight_row");
    agent.check();

    // The form tools (fill_form, submit_form) act only on fields a person could see, which needs
    // a layout: happy-dom has none (every field is "too small to see"). The Playwright example
    // tests them in Chromium.
  });

  it("fails with the rule's name when a handler navigates with the router directly", async () => {
    const agent = new TestAgent();
    app = new OrdersApp(sdk, { navigation: "router" });
    await app.connect(agent.options());
    // The result is posted before the route's effect declares the new tools: the call answers
    // (the old screen's tools at the result), or, when the effect's tools come while the agent
    // waits, rejects with the rule itself.
    const out = await agent.call("navigate", { url: "/orders/new" }).catch((error) => error);
    if (out instanceof Error) expect(out.rule).toBe(rules.TOOLS_BEFORE_NAVIGATING_RESULT);
    else expect(out.tools).toContain("client__web__highlight_row");
    await vi.waitFor(() => expect(agent.tools()).toContain("client__web__fill_form"));
    expect(() => agent.check()).toThrow(
      expect.objectContaining({ name: "ProtocolViolation", rule: rules.TOOLS_BEFORE_NAVIGATING_RESULT }),
    );
    expect(() => agent.check()).toThrow(/^tools_declared_before_navigating_result: call /);
  });
});
