// The package's entry in browsers and bundlers. The module is found next to this file through
// `new URL(…, import.meta.url)`, the pattern Vite, webpack, Rollup and Next.js turn into an
// emitted asset; for a bundle without import.meta.url, see the README's esbuild recipe. In a
// page, importing it starts the module's fetch and compile (wrap.js: `early`).
import * as glue from "./client_tools_wasm.js";
import { wrap } from "./wrap.js";
import { pageTools } from "./tools.js";

const api = wrap(glue, () => {
  if (!import.meta.url) {
    throw new Error("this bundle has no import.meta.url to find it by (an iife or CommonJS bundle)");
  }
  return new URL("./client_tools_bg.wasm", import.meta.url);
}, { pageTools, early: true });

export const {
  init, Client, describeFormTool, fillFormTool, submitFormTool, navigateTool,
  ToolRegistry, TurnTools, WsTools, exposeToWebMCP,
} = api;
export default init;
