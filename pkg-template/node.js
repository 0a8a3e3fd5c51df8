// The package's entry in Node (the "node" export condition): the module is read from disk, so
// `import { Client } from "client-tools"` works in a backend worker with no init() and no fetch.
import { readFile } from "node:fs/promises";
import * as glue from "./client_tools_wasm.js";
import { wrap } from "./api.js";

const api = wrap(glue, () => readFile(new URL("./client_tools_bg.wasm", import.meta.url)));

export const { init, Client, describeFormTool, fillFormTool, submitFormTool, navigateTool } = api;
export default init;
