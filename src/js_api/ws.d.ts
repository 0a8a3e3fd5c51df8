/** The platform a voice agent's socket speaks. */
export type WsDialect = "cartesia" | "elevenlabs" | "openai-realtime";

/** A tool offered over a voice agent's socket. */
export interface WsToolDefinition<Args extends JsonObject = JsonObject> extends ToolDefinition<Args> {
  /** Cartesia and ElevenLabs: whether the platform waits for the result (default true). Only declared;
   * each Cartesia call's own `expects_response` decides whether a result is sent. */
  expectsResponse?: boolean;
}

/** How a call over the socket is doing. `runId` names the connection (`connection-1`, …). */
export type WsCallEvent =
  | { type: "dispatched"; callId: string; tool: string; runId: string }
  | { type: "answered"; callId: string; tool: string; isError: boolean; elapsedMs: number; sent: boolean }
  | { type: "failed"; callId: string; tool: string; reason: string; elapsedMs: number }
  | { type: "malformed"; callId: string | null; reason: string }
  | { type: "sendFailed"; callId: string | null; reason: string };

/** The options of `WsTools.attach`. */
export interface WsAttachOptions {
  /** The platform's protocol. */
  dialect: WsDialect;
  /** The tools on offer (an array or a `ToolRegistry`). */
  tools?: WsToolDefinition[] | ToolRegistry;
  /** Told how each call is doing: dispatched, answered, failed, malformed, sendFailed. */
  onCall?: (event: WsCallEvent) => void;
  /** OpenAI Realtime: "auto" (default) sends `response.create` once every running call is answered
   * and no response is active; "never" leaves it to the app. */
  respondAfterResult?: "auto" | "never";
}

/** The options of `new WsTools`. */
export interface WsToolsOptions extends WsAttachOptions {
  /** Sends one text frame on the app's socket. */
  send: (text: string) => void;
}
