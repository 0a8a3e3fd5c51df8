// client-tools/testing: a scripted agent that runs in the page or in Node (TestAgent), for an
// app's own tests: no server, no port, no network. Its own WebAssembly module (the crate's
// client_tools::testing with the cargo feature testing-js, built by scripts/build-pkg), so that
// neither client-tools nor client-tools/lite carries it. The module loads when this entry is
// imported (top-level await): `new TestAgent()` is ready at once. docs/testing.md.
import * as glue from "./testing_wasm.js";
import { load } from "../api.js";

const HINT = "client-tools/testing reads testing/testing_bg.wasm next to this file: serve or copy it with the package.";

await load(glue, undefined, async () => {
  // Made here (not in a helper) so that bundlers see the module's URL.
  const where = new URL("./testing_bg.wasm", import.meta.url);
  if (where.protocol !== "file:") return where;
  // Node (Vitest's environments included): the file's bytes; fetch() does not read file: URLs.
  const { readFile } = await import("node:fs/promises");
  return readFile(where);
}, HINT);

/** The rules the agent checks, by name (docs/testing.md): the Rust constants'. */
export const rules = Object.freeze(glue.rules());

/** The scripted agent: the platform's side of one session, answering the client's requests as
 * the `fetch` its `options()` give. */
export class TestAgent extends glue.TestAgent {
  /** The page is hidden (`true`) or shown again (`false`): needs a DOM (happy-dom, jsdom, a browser). */
  hide(hidden) {
    if (typeof document === "undefined") {
      throw new TypeError("client-tools/testing: hide() needs a document: run the test in a DOM environment (happy-dom, jsdom) or a browser");
    }
    if (typeof hidden !== "boolean") throw new TypeError("client-tools/testing: hide(hidden): hidden must be true or false");
    super.hide(hidden);
  }
}
