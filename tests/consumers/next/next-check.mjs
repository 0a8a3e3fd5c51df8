// Next.js (latest), shared by check.mjs (`next build` + `next start`) and check-dev.mjs
// (`next dev`, React StrictMode mounting twice): the README's React recipe registers one client,
// swaps the tools on a route change, and calls are answered.
import { agent, bin, callAndWait, clientNames, freePort, launch, main, options, run, startDevserver, startServer, toolNames, waitFor } from "../harness.mjs";

/** Starts `next <command>` on a free port; resolves once it answers `/`. */
async function startNext(work, command) {
  const port = await freePort();
  return startServer(bin("next"), [command, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: work,
    url: `http://127.0.0.1:${port}`,
    env: { NEXT_TELEMETRY_DISABLED: "1" },
  });
}

export async function nextCheck(mode) {
  const { work, devserver } = options();
  const session = `next-${mode}`;
  const token = `${session}-token`;
  await main(async (checks) => {
    if (mode === "start") {
      const built = await checks.check("next: next build", () =>
        run(bin("next"), ["build"], { cwd: work, env: { NEXT_TELEMETRY_DISABLED: "1" } }).then(() => undefined),
      );
      if (!built) return;
    }
    const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", `${session}:${token}`]);
    let next;
    let browser;
    try {
      next = await startNext(work, mode);
      browser = await launch();
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(`${message.text()} (${message.location().url})`));
      await page.goto(`${next.url}/?${new URLSearchParams({ base: server.url, session, token })}`);
      const registered = await checks.check(`next ${mode}: the app registers`, async () => {
        await page.locator("#status[data-state=registered]").waitFor({ timeout: mode === "dev" ? 90000 : 20000 });
        return await page.locator("#status").textContent();
      });
      if (!registered) return;
      if (mode === "dev") {
        await checks.check("next dev: StrictMode mounted the app twice", async () => {
          const mounts = await page.evaluate(() => window.__mounts);
          if (mounts !== 2) throw new Error(`${mounts} mounts`);
        });
      }
      await checks.check(`next ${mode}: the model sees one client`, async () => {
        // The first mount's registration is undone once its answer comes; give it that time.
        const one = await waitFor(async () => (await clientNames(server.url, session, token)).length === 1, 5000);
        await new Promise((done) => setTimeout(done, 1500));
        const names = await toolNames(server.url, session, token);
        if (!one || new Set(names.map((n) => n.split("__")[1])).size !== 1) throw new Error(names.join(", "));
        return names.join(", ");
      });
      const { id: runId } = await agent(server.url, session, token, "POST", "/runs", {});
      const name = (await clientNames(server.url, session, token))[0];
      await checks.check(`next ${mode}: a call is answered`, async () => {
        const r = await callAndWait(server.url, session, token, runId, `client__${name}__add`, { a: 2, b: 40 });
        if (r.state !== "succeeded" || r.is_error || r.text !== "42") throw new Error(JSON.stringify(r));
        return `add(2, 40) → ${r.text}`;
      });
      await checks.check(`next ${mode}: a route change swaps the tools`, async () => {
        await page.click("#to-other");
        await page.locator("#other").waitFor({ timeout: 60000 });
        const swapped = await waitFor(async () => {
          const names = await toolNames(server.url, session, token);
          return JSON.stringify(names) === JSON.stringify([`client__${name}__echo`]) && names;
        }, 10000);
        if (!swapped) throw new Error((await toolNames(server.url, session, token)).join(", "));
        const r = await callAndWait(server.url, session, token, runId, `client__${name}__echo`, { text: "hi" });
        if (r.is_error || r.text !== "echo: hi") throw new Error(JSON.stringify(r));
        return swapped.join(", ");
      });
      await checks.check(`next ${mode}: no errors in the page's console`, async () => {
        if (errors.length) throw new Error(errors.join(" | "));
      });
    } finally {
      await browser?.close().catch(() => {});
      next?.stop();
      await server.stop();
    }
  });
}
