// A user's app: installs client-tools from npm and registers two tools, as the npm README says.
// TypeScript, so `tsc --noEmit` also checks the declarations the package ships.
import init, { Client, describeFormTool, type ClientStatus, type ToolDefinition } from "client-tools";

const status = document.getElementById("status")!;
const query = new URLSearchParams(location.search);

function param(name: string): string {
  const value = query.get(name);
  if (!value) throw new Error(`query parameter "${name}" is missing`);
  return value;
}

const add: ToolDefinition<{ a: number; b: number }> = {
  name: "add",
  description: "Add two numbers.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  handler: async ({ a, b }) => String(a + b),
};

const fail: ToolDefinition = {
  name: "fail",
  description: "Always fails, to show how an error reaches the model.",
  parameters: { type: "object", properties: {} },
  handler: () => {
    throw new Error("this tool always fails");
  },
};

async function main(): Promise<void> {
  await init();
  const client = await Client.register({
    baseUrl: param("base"),
    sessionId: param("session"),
    token: param("token"),
    name: "vite",
    lifetime: { type: "ttl", data: { seconds: 60 } },
    tools: [add, fail, describeFormTool({ name: "describe_contact", form: "#contact" })],
    onStatus: (s: ClientStatus) => {
      if (s.type === "error") console.warn(`client-tools: ${s.message}`);
    },
  });
  status.textContent = `registered as ${client.name}`;
  status.dataset.state = "registered";
}

main().catch((error: Error) => {
  status.textContent = `error: ${error.message}`;
  status.dataset.state = "error";
});
