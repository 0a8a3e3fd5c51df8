// Starts the devserver for a browser check and stops it again; shared by the demo check and
// the Vite consumer test.
import { spawn } from "node:child_process";

/** Chromium's flags on this project's machines (see the README). */
export const CHROMIUM = Object.freeze({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

/**
 * Spawns `bin` with `args` and resolves to `{ url, stop }` once its first stdout line says
 * `listening on http://HOST:PORT`. Rejects with the server's output when it exits first or does
 * not say so within `timeoutMs`.
 */
export function startDevserver(bin, args, { timeoutMs = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    // Stopped too when the runner exits without stop() (a check that threw past it).
    const orphan = () => child.kill("SIGTERM");
    process.once("exit", orphan);
    child.once("exit", () => process.off("exit", orphan));
    let output = "";
    let settled = false;
    const finish = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill("SIGTERM");
        reject(new Error(`${error}\n--- devserver output ---\n${output}`));
      } else {
        resolve(value);
      }
    };
    const timer = setTimeout(() => finish(`devserver did not say "listening on" within ${timeoutMs} ms`), timeoutMs);
    child.on("error", (error) => finish(`cannot start ${bin}: ${error.message}`));
    child.on("exit", (code, signal) => finish(`devserver exited (${signal ?? code}) before listening`));
    child.stderr.on("data", (chunk) => {
      output += chunk;
      if (process.env.DEVSERVER_LOG) process.stderr.write(chunk);
    });
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /^listening on (http:\/\/\S+)/m.exec(output);
      if (match) {
        finish(null, {
          url: match[1].replace(/\/$/, ""),
          stop: () => new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
          output: () => output,
        });
      }
    });
  });
}

/** Counts checks and prints each as it is decided; `summary()` is the closing line. */
export class Checks {
  constructor() {
    this.passed = 0;
    this.failed = 0;
  }

  ok(name, detail = "") {
    this.passed++;
    console.log(`ok   ${name}${detail ? ` — ${detail}` : ""}`);
  }

  fail(name, detail) {
    this.failed++;
    console.log(`FAIL ${name} — ${detail}`);
  }

  /** Runs `fn`; a throw fails the check with its message, a returned string is the detail. */
  async check(name, fn) {
    try {
      const detail = await fn();
      this.ok(name, typeof detail === "string" ? detail : "");
      return true;
    } catch (error) {
      this.fail(name, error?.message ?? String(error));
      return false;
    }
  }

  summary() {
    return `${this.passed} passed, ${this.failed} failed`;
  }
}
