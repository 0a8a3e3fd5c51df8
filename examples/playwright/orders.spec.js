// The demo app's tools in a real page (Chromium), tested with client-tools/testing: the agent runs
// in the page (page.evaluate drives it), the test reads the page with Playwright's locators.
import { expect, test } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { serve } from "./server.js";

let server;
test.beforeAll(async () => {
  server = await serve(fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, ""));
});
test.afterAll(() => server.close());

test.beforeEach(async ({ page }) => {
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${server.url}/examples/playwright/page.html`);
  await page.locator("body[data-ready]").waitFor({ state: "attached" });
});

test("highlight_row highlights the row the agent names", async ({ page }) => {
  expect(await page.evaluate(() => start())).toEqual([
    "client__web__list_orders",
    "client__web__highlight_row",
    "client__web__navigate",
  ]);
  const out = await page.evaluate(() => agent.call("highlight_row", { row_id: "1003" }));
  expect(out).toMatchObject({ text: "Row 1003 is highlighted.", isError: false });
  await expect(page.locator("tr.highlight")).toHaveAttribute("data-row-id", "1003");
  await page.evaluate(() => agent.check());
});

test("navigate, fill_form and submit_form place an order", async ({ page }) => {
  await page.evaluate(() => start());
  const nav = await page.evaluate(() => agent.call("navigate", { url: "/orders/new" }));
  expect(nav.isError).toBe(false);
  expect(nav.tools).toContain("client__web__fill_form"); // the new screen's tools at the result
  await expect(page.locator("h1")).toHaveText("New order");

  const fields = { "Customer name": "Ada Lovelace", Product: "Gooseneck kettle", Quantity: "2" };
  const filled = await page.evaluate((fields) => agent.call("fill_form", { fields }), fields);
  expect(JSON.parse(filled.text)).toMatchObject({ filled: 3, refused: 0 });
  await expect(page.locator("[name=customer]")).toHaveValue("Ada Lovelace");

  const submitted = await page.evaluate(() => agent.call("submit_form", {}));
  expect(submitted.isError, submitted.text).toBe(false);
  expect(await page.evaluate(() => app.store.get("1005")?.customer)).toBe("Ada Lovelace");
  await page.evaluate(() => agent.check());
});

test("a handler that navigates with the router directly fails with the rule's name", async ({ page }) => {
  await page.evaluate(() => start("router"));
  // The result is posted before the route's effect declares the new tools: the call answers
  // (the old screen's tools at the result), or, when the effect's tools come while the agent
  // waits, rejects with the rule itself.
  const out = await page.evaluate(() =>
    agent.call("navigate", { url: "/orders/new" }).catch((error) => ({ rule: error.rule })),
  );
  if (out.rule) expect(out.rule).toBe("tools_declared_before_navigating_result");
  else expect(out.tools).toContain("client__web__highlight_row");
  await expect.poll(() => page.evaluate(() => agent.tools())).toContain("client__web__fill_form");
  const broken = await page.evaluate(() => {
    try {
      agent.check();
      return null;
    } catch (error) {
      return { name: error.name, rule: error.rule, message: error.message };
    }
  });
  expect(broken).toMatchObject({ name: "ProtocolViolation", rule: "tools_declared_before_navigating_result" });
  expect(broken.message).toMatch(/^tools_declared_before_navigating_result: call /);
});
