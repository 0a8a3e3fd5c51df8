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

/** What the AI SDK's validator (`jsonSchema(…, { validate })`) resolves. */
export type AISDKValidationResult = { success: true; value: unknown } | { success: false; error: Error };

/** The AI SDK's `jsonSchema` (`import { jsonSchema } from "ai"`). */
export type AISDKJsonSchema<S = any> = (
  schema: JsonSchema,
  options: { validate(value: unknown): Promise<AISDKValidationResult> },
) => S;

export interface AISDKOptions<S = any> {
  jsonSchema: AISDKJsonSchema<S>;
}

/** A client-side tool for `streamText({ tools })`: no `execute`, the page runs it. */
export interface AISDKTool<S = any> {
  description: string;
  inputSchema: S;
}

/** What `addToolOutput` is given: the output, or `output-error` with the error's text. */
export type AISDKToolOutput =
  | { tool: string; toolCallId: string; output: Json }
  | { state: "output-error"; tool: string; toolCallId: string; errorText: string };

/** `useChat` / `Chat`'s `onToolCall`: returns at once, answers through `addToolOutput`. */
export type AISDKToolCallHandler = (event: { toolCall: { toolName: string; toolCallId: string; input: unknown; dynamic?: boolean } }) => void;

export declare function toAISDK<S>(tools: ToolRegistry | ToolDefinition[], options: AISDKOptions<S>): Record<string, AISDKTool<S>>;
export declare function onAISDKToolCall(
  tools: ToolRegistry | ToolDefinition[],
  addToolOutput: (output: AISDKToolOutput) => unknown,
  options?: AdapterOptions,
): AISDKToolCallHandler;

/** A Standard Schema (v1) with its JSON Schema (Standard JSON Schema), backed by the registry's checks. */
export interface ClientToolsStandardSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: "client-tools";
    validate(value: unknown): Promise<{ value: unknown } | { issues: { message: string }[] }>;
    readonly jsonSchema: { input(options?: unknown): JsonSchema; output(options?: unknown): JsonSchema };
  };
}

/** A CopilotKit v2 `FrontendTool`. */
export interface CopilotKitFrontendTool {
  name: string;
  description: string;
  parameters: ClientToolsStandardSchema;
  handler(args: any, context?: { toolCall?: { id?: string }; signal?: AbortSignal }): Promise<string>;
}

/** An AG-UI tool (`RunAgentInput.tools`). */
export interface AGUITool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** An AG-UI tool call, as the agent's assistant message carries it. */
export interface AGUIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
}

/** The AG-UI tool message for a finished call; `error` is set when it failed. */
export interface AGUIToolMessage {
  id: string;
  role: "tool";
  toolCallId: string;
  content: string;
  error?: string;
}

export interface AnswerAGUIOptions extends AdapterOptions {
  signal?: AbortSignal;
}

export declare function toCopilotKit(tools: ToolRegistry | ToolDefinition[], options?: AdapterOptions): CopilotKitFrontendTool[];
export declare function toAGUI(tools: ToolRegistry | ToolDefinition[]): AGUITool[];
export declare function answerAGUI(tools: ToolRegistry | ToolDefinition[], toolCall: AGUIToolCall, options?: AnswerAGUIOptions): Promise<AGUIToolMessage>;

/** What `toLiveKit` needs of a livekit-client `Room` (or its `localParticipant`). */
export interface LiveKitRpcHost {
  registerRpcMethod(method: string, handler: (data: { requestId: string; callerIdentity: string; payload: string; responseTimeout: number }) => Promise<string>): void;
  unregisterRpcMethod(method: string): void;
}

export interface LiveKitOptions extends AdapterOptions {
  /** Put before each method's name (`"shop."` makes `shop.highlight_row` and `shop.list_tools`). */
  prefix?: string;
}

export declare function toLiveKit(tools: ToolRegistry | ToolDefinition[], room: LiveKitRpcHost, options?: LiveKitOptions): () => void;

/** The methods `import "client-tools/adapters"` installs on a `ToolRegistry`, of either build. */
export interface RegistryAdapters {
  /** ElevenLabs' `clientTools` (installed by `import "client-tools/adapters"`). */
  toElevenLabs(options?: ElevenLabsOptions): ElevenLabsAdapter;
  /** Function tools for `Agent` and `RealtimeAgent` (installed by `import "client-tools/adapters"`). */
  toOpenAIAgents<T>(options: OpenAIAgentsOptions<T>): T[];
  /** `streamText`'s client-side `tools` (installed by `import "client-tools/adapters"`). */
  toAISDK<S>(options: AISDKOptions<S>): Record<string, AISDKTool<S>>;
  /** `useChat` / `Chat`'s `onToolCall` (installed by `import "client-tools/adapters"`). */
  onAISDKToolCall(addToolOutput: (output: AISDKToolOutput) => unknown, options?: AdapterOptions): AISDKToolCallHandler;
  /** CopilotKit v2 FrontendTools (installed by `import "client-tools/adapters"`). */
  toCopilotKit(options?: AdapterOptions): CopilotKitFrontendTool[];
  /** AG-UI's `RunAgentInput.tools` (installed by `import "client-tools/adapters"`). */
  toAGUI(): AGUITool[];
  /** The AG-UI tool message for `toolCall`, once it ran (installed by `import "client-tools/adapters"`). */
  answerAGUI(toolCall: AGUIToolCall, options?: AnswerAGUIOptions): Promise<AGUIToolMessage>;
  /** One LiveKit RPC method per tool; returns the function that unregisters them (installed by `import "client-tools/adapters"`). */
  toLiveKit(room: LiveKitRpcHost, options?: LiveKitOptions): () => void;
}

declare module "./client_tools.js" {
  interface ToolRegistry extends RegistryAdapters {}
}
declare module "./lite/client_tools.js" {
  interface ToolRegistry extends RegistryAdapters {}
}
