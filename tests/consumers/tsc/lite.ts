// `client-tools/lite` (everything but the page tools and WebMCP), as a backend worker or a page
// that only serves its own tools imports it: the same Client, registry and adapters, typed the same.
import init, { Client, ToolRegistry, TurnTools, WsTools, type ClientOptions, type ToolDefinition } from "client-tools/lite";
import { toAGUI } from "client-tools/adapters";

export async function lite(options: ClientOptions): Promise<string> {
  await init();
  const add: ToolDefinition = {
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    handler: (args) => String(Number(args.a) + Number(args.b)),
  };
  const registry = new ToolRegistry([add]);
  const client = await Client.register({ ...options, tools: registry });
  const turns = new TurnTools(registry);
  const ws = new WsTools({ dialect: "cartesia", tools: registry, send: (text) => console.log(text) });
  // The adapters' methods and functions take the lite build's registry too.
  const agui = registry.toAGUI().length + toAGUI(registry).length + registry.toElevenLabs().declarations().length;
  await client.leave();
  return `${client.name} ${String(turns)} ${ws.declarations().length} ${agui}`;
}
