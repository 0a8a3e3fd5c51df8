// Vite + Vue 3 + vue-router: `vite build`, then the route checks
// (routes.mjs) against the built app, its lazy route's chunk held back 300 ms, and those that
// need only the platform's side against client-tools/testing's agent in the page
// (agent-routes.mjs). Before them: a component tree rendered on the server (ssr.mjs).
import { join } from "node:path";
import { main, run, serveStatic, startDevserver } from "../../consumers/helpers.mjs";
import { checkAgentRoutes } from "../agent-routes.mjs";
import { checkRoutes } from "../routes.mjs";
import { checkServerRender } from "./ssr.mjs";
import { bin, options, report } from "../suite.mjs";

const { work, devserver } = options();
await main(async (checks) => {
  await checkServerRender(checks, { devserver });
  if (!(await checks.check("vue: vite build", () => run(bin("vite"), ["build"], { cwd: work }).then(() => undefined)))) return;
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", "vue:vue-token"]);
  const site = await serveStatic({ "/": join(work, "dist") }, { spa: true, delayMs: (path) => (/\/assets\/Lazy-[^/]*\.js$/.test(path) ? 300 : 0) });
  try {
    const puts = await checkRoutes(checks, { label: "vue", name: "vue", siteUrl: site.url, devserverUrl: server.url, session: "vue", token: "vue-token" });
    report("vue", puts);
    await checkAgentRoutes(checks, { label: "vue", name: "vue", siteUrl: site.url });
  } finally {
    site.close();
    await server.stop();
  }
});
