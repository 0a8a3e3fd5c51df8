// The package's entry in Node (the "node" export condition): the module is read from disk, so
// `import { Client } from "client-tools"` works in a backend worker with no init() and no fetch.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as glue from "./client_tools_wasm.js";
import { wrap } from "./api.js";

const api = wrap(
  glue,
  () => {
    // A server bundle (Next.js, say) may rewrite this URL; its text is what can be read.
    const href = String(new URL("./client_tools_bg.wasm", import.meta.url));
    if (!href.startsWith("file:")) throw new Error(`it is at ${href}, which is not a file`);
    return readFile(fileURLToPath(href));
  },
  "In server-side rendering, register in the browser instead: call Client.register in an effect " +
    "(README: React and Next.js).",
);

export const {
  init, Client, describeFormTool, fillFormTool, submitFormTool, navigateTool,
  ToolRegistry, TurnTools, WsTools, exposeToWebMCP,
} = api;
export default init;
