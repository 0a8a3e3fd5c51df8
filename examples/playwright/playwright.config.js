import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  reporter: "list",
  // Traces and screenshots of failures: in node_modules, out of the way of git.
  outputDir: "node_modules/.test-results",
  workers: 1,
  timeout: 20_000,
  use: {
    browserName: "chromium",
    // The machine's Chromium (no `npx playwright install`): CHROMIUM names another one.
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    },
  },
});
