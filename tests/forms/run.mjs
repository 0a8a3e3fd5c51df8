// Drives the fixture apps in a headless browser and checks the page tools against each app's own
// state (React state, Vue reactive state, the plain form's FormData), not only the DOM.
//
//   node run.mjs --dist DIR [--devserver BIN] [--only SUBSTRING] [--browser chromium|firefox|webkit]
// Chromium through playwright-core; Firefox and WebKit (issue 41) through WebDriver
// (../demo-check/webdriver.mjs: geckodriver, WebKitWebDriver under xvfb-run).
// With --devserver, one more check registers the tools through the SDK's Client and has the
// reference server's agent call them.
// Prints one line per check and closes with "N passed, M failed".
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, startDevserver } from "../demo-check/devserver.mjs";
import { launch } from "../demo-check/webdriver.mjs";

const { values: opts } = parseArgs({
  options: {
    dist: { type: "string" },
    devserver: { type: "string" },
    only: { type: "string" },
    browser: { type: "string", default: "chromium" },
  },
});
if (!opts.dist) {
  console.error("run.mjs: --dist DIR is required");
  process.exit(2);
}
const dist = resolve(opts.dist);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/** Serves dist/ on a free loopback port, as any host of a built app would. */
function serve() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = normalize(join(dist, path));
    if (!file.startsWith(dist)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

const checks = [];
const check = (name, page, fn) => checks.push({ name, page, fn });

/** Calls a page tool's handler in the page, as the SDK's shell would. */
const call = (page, tool, args, options = {}) =>
  page.evaluate(([t, a, o]) => window.callTool(t, a, o), [tool, args, options]);
const state = (page) => page.evaluate(() => window.appState());
const text = (page, sel) => page.locator(sel).textContent();
const field = (result, ref) => {
  const f = result.json.forms[0].fields.find((x) => x.ref === ref);
  assert.ok(f, `no field ${ref} in ${result.text}`);
  return f;
};
const ok = (r) => assert.equal(r.isError, false, `expected success, got: ${r.text}`);
const refused = (r, needle) => {
  assert.equal(r.isError, true, `expected a refusal, got: ${r.text}`);
  assert.ok(r.text.includes(needle), `refusal does not mention ${JSON.stringify(needle)}: ${r.text}`);
};

// ---------------------------------------------------------------- React 19, controlled inputs
const REACT_FILL = {
  "Full name": "Ada Lovelace", Email: "ada@example.org", Age: 36, Birthday: "1815-12-10", Alarm: "06:30",
  Volume: 35, "Favourite color": "#3366FF", "About you": "Mathematician", Country: "Japan",
  Languages: ["en", "Portuguese"], Plan: "Pro", terms: true, "Promo code": "abc", Notes: "first program",
};

check("react: describe reads every kind of label and redacts the password", "react.html", async (page) => {
  await page.fill("input[type=password]", "hunter2");
  const r = await call(page, "describe", {});
  ok(r);
  assert.equal(r.json.forms[0].ref, "profile");
  assert.equal(field(r, "name").label, "Full name");
  assert.equal(r.json.forms[0].fields.find((f) => f.type === "textarea").label, "About you");
  const country = field(r, "country");
  assert.equal(country.label, "Country");
  assert.deepEqual(country.options.map((o) => o.label), ["France", "Japan", "Brazil"]);
  assert.equal(field(r, "plan").label, "Plan");
  const pw = field(r, "password");
  assert.equal(pw.value, null);
  assert.equal(pw.redacted, "a password; filled: true");
  assert.ok(!r.text.includes("hunter2"));
  assert.deepEqual(r.json.forms[0].submitButtons, [{ ref: "Save profile", label: "Save profile" }]);
});

check("react: fill sets every field type and React state follows", "react.html", async (page) => {
  const r = await call(page, "fill", { fields: REACT_FILL });
  ok(r);
  assert.equal(r.json.filled, 14);
  const code = r.json.fields.find((f) => f.field === "Promo code");
  assert.deepEqual([code.status, code.value], ["changed", "ABC"], "the app upper-cased it, and the tool says so");
  assert.deepEqual(await state(page), {
    name: "Ada Lovelace", email: "ada@example.org", age: "36", birthday: "1815-12-10", alarm: "06:30",
    volume: "35", color: "#3366ff", bio: "Mathematician", country: "jp", languages: ["en", "pt"], plan: "pro",
    terms: true, code: "ABC", password: "", notes: "first program",
  });
});

check("react: secrets, bad formats and newlines are refused and state is untouched", "react.html", async (page) => {
  const r = await call(page, "fill", { fields: { Password: "hunter2", Birthday: "next tuesday", "Full name": "a\nb" } });
  refused(r, "a password");
  assert.deepEqual(r.json.fields.map((f) => f.status), ["refused", "refused", "refused"]);
  const s = await state(page);
  assert.deepEqual([s.password, s.birthday, s.name], ["", "", ""]);
});

check("react: submit of the empty form sends nothing and names each invalid field", "react.html", async (page) => {
  const r = await call(page, "submit", {});
  refused(r, "the form is invalid");
  assert.deepEqual(r.json.invalid.map((f) => f.field), ["name", "email", "terms"]);
  assert.ok(r.json.invalid.every((f) => f.validationMessage.length > 0));
  assert.equal(await text(page, "#submitted"), "");
});

check("react: submit of the filled form is handled by the app", "react.html", async (page) => {
  ok(await call(page, "fill", { fields: { "Full name": "Grace Hopper", Email: "grace@example.org", terms: true } }));
  const r = await call(page, "submit", {});
  ok(r);
  assert.equal(r.json.outcome, "the app handled the submit event");
  const got = JSON.parse(await text(page, "#submitted"));
  assert.deepEqual([got.name, got.email, got.terms], ["Grace Hopper", "grace@example.org", true]);
});

check("react: navigate pushes the route and the popstate router renders it", "react.html", async (page) => {
  const r = await call(page, "navigate", { url: "/react/orders/7?tab=items" });
  ok(r);
  assert.equal(r.json.via, "history");
  assert.equal(await text(page, "#route"), "/react/orders/7");
  assert.equal(new URL(page.url()).pathname, "/react/orders/7");
});

// ---------------------------------------------------------------- Vue 3, v-model, vue-router
check("vue: fill sets every field type and the reactive state follows", "vue.html", async (page) => {
  const r = await call(page, "fill", {
    fields: {
      "Full name": "Ada Lovelace", Email: "ada@example.org", Age: "36", Birthday: "1815-12-10", Alarm: "06:30",
      Volume: 103, "Favourite color": "#3366ff", bio: "Countess", Country: "br", Languages: ["ja", "English"],
      Plan: "free", Toppings: ["Cheese", "basil"], terms: true,
    },
  });
  ok(r);
  const volume = r.json.fields.find((f) => f.field === "Volume");
  assert.deepEqual([volume.status, volume.value], ["changed", "100"], "the range clamps to its max");
  assert.deepEqual(await state(page), {
    name: "Ada Lovelace", email: "ada@example.org", age: 36, birthday: "1815-12-10", alarm: "06:30", volume: 100,
    color: "#3366ff", bio: "Countess", country: "br", languages: ["en", "ja"], plan: "free",
    toppings: ["cheese", "basil"], terms: true, card: "",
  });
  const again = await call(page, "fill", { fields: { Toppings: ["olives"], "Card number": "4111 1111 1111 1111" } });
  refused(again, "payment card data");
  assert.deepEqual((await state(page)).toppings, ["olives"]);
  assert.equal((await state(page)).card, "");
});

check("vue: invalid submit is refused, valid submit is handled by the app", "vue.html", async (page) => {
  const bad = await call(page, "submit", {});
  refused(bad, "the form is invalid");
  assert.equal(await text(page, "#submitted"), "");
  ok(await call(page, "fill", { fields: { name: "Lin", email: "lin@example.org", "I accept the terms": true } }));
  const r = await call(page, "submit", { button: "Sign up" });
  ok(r);
  assert.equal(r.json.outcome, "the app handled the submit event");
  assert.equal(JSON.parse(await text(page, "#submitted")).name, "Lin");
});

check("vue: navigate goes through vue-router", "vue.html", async (page) => {
  const r = await call(page, "navigate", { url: "/vue/orders/42" });
  ok(r);
  assert.equal(r.json.via, "router");
  assert.equal(await page.evaluate(() => window.routerPath()), "/vue/orders/42");
  assert.equal(await text(page, "#order"), "Order 42");
  for (const url of ["javascript:alert(1)", " javascript:alert(1)", "//evil.example/x", "https://app@evil.example/"]) {
    const bad = await call(page, "navigate", { url });
    assert.equal(bad.isError, true, `${url} was not refused: ${bad.text}`);
  }
  assert.equal(await page.evaluate(() => window.routerPath()), "/vue/orders/42");
});

// ---------------------------------------------------------------- plain HTML, native submission
check("plain: describe sees the real action despite a control named action", "plain.html", async (page) => {
  const r = await call(page, "describe", {});
  ok(r);
  const form = r.json.forms[0];
  assert.equal(form.ref, "contact");
  // Another path of the page's origin, told without the path (issue 40); a control named
  // `action` read in its place would not parse as an address.
  assert.equal(form.action, "this site");
  assert.equal(field(r, "submit").redacted, "a hidden field; filled: true");
  assert.equal(field(r, "who").label, "Your name");
});

check("plain: an invalid form is not submitted; a valid one loads only after the result", "plain.html", async (page) => {
  ok(await call(page, "fill", { fields: { "Your name": "Kim", Topic: "Support", reply: "Phone", "Action item": "call back" } }));
  const bad = await call(page, "submit", {});
  refused(bad, "the form is invalid");
  assert.deepEqual(bad.json.invalid.map((f) => f.field), ["email"]);
  ok(await call(page, "fill", { fields: { Email: "kim@example.org", "Visit date": "2027-01-02" } }));
  assert.equal((await state(page)).topic, "help");
  const r = await call(page, "submit", {});
  ok(r);
  assert.ok(r.json.outcome.includes("once this result is posted"), r.text);
  assert.equal(r.deferred, 1);
  assert.ok(page.url().endsWith("/plain.html"), "nothing loaded before the result");
  await Promise.all([page.waitForURL(/plain-done\.html/), page.evaluate(() => window.runDeferred())]);
  const q = new URL(page.url()).searchParams;
  assert.deepEqual(
    [q.get("who"), q.get("email"), q.get("topic"), q.get("reply"), q.get("action"), q.get("submit"), q.get("send")],
    ["Kim", "kim@example.org", "help", "phone", "call back", "contact-form", "1"],
  );
});

check("plain: confirm can decline a submit and a navigation", "plain.html", async (page) => {
  await page.evaluate(() => { window.confirmAnswer = () => Promise.resolve(false); });
  ok(await call(page, "fill", { fields: { "Your name": "Kim", Email: "kim@example.org" } }));
  refused(await call(page, "submit", {}), "declined");
  refused(await call(page, "navigate", { url: "/plain/elsewhere" }), "declined");
  await page.evaluate(() => { window.confirmAnswer = undefined; });
  const r = await call(page, "navigate", { url: "/plain/elsewhere?x=1" });
  ok(r);
  assert.equal(await text(page, "#route"), "/plain/elsewhere?x=1");
  assert.equal(r.deferred, 0);
});

// ---------------------------------------------------------------- through the SDK and a server
const SESSION = "forms";
const TOKEN = "forms-token";
let devserver = null;

async function agent(method, path, body) {
  const response = await fetch(`${devserver.url}/v1/sessions/${SESSION}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The model calls `client__forms__<tool>`; resolves to the settled call. */
async function modelCalls(runId, tool, args) {
  const { call_id: callId } = await agent("POST", `/runs/${runId}/calls`, { tool: `client__forms__${tool}`, arguments: args });
  for (let i = 0; i < 6; i++) {
    const result = await agent("GET", `/runs/${runId}/calls/${callId}?wait=5`);
    if (result.state === "succeeded" || result.state === "failed") return result;
  }
  throw new Error(`${tool} did not settle in 30 s`);
}

if (opts.devserver) {
  check("client: the agent fills and submits the plain form through the SDK and the server", "plain.html?client", async (page) => {
    const names = (await agent("GET", "/tools")).tools?.map((t) => t.name) ?? [];
    for (const t of ["describe_form", "fill_form", "submit_form", "navigate"]) {
      assert.ok(names.includes(`client__forms__${t}`), `the model does not see ${t}: ${names}`);
    }
    // A garbage collection first (allocation churn provokes one in Firefox and WebKit; WebKit's
    // own came in loaded runs): the page must hold its Client, since a collected Client leaves
    // the session (docs/sessions.md), and the model's calls then fail client_gone.
    await page.evaluate(async () => {
      for (let round = 0; round < 5; round++) {
        let junk = [];
        for (let i = 0; i < 400; i++) junk.push(new Array(25000).fill(i));
        junk = null;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const { id: runId } = await agent("POST", "/runs", {});
    const filled = await modelCalls(runId, "fill_form", { fields: { "Your name": "Kim", Email: "kim@example.org", Topic: "Sales" } });
    assert.deepEqual([filled.state, filled.is_error], ["succeeded", false], JSON.stringify(filled));
    assert.equal(JSON.parse(filled.text).filled, 3);
    const s = await state(page);
    assert.deepEqual([s.who, s.email, s.topic], ["Kim", "kim@example.org", "sales"]);
    const hidden = await modelCalls(runId, "fill_form", { fields: { submit: "hijacked" } });
    assert.deepEqual([hidden.state, hidden.is_error], ["succeeded", true], "a refusal reaches the model as is_error");
    assert.ok(hidden.text.includes("hidden fields are not filled"), hidden.text);
    const script = await modelCalls(runId, "navigate", { url: "javascript:alert(1)" });
    assert.deepEqual([script.state, script.is_error], ["succeeded", true]);
    assert.ok(script.text.includes("javascript: scheme"), script.text);
    const [submitted] = await Promise.all([
      modelCalls(runId, "submit_form", {}),
      page.waitForURL(/plain-done\.html/, { timeout: 20000 }),
    ]);
    assert.deepEqual([submitted.state, submitted.is_error], ["succeeded", false], JSON.stringify(submitted));
    assert.ok(submitted.text.includes("once this result is posted"), submitted.text);
    assert.equal(new URL(page.url()).searchParams.get("who"), "Kim");
  });
}

// ---------------------------------------------------------------- runner
const server = await serve();
const base = `http://127.0.0.1:${server.address().port}`;
if (opts.devserver) {
  devserver = await startDevserver(opts.devserver, ["--addr", "127.0.0.1:0", "--session", `${SESSION}:${TOKEN}`]);
}
const browser = opts.browser === "chromium" ? await chromium.launch({ ...CHROMIUM, headless: true }) : await launch(opts.browser);
let passed = 0;
let failed = 0;
for (const { name, page: path, fn } of checks) {
  if (opts.only && !name.includes(opts.only)) continue;
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const t0 = Date.now();
  try {
    const url = new URL(`${base}/${path}`);
    if (url.searchParams.has("client")) {
      url.search = new URLSearchParams({ base: devserver.url, session: SESSION, token: TOKEN }).toString();
    }
    await page.goto(url.href);
    await page.waitForSelector("body[data-ready='1']", { timeout: 15000 });
    await fn(page);
    assert.deepEqual(errors, [], "uncaught errors in the page");
    passed++;
    console.log(`ok    ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL  ${name}\n      ${String(e.message ?? e).split("\n").join("\n      ")}`);
    if (errors.length) console.log(`      page errors: ${errors.join(" | ")}`);
    if (path.includes("?client")) {
      const statuses = await page.evaluate(() => window.clientStatuses ?? []).catch((e) => [`unread: ${e.message}`]);
      console.log(`      the client's statuses: ${statuses.join(" | ")}`);
    }
  } finally {
    await context.close();
  }
}
await browser.close();
server.close();
await devserver?.stop();
console.log(`${opts.browser}: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
