// Three fixture apps as one multi-page Vite build; `client-tools` is the wasm-pack --target web
// build of the crate that run.sh writes to .sdk/.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import vue from "@vitejs/plugin-vue";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  plugins: [react(), vue()],
  resolve: { alias: { "client-tools": resolve(here, ".sdk/client_tools.js") } },
  build: {
    target: "es2022",
    rollupOptions: {
      input: {
        react: resolve(here, "react.html"),
        vue: resolve(here, "vue.html"),
        plain: resolve(here, "plain.html"),
        plainDone: resolve(here, "plain-done.html"),
      },
    },
  },
});
