// The part of playwright-core's Page that the browser suites use, over W3C WebDriver, for the
// engines playwright-core cannot drive on this machine: the system's Firefox (geckodriver) and
// WebKitGTK (WebKitWebDriver, under Xvfb: run the suite through `xvfb-run -a`).
//
//   const browser = await launch("firefox" | "webkit");
//   const context = await browser.newContext();   // a WebDriver session: a fresh profile
//   const page = await context.newPage();          // or browser.newPage({ viewport })
//
// Each context has a driver process of its own (geckodriver serves one session at a time; a
// context closed leaves its driver for the next one), so two contexts run side by side.
// What is here: goto, evaluate, waitForFunction, waitForSelector, waitForURL, fill, click,
// selectOption, addInitScript, screenshot, url, the events "pageerror", "console" (errors) and
// "dialog"; locators (chained, `hasText`, first/nth/all, inside same-origin frames through
// frameLocator) with waitFor, textContent, allTextContents, getAttribute, count, click, check,
// fill, pressSequentially, focus, evaluate, evaluateAll. Clicks, typing and option choices
// are WebDriver's element commands (a person's input, events and all), not scripted ones.
// A user prompt (alert, confirm) goes to the "dialog" handlers when a command meets it, else it
// is dismissed, as playwright-core does. WEBDRIVER_LOG=1 copies the drivers' output to stderr.
//
// Differences from playwright-core, each visible to a check rather than hidden:
// - "pageerror" reports uncaught errors and unhandled rejections, and "console" the page's
//   console.error calls, from the moment `goto` has loaded the page (WebDriver classic has no
//   hook before the page's own scripts), in the page and its same-origin frames present then;
// - `addInitScript` runs its function once `goto` has loaded the page, for the same reason: a
//   page that needs its values first must wait for them (tests/non-interference/www/page.js
//   waits for the "secrets" event its script dispatches);
// - `screenshot({ fullPage })` is the whole page in Firefox (geckodriver's full-page command)
//   and the window only in WebKit (WebDriver classic has no full-page screenshot), said on stderr;
// - `evaluate` runs its function's source in the page (no closures), its value JSON-like;
// - `url()` is the address after the last command (playwright's is kept up to date by events).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const DRIVERS = {
  firefox: {
    bin: () => process.env.GECKODRIVER ?? "geckodriver",
    args: (port) => ["--port", String(port)],
    capabilities: { browserName: "firefox", "moz:firefoxOptions": { args: ["-headless"] }, unhandledPromptBehavior: "ignore" },
  },
  webkit: {
    bin: () => process.env.WEBKIT_WEBDRIVER ?? "/usr/bin/WebKitWebDriver",
    args: (port) => [`--port=${port}`],
    capabilities: { unhandledPromptBehavior: "ignore" },
  },
};

const freePort = () =>
  new Promise((done, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** How long a driver may take to answer one command: past the session's own script and page
 *  load timeouts (60 s), so that a driver that stops answering (WebKitWebDriver did once, a
 *  confirm() open in a frame) fails the check that sent it instead of holding the suite. */
const COMMAND_MS = 90000;

/** One WebDriver command; rejects with the driver's error and message, or when the driver has
 *  not answered in COMMAND_MS. */
async function command(base, method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(COMMAND_MS),
  }).catch((e) => {
    if (e.name !== "TimeoutError") throw e;
    throw new Error(`WebDriver ${method} ${path}: no answer in ${COMMAND_MS / 1000} s (the driver stopped answering)`);
  });
  const answer = await response.json().catch(() => ({ value: { error: `HTTP ${response.status}`, message: "" } }));
  if (!response.ok || answer?.value?.error) {
    const v = answer?.value ?? {};
    throw new Error(`WebDriver ${method} ${path}: HTTP ${response.status} ${v.error ?? ""}: ${v.message ?? ""}`);
  }
  return answer.value;
}

/** The drivers still running, stopped when the runner exits without closing them (a check
 *  that threw past its runner): no driver or browser outlives the suite. */
const running = new Set();
process.once("exit", () => {
  for (const child of running) child.kill("SIGTERM");
});

