// Vite: `vite build` with no config emits client_tools_bg.wasm as a hashed asset (through the
// package's `new URL(…, import.meta.url)`), and the built app answers calls.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { bin, checkApp, main, options, run, serveStatic, startDevserver } from "../harness.mjs";

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
});
