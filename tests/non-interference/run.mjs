// The non-interference suite: two pages that differ only in secrets get the same table of
// hostile calls through the devserver's agent routes (as a model would call them), and every
// answer must be byte-identical between the two. A difference prints the call and both answers.
//
//   node run.mjs --devserver BIN --sdk DIR [--only TOOL] [--dump FILE] [--browser chromium|firefox|webkit]
// Chromium through playwright-core; Firefox and WebKit (issue 41) through WebDriver
// (../demo-check/webdriver.mjs: geckodriver, WebKitWebDriver under xvfb-run).
// --only keeps the calls to tools whose name contains TOOL; --dump writes every call with page
// A's answer to FILE (one JSON line each).
// Closes with "N passed, M failed" (one check per call, plus the setup checks).
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";
import { launch } from "../demo-check/webdriver.mjs";
import { PAGES, secretStrings } from "./secrets.mjs";
import { table } from "./table.mjs";

const { values: opts } = parseArgs({
  options: {
    devserver: { type: "string" }, sdk: { type: "string" }, only: { type: "string" }, dump: { type: "string" },
    browser: { type: "string", default: "chromium" },
  },
});
if (!opts.devserver || !opts.sdk) {
  console.error("run.mjs: --devserver BIN and --sdk DIR are required");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const MIN_CALLS = 300;
const checks = new Checks();

const sessions = Object.values(PAGES).flatMap((p) => ["--session", `${p.session}:${p.token}`]);
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", join(here, "www"), "--pkg", opts.sdk, ...sessions,
]);
const browser = opts.browser === "chromium" ? await chromium.launch({ ...CHROMIUM, headless: true }) : await launch(opts.browser);