/** Starts one driver process of the engine; resolves once it answers /status. */
async function startDriver(engine, driver) {
  const port = await freePort();
  const child = spawn(driver.bin(), driver.args(port), { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  const keep = (c) => {
    output += c;
    if (process.env.WEBDRIVER_LOG) process.stderr.write(`[${engine} driver] ${c}`);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${driver.bin()} exited: ${output}`);
    try {
      if ((await command(base, "GET", "/status")).ready !== undefined) break;
    } catch (e) {
      if (i > 100) throw new Error(`${driver.bin()} did not answer in 10 s: ${e.message}\n${output}`);
    }
    await sleep(100);
  }
  return {
    base,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        // A driver that does not end on SIGTERM (one that stopped answering) is killed.
        const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(kill);
          done();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** Starts the engine's first driver; resolves once it answers /status. */
export async function launch(engine) {
  const driver = DRIVERS[engine];
  if (!driver) throw new Error(`webdriver.mjs: no engine ${engine} (firefox, webkit)`);
  const all = [await startDriver(engine, driver)];
  const idle = [...all];
  const open = new Set();
  const browser = {
    async newContext() {
      let d = idle.pop();
      if (!d) all.push((d = await startDriver(engine, driver)));
      const ask = (d) => command(d.base, "POST", "/session", { capabilities: { alwaysMatch: driver.capabilities } });
      let session;
      try {
        session = await ask(d);
      } catch (e) {
        // A driver that never answers a new session (WebKitWebDriver once, in a clean-clone
        // run, its browser never up): no check has run in it, so it is stopped and the session
        // asked of a fresh driver, once. A driver that answers with an error is not retried.
        if (!/no answer in/.test(e.message)) throw e;
        console.error(`webdriver.mjs: ${e.message}; asking a fresh ${engine} driver, once`);
        all.splice(all.indexOf(d), 1);
        await d.stop();
        all.push((d = await startDriver(engine, driver)));
        session = await ask(d);
      }
      const s = `/session/${session.sessionId}`;
      const page = new Page(engine, (method, path, body) => command(d.base, method, s + path, body));
      await page.command("POST", "/timeouts", { script: 60000, pageLoad: 60000 });
      const context = {
        newPage: async () => page,
        addInitScript: (fn, arg) => page.addInitScript(fn, arg),
        close: async () => {
          if (!open.delete(context)) return;
          await command(d.base, "DELETE", s).catch(() => {});
          idle.push(d);
        },
      };
      open.add(context);
      return context;
    },
    /** A context's page, its window sized to `viewport` (the window's outer size here). */
    async newPage({ viewport } = {}) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (viewport) await page.command("POST", "/window/rect", { width: viewport.width, height: viewport.height });
      return page;
    },
    async close() {
      await Promise.all([...open].map((c) => c.close()));
      await Promise.all(all.map((d) => d.stop()));
    },
  };
  return browser;
}

/** In-page code shared by the locators: finds the elements of a chain of steps. */
const FIND =
  "const find = (steps) => { let els = [document]; " +
  "for (const { selector, hasText, nth } of steps) { " +
  "els = els.flatMap((r) => [...r.querySelectorAll(selector)]); " +
  "if (hasText !== undefined) els = els.filter((e) => e.textContent.includes(hasText)); " +
  "if (nth !== undefined) { const e = nth < 0 ? els[els.length + nth] : els[nth]; els = e ? [e] : []; } } " +
  "return els; };";

class Page {
  constructor(engine, command) {
    this.engine = engine;
    this.raw = command;
    this.address = "about:blank";
    this.handlers = { pageerror: [], console: [], dialog: [] };
    this.initScripts = [];
  }

  /** A WebDriver command of this session; a user prompt that blocks it goes to the "dialog"
   *  handlers (or is dismissed when there is none, as playwright-core does), then it runs again. */
  async command(method, path, body) {
    for (let i = 0; ; i++) {
      try {
        return await this.raw(method, path, body);
      } catch (e) {
        if (i > 10 || !/unexpected alert open/.test(e.message)) throw e;
        await this.handlePrompt();
      }
    }
  }

  async handlePrompt() {
    const message = await this.raw("GET", "/alert/text").catch(() => null);
    if (message === null) return;
    // A handler may not await its answer (playwright-core's need not): the command runs again
    // only once the prompt is answered.
    let answered = null;
    const answer = (how) => (answered ??= this.raw("POST", `/alert/${how}`, {}).catch(() => {}));
    const dialog = { message: () => message, accept: () => answer("accept"), dismiss: () => answer("dismiss") };
    const handlers = this.handlers.dialog.splice(0);
    this.handlers.dialog.push(...handlers.filter((h) => !h.once));
    for (const h of handlers) await h.fn(dialog);
    await (answered ?? dialog.dismiss());
  }

  on(event, handler, once = false) {
    if (!(event in this.handlers)) throw new Error(`webdriver.mjs: no event ${event}`);
    this.handlers[event].push(event === "dialog" ? { fn: handler, once } : handler);
  }

  once(event, handler) {
    if (event !== "dialog") throw new Error(`webdriver.mjs: once() only for "dialog"`);
    this.on(event, handler, true);
  }

  url() {
    return this.address;
  }

  async refresh() {
    try {
      this.address = await this.command("GET", "/url");
    } catch {
      // Between two documents: the last address stands.
    }
    // The errors the page caught since the last command (see goto).
    const errors = await this.command("POST", "/execute/sync", {
      script: "const e = window.__webdriverErrors || []; window.__webdriverErrors = []; return e;",
      args: [],
    }).catch(() => []);
    // A document that unloads while the script runs gives no array (Firefox answers null, seen
    // once in a clean-clone run: "errors is not iterable" after a form's submit loaded a page);
    // a new document has no collector until the next goto (above), so nothing is lost here.
    if (!Array.isArray(errors)) return;
    for (const { kind, message } of errors) {
      if (kind === "console") {
        for (const h of this.handlers.console) h({ type: () => "error", text: () => message });
      } else {
        for (const h of this.handlers.pageerror) h({ message });
      }
    }
  }

  /** Runs `fn(arg)` once goto has loaded a page (see the differences above). */
  async addInitScript(fn, arg) {
    this.initScripts.push([fn, arg]);
  }

  async goto(url) {
    await this.command("POST", "/url", { url });
    // The collector, in the page and in each same-origin frame it has now.
    await this.command("POST", "/execute/sync", {
      script:
        "const top = window; top.__webdriverErrors = []; const all = { push: (e) => top.__webdriverErrors.push(e) }; " +
        "const watch = (w) => { try { " +
        "w.addEventListener('error', (e) => all.push({ kind: 'pageerror', message: String(e.message) })); " +
        "w.addEventListener('unhandledrejection', (e) => all.push({ kind: 'pageerror', message: String(e.reason && e.reason.message || e.reason) })); " +
        "const error = w.console.error; w.console.error = function (...a) { all.push({ kind: 'console', message: a.map(String).join(' ') }); return error.apply(this, a); }; " +
        "} catch (e) { /* a cross-origin frame */ } }; " +
        "watch(window); for (let i = 0; i < frames.length; i++) watch(frames[i]);",
      args: [],
    });
    for (const [fn, arg] of this.initScripts) await this.evaluate(fn, arg);
    await this.refresh();
  }

  /** `fn(arg)` in the page, awaited; a throw rejects with its message. */
  async evaluate(fn, arg) {
    // A value answers at once, before a navigation the function started can unload the page
    // (WebKitWebDriver then never hears the answer); a promise is awaited.
    const script =
      `const done = arguments[arguments.length - 1]; const f = (${fn.toString()}); ` +
      "const ok = (v) => done({ ok: v === undefined ? null : v }); " +
      // JavaScriptCore's stack has no message line: both.
      "const err = (e) => done({ err: e && e.stack ? `${e}\n${e.stack}` : String(e) }); " +
      "let v; try { v = f(arguments[0]); } catch (e) { err(e); return; } " +
      "if (v && typeof v.then === 'function') v.then(ok, err); else ok(v);";
    const r = await this.command("POST", "/execute/async", { script, args: [arg === undefined ? null : arg] });
    await this.refresh();
    if (r && "err" in r) throw new Error(r.err);
    return r?.ok ?? undefined;
  }

  async waitFor(what, test, timeout = 30000) {
    const until = Date.now() + timeout;
    for (;;) {
      const v = await test().catch(() => undefined);
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
      await sleep(100);
    }
  }

  /** Polls `fn(arg)` in the page until it is truthy. */
  waitForFunction(fn, arg, { timeout } = {}) {
    return this.waitFor(`function ${fn.toString().slice(0, 80)}`, () => this.evaluate(fn, arg), timeout);
  }

  waitForSelector(selector, { timeout } = {}) {
    return this.waitFor(selector, () => this.evaluate((s) => !!document.querySelector(s), selector), timeout);
  }

  async waitForURL(re, { timeout } = {}) {
    await this.waitFor(String(re), async () => {
      await this.refresh();
      return re.test(this.address);
    }, timeout);
  }

  /** Types `value` into the field as a person would, after clearing it. */
  fill(selector, value) {
    return this.locator(selector).fill(value);
  }

  click(selector) {
    return this.locator(selector).click();
  }

  /** Chooses the option whose value (or else label) is `value`, as a person would: WebDriver's
   *  click on an <option> selects it, with the input and change events. */
  async selectOption(selector, value) {
    const select = this.locator(selector);
    const options = select.locator("option");
    const n = await select.evaluate((s, v) => [...s.options].findIndex((o) => o.value === v), value)
      .then((i) => (i >= 0 ? i : select.evaluate((s, v) => [...s.options].findIndex((o) => o.label === v), value)));
    if (n < 0) throw new Error(`${selector} has no option ${JSON.stringify(value)}`);
    await options.nth(n).click();
  }

  /** A PNG of the page to `path` (see the differences above for fullPage). */
  async screenshot({ path, fullPage = false } = {}) {
    let data;
    if (fullPage && this.engine === "firefox") data = await this.command("GET", "/moz/screenshot/full");
    else {
      if (fullPage) console.error(`webdriver.mjs: ${this.engine} has no full-page screenshot; ${path} is the window`);
      data = await this.command("GET", "/screenshot");
    }
    const buffer = Buffer.from(data, "base64");
    if (path) (await import("node:fs")).writeFileSync(path, buffer);
    return buffer;
  }

  locator(selector, { hasText } = {}) {
    return new Locator(this, [], [{ selector, hasText }]);
  }

  frameLocator(selector) {
    return new FrameLocator(this, [selector]);
  }
}

class FrameLocator {
  constructor(page, frames) {
    this.page = page;
    this.frames = frames;
  }

  locator(selector, { hasText } = {}) {
    return new Locator(this.page, this.frames, [{ selector, hasText }]);
  }

  frameLocator(selector) {
    return new FrameLocator(this.page, [...this.frames, selector]);
  }
}

/** Elements found by a chain of CSS selectors (each within the last's matches), optionally in
 *  frames; found again by every call, as playwright-core's locators are. */
class Locator {
  constructor(page, frames, steps) {
    this.page = page;
    this.frames = frames;
    this.steps = steps;
  }

  get description() {
    return [...this.frames, ...this.steps.map((s) => s.selector + (s.hasText ? ` (text ${JSON.stringify(s.hasText)})` : "") + (s.nth !== undefined ? ` #${s.nth}` : ""))].join(" >> ");
  }

  locator(selector, { hasText } = {}) {
    return new Locator(this.page, this.frames, [...this.steps, { selector, hasText }]);
  }

  nth(n) {
    const last = this.steps[this.steps.length - 1];
    // A second nth() picks among the first one's single match, as playwright-core's does.
    const nth = last.nth === undefined ? n : n === 0 ? last.nth : 1e9;
    return new Locator(this.page, this.frames, [...this.steps.slice(0, -1), { ...last, nth }]);
  }

  first() {
    return this.nth(0);
  }

  /** Runs `body` with the session's context in this locator's frame, and back at the top. */
  async inFrame(body) {
    const page = this.page;
    if (this.frames.length === 0) return body();
    try {
      for (const f of this.frames) {
        const el = await page.command("POST", "/execute/sync", { script: "return document.querySelector(arguments[0]);", args: [f] });
        if (!el) throw new Error(`no frame ${f}`);
        await page.command("POST", "/frame", { id: el });
      }
      return await body();
    } finally {
      await page.command("POST", "/frame", { id: null }).catch(() => {});
    }
  }

  /** `fn(elements, arg)` in the frame; plain values only. */
  run(fnSource, arg) {
    return this.inFrame(() =>
      this.page.command("POST", "/execute/sync", {
        script: `${FIND} const els = find(arguments[0]); return (${fnSource})(els, arguments[1]);`,
        args: [this.steps, arg === undefined ? null : arg],
      }),
    );
  }

  count() {
    return this.run("(els) => els.length");
  }

  /** Waits for the first match to be there and shown (playwright-core's default state). */
  async waitFor({ timeout = 30000 } = {}) {
    await this.page.waitFor(this.description, () => this.run("(els) => els.length > 0 && els[0].getClientRects().length > 0"), timeout);
  }

  async attached(timeout = 30000) {
    await this.page.waitFor(this.description, () => this.run("(els) => els.length > 0"), timeout);
  }

  async textContent({ timeout } = {}) {
    await this.attached(timeout);
    return this.run("(els) => els[0].textContent");
  }

  allTextContents() {
    return this.run("(els) => els.map((e) => e.textContent)");
  }

  async getAttribute(name, { timeout } = {}) {
    await this.attached(timeout);
    return this.run("(els, n) => els[0].getAttribute(n)", name);
  }

  /** Locators of each element matched now. */
  async all() {
    const n = await this.count();
    return Array.from({ length: n }, (_, i) => this.nth(i));
  }

  /** `fn(element, arg)` in the element's frame (the function's source: no closures). */
  async evaluate(fn, arg) {
    await this.attached();
    const r = await this.run(`(els, a) => { try { return { ok: (${fn.toString()})(els[0], a) ?? null }; } catch (e) { return { err: e && e.stack ? \`\${e}\n\${e.stack}\` : String(e) }; } }`, arg);
    if (r && "err" in r) throw new Error(r.err);
    return r?.ok ?? undefined;
  }

  async evaluateAll(fn, arg) {
    const r = await this.run(`(els, a) => { try { return { ok: (${fn.toString()})(els, a) ?? null }; } catch (e) { return { err: e && e.stack ? \`\${e}\n\${e.stack}\` : String(e) }; } }`, arg);
    if (r && "err" in r) throw new Error(r.err);
    return r?.ok ?? undefined;
  }

  /** Runs `action(elementId)` on the first match (waited for: shown, or an <option>, which has
   *  no box of its own in a closed <select>), in its frame. */
  async act(action) {
    await this.page.waitFor(this.description, () => this.run("(els) => els.length > 0 && (els[0].localName === 'option' || els[0].getClientRects().length > 0)"));
    await this.inFrame(async () => {
      const el = await this.page.command("POST", "/execute/sync", { script: `${FIND} return find(arguments[0])[0] || null;`, args: [this.steps] });
      if (!el) throw new Error(`${this.description} is gone`);
      await action(Object.values(el)[0]);
    });
    await this.page.refresh();
  }

  click() {
    return this.act((id) => this.page.command("POST", `/element/${id}/click`, {}));
  }

  /** Ticks a checkbox (a click, unless it is ticked already). */
  check() {
    return this.act(async (id) => {
      if (!(await this.page.command("GET", `/element/${id}/selected`))) await this.page.command("POST", `/element/${id}/click`, {});
    });
  }

  /** Types `value` as a person would, after clearing the field. */
  fill(value) {
    return this.act(async (id) => {
      await this.page.command("POST", `/element/${id}/clear`, {});
      await this.page.command("POST", `/element/${id}/value`, { text: String(value) });
    });
  }

  /** Types `text` key by key at the field's end, as a person would. */
  pressSequentially(text) {
    return this.act((id) => this.page.command("POST", `/element/${id}/value`, { text: String(text) }));
  }

  focus() {
    return this.evaluate((el) => el.focus());
  }
}
