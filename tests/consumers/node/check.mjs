// Node >= 20 as a backend worker: `import { Client } from "client-tools/lite"` with no init(), a
// `never` lifetime, calls answered through the devserver, SIGTERM leaves; and require() works
// (Node's require of an ES module) or says to use import.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CONSUMERS, main, options, run, startDevserver, toolNames, callAndWait, agent, waitFor } from "../harness.mjs";

const { work, devserver } = options();
const SESSION = "node";
const TOKEN = "node-token";

await main(async (checks) => {
  const server = await startDevserver(devserver, ["--addr", "127.0.0.1:0", "--session", `${SESSION}:${TOKEN}`, "--session", "demo:demo-token"]);
  let worker;
  try {
    worker = spawn(process.execPath, ["worker.mjs"], {
      cwd: work,
      env: { ...process.env, AGENT_URL: server.url, SESSION_ID: SESSION, SESSION_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    worker.stdout.on("data", (chunk) => (output += chunk));
    worker.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise((done) => worker.on("exit", (code, signal) => done(signal ?? code)));
    const registered = await checks.check("node: the worker registers with no init() call, lifetime never", async () => {
      const line = await waitFor(() => /registered as .*|Error.*/.exec(output)?.[0], 20000);
      if (line !== "registered as worker; expiresAt null") throw new Error(output || "no output in 20 s");
      return line;
    });
    if (registered) {
      await checks.check("node: the model sees the worker's tool", async () => {
        const names = await toolNames(server.url, SESSION, TOKEN);
        if (JSON.stringify(names) !== '["client__worker__add"]') throw new Error(names.join(", "));
      });
      await checks.check("node: a call is answered", async () => {
        const { id: runId } = await agent(server.url, SESSION, TOKEN, "POST", "/runs", {});
        const r = await callAndWait(server.url, SESSION, TOKEN, runId, "client__worker__add", { a: 2, b: 40 });
        if (r.state !== "succeeded" || r.is_error || r.text !== "42") throw new Error(JSON.stringify(r));
        return `add(2, 40) → ${r.text}`;
      });
      await checks.check("node: SIGTERM leaves the session and exits 0", async () => {
        worker.kill("SIGTERM");
        const code = await Promise.race([exited, new Promise((done) => setTimeout(() => done("still running after 10 s"), 10000))]);
        if (code !== 0) throw new Error(`exit ${code}: ${output}`);
        const names = await toolNames(server.url, SESSION, TOKEN);
        if (names.length) throw new Error(`still offered: ${names.join(", ")}`);
      });
    }
    await checks.check("node: the npm README's quick start runs as pasted (its server's URL aside)", async () => {
      const readme = await readFile(join(CONSUMERS, "node_modules", "client-tools", "README.md"), "utf8");
      const block = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
      if (!block?.includes('"http://127.0.0.1:8787"')) throw new Error("no quick start with the URL http://127.0.0.1:8787 in the README");
      await writeFile(join(work, "quickstart.mjs"), block.replace('"http://127.0.0.1:8787"', JSON.stringify(server.url)));
      const child = spawn(process.execPath, ["quickstart.mjs"], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (out += chunk));
      try {
        if (!(await waitFor(() => out.includes("registered as web"), 20000))) throw new Error(out || "no output in 20 s");
        const { id: runId } = await agent(server.url, "demo", "demo-token", "POST", "/runs", {});
        const r = await callAndWait(server.url, "demo", "demo-token", runId, "client__web__highlight_row", { row_id: "42" });
        if (r.is_error || r.text !== "Row 42 is highlighted.") throw new Error(JSON.stringify(r));
        return out.trim();
      } finally {
        child.kill("SIGKILL");
      }
    });
    await checks.check("node: Symbol.asyncDispose (await using) leaves, and leave() again resolves", async () => {
      const script = `
        import { Client } from "client-tools";
        const client = await Client.register({ baseUrl: ${JSON.stringify(server.url)}, sessionId: "${SESSION}", token: "${TOKEN}", name: "scoped", tools: [{ name: "x", handler: () => "x" }] });
        const before = client.state;
        await client[Symbol.asyncDispose]();
        await client.leave();
        console.log(before, client.state, client.name, typeof client[Symbol.dispose]);`;
      const out = (await run(process.execPath, ["--input-type=module", "-e", script], { cwd: work })).trim();
      if (out !== "registered left scoped function") throw new Error(out);
      const names = await toolNames(server.url, SESSION, TOKEN);
      if (names.some((n) => n.startsWith("client__scoped__"))) throw new Error(`still offered: ${names}`);
      return out;
    });
    await checks.check("node: init() (optional) loads the module from disk", async () => {
      const script = 'const m = await import("client-tools"); await m.init(); await m.default(); console.log("loaded");';
      const out = (await run(process.execPath, ["--input-type=module", "-e", script], { cwd: work })).trim();
      if (out !== "loaded") throw new Error(out);
    });
    await checks.check("node: require(\"client-tools\") works or says to use import", async () => {
      const script = 'try { const m = require("client-tools"); console.log("works: Client.register is a " + typeof m.Client.register); } catch (e) { console.log("fails: " + e.message); }';
      const out = (await run(process.execPath, ["--no-warnings", "-e", script], { cwd: work })).trim();
      if (out !== "works: Client.register is a function" && !(out.startsWith("fails:") && out.includes("import"))) throw new Error(out);
      return out;
    });
  } finally {
    if (worker && worker.exitCode === null) worker.kill("SIGKILL");
    await server.stop();
  }
});
