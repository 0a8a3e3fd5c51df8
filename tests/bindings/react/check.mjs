// Vite + React 19 + React Router, StrictMode on: `vite build`, then the route checks
// (routes.mjs) against the built app, its lazy route's chunk held back 300 ms.
import { join } from "node:path";
import { main, run, serveStatic, startDevserver } from "../../consumers/helpers.mjs";
import { checkRoutes } from "../routes.mjs";
import { bin, options, report } from "../suite.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  if (!(await checks.check("react: vite build", () => run(bin("vite"), ["build"], { cwd: work }).then(() => undefined)))) return;
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "react:react-token"]);
  const site = await serveStatic({ "/": join(work, "dist") }, { spa: true, delayMs: (path) => (/\/assets\/Lazy-[^/]*\.js$/.test(path) ? 300 : 0) });
  try {
    const puts = await checkRoutes(checks, { label: "react", name: "react", siteUrl: site.url, devserverUrl: server.url, session: "react", token: "react-token" });
    report("react", puts);
  } finally {
    site.close();
    await server.stop();
  }
});
