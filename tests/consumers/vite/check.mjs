// Vite: `vite build` with no config emits client_tools_bg.wasm as a hashed asset (through the
// package's `new URL(…, import.meta.url)`), and the built app answers calls; so does the app
// under the dev server (`vite`, whose dependency optimizer bundles the package).
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { bin, checkApp, freePort, main, options, run, serveStatic, startDevserver, startServer } from "../harness.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  if (!(await checks.check("vite: vite build", () => run(bin("vite"), ["build", "--logLevel", "warn"], { cwd: work }).then(() => undefined)))) return;
  await checks.check("vite: the wasm is emitted as an asset", async () => {
    const wasm = (await readdir(join(work, "dist", "assets"))).filter((f) => f.endsWith(".wasm"));
    if (wasm.length !== 1) throw new Error(`dist/assets has ${wasm.length} .wasm files`);
    return wasm[0];
  });
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "vite:vite-token"]);
  const site = await serveStatic({ "/": join(work, "dist") });
  try {
    await checkApp(checks, { name: "vite", devserverUrl: server.url, siteUrl: site.url, session: "vite", token: "vite-token" });
  } finally {
    site.close();
    await server.stop();
  }
  // The dev server, on a devserver of its own (the app registers as "vite" again).
  const port = await freePort();
  const dev = await startServer(bin("vite"), ["--port", String(port), "--strictPort", "--host", "127.0.0.1"], { cwd: work, url: `http://127.0.0.1:${port}/` });
  const devServer = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "vite:vite-token"]);
  try {
    await checkApp(checks, { name: "vite", label: "vite dev", devserverUrl: devServer.url, siteUrl: dev.url, session: "vite", token: "vite-token" });
  } finally {
    dev.stop();
    await devServer.stop();
  }
});
