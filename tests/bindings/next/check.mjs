// Next.js App Router, StrictMode on: `next build` + `next start`, then `next dev`, each behind a
// loopback proxy that holds back the chunk of the lazy route's component (next/dynamic) 300 ms,
// and the route checks (routes.mjs) against both, with Next's `router.push` behind
// useToolNavigate. Before them: the pages render on the server (client-tools' components in
// the HTML, nothing registered there).
import { request as httpRequest, createServer } from "node:http";
import { connect } from "node:net";
import { agent, freePort, main, run, startDevserver, startServer } from "../../consumers/helpers.mjs";
import { checkRoutes } from "../routes.mjs";
import { bin, options, report } from "../suite.mjs";

const { work, devserver } = options();
const ENV = { NEXT_TELEMETRY_DISABLED: "1" };
/** In the lazy route's component only (app/lazy/lazy-tools.jsx): finds its chunk. */
const MARKER = "lazy-chunk-marker";
const ROUTES = ["/a", "/b", "/lazy", "/loaded", "/counter", "/search", "/grow", "/form"];

/**
 * A proxy on a free loopback port in front of `target` (http://127.0.0.1:PORT): a script under
 * /_next/ whose text has MARKER is held back `delayMs` (its path goes in `held`); everything
 * else, WebSocket upgrades (dev's HMR) included, passes as is. Asks for uncompressed answers so
 * that it can read them.
 */
function delayingProxy(target, delayMs) {
  const { hostname, port } = new URL(target);
  const held = [];
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers["accept-encoding"];
    const upstream = httpRequest({ host: hostname, port, method: req.method, path: req.url, headers }, async (answer) => {
      const path = new URL(req.url, "http://x").pathname;
      if (!(path.startsWith("/_next/") && path.endsWith(".js"))) {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks = [];
      for await (const chunk of answer) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      if (body.includes(MARKER)) {
        held.push(path);
        await new Promise((done) => setTimeout(done, delayMs));
      }
      res.writeHead(answer.statusCode, answer.headers);
      res.end(body);
    });
    upstream.on("error", (error) => res.destroy(error));
    req.pipe(upstream);
  });
  server.on("upgrade", (req, socket, head) => {
    const upstream = connect(Number(port), hostname, () => {
      let lines = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      upstream.write(`${lines}\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        url: `http://127.0.0.1:${server.address().port}`,
        held,
        close() {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

/** `next start` or `next dev` on a free port; resolves once it answers /a. */
async function startNext(mode) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const next = await startServer(bin("next"), [mode, "-p", String(port), "-H", "127.0.0.1"], { cwd: work, url: `${url}/a`, env: ENV, timeoutMs: 180000 });
  return { ...next, url };
}

/** The route checks against `next <mode>` (after `next build` for start). */
async function checkMode(checks, mode) {
  const label = `next ${mode}`;
  const session = `next-${mode}`;
  const token = `${session}-token`;
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", `${session}:${token}`]);
  let next;
  let proxy;
  try {
    next = await startNext(mode);
    proxy = await delayingProxy(next.url, 300);
    // Dev compiles a route on its first request: every route once, before the browser, so
    // that a navigation measures the app, not the compiler.
    const pages = {};
    for (const route of ROUTES) {
      const response = await fetch(`${proxy.url}${route}`);
      pages[route] = { status: response.status, html: await response.text() };
    }
    await checks.check(`${label}: every route renders on the server (client-tools/react's provider and hooks in 'use client' components; nothing registers there)`, async () => {
      const bad = ROUTES.filter((route) => pages[route].status !== 200);
      if (bad.length) throw new Error(`HTTP ${bad.map((r) => `${pages[r].status} for ${r}`).join(", ")}`);
      const a = pages["/a"].html;
      if (!a.includes('<p id="route">a</p>') || !a.includes('id="status" data-state="registering"')) throw new Error(`/a's HTML: ${a.slice(0, 1500)}`);
      if (!pages["/loaded"].html.includes('<p id="route">loaded</p>')) throw new Error("/loaded's HTML has no route");
      const { events } = await agent(server.url, session, token, "GET", "/events?after=0&limit=1000");
      if (events.length) throw new Error(`the devserver saw ${events.map((e) => e.type).join(", ")} before any browser`);
    });
    const puts = await checkRoutes(checks, {
      label,
      name: "next",
      siteUrl: proxy.url,
      devserverUrl: server.url,
      session,
      token,
      mounts: mode === "dev" ? 2 : 1,
    });
    await checks.check(`${label}: the lazy route's chunk was held back 300 ms (once)`, async () => {
      if (proxy.held.length !== 1) throw new Error(`held: ${JSON.stringify(proxy.held)}`);
      return proxy.held[0];
    });
    await checks.check(`${label}: the Next server logged no error`, async () => {
      const lines = next.output().split("\n").filter((line) => /error|warn|⨯/i.test(line));
      if (lines.length) throw new Error(lines.join("\n"));
    });
    report(label, puts);
  } finally {
    proxy?.close();
    next?.stop();
    await server.stop();
  }
}

await main(async (checks) => {
  const built = await checks.check("next: next build", () => run(bin("next"), ["build"], { cwd: work, env: ENV }).then(() => undefined));
  if (built) await checkMode(checks, "start");
  await checkMode(checks, "dev");
});
