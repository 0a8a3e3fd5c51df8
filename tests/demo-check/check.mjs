// `scripts/demo --check`: plays the agent console's scripted scenario in headless Chromium
// against a fresh devserver and exits 0 only when every step was answered correctly.
//
//   node tests/demo-check/check.mjs --devserver BIN --www DIR --pkg DIR [--screenshot FILE]
//                                   [--browser chromium|firefox|webkit]
// Chromium through playwright-core; Firefox and WebKit (issue 41) through WebDriver
// (./webdriver.mjs: geckodriver, WebKitWebDriver under xvfb-run).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "./devserver.mjs";
import { launch } from "./webdriver.mjs";

const { values: opts } = parseArgs({
  options: {
    devserver: { type: "string" },
    www: { type: "string", default: "www" },
    pkg: { type: "string", default: "pkg" },
    screenshot: { type: "string" },
    browser: { type: "string", default: "chromium" },
  },
});
if (!opts.devserver) {
  console.error("check: --devserver BIN is required");
  process.exit(2);
}

const SESSION = "demo";
const TOKEN = "demo-token";
const checks = new Checks();
let server;
let browser;

async function modelTools(base) {
  const response = await fetch(`${base}/v1/sessions/${SESSION}/tools`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  if (!response.ok) throw new Error(`GET tools: HTTP ${response.status}`);
  const body = await response.json();
  return (Array.isArray(body) ? body : body.tools).map((tool) => tool.name);
}

try {
  server = await startDevserver(opts.devserver, ["--addr", "127.0.0.1:0", "--session", `${SESSION}:${TOKEN}`, "--www", opts.www, "--pkg", opts.pkg]);
  console.log(`devserver at ${server.url}`);
  browser = opts.browser === "chromium" ? await chromium.launch({ ...CHROMIUM, headless: true }) : await launch(opts.browser);
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });

  await page.goto(`${server.url}/console.html?session=${SESSION}&token=${TOKEN}`);

  const registered = await checks.check("the app registers and the console shows what the model sees", async () => {
    try {
      await page.locator("#model-tools summary", { hasText: "client__web__highlight_row" }).waitFor({ timeout: 20000 });
    } catch {
      const status = await page.frameLocator("#app-frame").locator("#status").textContent({ timeout: 1000 }).catch(() => "unknown");
      throw new Error(`client__web__highlight_row never appeared; the app's status: ${status}`);
    }
    const names = await page.locator("#model-tools summary").allTextContents();
    return names.join(", ");
  });

  await checks.check("the devserver's tool list agrees", async () => {
    const names = await modelTools(server.url);
    for (const name of ["client__web__list_orders", "client__web__highlight_row", "client__web__navigate"]) {
      if (!names.includes(name)) throw new Error(`${name} missing from ${names.join(", ")}`);
    }
    return `${names.length} tools`;
  });

  await checks.check("the live log's stream is open", async () => {
    await page.locator("#stream-status[data-kind=ok]").waitFor({ timeout: 10000 });
  });

  if (!registered) throw new Error("the app did not register: the scenario cannot run");
  await page.click("#run-scenario");
  const steps = page.locator("#scenario-steps");
  await page.locator("#scenario-steps[data-state=passed], #scenario-steps[data-state=failed]").waitFor({ timeout: 120000 });
  for (const item of await steps.locator("li").all()) {
    const state = await item.getAttribute("data-state");
    const title = (await item.locator("span").first().textContent()).trim();
    const tool = await item.locator("code").textContent();
    const detail = (await item.locator(".detail").textContent()).replace(/\s+/g, " ").slice(0, 140);
    if (state === "passed") checks.ok(`scenario: ${title} (${tool})`, detail);
    else checks.fail(`scenario: ${title} (${tool})`, state === "failed" ? detail : `not run (${state})`);
  }
  const newRowId = await steps.getAttribute("data-new-row-id");

  await checks.check("the app shows the new order's row highlighted", async () => {
    if (!newRowId) throw new Error("the scenario found no new row");
    const frame = page.frameLocator("#app-frame");
    const row = frame.locator(`tr[data-row-id="${newRowId}"]`);
    await row.waitFor({ timeout: 5000 });
    const cls = await row.getAttribute("class");
    if (!cls?.split(" ").includes("highlight")) throw new Error(`row ${newRowId} has class ${JSON.stringify(cls)}`);
    const text = await row.textContent();
    if (!text.includes("Ada Lovelace")) throw new Error(`row ${newRowId} reads ${JSON.stringify(text)}`);
    const highlighted = await frame.locator("tr.highlight").count();
    if (highlighted !== 1) throw new Error(`${highlighted} rows are highlighted`);
    return `row ${newRowId}`;
  });

  await checks.check("the live log shows each scenario call dispatched, acked and answered, with timings", async () => {
    await page.waitForFunction((n) => document.querySelectorAll("#log-body tr[data-state=answered]").length >= n, 9, { timeout: 10000 });
    const rows = await page.locator("#log-body tr").evaluateAll((trs) => trs.map((tr) => ({ state: tr.dataset.state, timing: tr.children[3].textContent })));
    const bad = rows.filter((row) => row.state !== "answered" || !/^dispatched \+\d+ ms · acked \+\d+ ms · answered \+\d+ ms$/.test(row.timing));
    if (bad.length) throw new Error(`rows not answered with full timings: ${JSON.stringify(bad)}`);
    return `${rows.length} calls, e.g. ${rows[0].timing}`;
  });

  await checks.check("a call for a row that does not exist is answered as an error the model can read", async () => {
    await page.selectOption("#call-tool", "client__web__highlight_row");
    await page.fill("#call-args", '{"row_id": "9999"}');
    await page.click("#call-form button[type=submit]");
    await page.waitForFunction(() => /"state"|HTTP/.test(document.getElementById("call-result").textContent), null, { timeout: 15000 });
    const result = JSON.parse(await page.locator("#call-result").textContent());
    if (result.state !== "succeeded" || result.is_error !== true) throw new Error(`expected an is_error answer, got ${JSON.stringify(result)}`);
    if (!/9999/.test(result.text)) throw new Error(`the error does not name the row: ${result.text}`);
    return result.text;
  });

  if (opts.screenshot) {
    mkdirSync(dirname(opts.screenshot), { recursive: true });
    await page.screenshot({ path: opts.screenshot, fullPage: true });
    console.log(`screenshot saved to ${opts.screenshot}`);
  }

  await checks.check("with \"ask me first\" on, a navigation the user declines is an is_error answer", async () => {
    const app = page.frameLocator("#app-frame");
    await app.locator("nav a[data-route='/settings']").click();
    await app.locator("input[name=confirm_agent]").check();
    await app.locator("#settings-form button[type=submit]").click();
    await page.locator("#model-tools summary", { hasText: "client__web__fill_form" }).waitFor({ timeout: 10000 });
    let asked = null;
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      dialog.dismiss();
    });
    await page.evaluate(() => { document.getElementById("call-result").textContent = ""; });
    await page.selectOption("#call-tool", "client__web__navigate");
    await page.fill("#call-args", '{"url": "/orders"}');
    await page.click("#call-form button[type=submit]");
    await page.waitForFunction(() => /"state"|HTTP/.test(document.getElementById("call-result").textContent), null, { timeout: 15000 });
    const result = JSON.parse(await page.locator("#call-result").textContent());
    if (!asked) throw new Error("the user was not asked");
    if (result.is_error !== true || !/declined/i.test(result.text)) throw new Error(`expected a declined is_error answer, got ${JSON.stringify(result)}`);
    const hash = await app.locator("body").evaluate(() => location.hash);
    if (hash !== "#/settings") throw new Error(`the app moved to ${hash}`);
    return `asked "${asked}", answered "${result.text}"`;
  });

  await checks.check("no errors in the pages' consoles", async () => {
    if (pageErrors.length) throw new Error(pageErrors.join(" | "));
    // WebDriver classic sees them only from the console's load on (webdriver.mjs).
    if (opts.browser !== "chromium") return "errors seen from the console's load on";
  });
} catch (error) {
  checks.fail("demo check", error.message);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
}
console.log(`${opts.browser}: ${checks.summary()}`);
process.exit(checks.failed === 0 && checks.passed > 0 ? 0 : 1);
