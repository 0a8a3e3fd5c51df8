// esbuild --bundle (iife, its default for browsers) with the README's recipe for the wasm; and
// without the recipe, iife and esm bundles fail with the message that points to it.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { bin, checkApp, launch, main, options, run, serveStatic, startDevserver } from "../harness.mjs";

const { work, devserver } = options();
const esbuild = (...args) => run(bin("esbuild"), ["--bundle", "--log-level=warning", ...args], { cwd: work });

/** The status a bundle without the recipe ends with. */
async function bareStatus(siteUrl, devserverUrl, page) {
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    await tab.goto(`${siteUrl}/${page}?${new URLSearchParams({ base: devserverUrl, session: "esbuild", token: "esbuild-token" })}`);
    await tab.locator("#status[data-state=registered], #status[data-state=error]").waitFor({ timeout: 20000 });
    return await tab.locator("#status").textContent();
  } finally {
    await browser.close().catch(() => {});
  }
}

await main(async (checks) => {
  const built = await checks.check("esbuild: esbuild --bundle --loader:.wasm=file (iife)", async () => {
    await esbuild("src/main.js", "--loader:.wasm=file", "--outfile=dist/main.js");
    await esbuild("src/bare.js", "--outfile=dist/bare-iife.js");
    await esbuild("src/bare.js", "--format=esm", "--outfile=dist/bare-esm.js");
    for (const page of ["index.html", "bare-iife.html", "bare-esm.html"]) await run("cp", [page, "dist/"], { cwd: work });
    return (await readdir(join(work, "dist"))).filter((f) => f.endsWith(".wasm")).join(", ");
  });
  if (!built) return;
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "esbuild:esbuild-token"]);
  const site = await serveStatic({ "/": join(work, "dist") });
  try {
    await checkApp(checks, { name: "esbuild", devserverUrl: server.url, siteUrl: site.url, session: "esbuild", token: "esbuild-token" });
    for (const [page, expected] of [
      ["bare-iife.html", "this bundle has no import.meta.url"],
      ["bare-esm.html", "answered 404"],
    ]) {
      await checks.check(`esbuild: without the recipe (${page}) the error points to it`, async () => {
        const text = await bareStatus(site.url, server.url, page);
        if (!text.includes(expected) || !text.includes("README: esbuild")) throw new Error(text);
        return text;
      });
    }
  } finally {
    site.close();
    await server.stop();
  }
});
