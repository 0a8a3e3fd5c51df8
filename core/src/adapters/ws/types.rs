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
    /// The tool: its name, description, schema and handler's settings.
    pub def: ToolDef,
    /// Declared to the platform with the tool (`expects_response`): whether it waits for a
    /// call's result.
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
        /// The call's id, as the platform's frame gave it.
        call_id: String,
        /// The tool's name as the app declared it.
        tool: String,
        /// The connection the call came on (`connection-1`, …).
        run_id: String,
    },
    /// The call is answered; `sent` is false when the platform wanted no result.
    Answered {
        /// The call's id, as the platform's frame gave it.
        call_id: String,
        /// The tool's name as the app declared it.
        tool: String,
        /// Whether the answer reports a failure to the model.
        is_error: bool,
        /// Time from the call's frame to its answer, in milliseconds.
        elapsed_ms: u64,
        /// Whether a result frame was sent (false for a tool without `expects_response`).
        sent: bool,
    },
    /// The call ended without an answer: `reason` is `closed` (the socket closed while its
    /// handler ran) or `send failed: …`.
    Failed {
        /// The call's id, as the platform's frame gave it.
        call_id: String,
        /// The tool's name as the app declared it.
        tool: String,
        /// `closed` or `send failed: …`.
        reason: String,
        /// Time from the call's frame to its end, in milliseconds.
        elapsed_ms: u64,
    },
    /// A frame claimed to be a tool call but could not be read; with a `call_id`, the call
    /// is answered as an error.
    Malformed {
        /// The call's id, if the frame had a readable one.
        call_id: Option<String>,
        /// What is wrong with the frame, naming the field.
        reason: String,
    },
    /// The shell could not send a frame (the app's `send` threw, the socket was closing):
    /// `call_id` names the call it answered, if any.
    SendFailed {
        /// The call the frame answered; `None` for a frame that answered no call.
        call_id: Option<String>,
        /// What the shell said went wrong.
        reason: String,
    },
}

/// What the bridge asks of its shell.
#[derive(Clone, Debug, PartialEq)]
pub enum WsOutput {
    /// Send this text frame; `call_id` names the call it answers, if any.
    Send {
        /// The frame's text, in the dialect's JSON.
        text: String,
        /// The call the frame answers; `None` for a frame that answers no call
        /// (`response.create`).
        call_id: Option<String>,
    },
    /// Run the tool's handler; finish with `WsBridge::finish`.
    Run {
        /// The call's id, as the platform's frame gave it; hand it back to `WsBridge::finish`.
        call_id: String,
        /// The connection the call came on (`connection-1`, …).
        run_id: String,
        /// The tool's name as the app declared it.
        tool: String,
        /// The call's arguments, a JSON object already checked against the tool's schema.
        arguments: Map<String, Value>,
        /// When the bridge answers "timed out" unless the handler finishes first, on the
        /// caller's clock.
        deadline: Instant,
    },
    /// Abort the call's handler: its answer is no longer wanted.
    Abort {
        /// The call whose handler to abort.
        call_id: String,
        /// Why (e.g. "the socket closed"), for the signal's `reason`.
        reason: String,
    },
    /// Tell the app.
    Call(WsCallEvent),
}
