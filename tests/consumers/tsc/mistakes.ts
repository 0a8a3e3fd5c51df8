// Deliberate mistakes: each line after `@ts-expect-error` must not compile (check.mjs also
// compiles this file with the directives blanked out and expects an error on each such line).
import { Client, describeFormTool, navigateTool, type ToolDefinition } from "client-tools";
// @ts-expect-error the lite build has no page tools
import { fillFormTool } from "client-tools/lite";
// @ts-expect-error the lite build has no WebMCP
import { exposeToWebMCP } from "client-tools/lite";

declare const sessionId: string;
declare const token: string;
const baseUrl = "http://127.0.0.1:8787";

export async function mistakes(): Promise<void> {
  // @ts-expect-error a typo'd option
  await Client.register({ baseUrl, sessionId, token, whenHiden: "pause" });
  // @ts-expect-error a whenHidden that does not exist
  await Client.register({ baseUrl, sessionId, token, whenHidden: "hide" });
  // @ts-expect-error a lifetime without its data
  await Client.register({ baseUrl, sessionId, token, lifetime: { type: "ttl", seconds: 60 } });
  // @ts-expect-error a missing token
  await Client.register({ baseUrl, sessionId });
  const client = await Client.register({ baseUrl, sessionId, token });
  // @ts-expect-error the id is a string
  const id: number = client.id;
  // @ts-expect-error a state that does not exist
  if (client.state === "active") console.log(id);
  // @ts-expect-error wasm-bindgen's free() is not part of the API
  client.free();
  // @ts-expect-error a Client is made by Client.register
  new Client();
  // @ts-expect-error a typo'd page-tool option
  describeFormTool({ rot: document.body });
  // @ts-expect-error a navigate mode that does not exist
  navigateTool({ mode: "replace" });
}

export const tools: ToolDefinition[] = [
  // @ts-expect-error a malformed result: the flag is isError
  { name: "a", handler: () => ({ is_error: true, text: "meant as an error" }) },
  // @ts-expect-error a malformed result: isError is a boolean
  { name: "b", handler: () => ({ isError: "yes", text: "meant as an error" }) },
  // @ts-expect-error a malformed result: text is a string
  { name: "c", handler: async () => ({ isError: true, text: 42 }) },
  // @ts-expect-error a typo'd tool key
  { name: "d", handlr: () => "done" },
];

interface NotJson {
  when: Date;
}
// @ts-expect-error arguments are JSON: a Date is not
export const notJson: ToolDefinition<NotJson> = { name: "e", handler: ({ when }) => when.toISOString() };
