// The route checks that need only the platform's side, against client-tools/testing's agent in
// the page (the app opened with ?agent=test registers with window.__agent's options): each
// call's outcome says which tools the model was offered when its result arrived, and the agent
// checks the protocol's rules itself (tools declared before a navigating call's result among
// them). What needs the server's log (PUTs per route change) stays in routes.mjs.
import { chromium } from "playwright-core";
import { CHROMIUM } from "../consumers/helpers.mjs";

export async function checkAgentRoutes(checks, { label, name, siteUrl }) {
  const browser = await chromium.launch({ ...CHROMIUM, headless: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${siteUrl}/a?agent=test`);
    const tool = (t) => `client__${name}__${t}`;
    const tools = () => page.evaluate(() => window.__agent.tools());
    /** The agent calls `t`: its outcome, or `{ violation }` naming the rule broken. */
    const call = (t, args) =>
      page.evaluate(([t, args]) => window.__agent.call(t, args).catch((e) => ({ violation: e.message })), [t, args]);
    const rulesKept = () => page.evaluate(() => window.__agent.violations());

    const registered = await checks.check(`${label} (in-page agent): registers with the agent's options; the layout's and route A's tools are offered`, async () => {
      await page.locator("#status[data-state=registered], #status[data-state=failed]").waitFor({ timeout: 20000 });
      const text = await page.locator("#status").textContent();
      if (text !== "registered") throw new Error(text);
      const expected = JSON.stringify(["a_list", "go", "navigate", "signup"].map(tool).sort());
      for (let i = 0; i < 100 && JSON.stringify((await tools()).sort()) !== expected; i++) await new Promise((r) => setTimeout(r, 50));
      const now = (await tools()).sort();
      if (JSON.stringify(now) !== expected) throw new Error(now.join(", "));
    });
    if (!registered) return;

    async function route(what, via, path, present, absent) {
      await checks.check(`${label} (in-page agent): ${what}: the new route's tools were offered when the result arrived, no rule broken`, async () => {
        const out = await call(via, via === "navigate" ? { url: path } : { path });
        if (out.violation) throw new Error(out.violation);
        if (out.isError) throw new Error(out.text);
        if (!out.tools.includes(tool(present))) throw new Error(`${present} not offered at the result: ${out.tools.join(", ")}`);
        const stale = absent.filter((t) => out.tools.includes(tool(t)));
        if (stale.length) throw new Error(`still offered at the result: ${stale.join(", ")}`);
        const broken = await rulesKept();
        if (broken.length) throw new Error(broken.map((v) => `${v.rule}: ${v.message}`).join("; "));
        return out.text;
      });
    }
    await route("navigateTool to /b", "navigate", "/b", "b_open", ["a_list"]);
    await route("a handler awaiting toolNavigate to /a", "go", "/a", "a_list", ["b_open"]);
    await route("a lazy route whose chunk comes 300 ms late", "go", "/lazy", "lazy_tool", ["a_list"]);
    await route("a route whose loader waits 200 ms", "navigate", "/loaded", "loaded_tool", ["lazy_tool"]);

    await checks.check(`${label} (in-page agent): a zod schema: its refinement is answered is_error naming the path; the handler gets its output`, async () => {
      const bad = await call("signup", { email: "a@b.co", code: "nope" });
      if (bad.isError !== true || !bad.text.includes("code: must start with X")) throw new Error(JSON.stringify(bad));
      const ok = await call("signup", { email: "a@b.co", code: "X1" });
      if (ok.isError || ok.text !== "signed up a@b.co X1 3") throw new Error(JSON.stringify(ok));
      return `${bad.text} | ${ok.text}`;
    });
    await checks.check(`${label} (in-page agent): no page error`, async () => {
      if (errors.length) throw new Error(errors.join("; "));
    });
  } finally {
    await browser.close();
  }
}
