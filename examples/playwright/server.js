// A static file server for the test page, on a free loopback port: the repository's root (the
// demo app in www/, examples/shared/) and this example's node_modules (the installed package).
// Only files under the root are served.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/** Serves `root`; resolves to `{ url, close }`. */
export function serve(root) {
  const server = createServer(async (req, res) => {
    const path = resolve(root, "." + decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path !== root && !path.startsWith(root + sep)) return res.writeHead(403).end();
    try {
      const body = await readFile(path);
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done) => {
    server.listen(0, "127.0.0.1", () => {
      done({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    });
  });
}
