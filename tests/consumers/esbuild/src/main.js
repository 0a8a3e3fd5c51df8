// The README's esbuild recipe: esbuild does not follow `new URL(…, import.meta.url)`, so the
// wasm is imported as a file (--loader:.wasm=file copies it and gives its URL) and handed to init.
import { init } from "client-tools";
import wasmUrl from "client-tools/client_tools_bg.wasm";
import { start } from "../app.js";

init({ module_or_path: wasmUrl });
start("esbuild");
