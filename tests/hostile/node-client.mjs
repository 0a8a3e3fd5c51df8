// One client of a scenario in its own Node process (forked by run.mjs, which talks to it over
// the IPC channel), so that its CPU time (process.cpuUsage) is the SDK's alone and a busy loop
// cannot slow the hostile server. Loads the installed npm package: `client-tools` (or
// `client-tools/lite` when asked) from tests/hostile/node_modules.
//
// Messages in: { id, cmd: "start", cfg, entry } | "mark" (start counting CPU) | "release" (the
// slow handlers) | "report" | "leave" | "local" { n }; each is answered { id, ok, value }.
import { startClient, timedLeave, snapshot, localDeadlines } from "./page/client-side.mjs";

let lib;
let client;
let mark = null;

const commands = {
  async start({ cfg, entry = "client-tools" }) {
    lib = await import(entry);
    client = await startClient(lib, cfg);
    return { registered: client.rec.registered, error: client.rec.error, unsupported: client.rec.unsupported };
  },
  mark() {
    mark = { cpu: process.cpuUsage(), t: performance.now() };
  },
  release() {
    client.release();
  },
  report() {
    const cpu = mark ? process.cpuUsage(mark.cpu) : null;
    return {
      rec: client ? snapshot(client.rec) : null,
      cpuMs: cpu ? (cpu.user + cpu.system) / 1000 : null,
      wallMs: mark ? performance.now() - mark.t : null,
    };
  },
  leave() {
    return timedLeave(client.rec);
  },
  async local({ n }) {
    lib ??= await import("client-tools");
    return localDeadlines(lib, n);
  },
};

process.on("message", async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, ok: true, value: await commands[cmd](args) });
  } catch (error) {
    process.send({ id, ok: false, value: String(error?.stack ?? error) });
  }
});
process.on("disconnect", () => process.exit(0));
