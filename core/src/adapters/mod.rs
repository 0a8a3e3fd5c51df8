//! The pure halves of the transports besides the Sessions API: each reads how a call arrives
//! and writes how its answer leaves; the [call runtime](crate::calls) does the rest.
//!
//! - [`registry`]: one tool list exported as OpenAI, Anthropic and MCP declare tools, and the
//!   agent-tools `ToolResult` an `execute` answers.
//! - [`turns`]: turn-based client function tools (`toolCalls` in, `toolResponses` out).
//! - [`ws`]: a voice agent's WebSocket, in three dialects.

pub mod registry;
pub mod turns;
pub mod ws;
