// A user's app: installs client-tools from npm and registers two tools, as the npm README says.
import init, { Client } from "client-tools";

const status = document.getElementById("status");
const query = new URLSearchParams(location.search);

async function main() {
  await init();
  const client = await Client.register({
    baseUrl: query.get("base"),
    sessionId: query.get("session"),
    token: query.get("token"),
    name: "vite",
    tools: [
      {
        name: "add",
        description: "Add two numbers.",
        parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
        handler: async ({ a, b }) => String(a + b),
      },
      {
        name: "fail",
        description: "Always fails, to show how an error reaches the model.",
        parameters: { type: "object", properties: {} },
        handler: () => {
          throw new Error("this tool always fails");
        },
      },
    ],
  });
  status.textContent = `registered as ${client.name}`;
  status.dataset.state = "registered";
}

main().catch((error) => {
  status.textContent = `error: ${error.message}`;
  status.dataset.state = "error";
});
