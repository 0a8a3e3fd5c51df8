// No bundler: a page maps the bare specifier "client-tools" to the package's files with an
// import map, and the server serves node_modules/client-tools/ as they are.
import { join } from "node:path";
import { CONSUMERS, checkApp, main, options, serveStatic, startDevserver } from "../harness.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "importmap:importmap-token"]);
  const site = await serveStatic({ "/": work, "/node_modules/client-tools/": join(CONSUMERS, "node_modules", "client-tools") });
  try {
    await checkApp(checks, { name: "importmap", devserverUrl: server.url, siteUrl: site.url, session: "importmap", token: "importmap-token" });
  } finally {
    site.close();
    await server.stop();
  }
});
