// The names a guide's code block takes from the text around it, typed: a block preceded by
// `<!-- given: client, registry -->` is checked as if it began with
// `import { client, registry } from "./given.js"` (check.mjs). Each name is declared once here,
// typed from the package wherever the package has the type, so a block is checked against the
// same `client` and `registry` the page defined earlier. What is the app's own (a URL, a
// router, the JSON of a model's reply) is declared as the smallest type the guides' text
// describes. Vendor SDK objects are not declared here: a block that needs one stays a fragment.
import type { Client, JsonObject, JsonSchema, ToolDefinition, ToolRegistry, TurnSessionResponse, TurnToolResponses } from "client-tools";
import type { LiveKitRpcHost } from "client-tools/adapters";
import type { Ref } from "vue";

// Imported by an earlier block of the same page.
export { Client, ToolRegistry, TurnTools, WsTools, exposeToWebMCP, navigateTool } from "client-tools";

// The session a page joins (docs/sessions.md).
export declare const baseUrl: string, sessionId: string, token: string;
export declare const client: Client;
export declare const registry: ToolRegistry;

// An agent API called by the app itself (docs/one-definition.md).
export declare const model: string, input: string, runId: string, signal: AbortSignal;
export declare const history: JsonObject[];
/** An Anthropic Messages reply, as `response.json()` reads it. */
export declare const reply: { content: ({ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: JsonObject })[] };
/** The app's call of a turn-based session's `runSession`. */
export declare function runSession(request: { inputs: ({ text: string } | TurnToolResponses)[] }): Promise<TurnSessionResponse>;

// The app's router: `push` resolves once the new route is on screen (vue-router's does).
export declare const router: { push(path: string): Promise<void> };
/** A route component's state (docs/react-vue.md's Vue example). */
export declare const rows: Ref<string[]>;

// Voice agents (docs/vendors.md): the app's sockets, its tools and its own functions.
export declare const cartesiaAgentUrl: string, signedUrl: string, realtimeUrl: string;
export declare const protocols: string[];
export declare const ui: { openCart(cartId: string): void };
export declare function registerTools(declarations: JsonObject[]): Promise<void>;
export declare function handleAgentEvent(data: unknown): void;
export declare const rowSchema: JsonSchema;
export declare const lookupOrderTool: ToolDefinition;
export declare const nextScreenTools: ToolDefinition[];
/** A livekit-client `Room`, as the adapter types what it needs of one. */
export declare const room: LiveKitRpcHost;
