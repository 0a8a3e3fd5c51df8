// Chunks keep their module's name, so the check can hold back the lazy route's chunk.
export default {
  logLevel: "warn",
  build: { rollupOptions: { output: { chunkFileNames: "assets/[name]-[hash].js" } } },
};
