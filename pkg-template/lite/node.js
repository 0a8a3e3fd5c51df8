// `client-tools/lite` in Node (the "node" export condition): the module is read from disk.
import * as glue from "./client_tools_wasm.js";
import { wrap } from "../wrap.js";
import { fromDisk, NODE_HINT } from "../node-load.js";

const api = wrap(glue, fromDisk(() => new URL("./client_tools_bg.wasm", import.meta.url)), { hint: NODE_HINT });

export const { init, Client, ToolRegistry, TurnTools, WsTools } = api;
export default init;
