// exposeToWebMCP as sites use it today (issue 42): the MCP-B polyfill (@mcp-b/global) in
// headless Chromium without the WebMCP flag, and a real MCP client of each major
// (@modelcontextprotocol/sdk 1.x, @modelcontextprotocol/client 2.x) over MCP-B's same-tab
// transport, against the package (pkg/) and the devserver (for a followed Client). The same
// checks as the native Chromium test (tests/web_webmcp.rs) where they apply, plus what MCP
// clients read: isError, list_changed per swap, calls in flight across a swap.
//   node run.mjs --devserver BIN --pkg DIR
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

const { values: opts } = parseArgs({ options: { devserver: { type: "string" }, pkg: { type: "string" } } });
if (!opts.devserver || !opts.pkg) {
  console.error("run.mjs: --devserver BIN and --pkg DIR are required");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const SESSION = { id: "mcpb", token: "mcpb-token" };
const checks = new Checks();
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", join(here, "www"), "--pkg", opts.pkg,
  "--session", `${SESSION.id}:${SESSION.token}`,
]);
const browser = await chromium.launch({ ...CHROMIUM, headless: true });

/** A fresh page with the polyfill, the package loaded and an MCP client of `major` connected. */
async function open(major) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${devserver.url}/index.html`);
  await page.waitForFunction(() => window.mcpReady === true, null, { timeout: 10000 });
  await page.evaluate(async ([major, base, session]) => {
    const sdk = await import("/pkg/client_tools.js");
    await sdk.default();
    window.sdk = sdk;
    window.base = base;
    window.session = session;
    window.mcp = await window.mcpClient(major);
    window.text = (r) => (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    window.names = async () => (await window.mcp.listTools()).tools.map((t) => t.name).sort();
    window.callTool = async (name, args) => {
      try {
        const r = await window.mcp.callTool({ name, arguments: args });
        return { isError: r.isError === true, text: window.text(r) };
      } catch (e) {
        return { rejected: `${e.name}: ${e.message}` };
      }
    };
  }, [major, devserver.url, SESSION]);
  return { page, errors };
}

const ROW = { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] };

for (const major of [1, 2]) {
  const label = `MCP client v${major}: `;
  const { page, errors } = await open(major);
  const seen = await page.evaluate(async (ROW) => {
    const seen = {};
    const ac = new AbortController();
    const rows = [];
    const tools = [
      { name: "highlight_row", description: "Highlight a row.", parameters: ROW,
        handler: (args) => { rows.push(args.row_id); return `Row ${args.row_id} is highlighted.`; } },
      { name: "throws", handler: () => { throw new Error("the table is gone"); } },
      { name: "is_error", handler: () => ({ isError: true, text: "no such row" }) },
      { name: "slow", timeoutMs: 100, handler: () => new Promise(() => {}) },
      { name: "once", maxCallsPerRun: 1, handler: () => "once" },
    ];
    seen.exposed = await sdk.exposeToWebMCP(tools, { signal: ac.signal, prefix: "shop_" });
    seen.names = await names();
    seen.highlight = await callTool("shop_highlight_row", { row_id: "42" });
    seen.badArgument = await callTool("shop_highlight_row", { row_id: 42 });
    seen.thrown = await callTool("shop_throws", {});
    seen.isError = await callTool("shop_is_error", {});
    seen.timeout = await callTool("shop_slow", {});
    seen.once = await callTool("shop_once", {});
    seen.twice = await callTool("shop_once", {});
    seen.rows = rows;
    ac.abort();
    await new Promise((r) => setTimeout(r, 50));
    seen.afterAbort = await names();
    return seen;
  }, ROW);
  await checks.check(`${label}the tools are listed with their prefix`, () => {
    const want = ["shop_highlight_row", "shop_is_error", "shop_once", "shop_slow", "shop_throws"];
    if (JSON.stringify(seen.names) !== JSON.stringify(want)) throw new Error(`listed ${JSON.stringify(seen.names)}`);
  });
  await checks.check(`${label}a success is the handler's text, isError false`, () => {
    if (seen.highlight.isError || seen.highlight.text !== "Row 42 is highlighted.") throw new Error(JSON.stringify(seen.highlight));
  });
  for (const [key, what, want] of [
    ["badArgument", "arguments the schema refuses", /highlight_row/],
    ["thrown", "a handler that throws", /the table is gone/],
    ["isError", "a result with isError: true", /no such row/],
    ["timeout", "a handler past its timeoutMs", /timed out after 100 ms/],
    ["twice", "a call past maxCallsPerRun", /./],
  ]) {
    await checks.check(`${label}${what} reaches the MCP client as an error (isError: true) with the SDK's message`, () => {
      const r = seen[key];
      if (r.rejected) throw new Error(`the call was rejected: ${r.rejected}`);
      if (!r.isError || !want.test(r.text)) throw new Error(JSON.stringify(r));
      return r.text.slice(0, 90);
    });
  }
  await checks.check(`${label}the handler ran for the valid calls only`, () => {
    if (JSON.stringify(seen.rows) !== JSON.stringify(["42"])) throw new Error(JSON.stringify(seen.rows));
  });
  await checks.check(`${label}aborting the app's signal unregisters every tool`, () => {
    if (seen.afterAbort.some((n) => n.startsWith("shop_"))) throw new Error(JSON.stringify(seen.afterAbort));
  });

  // A followed Client: swaps through setTools and a call that swaps them.
  const follow = await page.evaluate(async () => {
    const seen = {};
    const ac = new AbortController();
    let client;
    const list = { name: "list_orders", handler: () => "orders 1, 2, 3" };
    const goto = { name: "open_page", parameters: { type: "object", properties: { page: { type: "string" } }, required: ["page"] },
      handler: async (args) => {
        await client.setTools([list, goto, { name: `page_${args.page}`, handler: () => `on ${args.page}` }]);
        return `on page ${args.page}`;
      } };
    client = await sdk.Client.register({ baseUrl: base, sessionId: session.id, token: session.token, name: "mcpb", tools: [list, goto] });
    try {
      await sdk.exposeToWebMCP(client, { signal: ac.signal });
      seen.first = await names();
      let before = window.listChanged;
      await client.setTools([list, goto, { name: "extra", handler: () => "extra" }]);
      seen.afterSetTools = await names();
      await new Promise((r) => setTimeout(r, 100));
      seen.notifications = window.listChanged - before;
      // A call in flight on a tool that the swap keeps.
      before = window.listChanged;
      seen.swapCall = await callTool("open_page", { page: "b" });
      seen.afterSwapCall = await names();
      await new Promise((r) => setTimeout(r, 100));
      seen.swapNotifications = window.listChanged - before;
    } finally {
      ac.abort();
      await client.leave();
    }
    // Aborting while the tools register: resolved as aborted, nothing left registered.
    const ac2 = new AbortController();
    const many = Array.from({ length: 20 }, (_, i) => ({ name: `t${i}`, handler: () => "x" }));
    const exposing = sdk.exposeToWebMCP(many, { signal: ac2.signal, prefix: "late_" });
    // Once some of them are registered.
    for (let i = 0; i < 200 && !(await names()).some((n) => n.startsWith("late_")); i++) await new Promise((r) => setTimeout(r, 1));
    seen.registeredBeforeAbort = (await names()).filter((n) => n.startsWith("late_")).length;
    ac2.abort();
    try { seen.abortDuring = { resolved: await exposing }; } catch (e) { seen.abortDuring = { rejected: `${e.code ?? e.name}: ${e.message}` }; }
    await new Promise((r) => setTimeout(r, 100));
    seen.afterAbortDuring = (await names()).filter((n) => n.startsWith("late_"));
    // Aborted in the same task as the call: no registration has settled yet.
    const ac3 = new AbortController();
    const exposingNow = sdk.exposeToWebMCP(many, { signal: ac3.signal, prefix: "now_" });
    ac3.abort();
    try { seen.abortAtOnce = { resolved: await exposingNow }; } catch (e) { seen.abortAtOnce = { rejected: `${e.code ?? e.name}: ${e.message}` }; }
    await new Promise((r) => setTimeout(r, 100));
    seen.afterAbortAtOnce = (await names()).filter((n) => n.startsWith("now_"));
    // 40 tools: how many registrations the SDK has in flight at once, and how long they take.
    const mc = document.modelContext;
    const register = mc.registerTool;
    let inFlight = 0;
    seen.mostInFlight = 0;
    mc.registerTool = function (...args) {
      inFlight++;
      seen.mostInFlight = Math.max(seen.mostInFlight, inFlight);
      return Promise.resolve(register.apply(this, args)).finally(() => inFlight--);
    };
    const ac4 = new AbortController();
    const forty = Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, handler: () => "x" }));
    const start = performance.now();
    seen.forty = await sdk.exposeToWebMCP(forty, { signal: ac4.signal, prefix: "forty_" });
    seen.fortyMs = performance.now() - start;
    seen.fortyListed = (await names()).filter((n) => n.startsWith("forty_")).length;
    ac4.abort();
    mc.registerTool = register;
    return seen;
  });
  await checks.check(`${label}a followed client's tools are listed`, () => {
    if (JSON.stringify(follow.first) !== JSON.stringify(["list_orders", "open_page"])) throw new Error(JSON.stringify(follow.first));
  });
  await checks.check(`${label}await client.setTools(...) resolves once the MCP client lists the new tools`, () => {
    if (!follow.afterSetTools.includes("extra")) throw new Error(`listed right after: ${JSON.stringify(follow.afterSetTools)}`);
  });
  await checks.check(`${label}a swap that adds one tool and keeps the others sends one list_changed`, () => {
    if (follow.notifications !== 1) throw new Error(`${follow.notifications} notifications for one setTools`);
  });
  await checks.check(`${label}a call whose handler swaps the tools is answered, not rejected`, () => {
    if (follow.swapCall.rejected || follow.swapCall.isError || follow.swapCall.text !== "on page b") throw new Error(JSON.stringify(follow.swapCall));
    if (!follow.afterSwapCall.includes("page_b")) throw new Error(`listed after its answer: ${JSON.stringify(follow.afterSwapCall)}`);
    // open_page and list_orders are kept, extra goes and page_b comes: two changes.
    if (follow.swapNotifications !== 2) throw new Error(`${follow.swapNotifications} list_changed for a swap of two changes`);
    return `${follow.swapNotifications} list_changed`;
  });
  await checks.check(`${label}aborting the app's signal while tools register resolves as aborted, nothing left registered`, () => {
    if (follow.abortDuring.rejected) throw new Error(`rejected: ${follow.abortDuring.rejected}`);
    if (follow.afterAbortDuring.length) throw new Error(`still registered: ${follow.afterAbortDuring.join(", ")}`);
    return `${follow.registeredBeforeAbort} of 20 registered when it aborted; resolved ${JSON.stringify(follow.abortDuring.resolved)}`;
  });
  await checks.check(`${label}aborting the app's signal in the same task as the call resolves as aborted, nothing registered`, () => {
    if (follow.abortAtOnce.rejected) throw new Error(`rejected: ${follow.abortAtOnce.rejected}`);
    if (follow.abortAtOnce.resolved.registered.length) throw new Error(JSON.stringify(follow.abortAtOnce.resolved));
    if (follow.afterAbortAtOnce.length) throw new Error(`still registered: ${follow.afterAbortAtOnce.join(", ")}`);
  });
  await checks.check(`${label}40 tools register side by side`, () => {
    if (follow.forty.registered.length !== 40 || follow.fortyListed !== 40) throw new Error(`${follow.forty.registered.length} registered, ${follow.fortyListed} listed`);
    if (follow.mostInFlight < 2) throw new Error(`one registerTool at a time (at most ${follow.mostInFlight} in flight)`);
    return `${follow.mostInFlight} registerTool calls in flight at most; all 40 registered in ${follow.fortyMs.toFixed(0)} ms`;
  });
  await checks.check(`${label}no uncaught page errors`, () => {
    if (errors.length) throw new Error(errors.join("; "));
  });
  await page.close();
}

await browser.close();
await devserver.stop();
console.log(checks.summary());
process.exit(checks.failed ? 1 : 0);
