// The package's entry in Node (the "node" export condition): the module is read from disk, so
// `import { Client } from "client-tools"` works in a backend worker with no init() and no fetch.
import * as glue from "./client_tools_wasm.js";
import { wrap } from "./wrap.js";
import { fromDisk, NODE_HINT } from "./node-load.js";
import { pageTools } from "./tools.js";

const api = wrap(glue, fromDisk(() => new URL("./client_tools_bg.wasm", import.meta.url)), { hint: NODE_HINT, pageTools });

export const {
  init, Client, describeFormTool, fillFormTool, submitFormTool, navigateTool, readPageTool, readTableTool, highlightTool, clickTool,
  ToolRegistry, TurnTools, WsTools, exposeToWebMCP,
} = api;
export default init;
