// The npm README's worker recipe, as pasted: a Node worker that leaves on SIGTERM and exits.
// run.mjs starts it against a session whose DELETE fails or hangs and times its exit.
import { Client } from "client-tools/lite";

const client = await Client.register({
  baseUrl: process.env.AGENT_URL,
  sessionId: process.env.SESSION_ID,
  token: process.env.SESSION_TOKEN,
  name: "worker",
  lifetime: { type: "never" },
  tools: [{ name: "add", handler: ({ a, b }) => String(a + b) }],
});
process.once("SIGTERM", () => client.leave().finally(() => process.exit(0)));
console.log(`registered as ${client.name}`);
