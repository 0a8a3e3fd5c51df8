// The README's Node recipe: a backend worker that serves tools to the agent, from the lite build
// (`client-tools/lite`: no page tools, which a worker has no page for). The package reads
// its wasm from disk by itself; a `never` lifetime needs no pings; SIGTERM leaves the session.
import { Client } from "client-tools/lite";

const client = await Client.register({
  baseUrl: process.env.AGENT_URL,
  sessionId: process.env.SESSION_ID,
  token: process.env.SESSION_TOKEN,
  name: "worker",
  lifetime: { type: "never" },
  tools: [
    {
      name: "add",
      description: "Add two numbers.",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      handler: ({ a, b }) => String(a + b),
    },
  ],
});
console.log(`registered as ${client.name}; expiresAt ${client.expiresAt}`);
process.once("SIGTERM", async () => {
  await client.leave();
  process.exit(0);
});
