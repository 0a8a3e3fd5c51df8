// `client-tools/lite` in Node (the "node" export condition): the module is read from disk.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as glue from "./client_tools_wasm.js";
import { wrap } from "../api.js";

const api = wrap(
  glue,
  () => {
    const href = String(new URL("./client_tools_bg.wasm", import.meta.url));
    if (!href.startsWith("file:")) throw new Error(`it is at ${href}, which is not a file`);
    return readFile(fileURLToPath(href));
  },
  "In server-side rendering, register in the browser instead: call Client.register in an effect " +
    "(README: React and Next.js).",
);

export const { init, Client, ToolRegistry, TurnTools, WsTools, exposeToWebMCP } = api;
export default init;
