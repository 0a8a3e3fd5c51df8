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

// The WebAssembly features the module is built with (rustc's for wasm32), each with the
// smallest module only an engine that has it validates (its sections after the header, in hex)
// and the first versions that have it: Chrome/Edge, Firefox, Safari/iOS (README: Browsers).
const FEATURES = [
  ["sign-extension operators", "01060160017f017f030201000a0701050020" + "00c00b", "74, 62, 14.1"],
  ["non-trapping float-to-int conversions", "01060160017d017f030201000a080106002000fc000b", "75, 64, 15"],
  ["multi-value", "0106016000027f7f030201000a08010600410041000b", "85, 78, 13.1"],
  ["bulk memory", "0104016000000302010005030100000a0d010b00410041004100fc0b000b", "75, 79, 15"],
  ["reference types", "010501600001" + "6f030201000a06010400d06f0b", "96, 79, 15"],
];

/**
 * The `wasm_load` Error naming the WebAssembly feature this engine lacks and the browser
 * versions that have it, before any byte of the module is fetched; undefined when it has all.
 */
export function unsupported() {
  const wasm = globalThis.WebAssembly;
  if (typeof wasm?.validate !== "function") {
    return coded("wasm_load", "client-tools: this browser has no WebAssembly (README: Browsers)");
  }
  for (const [name, hex, versions] of FEATURES) {
    const bytes = Uint8Array.from(("0061736d01000000" + hex).match(/../g), (b) => parseInt(b, 16));
    if (!wasm.validate(bytes)) {
      const [chrome, firefox, safari] = versions.split(", ");
      return coded(
        "wasm_load",
        `client-tools: this browser's WebAssembly has no ${name}, which the module uses: it needs ` +
          `Chrome/Edge ${chrome}, Firefox ${firefox} or Safari/iOS ${safari} or newer (README: Browsers)`,
      );
    }
  }
}

/**
 * Fetches and compiles the module at `defaultSource()` (a URL) as its bytes arrive: what a
 * page's import of a browser entry starts, so that the module downloads and compiles while the
 * app starts. A promise of the compiled module, or of undefined when anything failed (`load`
 * then fetches it again and says what failed): it never rejects.
 */
export function compileEarly(defaultSource) {
  return Promise.resolve()
    .then(defaultSource)
    .then((url) => fetch(url))
    .then((response) => (response.ok ? WebAssembly.compileStreaming(response) : undefined))
    .catch(() => undefined);
}

/**
 * Loads `glue`'s module (the wasm-bindgen glue) from `options.module_or_path`, or, when
 * `options` is undefined, from `early` (`compileEarly`'s promise) when it compiled, else from
 * `defaultSource()`: a URL in browsers, the file's bytes in Node.
 * Rejects with a `wasm_load` Error saying what failed, and `hint` (what to do) when the module
 * is not there; first, when this engine lacks a WebAssembly feature the module uses.
 */
export async function load(glue, options, defaultSource, hint, early) {
  const missing = unsupported();
  if (missing) throw missing;
  let source;
  try {
    source = options === undefined ? (await early) ?? (await defaultSource()) : await options.module_or_path;
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
