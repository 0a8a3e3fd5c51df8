// The part of playwright-core's Page that the browser suites use, over W3C WebDriver, for the
// engines playwright-core cannot drive on this machine: the system's Firefox (geckodriver) and
// WebKitGTK (WebKitWebDriver, under Xvfb: run the suite through `xvfb-run -a`).
//
//   const browser = await launch("firefox" | "webkit");
//   const context = await browser.newContext();   // a WebDriver session: a fresh profile
//   const page = await context.newPage();
//
// Differences from playwright-core, each visible to a check rather than hidden:
// - "pageerror" reports uncaught errors and unhandled rejections from the moment `goto` has
//   loaded the page (WebDriver classic has no hook before the page's own scripts);
// - `evaluate` runs its function's source in the page (no closures), its value JSON-like;
// - `url()` is the address after the last command (playwright's is kept up to date by events).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const DRIVERS = {
  firefox: {
    bin: () => process.env.GECKODRIVER ?? "geckodriver",
    args: (port) => ["--port", String(port)],
    capabilities: { browserName: "firefox", "moz:firefoxOptions": { args: ["-headless"] } },
  },
  webkit: {
    bin: () => process.env.WEBKIT_WEBDRIVER ?? "/usr/bin/WebKitWebDriver",
    args: (port) => [`--port=${port}`],
    capabilities: {},
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

/** One WebDriver command; rejects with the driver's error and message. */
async function command(base, method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ value: { error: `HTTP ${response.status}`, message: "" } }));
  if (!response.ok || answer?.value?.error) {
    const v = answer?.value ?? {};
    throw new Error(`WebDriver ${method} ${path}: HTTP ${response.status} ${v.error ?? ""}: ${v.message ?? ""}`);
  }
  return answer.value;
}

/** Starts the engine's driver; resolves once it answers /status. */
export async function launch(engine) {
  const driver = DRIVERS[engine];
  if (!driver) throw new Error(`webdriver.mjs: no engine ${engine} (firefox, webkit)`);
  const port = await freePort();
  const child = spawn(driver.bin(), driver.args(port), { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
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
    async newContext() {
      const session = await command(base, "POST", "/session", { capabilities: { alwaysMatch: driver.capabilities } });
      const s = `/session/${session.sessionId}`;
      const page = new Page((method, path, body) => command(base, method, s + path, body));
      await page.command("POST", "/timeouts", { script: 60000, pageLoad: 60000 });
      return {
        newPage: async () => page,
        close: () => command(base, "DELETE", s).catch(() => {}),
      };
    },
    close: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

class Page {
  constructor(command) {
    this.command = command;
    this.address = "about:blank";
    this.handlers = [];
  }

  on(event, handler) {
    if (event !== "pageerror") throw new Error(`webdriver.mjs: no event ${event}`);
    this.handlers.push(handler);
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
    for (const message of errors) for (const h of this.handlers) h({ message });
  }

  async goto(url) {
    await this.command("POST", "/url", { url });
    await this.command("POST", "/execute/sync", {
      script:
        "window.__webdriverErrors = []; " +
        "addEventListener('error', (e) => window.__webdriverErrors.push(String(e.message))); " +
        "addEventListener('unhandledrejection', (e) => window.__webdriverErrors.push(String(e.reason && e.reason.message || e.reason)));",
      args: [],
    });
    await this.refresh();
  }

  /** `fn(arg)` in the page, awaited; a throw rejects with its message. */
  async evaluate(fn, arg) {
    // A value answers at once, before a navigation the function started can unload the page
    // (WebKitWebDriver then never hears the answer); a promise is awaited.
    const script =
      `const done = arguments[arguments.length - 1]; const f = (${fn.toString()}); ` +
      "const ok = (v) => done({ ok: v === undefined ? null : v }); " +
      "const err = (e) => done({ err: String(e && e.stack || e) }); " +
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
  async fill(selector, value) {
    const el = await this.waitFor(selector, () => this.command("POST", "/element", { using: "css selector", value: selector }));
    const id = Object.values(el)[0];
    await this.command("POST", `/element/${id}/clear`, {});
    await this.command("POST", `/element/${id}/value`, { text: String(value) });
    await this.refresh();
  }

  locator(selector) {
    return {
      textContent: () =>
        this.waitFor(selector, () =>
          this.evaluate((s) => {
            const e = document.querySelector(s);
            return e ? { text: e.textContent } : null;
          }, selector),
        ).then((r) => r.text),
    };
  }
}
