// What the Node entries (node.js, lite/node.js) share: where their module is read from, and
// what to say when it is not a file.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Reads the module from disk, at the URL `where()` gives (the entry's own
 * `new URL(…, import.meta.url)`, which must stay in the entry for bundlers to see it, and is
 * made only when the module is loaded, so that a rewritten URL fails there with the hint). */
export function fromDisk(where) {
  return () => {
    // A server bundle (Next.js, say) may rewrite this URL; its text is what can be read.
    const href = String(where());
    if (!href.startsWith("file:")) throw new Error(`it is at ${href}, which is not a file`);
    return readFile(fileURLToPath(href));
  };
}

export const NODE_HINT =
  "In server-side rendering, register in the browser instead: call Client.register in an effect " +
  "(README: React and Next.js).";
