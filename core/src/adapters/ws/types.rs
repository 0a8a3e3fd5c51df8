//! What the bridge is configured with and what it gives back: the dialect, the Realtime
//! `response.create` policy, a tool on offer, the app's call events and the shell's outputs.

use super::{cartesia, elevenlabs, openai};
use crate::calls::{ResultLimit, ToolDef};
use crate::quote::Quoted;
use crate::time::Instant;
use serde::Serialize;
use serde_json::{Map, Value};

/// Which platform's frames the socket speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `client_tool_call` / `client_tool_result` with `expects_response`, 4,096-byte results.
    Cartesia,
    /// `client_tool_call` with the call nested under `client_tool_call`.
    ElevenLabs,
    /// `response.function_call_arguments.done` / `conversation.item.create` + `response.create`.
    OpenAiRealtime,
}

impl Dialect {
    /// The dialect named `cartesia`, `elevenlabs` or `openai-realtime`, or an error naming the three.
    pub fn parse(name: &str) -> Result<Dialect, String> {
        match name {
            "cartesia" => Ok(Dialect::Cartesia),
            "elevenlabs" => Ok(Dialect::ElevenLabs),
            "openai-realtime" => Ok(Dialect::OpenAiRealtime),
            other => Err(format!(
                "dialect: {} is not one of \"cartesia\", \"elevenlabs\", \"openai-realtime\"",
                Quoted(other)
            )),
        }
    }

    /// The dialect's name, as [`Dialect::parse`] reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Cartesia => "cartesia",
            Dialect::ElevenLabs => "elevenlabs",
            Dialect::OpenAiRealtime => "openai-realtime",
        }
    }

    /// What every text frame the bridge reads for something holds as it is written: the
    /// quoted type of the dialect's tool call (in OpenAI's, also of the frames that tell the
    /// response's state, and the active-response error's code), or a `\u00` escape, the only
    /// way JSON can spell one of those ASCII strings otherwise. A frame with none of them is
    /// not a tool call and changes nothing: the shells test the frame for them before handing
    /// it to [`WsBridge::receive`](super::WsBridge::receive), which reads every frame it gets,
    /// because most of what a voice socket carries (audio as base64 in a JSON string, with no
    /// quote or backslash inside; transcripts) is not worth reading. The browser shell tests in
    /// JS, on the string (`src/ws/frames.js`), so that such frames never enter the module.
    pub fn markers(self) -> &'static [&'static str] {
        match self {
            Dialect::Cartesia | Dialect::ElevenLabs => &["\"client_tool_call\"", ESCAPE],
            Dialect::OpenAiRealtime => &[
                "\"response.function_call_arguments.done\"",
                "\"response.done\"",
                "\"response.created\"",
                "\"conversation_already_has_active_response\"",
                ESCAPE,
            ],
        }
    }

    /// How long a result may be on this platform.
    pub fn result_limit(self) -> ResultLimit {
        match self {
            Dialect::Cartesia => cartesia::LIMIT,
            Dialect::ElevenLabs => elevenlabs::LIMIT,
            Dialect::OpenAiRealtime => openai::LIMIT,
        }
    }
}

/// The start of a JSON `\u` escape of an ASCII character (`\u005f` is `_`): a frame holding one
/// may spell a marker that way, so it is a marker too ([`Dialect::markers`]).
const ESCAPE: &str = "\\u00";

/// Whether the bridge asks an OpenAI Realtime model to answer once a call's output is sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RespondAfterResult {
    /// A `response.create` once every running call is answered and no response is active.
    #[default]
    Auto,
    /// Never: the app sends `response.create` itself.
    Never,
}

/// A tool on offer over the socket: the runtime's definition, and whether the platform is
/// told to wait for its result (Cartesia's and ElevenLabs' `expects_response`; default true).
#[derive(Clone, Debug, PartialEq)]
pub struct WsTool {
    pub def: ToolDef,
    pub expects_response: bool,
}

/// How a call is doing, for the app's `onCall`; the shape of the Sessions client's events,
/// plus `malformed`. Serializes as `{"type": "dispatched", "callId", …}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum WsCallEvent {
    /// The platform called a tool. `run_id` names the connection (`connection-1`, …).
    Dispatched {
        call_id: String,
        tool: String,
        run_id: String,
    },
    /// The call is answered; `sent` is false when the platform wanted no result.
    Answered {
        call_id: String,
        tool: String,
        is_error: bool,
        elapsed_ms: u64,
        sent: bool,
    },
    /// The call ended without an answer: `reason` is `closed` (the socket closed while its
    /// handler ran) or `send failed: …`.
    Failed {
        call_id: String,
        tool: String,
        reason: String,
        elapsed_ms: u64,
    },
    /// A frame claimed to be a tool call but could not be read; with a `call_id`, the call
    /// is answered as an error.
    Malformed {
        call_id: Option<String>,
        reason: String,
    },
    /// The shell could not send a frame (the app's `send` threw, the socket was closing):
    /// `call_id` names the call it answered, if any.
    SendFailed {
        call_id: Option<String>,
        reason: String,
    },
}

/// What the bridge asks of its shell.
#[derive(Clone, Debug, PartialEq)]
pub enum WsOutput {
    /// Send this text frame; `call_id` names the call it answers, if any.
    Send {
        text: String,
        call_id: Option<String>,
    },
    /// Run the tool's handler; finish with `WsBridge::finish`.
    Run {
        call_id: String,
        run_id: String,
        tool: String,
        arguments: Map<String, Value>,
        deadline: Instant,
    },
    /// Abort the call's handler: its answer is no longer wanted.
    Abort { call_id: String, reason: String },
    /// Tell the app.
    Call(WsCallEvent),
}
