import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // node.test.js runs in Node; page.test.js asks for happy-dom in its first line.
    environment: "node",
    setupFiles: ["./vitest.setup.js"],
    // The agent's deadlines are real time: keep the default 5 s per test.
  },
});
