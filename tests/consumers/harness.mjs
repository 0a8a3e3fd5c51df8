// What every consumer check shares: its command line, running build commands, a static server
// for what an app built, the devserver's agent routes, and the standard browser check (the app
// in shared/app.js registers, the model sees its tools, and each call is answered as it should).
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, agent, callAndWait, toolNames } from "./helpers.mjs";

export * from "./helpers.mjs";

/** tests/consumers/, where the one node_modules of every consumer is. */
export const CONSUMERS = new URL(".", import.meta.url).pathname;

/** The path of an installed tool's command (`vite`, `webpack`, …). */
export function bin(name) {
  return join(CONSUMERS, "node_modules", ".bin", name);
}

/** `--work DIR` (the fresh copy of the app) and `--devserver BIN`, which every check takes. */
export function options() {
  const { values } = parseArgs({ options: { work: { type: "string" }, devserver: { type: "string" } } });
  if (!values.work || !values.devserver) {
    console.error("check: --work DIR and --devserver BIN are required");
    process.exit(2);
  }
  return { work: resolve(values.work), devserver: resolve(values.devserver) };
}

export async function launch() {
  return chromium.launch({ ...CHROMIUM, headless: true });
}

/**
 * The standard check of an app built around shared/app.js and served at `siteUrl` (the page
 * `path`; `label` names its checks, `name` by default): it registers as client `name`, a typo'd
 * option was refused by name, and the model's calls are answered: a plain result, a page tool,
 * a throw and a malformed result object.
 */
export async function checkApp(checks, { name, label = name, devserverUrl, siteUrl, path = "/", session, token }) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(`${message.text()} (${message.location().url})`));
    const query = new URLSearchParams({ base: devserverUrl, session, token });
    await page.goto(`${siteUrl}${path}?${query}`);
    const registered = await checks.check(`${label}: the app registers with no init() call`, async () => {
      await page.locator("#status[data-state=registered], #status[data-state=error]").waitFor({ timeout: 20000 });
      const text = await page.locator("#status").textContent();
      if (!text.startsWith("registered")) throw new Error(text);
      return text;
    });
    await checks.check(`${label}: a typo'd option is refused by name`, async () => {
      const typo = await page.evaluate(() => window.__consumer?.typo);
      if (typo !== "refused") throw new Error(String(typo));
    });
    if (registered) {
      const call = (runId, tool, args) => callAndWait(devserverUrl, session, token, runId, `client__${name}__${tool}`, args);
      await checks.check(`${label}: the model sees the app's tools`, async () => {
        const names = await toolNames(devserverUrl, session, token);
        const expected = ["add", "describe_contact", "fail", "malformed"].map((t) => `client__${name}__${t}`);
        if (JSON.stringify(names) !== JSON.stringify(expected)) throw new Error(names.join(", "));
        return names.join(", ");
      });
      const { id: runId } = await agent(devserverUrl, session, token, "POST", "/runs", {});
      await checks.check(`${label}: a call is answered`, async () => {
        const r = await call(runId, "add", { a: 2, b: 40 });
        if (r.state !== "succeeded" || r.is_error || r.text !== "42") throw new Error(JSON.stringify(r));
        return `add(2, 40) → ${r.text}`;
      });
      await checks.check(`${label}: a page tool made before the module loaded works`, async () => {
        const r = await call(runId, "describe_contact", {});
        if (r.state !== "succeeded" || r.is_error || !r.text.includes("Your name")) throw new Error(JSON.stringify(r));
      });
      await checks.check(`${label}: a throw is answered as an error`, async () => {
        const r = await call(runId, "fail", {});
        if (r.is_error !== true || !r.text.includes("this tool always fails")) throw new Error(JSON.stringify(r));
      });
      await checks.check(`${label}: a malformed result object is answered as an error that says so`, async () => {
        const r = await call(runId, "malformed", {});
        if (r.is_error !== true || !r.text.includes("is_error")) throw new Error(JSON.stringify(r));
        return r.text;
      });
    }
    await checks.check(`${label}: no errors in the page's console`, async () => {
      if (errors.length) throw new Error(errors.join(" | "));
    });
  } finally {
    await browser.close().catch(() => {});
  }
}