async function agent(page, method, path, body) {
  const response = await fetch(`${devserver.url}/v1/sessions/${page.session}${path}`, {
    method,
    headers: { Authorization: `Bearer ${page.token}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Opens one page with its secrets, types the user's secrets, waits for its tools. */
async function open(page) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  page.errors = [];
  tab.on("pageerror", (e) => page.errors.push(e.message));
  // Before the page's scripts in Chromium, after its load through WebDriver: page.js waits.
  await tab.addInitScript((s) => { window.SECRETS = s; dispatchEvent(new Event("secrets")); }, page.secrets);
  page.url = `${devserver.url}/page.html?session=${page.session}&token=${page.token}&${page.query}#${page.fragment}`;
  await tab.goto(page.url);
  await tab.waitForFunction(() => document.body.dataset.ready === "1" || document.body.dataset.error, null, { timeout: 20000 });
  const error = await tab.evaluate(() => document.body.dataset.error);
  if (error) throw new Error(`the page failed to register: ${error}`);
  // Typed by the user, so the browser's validation sees a user edit (minlength applies).
  await tab.locator('#checkout [name="password"]').pressSequentially(page.typed.password);
  await tab.locator('#checkout [name="cvc"]').pressSequentially(page.typed.cvc);
  await tab.locator("#checkout [name=\"fullname\"]").focus();
  page.tab = tab;
  page.context = context;
  page.run = (await agent(page, "POST", "/runs", {})).id;
  const tools = (await agent(page, "GET", "/tools")).tools.map((t) => t.name);
  if (tools.length !== 27) throw new Error(`expected 27 tools, the model sees ${tools.join(", ")}`);
}

/** The model calls a tool; resolves to the settled call's answer as the model reads it. */
async function modelCall(page, tool, args) {
  const { call_id: id } = await agent(page, "POST", `/runs/${page.run}/calls`, { tool: `client__page__${tool}`, arguments: args });
  for (let i = 0; i < 10; i++) {
    const c = await agent(page, "GET", `/runs/${page.run}/calls/${id}?wait=5`);
    if (c.state !== "pending") {
      return JSON.stringify({ state: c.state, is_error: c.is_error, text: c.text, reason: c.reason });
    }
  }
  throw new Error(`${tool} did not settle in 50 s`);
}

/** Puts the page's own address (with its secret query and fragment) back after a navigation,
 *  when it moved: WebKit refuses more than 100 replaceState calls in 10 s (SecurityError), which
 *  a run of clicks that navigate nothing reached (`--only click`). */
const restore = (page) => page.tab.evaluate((url) => {
  if (location.href !== url) history.replaceState(null, "", url);
}, page.url);

const pages = [PAGES.a, PAGES.b];
const t0 = Date.now();
let rows = table();
const ok = await checks.check(`setup: both pages registered their tools; ${rows.length} calls per page`, async () => {
  if (rows.length < MIN_CALLS) throw new Error(`the table has ${rows.length} calls, fewer than ${MIN_CALLS}`);
  await Promise.all(pages.map(open));
});
if (opts.only) rows = rows.filter((r) => r.tool.includes(opts.only));
// A secret the model itself sent (a guessed ref) may be echoed; any other must never appear.
const sent = rows.map((r) => JSON.stringify(r.args)).join("\n");
const hidden = pages.map((p) => secretStrings(p).filter((s) => !sent.includes(s)));
let differences = 0;
let leaks = 0;
const tally = { answered: 0, refused: 0, failed: 0 };
const answers = new Map();
if (ok) {
  for (const [i, { tool, args }] of rows.entries()) {
    const [a, b] = await Promise.all(pages.map((p) => modelCall(p, tool, args)));
    if (tool.startsWith("navigate") || tool.startsWith("click")) await Promise.all(pages.map(restore));
    // A click may open the <details> that hides text in a label (its <summary> is pressable, as
    // a person may press it): the text is then on screen, on purpose, and differs between the
    // pages. Both pages close it again, so that later answers judge the hidden text.
    if (tool.startsWith("click")) await Promise.all(pages.map((p) => p.tab.evaluate(() => { for (const d of document.querySelectorAll("details.hid")) d.open = false; })));
    const leaked = pages.flatMap((p, k) => hidden[k].filter((s) => [a, b][k].includes(s)).map((s) => `${p.session}: ${s}`));
    const call = `#${i + 1} ${tool} ${JSON.stringify(args)}`;
    const parsed = JSON.parse(a);
    tally[parsed.state !== "succeeded" ? "failed" : parsed.is_error ? "refused" : "answered"]++;
    answers.set(i, parsed);
    if (a !== b) {
      differences++;
      checks.fail(call, `the answers differ\n    A: ${a}\n    B: ${b}`);
    } else if (leaked.length > 0) {
      leaks++;
      checks.fail(call, `a secret reached the model (${leaked.join(", ")}): ${a}`);
    } else {
      checks.passed++;
    }
  }
  console.log(`${rows.length} calls per page in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${differences} differ, ${leaks} leak a secret`);
  if (opts.dump) {
    writeFileSync(opts.dump, rows.map((r, k) => JSON.stringify({ ...r, answer: answers.get(k) })).join("\n") + "\n");
  }
  console.log(`answers on page A: ${tally.answered} succeeded, ${tally.refused} refused (is_error), ${tally.failed} failed on the server`);
  // Identical answers prove nothing if the tools did nothing: the table must also do real work.
  if (!opts.only) {
    await checks.check("the tools did real work: describes, fills, a submit and a navigation succeeded", () => {
      const last = (tool, pred) => [...rows.entries()].reverse().find(([k, r]) => r.tool === tool && pred(r.args, answers.get(k)));
      const want = [
        ["describe_scoped", (x, r) => !x.form && !r.is_error && r.text.includes('"ref":"checkout"')],
        ["fill_fixed", (x, r) => x.fields.Email && !r.is_error && r.text.includes('"filled":4')],
        ["submit_fixed", (x, r) => x.button === "Pay" && !r.is_error && r.text.includes("will load this page (get) once this result is posted")],
        ["navigate", (x, r) => x.url === "#top" && !r.is_error && r.text.includes('"path":"/page.html#top"')],
        ["navigate_router", (x, r) => x.url === "?x=1" && !r.is_error && r.text.includes('"path":"/page.html?x=1"')],
        ["read_table_scoped", (x, r) => x.table === "Orders" && !r.is_error && r.text.includes('"cells":["A-1","10 EUR","ok"]')],
        ["highlight_scoped", (x, r) => !r.is_error && r.text.includes('"highlighted"')],
        ["highlight_hook", (x, r) => !r.is_error && r.text.includes('"highlighted"')],
        ["read_page", (x, r) => !x.within && !x.query && !r.is_error && r.text.includes('button \\"Pay\\"')],
        ["read_page_scoped", (x, r) => x.within && !r.is_error && r.text.includes("- ")],
        ["click", (x, r) => !r.is_error && r.text.includes('"outcome":"clicked"')],
        ["click_scoped", (x, r) => !r.is_error && r.text.includes('"outcome":"clicked"')],
      ];
      const missing = want.filter(([tool, pred]) => !last(tool, pred)).map(([tool]) => tool);
      if (missing.length) throw new Error(`no expected success from ${missing.join(", ")}`);
      if (tally.failed > 0) throw new Error(`${tally.failed} calls failed on the server (not answered)`);
    });
  }
  // The app's highlight hook saw the same elements, and the same buttons' handlers ran, on
  // both pages.
  for (const [what, read] of [["the highlight hook", () => JSON.stringify(window.marked)], ["the buttons' click handlers", () => JSON.stringify(window.clicks)]]) {
    await checks.check(`${what} were called alike on both pages`, async () => {
      const [a, b] = await Promise.all(pages.map((p) => p.tab.evaluate(read)));
      if (a !== b) throw new Error(`A: ${a}, B: ${b}`);
      if (a === "[]") throw new Error("never called");
    });
  }
  await checks.check("no uncaught errors in either page", () => {
    const errors = pages.flatMap((p) => p.errors.map((e) => `${p.session}: ${e}`));
    if (errors.length) throw new Error(errors.join(" | "));
    // WebDriver classic sees them only from each page's load on (../demo-check/webdriver.mjs).
    if (opts.browser !== "chromium") return "errors seen from each page's load on";
  });
}
await browser.close();
await devserver.stop();
console.log(`${opts.browser}: ${checks.summary()}`);
process.exit(checks.failed === 0 ? 0 : 1);
