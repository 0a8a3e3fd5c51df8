// webpack 5 with no config file: `webpack --mode production` bundles src/index.js into
// dist/main.js and emits the wasm as an asset (webpack's `new URL(…, import.meta.url)` support).
import { copyFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { bin, checkApp, main, options, run, serveStatic, startDevserver } from "../harness.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  if (!(await checks.check("webpack: webpack --mode production", () => run(bin("webpack"), ["--mode", "production"], { cwd: work }).then(() => undefined)))) return;
  await checks.check("webpack: the wasm is emitted as an asset", async () => {
    const wasm = (await readdir(join(work, "dist"))).filter((f) => f.endsWith(".wasm"));
    if (wasm.length !== 1) throw new Error(`dist has ${wasm.length} .wasm files`);
    return wasm[0];
  });
  await copyFile(join(work, "index.html"), join(work, "dist", "index.html"));
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "webpack:webpack-token"]);
  const site = await serveStatic({ "/": join(work, "dist") });
  try {
    await checkApp(checks, { name: "webpack", devserverUrl: server.url, siteUrl: site.url, session: "webpack", token: "webpack-token" });
  } finally {
    site.close();
    await server.stop();
  }
});
