/** The URL of the package's WebAssembly module, as a bundler's file or asset loader gives it
 * (esbuild `--loader:.wasm=file`, webpack `type: "asset/resource"`, Vite's `?url`): pass it to
 * `init({ module_or_path })` where the bundler does not find the module by itself. */
declare const wasmUrl: string;
export default wasmUrl;
