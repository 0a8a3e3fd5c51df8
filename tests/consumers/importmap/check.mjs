// No bundler: a page maps the bare specifier "client-tools" to the package's files with an
// import map, and the server serves node_modules/client-tools/ as they are.
import { join } from "node:path";
import { CONSUMERS, checkApp, launch, main, options, serveStatic, startDevserver, waitFor } from "../harness.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "importmap:importmap-token"]);
  const site = await serveStatic({ "/": work, "/node_modules/client-tools/": join(CONSUMERS, "node_modules", "client-tools") });
  try {
    await checkApp(checks, { name: "importmap", devserverUrl: server.url, siteUrl: site.url, session: "importmap", token: "importmap-token" });
    await checkEarly(checks, site.url);
  } finally {
    site.close();
    await server.stop();
  }
});

/** In a page, importing the package starts the wasm's fetch (and compile) before anything is
 * called, and init() then loads from it without fetching again; an init given its own URL in
 * the import's task fetches that one only (issue 45: start-up). */
async function checkEarly(checks, siteUrl) {
  const browser = await launch();
  try {
    const wasmRequests = async (page) =>
      page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith(".wasm")).map((u) => u.pathname + u.search));
    const page = await browser.newPage();
    await page.goto(`${siteUrl}/early.html`);
    await checks.check("importmap: the wasm's fetch starts at import, before any call", async () => {
      const seen = await waitFor(async () => (await wasmRequests(page)).length > 0 && wasmRequests(page), 5000);
      if (JSON.stringify(seen) !== JSON.stringify(["/node_modules/client-tools/client_tools_bg.wasm"])) throw new Error(JSON.stringify(seen));
    });
    await checks.check("importmap: init() then loads what was fetched, with no second fetch", async () => {
      const outcome = await page.evaluate(() => window.initNow());
      const seen = await wasmRequests(page);
      if (outcome !== "loaded" || seen.length !== 1) throw new Error(`${outcome}; ${JSON.stringify(seen)}`);
    });
    const own = await browser.newPage();
    await own.goto(`${siteUrl}/early.html?own`);
    await checks.check("importmap: an init given its own URL at import fetches that one only", async () => {
      const outcome = await own.evaluate(() => window.initNow());
      const seen = await wasmRequests(own);
      if (outcome !== "loaded" || JSON.stringify(seen) !== JSON.stringify(["/node_modules/client-tools/client_tools_bg.wasm?given"])) {
        throw new Error(`${outcome}; ${JSON.stringify(seen)}`);
      }
    });
  } finally {
    await browser.close().catch(() => {});
  }
}
