// client-tools/vue: the types of vue.js.
import type { ShallowRef } from "vue";
export { defineTool } from "./schema.js";
export type { ArgsOf, FromJsonSchema, StandardSchemaLike, TypedToolDefinition } from "./schema.js";
import type { Client, ClientError, ClientOptions, ClientState, ToolDefinition } from "./client_tools.js";

/** What `useClientTools` (and `provideClientTools`) return, as refs. */
export interface ClientTools {
  /** The client, `null` until it registered. */
  client: ShallowRef<Client | null>;
  /** Where the client stands (`registering` until the first registration). */
  state: ShallowRef<ClientState>;
  /** The last error: a registration that failed, a tool list refused (not thrown). */
  error: ShallowRef<ClientError | Error | null>;
}

/** Registers one client for this component's tree once the component is mounted (call it in
 * `setup`; a server render registers nothing), or serves `{ client }` registered elsewhere; the
 * client leaves when the component's scope is disposed. */
export declare function provideClientTools(options: ClientOptions | { client: Client }): ClientTools;

/** The client provided above, its state and its last error. */
export declare function useClientTools(): ClientTools;

/** Offers the tools `getter` gives while the calling component (or effect scope) lives;
 * re-declared when a reactive dependency changes a definition; handlers run the newest one. */
export declare function useTools(getter: (() => ToolDefinition<any>[]) | ToolDefinition<any>[]): void;

/** The options of `useToolNavigate`. */
export interface ToolNavigateOptions {
  /** How long to wait for the new route to render before warning and going on (default 2000). */
  settleTimeoutMs?: number;
}

/** Wraps vue-router's `router.push` so that awaiting it resolves once the new route rendered
 * and its `useTools` ran. */
export declare function useToolNavigate(
  router: { push(to: any): Promise<unknown> } | ((to: any) => unknown),
  options?: ToolNavigateOptions,
): (to: any) => Promise<void>;
