// The route checks every binding's app passes (react/, vue/): the same routes, tools and
// buttons, registered as client `name`. The model's side is the devserver's agent routes; the
// tool-list changes are counted in its event log (`client_tools_replaced`: one per PUT taken).
import { chromium } from "playwright-core";
import { CHROMIUM, agent, toolNames, waitFor } from "../consumers/helpers.mjs";

/** The session's events after id `after`. */
async function events(base, session, token, after = 0) {
  const answer = await agent(base, session, token, "GET", `/events?after=${after}&limit=1000`);
  return answer.events;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Opens `siteUrl` (`path`) in headless Chromium and runs the route checks; returns the number of
 * PUTs each route change took (for the report). `mounts`: how many times the app's mount effect
 * must have run (`window.__mounts`: 2 under StrictMode in development), if the app counts them.
 */
export async function checkRoutes(checks, { label, name, siteUrl, devserverUrl: base, session, token, mounts }) {
  const browser = await chromium.launch({ ...CHROMIUM, headless: true });
  const puts = [];
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    const q = new URLSearchParams({ base, session, token });
    await page.goto(`${siteUrl}/a?${q}`);
    const tool = (t) => `client__${name}__${t}`;
    const count = async (type, after = 0) => (await events(base, session, token, after)).filter((e) => e.type === type).length;

    const registered = await checks.check(`${label}: one client registers (one POST, StrictMode on)`, async () => {
      await page.locator("#status[data-state=registered], #status[data-state=failed]").waitFor({ timeout: 20000 });
      const text = await page.locator("#status").textContent();
      if (text !== "registered") throw new Error(text);
      await sleep(500);
      const n = await count("client_registered");
      if (n !== 1) throw new Error(`${n} registrations`);
    });
    if (!registered) return puts;
    if (mounts !== undefined) {
      await checks.check(`${label}: the app's mount effect ran ${mounts === 2 ? "twice (StrictMode)" : "once"}`, async () => {
        const ran = await page.evaluate(() => window.__mounts);
        if (ran !== mounts) throw new Error(`${ran} times`);
      });
    }
    await checks.check(`${label}: the layout's and route A's tools are offered after one PUT`, async () => {
      const expected = ["a_list", "go", "navigate", "signup"].map(tool).sort();
      const ok = await waitFor(async () => JSON.stringify(await toolNames(base, session, token)) === JSON.stringify(expected), 5000);
      if (!ok) throw new Error((await toolNames(base, session, token)).join(", "));
      await sleep(300);
      const n = await count("client_tools_replaced");
      if (n !== 1) throw new Error(`${n} PUTs`);
    });
    const { id: run } = await agent(base, session, token, "POST", "/runs", {});

    /** Calls `t` with `args`; returns its outcome and the events from the call to its settlement. */
    async function call(t, args) {
      const before = (await events(base, session, token)).at(-1)?.id ?? 0;
      const { call_id } = await agent(base, session, token, "POST", `/runs/${run}/calls`, { tool: tool(t), arguments: args });
      let result;
      for (let i = 0; i < 6; i++) {
        result = await agent(base, session, token, "GET", `/runs/${run}/calls/${call_id}?wait=5`);
        if (result.state === "succeeded" || result.state === "failed") break;
      }
      const tools = await toolNames(base, session, token);
      return { result, tools, call_id, before };
    }

    /** The navigation checks: `via` (navigate or go) to `path`, whose tool is `present`. */
    async function route(what, via, path, present, absent) {
      await checks.check(`${label}: ${what}: as soon as the call settles the new route's tools are offered, the old ones not, after their PUT`, async () => {
        const args = via === "navigate" ? { url: path } : { path };
        const { result, tools, call_id, before } = await call(via, args);
        if (result.state !== "succeeded" || result.is_error) throw new Error(JSON.stringify(result));
        if (!tools.includes(tool(present))) throw new Error(`${present} not offered: ${tools.join(", ")}`);
        const stale = absent.filter((t) => tools.includes(tool(t)));
        if (stale.length) throw new Error(`still offered: ${stale.join(", ")}`);
        await sleep(300);
        const log = await events(base, session, token, before);
        const settled = log.find((e) => e.type === "client_tool_succeeded" && e.data.call_id === call_id);
        const replaced = log.filter((e) => e.type === "client_tools_replaced");
        if (!settled) throw new Error("no client_tool_succeeded in the event log");
        if (!replaced.length || replaced[0].id > settled.id) throw new Error(`client_tools_replaced (${replaced.map((e) => e.id)}) not before the settlement (${settled.id})`);
        puts.push([what, replaced.length]);
        // One PUT per route change: a re-render or StrictMode's second mount sends no other.
        if (replaced.length !== 1) throw new Error(`${replaced.length} PUTs for one route change`);
        return `${replaced.length} PUT(s); ${result.text}`;
      });
    }
    await route("navigateTool to /b", "navigate", "/b", "b_open", ["a_list"]);
    await route("a handler awaiting toolNavigate to /a", "go", "/a", "a_list", ["b_open"]);
    await route("a lazy route whose chunk comes 300 ms late", "go", "/lazy", "lazy_tool", ["a_list"]);
    await route("a route whose loader waits 200 ms", "navigate", "/loaded", "loaded_tool", ["lazy_tool"]);
    await checks.check(`${label}: the loader's data reaches the handler`, async () => {
      const { result } = await call("loaded_tool", {});
      if (result.text !== "loaded after 200 ms") throw new Error(JSON.stringify(result));
    });

    await checks.check(`${label}: a zod schema: its refinement is answered is_error naming the path, and the handler does not run`, async () => {
      const { result } = await call("signup", { email: "a@b.co", code: "nope" });
      if (result.is_error !== true || !result.text.includes("code: must start with X")) throw new Error(JSON.stringify(result));
      const bad = await call("signup", { email: "not-an-email", code: "X1" });
      if (bad.result.is_error !== true || !bad.result.text.includes("email")) throw new Error(JSON.stringify(bad.result));
      const runs = await page.evaluate(() => window.__seen.signups ?? 0);
      if (runs !== 0) throw new Error(`the handler ran ${runs} times`);
      return `${result.text} | ${bad.result.text}`;
    });
    await checks.check(`${label}: a zod schema: the handler gets its output (a default filled in)`, async () => {
      const { result } = await call("signup", { email: "a@b.co", code: "X1" });
      if (result.is_error || result.text !== "signed up a@b.co X1 3") throw new Error(JSON.stringify(result));
      const tools = await agent(base, session, token, "GET", "/tools");
      const listed = (Array.isArray(tools) ? tools : tools.tools).find((t) => t.name === tool("signup"));
      const schema = listed.parameters ?? listed.input_schema ?? listed.schema;
      if (!schema?.properties?.email || !schema.required?.includes("email")) throw new Error(`the model sees ${JSON.stringify(listed)}`);
    });

    await route("to the counter", "go", "/counter", "count", ["loaded_tool"]);
    await checks.check(`${label}: a handler answers with the state of three clicks, and no new PUT`, async () => {
      const before = await count("client_tools_replaced");
      for (let i = 0; i < 3; i++) await page.click("#click");
      await page.locator("#click", { hasText: "clicked 3" }).waitFor({ timeout: 5000 });
      const { result } = await call("count", {});
      if (result.text !== "count 3") throw new Error(JSON.stringify(result));
      await sleep(300);
      const after = await count("client_tools_replaced");
      if (after !== before) throw new Error(`${after - before} PUTs for three clicks`);
    });

    await route("to two components declaring search", "go", "/search", "search", ["count"]);
    await checks.check(`${label}: two components declare search: the newest answers, the older once the newest unmounts`, async () => {
      const first = await call("search", {});
      if (first.result.text !== "newer") throw new Error(`first: ${JSON.stringify(first.result)}`);
      await page.click("#drop-newer");
      await page.locator("#newer").waitFor({ state: "detached", timeout: 5000 });
      await sleep(300);
      const second = await call("search", {});
      if (second.result.text !== "older") throw new Error(`then: ${JSON.stringify(second.result)}`);
      const reports = await page.evaluate(() => window.__seen.statuses.filter((s) => s.type === "error" && s.message.includes("search")).length);
      if (reports !== 1) throw new Error(`the shadowing was reported ${reports} times`);
    });

    // Issue 39: the innermost declaration answers, however the components mounted (React ran
    // the inner component's effect first, so the outer one answered while both mounted with
    // the page, and the inner one when it mounted later).
    await route("to a component and one inside it declaring lookup", "go", "/nested", "lookup", ["search"]);
    await checks.check(`${label}: a name declared by a component and one inside it: the inner answers, mounted with the page or later`, async () => {
      const texts = [];
      for (const [what, expected, toggle] of [["mounted with the page", "inner", false], ["inner unmounted", "outer", true], ["inner mounted later", "inner", true]]) {
        if (toggle) {
          const before = await count("client_tools_replaced");
          await page.click("#toggle-inner");
          await page.locator("#inner").waitFor({ state: expected === "inner" ? "attached" : "detached", timeout: 5000 });
          await waitFor(async () => (await count("client_tools_replaced")) > before, 5000);
          await sleep(300);
        }
        const { result } = await call("lookup", {});
        texts.push(`${what}: ${result.text}`);
        if (result.text !== expected) throw new Error(texts.join("; "));
      }
      return texts.join("; ");
    });

    // Issue 39: a screen cached by <KeepAlive> (Vue) or hidden by <Activity> (React) offers no
    // tool; shown again, it offers its own, in one PUT each way.
    await route("to two tabs, one kept hidden", "go", "/kept", "tab_one", ["lookup", "tab_two"]);
    await checks.check(`${label}: a cached or hidden screen releases its tools and offers them again when shown, one PUT each, its state kept`, async () => {
      const seenPuts = [];
      const answers = [];
      for (const [to, present, absent] of [["two", "tab_two", "tab_one"], ["one", "tab_one", "tab_two"], ["two", "tab_two", "tab_one"]]) {
        const before = await count("client_tools_replaced");
        await page.click("#switch-tab");
        await page.locator("#route", { hasText: `kept ${to}` }).waitFor({ timeout: 5000 });
        const ok = await waitFor(async () => {
          const names = await toolNames(base, session, token);
          return names.includes(tool(present)) && !names.includes(tool(absent));
        }, 5000);
        if (!ok) throw new Error(`tab ${to}: offered ${(await toolNames(base, session, token)).join(", ")}`);
        await sleep(300);
        const n = (await count("client_tools_replaced")) - before;
        seenPuts.push(n);
        if (n !== 1) throw new Error(`tab ${to}: ${n} PUTs`);
        if (to === "two") answers.push((await call("tab_two", {})).result.text);
      }
      // The tab shown again is the one that was kept (its state, the mount it counted), not a
      // new one.
      if (answers[0] !== answers[1]) throw new Error(`tab two answered ${answers.join(", then ")}`);
      return `PUTs per switch: ${seenPuts.join(", ")}; ${answers.join(", ")}`;
    });

    await route("to a list that grows and shrinks", "go", "/grow", "item_0", ["tab_two"]);
    await checks.check(`${label}: a list that grows and shrinks takes one PUT per change`, async () => {
      const steps = [["#grow", 2], ["#grow", 3], ["#shrink", 2], ["#shrink", 1]];
      const counts = [];
      for (const [button, n] of steps) {
        const before = await count("client_tools_replaced");
        await page.click(button);
        await page.locator("#route", { hasText: `grow ${n}` }).waitFor({ timeout: 5000 });
        const offered = await waitFor(async () => (await toolNames(base, session, token)).filter((t) => t.includes("__item_")).length === n, 5000);
        if (!offered) throw new Error(`after ${button}: ${(await toolNames(base, session, token)).join(", ")}`);
        await sleep(300);
        counts.push((await count("client_tools_replaced")) - before);
      }
      if (counts.some((c) => c !== 1)) throw new Error(`PUTs per change: ${counts.join(", ")}`);
      return `PUTs per change: ${counts.join(", ")}`;
    });

    await route("to a form held by a ref", "go", "/form", "fill_mine", ["item_0"]);
    await checks.check(`${label}: a page tool given a ref fills the form the ref holds, not another`, async () => {
      const { result } = await call("fill_mine", { fields: { email: "kim@example.org" } });
      if (result.is_error) throw new Error(JSON.stringify(result));
      const [mine, other] = await page.evaluate(() => [document.querySelector("#mine input").value, document.querySelector("#other input").value]);
      if (mine !== "kim@example.org" || other !== "") throw new Error(`mine ${JSON.stringify(mine)}, other ${JSON.stringify(other)}`);
    });

    await checks.check(`${label}: client.scope: changes in one task are one PUT; an update over 64 tools rejects invalid_option naming the scope's tools and the last good list stays; releases are one PUT`, async () => {
      const offered = async () => (await toolNames(base, session, token)).map((t) => t.split("__")[2]);
      let before = await count("client_tools_replaced");
      await page.evaluate(() => {
        const make = (n, prefix) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, handler: () => "x" }));
        window.__make = make;
        window.__lim = window.__client.scope(make(3, "lim_"));
        window.__one = window.__client.scope(make(1, "one_"));
        window.__one.update(make(1, "two_"));
      });
      await sleep(400);
      let now = await offered();
      if (!["lim_0", "lim_2", "two_0"].every((t) => now.includes(t)) || now.includes("one_0")) throw new Error(`offered: ${now}`);
      const first = (await count("client_tools_replaced")) - before;
      if (first !== 1) throw new Error(`${first} PUTs for two scopes and an update in one task`);
      before += first;
      const error = await page.evaluate(() => window.__lim.update(window.__make(70, "big_")).then(() => null, (e) => ({ code: e.code, message: e.message })));
      if (error?.code !== "invalid_option" || !error.message.includes("big_0, big_1") || !error.message.includes("64")) throw new Error(JSON.stringify(error));
      await sleep(300);
      now = await offered();
      if (!now.includes("lim_0") || now.some((t) => t.startsWith("big_"))) throw new Error(`offered after the refused update: ${now}`);
      if ((await count("client_tools_replaced")) !== before) throw new Error("a PUT for a refused update");
      await page.evaluate(() => {
        window.__lim.release();
        window.__one[Symbol.dispose]();
      });
      await sleep(400);
      now = await offered();
      if (now.some((t) => t.startsWith("lim_") || t.startsWith("two_"))) throw new Error(`offered after release: ${now}`);
      const last = (await count("client_tools_replaced")) - before;
      if (last !== 1) throw new Error(`${last} PUTs for two releases in one task`);
      return error.message;
    });

    await checks.check(`${label}: no settle warning, no errors in the console`, async () => {
      const warnings = await page.evaluate(() => window.__seen.warnings);
      if (warnings.length) throw new Error(warnings.join(" | "));
      if (errors.length) throw new Error(errors.join(" | "));
    });

    await checks.check(`${label}: unmounting the provider leaves (DELETE)`, async () => {
      await page.click("#unmount");
      const left = await waitFor(async () => (await count("client_left")) === 1, 5000);
      if (!left) throw new Error("no client_left");
      const names = await toolNames(base, session, token);
      if (names.length) throw new Error(`still offered: ${names.join(", ")}`);
    });

    // Issue 45: a provider that mounts once the module is loaded (a later route's, or this one
    // mounted again), in a transition: under StrictMode in development React re-runs its effects
    // in the passive-effects flush, a task after the mount, and still one client registers.
    await checks.check(`${label}: the provider mounted again after the module loaded, in a transition: one client registers (one POST) and offers the layout's tools`, async () => {
      await page.click("#remount");
      await page.locator("#status[data-state=registered], #status[data-state=failed]").waitFor({ timeout: 20000 });
      const text = await page.locator("#status").textContent();
      if (text !== "registered") throw new Error(text);
      await sleep(500);
      const n = (await count("client_registered")) - 1;
      if (n !== 1) throw new Error(`${n} registrations for one mount`);
      const expected = ["fill_mine", "go", "navigate", "signup"].map(tool).sort();
      const ok = await waitFor(async () => JSON.stringify(await toolNames(base, session, token)) === JSON.stringify(expected), 5000);
      if (!ok) throw new Error(`offered: ${(await toolNames(base, session, token)).join(", ")}`);
    });
  } finally {
    await browser.close().catch(() => {});
  }
  return puts;
}
