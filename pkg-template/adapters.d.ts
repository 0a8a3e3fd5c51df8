// client-tools/adapters: a ToolRegistry (or tool array) served through the agent SDKs apps
// already use. Importing it also adds these adapters to ToolRegistry as methods.
import type { ToolRegistry, ToolDefinition, JsonSchema, Json } from "./client_tools.js";

/** What every adapter takes: the run its calls count in for `maxCallsPerRun` (default: one run per adapter). */
export interface AdapterOptions {
  runId?: string;
}

/** A tool in ElevenLabs' agent tool config. */
export interface ElevenLabsClientToolConfig {
  type: "client";
  name: string;
  description: string;
  parameters: JsonSchema;
  expects_response: true;
  response_timeout_secs: number;
}

/** What `Conversation.startSession` takes from the adapter. */
export interface ElevenLabsAdapter {
  clientTools: Record<string, (parameters: any) => Promise<string>>;
  onIncomingEvent(event: any): void;
  onDisconnect(details?: any): void;
  declarations(): ElevenLabsClientToolConfig[];
  /** The run id this conversation's calls count in. */
  runId: string;
}

export interface ElevenLabsOptions extends AdapterOptions {
  /** The app's own handlers, called after the adapter's. */
  onIncomingEvent?(event: any): void;
  onDisconnect?(details?: any): void;
}

export declare function toElevenLabs(tools: ToolRegistry | ToolDefinition[], options?: ElevenLabsOptions): ElevenLabsAdapter;

declare module "./client_tools.js" {
  interface ToolRegistry {
    /** ElevenLabs' `clientTools` (installed by `import "client-tools/adapters"`). */
    toElevenLabs(options?: ElevenLabsOptions): ElevenLabsAdapter;
  }
}

/** The SDK's `tool` factory (`import { tool } from "@openai/agents"` or `@openai/agents-realtime`). */
export type OpenAIAgentsToolFactory<T = any> = (options: {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
  execute(input: any, context?: any, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }): Promise<string>;
  errorFunction(context: any, error: unknown): string;
}) => T;

export interface OpenAIAgentsOptions<T = any> extends AdapterOptions {
  tool: OpenAIAgentsToolFactory<T>;
}

export declare function toOpenAIAgents<T>(tools: ToolRegistry | ToolDefinition[], options: OpenAIAgentsOptions<T>): T[];

declare module "./client_tools.js" {
  interface ToolRegistry {
    /** Function tools for `Agent` and `RealtimeAgent` (installed by `import "client-tools/adapters"`). */
    toOpenAIAgents<T>(options: OpenAIAgentsOptions<T>): T[];
  }
}
