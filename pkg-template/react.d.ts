// client-tools/react: the types of react.js.
import type { ReactNode } from "react";
export { defineTool } from "./schema.js";
export type { ArgsOf, FromJsonSchema, StandardSchemaLike, TypedToolDefinition } from "./schema.js";
import type { Client, ClientError, ClientOptions, ClientState, ToolDefinition } from "./client_tools.js";

/** The props of `ClientToolsProvider`: `options` to register a client (read once), or a
 * `client` registered elsewhere. */
export type ClientToolsProviderProps =
  | { options: ClientOptions; client?: undefined; children?: ReactNode }
  | { client: Client; options?: undefined; children?: ReactNode };

/** Registers one client for the components below (StrictMode-safe: one registration), or
 * serves `client`; unmounting leaves (a given client is left to its owner). */
export declare function ClientToolsProvider(props: ClientToolsProviderProps): ReactNode;

/** What `useClientTools` returns. */
export interface ClientTools {
  /** The client, `null` until it registered. */
  client: Client | null;
  /** Where the client stands (`registering` until the first registration). */
  state: ClientState;
  /** The last error: a registration that failed, a tool list refused (not thrown). */
  error: ClientError | Error | null;
}

/** The provider's client, its state and its last error. */
export declare function useClientTools(): ClientTools;

/** Offers `tools` while this component is mounted (a scope of the client: `client.scope`),
 * declared in a layout effect and re-declared only when a definition changes; handlers run the
 * latest render's closure. */
export declare function useTools(tools: ToolDefinition<any>[]): void;

/** The options of `useToolNavigate`. */
export interface ToolNavigateOptions {
  /** How long to wait for the new route to commit before warning and going on (default 2000). */
  settleTimeoutMs?: number;
}

/** Wraps the router's function (`useNavigate()`, Next.js `router.push`) so that awaiting it
 * resolves once the new route committed and its `useTools` ran. */
export declare function useToolNavigate<Args extends unknown[]>(
  navigate: (...args: Args) => unknown,
  options?: ToolNavigateOptions,
): (...args: Args) => Promise<void>;
