// `client-tools/lite` in browsers and bundlers: everything but the page tools and WebMCP, in a smaller
// module (./client_tools_bg.wasm beside this file). The same wrapper as the full build's entry.
import * as glue from "./client_tools_wasm.js";
import { wrap } from "../wrap.js";

const api = wrap(glue, () => {
  if (!import.meta.url) {
    throw new Error("this bundle has no import.meta.url to find it by (an iife or CommonJS bundle)");
  }
  return new URL("./client_tools_bg.wasm", import.meta.url);
}, { early: true });

export const { init, Client, ToolRegistry, TurnTools, WsTools } = api;
export default init;
