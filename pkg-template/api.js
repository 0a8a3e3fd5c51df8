// Loads the package's WebAssembly module, and nothing more. The entries (client_tools.js for
// browsers and bundlers, node.js for Node, and lite/'s) differ only in where the module comes
// from; wrap.js makes one memoized load of it that every entry point awaits, so that no app
// calls init() (the module cannot load itself), and builds the package's API over the glue.
// docs/internals/architecture.md says what each JS file of the package does and why it is JS.

import { coded, messageOf } from "./errors.js";

/** What to do when the module is not found, in browsers (the entries may give their own). */
export const BROWSER_HINT =
  "A bundler that does not copy client_tools_bg.wasm (esbuild) needs the file copied and its URL " +
  "given before the first Client.register: init({ module_or_path: url }) (README: esbuild).";

/**
 * Loads `glue`'s module (the wasm-bindgen glue) from `options.module_or_path`, or, when
 * `options` is undefined, from `defaultSource()`: a URL in browsers, the file's bytes in Node.
 * Rejects with a `wasm_load` Error saying what failed, and `hint` (what to do) when the module
 * is not there.
 */
export async function load(glue, options, defaultSource, hint) {
  let source;
  try {
    source = options === undefined ? await defaultSource() : await options.module_or_path;
  } catch (error) {
    throw coded("wasm_load", `client-tools: cannot find client_tools_bg.wasm: ${messageOf(error)}. ${hint}`);
  }
  if (typeof source === "string" || source instanceof URL) {
    const url = String(source);
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw coded("wasm_load", `client-tools: cannot load the WebAssembly module from ${url}: ${messageOf(error)}`);
    }
    if (!response.ok) {
      throw coded("wasm_load", `client-tools: cannot load the WebAssembly module: ${url} answered ${response.status}. ${hint}`);
    }
    source = response;
  }
  try {
    await glue.default({ module_or_path: source });
  } catch (error) {
    throw coded("wasm_load", `client-tools: cannot instantiate the WebAssembly module: ${messageOf(error)}`);
  }
}
