// The browser floor (README: Browsers; issue 41), in Node: where the engine lacks a WebAssembly
// feature the module uses (simulated: WebAssembly.validate refuses that feature's probe, as an
// engine without it does), init, Client.register and the page-tool factories reject with a
// `wasm_load` error naming the feature and the versions that have it, in the full and the lite
// build; with every feature there, the module loads.
//   node tests/floor/check.mjs [PKG]   PKG: the npm package's directory (default pkg/)
// Prints each case; exits 1 on the first that does not hold.
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const pkg = resolve(process.argv[2] ?? new URL("../../pkg", import.meta.url).pathname);
const full = await import(pathToFileURL(resolve(pkg, "node.js")).href);
const lite = await import(pathToFileURL(resolve(pkg, "lite/node.js")).href);

// Each feature, the bytes of its probe that no other probe holds (the instruction or type only
// an engine with the feature reads), and the versions the message must name.
const FEATURES = [
  ["sign-extension operators", "20 00 c0 0b", "Chrome/Edge 74, Firefox 62 or Safari/iOS 14.1"],
  ["non-trapping float-to-int conversions", "fc 00 0b", "Chrome/Edge 75, Firefox 64 or Safari/iOS 15"],
  ["multi-value", "02 7f 7f", "Chrome/Edge 85, Firefox 78 or Safari/iOS 13.1"],
  ["bulk memory", "fc 0b 00", "Chrome/Edge 75, Firefox 79 or Safari/iOS 15"],
  ["reference types", "d0 6f", "Chrome/Edge 96, Firefox 79 or Safari/iOS 15"],
];
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
const realValidate = WebAssembly.validate;
const options = { url: "http://127.0.0.1:9/sessions", token: "t", name: "floor", tools: [] };

async function rejects(what, run, name, versions) {
  let error;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `${what} did not reject without ${name}`);
  assert.equal(error.code, "wasm_load", `${what}: ${error.message}`);
  assert.ok(error.message.includes(`has no ${name}`), `${what}: ${error.message}`);
  assert.ok(error.message.includes(`needs ${versions} or newer`), `${what}: ${error.message}`);
  console.log(`${what} without ${name}: ${error.message}`);
}

for (const [name, bytes, versions] of FEATURES) {
  let asked = 0;
  WebAssembly.validate = (b) => {
    if (hex(new Uint8Array(b)).includes(bytes)) {
      asked++;
      return false;
    }
    return realValidate(b);
  };
  await rejects("init (full)", () => full.init(), name, versions);
  await rejects("Client.register (full)", () => full.Client.register(options), name, versions);
  await rejects("Client.register (lite)", () => lite.Client.register(options), name, versions);
  for (const factory of ["describeFormTool", "fillFormTool", "submitFormTool", "navigateTool"]) {
    await rejects(factory, () => full[factory](), name, versions);
  }
  assert.ok(asked > 0, `the probe of ${name} was never validated`);
}

WebAssembly.validate = undefined;
const none = await lite.Client.register(options).then(() => undefined, (e) => e);
WebAssembly.validate = realValidate;
assert.equal(none?.code, "wasm_load", String(none?.message));
assert.ok(none.message.includes("this browser has no WebAssembly"), none.message);
console.log(`Client.register (lite) without WebAssembly: ${none.message}`);

// Every feature there: the module loads and a factory makes its tool.
await full.init();
await lite.init();
assert.equal(typeof full.describeFormTool().handler, "function");
console.log("with every feature: both builds load; 5 features x (init, 2 registers, 4 factories) refused without each");
