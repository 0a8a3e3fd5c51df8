// The pages of scripts/bench-start: for each package and build, a page that imports the
// package and registers one tool, the same page with its modules and wasm preloaded, and the
// floor page (the same requests by plain fetch). Each page measures itself: marks
// (performance.now(), from the navigation's start), its resource timing entries, the client's
// onStatus; it says "bench:done" on the console when it has its result in window.result.
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";

/** Each build's directory in a package. */
export const BUILDS = { full: "", lite: "lite/" };

/** The tool every page declares (the README's example). */
const TOOL = {
  name: "highlight_row",
  description: "Highlight a row in the table the user is looking at.",
  parameters: { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] },
};

/** Writes the pages into `www` (each package copied into it as its label, each JS and wasm
 * file with a gzipped copy beside it, which the devserver sends to a browser that accepts gzip,
 * as a CDN would) and lists them:
 * `{ file, kind: "import" | "preload" | "floor" | "floor+js", label, build, dir, base }`. */
export async function writePages(www, pkgs) {
  const pages = [];
  for (const { label, dir } of pkgs) {
    await cp(dir, join(www, label), { recursive: true, dereference: true });
    for (const entry of await readdir(join(www, label), { recursive: true })) {
      if (!/\.(js|wasm)$/.test(entry)) continue;
      const file = join(www, label, entry);
      await writeFile(file + ".gz", gzipSync(await readFile(file), { level: 9 }));
    }
    for (const [build, sub] of Object.entries(BUILDS)) {
      const base = `/${label}/${sub}`;
      const where = { label, build, dir: join(dir, sub), base };
      const modules = await modulesOf(join(dir, sub, "client_tools.js"));
      const links = modules.map((m) => `<link rel="modulepreload" href="/${label}/${relative(dir, m)}">`)
        .concat(`<link rel="preload" href="${base}client_tools_bg.wasm" as="fetch" type="application/wasm" crossorigin>`);
      const js = modules.map((m) => `/${label}/${relative(dir, m)}`);
      const kinds = [
        ["import", sdkPage(base, "")], ["preload", sdkPage(base, links.join("\n"))],
        ["floor", floorPage(base, [])], ["floor+js", floorPage(base, js)],
      ];
      for (const [kind, html] of kinds) {
        const file = `${kind}-${label}-${build}.html`;
        await writeFile(join(www, file), html);
        pages.push({ file, kind, ...where });
      }
    }
  }
  return pages;
}

/** The module `file` and every module it imports statically, by relative path: what the
 * README's recipe preloads (the browser entry is one file; an older build was three). */
async function modulesOf(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = await readFile(file, "utf8");
  const found = [file];
  for (const [, spec] of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["'](\.{1,2}\/[^"']+)["']/gm)) {
    found.push(...(await modulesOf(join(dirname(file), spec), seen)));
  }
  return found;
}

/** A page that imports the package at `base` and registers one tool, with `head` (the preload
 * links, or nothing). */
function sdkPage(base, head) {
  return `<!doctype html>
<meta charset="utf-8">
<title>start-up: the package</title>
${head}
<script type="module">
const q = new URLSearchParams(location.search);
const mark = {};
const stamp = (k) => { if (mark[k] === undefined) { mark[k] = performance.now(); performance.mark("bench:" + k); } };
let opened;
const open = new Promise((r) => (opened = r));
try {
  stamp("importStart");
  const { init, Client } = await import("${base}client_tools.js");
  stamp("imported");
  init().then(() => stamp("loaded"));
  const tool = ${JSON.stringify(TOOL)};
  tool.handler = ({ row_id }) => "Row " + row_id + " is highlighted.";
  const client = await Client.register({
    baseUrl: location.origin, sessionId: q.get("session"), token: q.get("token"), name: "bench",
    tools: [tool],
    onStatus(s) {
      if (s.type === "registered") stamp("registered");
      if (s.type === "streamOpen") { stamp("streamOpen"); opened(); }
    },
  });
  stamp("resolved");
  await open;
  window.result = { mark, entries: entries() };
  await measured();
  await client.leave();
} catch (e) {
  window.failed = String(e?.message ?? e);
}
console.log("bench:done");
${ENTRIES}
</script>
`;
}

/** The same requests by plain fetch: the wasm file's bytes, then the registration and the
 * stream at once (as the client sends them); the stream's answer head, the registration's JSON.
 * With `js` (the package's modules), their text first, all at once: the floor of a page that
 * must fetch the package's JS too (no bundler), for comparison. */
function floorPage(base, js) {
  return `<!doctype html>
<meta charset="utf-8">
<title>start-up: the floor</title>
<script type="module">
const q = new URLSearchParams(location.search);
const mark = {};
const stamp = (k) => { if (mark[k] === undefined) { mark[k] = performance.now(); performance.mark("bench:" + k); } };
try {
  stamp("importStart");
  await Promise.all(${JSON.stringify(js)}.map((f) => fetch(f).then((r) => r.text())));
  const wasm = await (await fetch("${base}client_tools_bg.wasm")).arrayBuffer();
  stamp("loaded");
  const session = "/v1/sessions/" + q.get("session");
  const auth = "Bearer " + q.get("token");
  const stream = new AbortController();
  const opening = fetch(session + "/stream", { headers: { Authorization: auth, Accept: "text/event-stream" }, signal: stream.signal })
    .then((r) => { stamp("streamOpen"); return r; });
  const { parameters, name, description } = ${JSON.stringify(TOOL)};
  const answer = await fetch(session + "/clients", {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ name: "floor", lifetime: { type: "ttl", data: { seconds: 60 } }, tools: [{ name, description, parameters }] }),
  });
  const client = await answer.json();
  stamp("registered");
  await opening;
  window.result = { mark, entries: entries(), bytes: wasm.byteLength };
  await measured();
  stream.abort();
  await fetch(session + "/clients/" + client.id, { method: "DELETE", headers: { Authorization: auth } });
} catch (e) {
  window.failed = String(e?.message ?? e);
}
console.log("bench:done");
${ENTRIES}
</script>
`;
}

/** The page's navigation and resource timing entries, by path (the stream has none: it never
 * ends); and `measured()`, which says "bench:result" on the console and waits until the driver,
 * having read the renderer's CPU counters, calls `window.proceed()`: the leaving that follows
 * is not counted. */
const ENTRIES = `function measured() {
  return new Promise((r) => { window.proceed = r; console.log("bench:result"); });
}
function entries() {
  return [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((e) => ({
    path: new URL(e.name).pathname, start: e.startTime, connectEnd: e.connectEnd, requestStart: e.requestStart,
    responseStart: e.responseStart, end: e.responseEnd,
  }));
}`;
