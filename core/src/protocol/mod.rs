//! The wire types of the client-tools protocol (`PROTOCOL.md`) and the limits it sets.
//!
//! Everything here is plain data with serde: requests the client sends, answers the server
//! gives, and the events of the session's stream. The client reads what it receives with
//! [`FromJson`] (by hand, with serde's messages: less wasm than the derives, which the
//! reference server uses). Unknown fields are ignored everywhere and an
//! unknown event type parses as [`StreamEvent::Unknown`], so a newer server never breaks an
//! older client. Validation of every limit lives in [`validate`]; times in [`time`].

mod events;
mod read;
pub mod time;
pub mod validate;
pub(crate) mod write;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

pub use read::FromJson;
pub use validate::{ErrorKind, ValidationError};
pub use write::{register_json, replace_tools_json};

/// The limits of PROTOCOL.md, in one place.
pub mod limits {
    /// A client name is 1 to 32 of `a-z 0-9 -`.
    pub const CLIENT_NAME_MAX: usize = 32;
    /// A tool name is 1 to 64 of `A-Z a-z 0-9 _ -`.
    pub const TOOL_NAME_MAX: usize = 64;
    /// A client declares at most 64 tools.
    pub const TOOLS_MAX: usize = 64;
    /// A tool description is at most 4,096 characters.
    pub const DESCRIPTION_MAX: usize = 4096;
    /// A TTL lifetime is 5 to 3600 seconds.
    pub const TTL_MIN_SECONDS: u32 = 5;
    /// A TTL lifetime is 5 to 3600 seconds.
    pub const TTL_MAX_SECONDS: u32 = 3600;
    /// A result text is at most 65,536 characters (Unicode scalar values).
    pub const RESULT_TEXT_MAX: usize = 65_536;
    /// A request body is at most 1 MiB.
    pub const BODY_MAX_BYTES: usize = 1 << 20;
    /// A session holds at most 32 live clients.
    pub const CLIENTS_MAX: usize = 32;
    /// A call must be acked within 60 s of its dispatch.
    pub const ACK_TIMEOUT_MS: u64 = 60_000;
    /// Once acked, a call must be answered within 5 minutes.
    pub const RESULT_TIMEOUT_MS: u64 = 300_000;
}

/// How long a registration lives: until it leaves, or `seconds` after its last ping.
/// On the wire: `{"type": "never"}` or `{"type": "ttl", "data": {"seconds": N}}`.
// Deserialize is written out (below): serde's adjacently tagged derive buffers through a
// generic `Content` tree, several kilobytes of wasm per deserializer it meets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum Lifetime {
    /// Ends only when the client leaves; never pings.
    Never,
    /// Ends `seconds` after the last ping (or the registration), 5 ≤ seconds ≤ 3600.
    Ttl {
        /// How long the registration lives after its last ping, in seconds.
        seconds: u32,
    },
}

impl Default for Lifetime {
    fn default() -> Self {
        Lifetime::Ttl { seconds: 60 }
    }
}

impl<'de> Deserialize<'de> for Lifetime {
    /// Reads `{"type", "data"}` in any field order; an unknown type, a `ttl` without `data`,
    /// or `never` with data is an error, as the adjacently tagged derive made them.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Unexpected};
        #[derive(Deserialize)]
        struct Ttl {
            seconds: u32,
        }
        #[derive(Deserialize)]
        #[serde(expecting = "adjacently tagged enum Lifetime")]
        struct Repr {
            #[serde(rename = "type")]
            kind: String,
            #[serde(default)]
            data: Option<Ttl>,
        }
        let repr = Repr::deserialize(d)?;
        match (repr.kind.as_str(), repr.data) {
            ("never", None) => Ok(Lifetime::Never),
            ("never", Some(_)) => Err(D::Error::invalid_type(
                Unexpected::Map,
                &"unit variant Lifetime::Never",
            )),
            ("ttl", Some(Ttl { seconds })) => Ok(Lifetime::Ttl { seconds }),
            ("ttl", None) => Err(D::Error::missing_field("data")),
            (other, _) => Err(D::Error::unknown_variant(other, &["never", "ttl"])),
        }
    }
}

/// A tool as declared to the server: name, description and JSON Schema parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// 1 to 64 of `A-Z a-z 0-9 _ -`, unique within the client; the model sees it as
    /// `client__<client name>__<name>`.
    pub name: String,
    /// What the tool does, for the model: up to 4,096 characters; empty when absent.
    #[serde(default)]
    pub description: String,
    /// A JSON Schema whose root is an object; absent means the tool takes no arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
}

/// `POST /v1/sessions/{session_id}/clients`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegisterRequest {
    /// The name asked for: 1 to 32 of `a-z 0-9 -`. The server may append a counter.
    pub name: String,
    /// How long the registration lives; a 60-second TTL when absent.
    #[serde(default)]
    pub lifetime: Lifetime,
    /// The tools the client offers, at most 64; none when absent.
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
}

/// The client object: the answer to register (`201`) and to replace-tools (`200`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientInfo {
    /// The client's id, as the server assigned it (`cli_…`).
    pub id: String,
    /// The name the client got: the one asked for, or with a counter appended (`web-2`).
    pub name: String,
    /// The lifetime the server gave the registration.
    pub lifetime: Lifetime,
    /// RFC 3339, UTC; `None` for a `never` lifetime.
    #[serde(default)]
    pub expires_at: Option<String>,
    /// The tools the client now offers; none when absent.
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
}

/// The answer to a ping (`200`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PingAnswer {
    /// When the registration now lapses unless pinged again: RFC 3339, UTC; `None` for a
    /// `never` lifetime.
    #[serde(default)]
    pub expires_at: Option<String>,
}

/// `PUT /v1/sessions/{session_id}/clients/{client_id}/tools`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplaceToolsRequest {
    /// The new list, under the rules of registration; a tool left out is no longer offered.
    pub tools: Vec<ToolSpec>,
}

/// The answer to an ack (`200`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckAnswer {
    /// When the call must be answered by (5 minutes after the ack): RFC 3339, UTC.
    pub result_deadline: String,
}

/// `POST …/calls/{call_id}/result`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallResult {
    /// What the model reads: at most 65,536 characters (Unicode scalar values).
    pub text: String,
    /// Whether `text` reports a failure the model should read as one; `false` when absent.
    #[serde(default)]
    pub is_error: bool,
}

/// The answer to `GET …/clients/{client_id}/calls`: calls dispatched to this client, not settled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingCalls {
    /// Each call as its `client_tool_dispatched` event carried it.
    pub calls: Vec<ToolDispatched>,
}

/// Every error answer: `{"error": {"type", "message", "param"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ApiError,
}

/// The body of an error answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// `invalid_request`, `unauthorized`, `forbidden`, `not_found`, `client_limit_reached`,
    /// `call_not_acked`, `call_settled`, `payload_too_large`, `rate_limited`, `server_error`,
    /// or a type this SDK does not know ([`ErrorType::Other`]).
    #[serde(rename = "type")]
    pub kind: ErrorType,
    /// A human-readable explanation, as the server wrote it.
    pub message: String,
    /// The path of the offending field (e.g. `tools[3].name`), when one is to blame; `None`
    /// when absent or `null`.
    #[serde(default)]
    pub param: Option<String>,
}

/// The `type` of an error answer (PROTOCOL.md, "Errors"), so the engine matches kinds, not
/// strings. A type the protocol does not list is kept as [`ErrorType::Other`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// 400: the body is not JSON, or a field is missing, of the wrong type or out of range.
    InvalidRequest,
    /// 401: no or unknown token.
    Unauthorized,
    /// 403: a token of another session.
    Forbidden,
    /// 404: unknown session, client (lapsed or departed too) or call.
    NotFound,
    /// 409: the session already holds 32 live clients.
    ClientLimitReached,
    /// 409: a result for a call that was never acked.
    CallNotAcked,
    /// 409: an ack or result for a call that already settled.
    CallSettled,
    /// 413: a body over 1 MiB.
    PayloadTooLarge,
    /// 429: with `Retry-After`.
    RateLimited,
    /// 5xx: anything else.
    ServerError,
    /// A type the protocol does not list, as sent.
    Other(String),
}

impl ErrorType {
    const KNOWN: [(ErrorType, &'static str); 10] = [
        (ErrorType::InvalidRequest, "invalid_request"),
        (ErrorType::Unauthorized, "unauthorized"),
        (ErrorType::Forbidden, "forbidden"),
        (ErrorType::NotFound, "not_found"),
        (ErrorType::ClientLimitReached, "client_limit_reached"),
        (ErrorType::CallNotAcked, "call_not_acked"),
        (ErrorType::CallSettled, "call_settled"),
        (ErrorType::PayloadTooLarge, "payload_too_large"),
        (ErrorType::RateLimited, "rate_limited"),
        (ErrorType::ServerError, "server_error"),
    ];

    /// Reads a wire spelling; one the protocol does not list becomes [`ErrorType::Other`].
    pub fn parse(s: &str) -> ErrorType {
        match ErrorType::KNOWN.iter().find(|(_, name)| *name == s) {
            Some((t, _)) => t.clone(),
            None => ErrorType::Other(s.to_owned()),
        }
    }

    /// The wire spelling: `call_settled`, `not_found`, …, or the unknown type as sent.
    pub fn as_str(&self) -> &str {
        match self {
            ErrorType::Other(s) => s,
            known => ErrorType::KNOWN
                .iter()
                .find(|(t, _)| t == known)
                .map_or("", |(_, name)| name),
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ErrorType, D::Error> {
        let s = String::deserialize(d)?;
        Ok(ErrorType::parse(&s))
    }
}

/// `client_tool_dispatched`: the model called one of a client's tools.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDispatched {
    /// The session the call belongs to; empty when absent.
    #[serde(default)]
    pub session_id: String,
    /// The run (agent turn) in which the model made the call; empty when absent.
    #[serde(default)]
    pub run_id: String,
    /// The client whose tool is called (`cli_…`).
    pub client_id: String,
    /// The call's id, as the server assigned it; answers and events name the call by it.
    pub call_id: String,
    /// The tool's name as the client declared it.
    pub tool: String,
    /// A JSON object, or (tolerated) a JSON string that holds one. Kept raw so that a call
    /// with bad arguments is still answered, with an error: see [`ToolDispatched::arguments`].
    #[serde(default)]
    pub arguments: Value,
    /// When the call must be acked by (60 seconds after dispatch): RFC 3339, UTC; `None`
    /// when absent.
    #[serde(default)]
    pub ack_deadline: Option<String>,
}

impl ToolDispatched {
    /// The call's arguments as a JSON object. Absent or `null` is an empty object; a string
    /// holding a JSON object is accepted; anything else is an error naming `arguments`.
    pub fn arguments(&self) -> Result<Map<String, Value>, ValidationError> {
        validate::arguments(&self.arguments)
    }
}

/// Why a call settled as failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailReason {
    /// `client_gone`: the client left (or lapsed) while it still owed the call.
    ClientGone,
    /// `ack_timeout`: the call was not acked within 60 seconds of its dispatch.
    AckTimeout,
    /// `result_timeout`: the acked call was not answered within 5 minutes.
    ResultTimeout,
    /// `run_gone`: the run that made the call ended (e.g. was cancelled).
    RunGone,
    /// A reason this version does not know.
    #[serde(other)]
    Other,
}

impl FailReason {
    /// The wire spelling (`client_gone`, …; `other` for an unknown reason).
    pub fn as_str(&self) -> &'static str {
        match self {
            FailReason::ClientGone => "client_gone",
            FailReason::AckTimeout => "ack_timeout",
            FailReason::ResultTimeout => "result_timeout",
            FailReason::RunGone => "run_gone",
            FailReason::Other => "other",
        }
    }
}

/// One event of the session's stream, parsed from its JSON `data` (whose `"type"` names it)
/// by [`StreamEvent::parse`]. Types this version does not know are [`StreamEvent::Unknown`]
/// and are to be ignored. It serializes as the server writes it: `{"type": …, fields…}`.
// No derived Deserialize: serde's internally tagged enums buffer every field through a
// generic `Content` tree, which costs the shipped wasm far more than `parse`'s hand reading.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    /// `client_tool_dispatched`: the model called a client's tool; the client acks, runs it
    /// and answers.
    ClientToolDispatched(ToolDispatched),
    /// `client_tool_acked`: a call was acked.
    ClientToolAcked {
        /// The client that acked (`cli_…`).
        client_id: String,
        /// The acked call.
        call_id: String,
        /// When the call must be answered by: RFC 3339, UTC; `None` when absent.
        #[serde(default)]
        result_deadline: Option<String>,
    },
    /// `client_tool_succeeded`: a call settled as answered, whatever `is_error` says.
    ClientToolSucceeded {
        /// The client that answered (`cli_…`).
        client_id: String,
        /// The answered call.
        call_id: String,
        /// Whether the answer reported a failure; `false` when absent.
        #[serde(default)]
        is_error: bool,
    },
    /// `client_tool_failed`: a call settled as failed; the model gets an error result.
    ClientToolFailed {
        /// The client that owed the call (`cli_…`).
        client_id: String,
        /// The failed call.
        call_id: String,
        /// Why it failed.
        reason: FailReason,
    },
    /// `client_registered`: a client joined the session.
    ClientRegistered {
        /// The new client (`cli_…`).
        client_id: String,
        /// The name it got; empty when absent.
        #[serde(default)]
        name: String,
    },
    /// `client_tools_replaced`: a client replaced its list of tools.
    ClientToolsReplaced {
        /// The client (`cli_…`).
        client_id: String,
        /// Its name; empty when absent.
        #[serde(default)]
        name: String,
    },
    /// `client_left`: a client left; its name is free again.
    ClientLeft {
        /// The client that left (`cli_…`).
        client_id: String,
        /// The name it had; empty when absent.
        #[serde(default)]
        name: String,
    },
    /// `client_expired`: a client's TTL ran out without a ping; it must register again.
    ClientExpired {
        /// The lapsed client (`cli_…`).
        client_id: String,
        /// The name it had; empty when absent.
        #[serde(default)]
        name: String,
    },
    /// `run_started`: an agent turn began.
    RunStarted {
        /// The new run.
        run_id: String,
    },
    /// `run_completed`: an agent turn ended.
    RunCompleted {
        /// The run that ended.
        run_id: String,
    },
    /// `run_cancelled`: an agent turn was cancelled; its pending calls fail with `run_gone`.
    RunCancelled {
        /// The cancelled run.
        run_id: String,
    },
    /// The server no longer holds the events after `Last-Event-ID`: read the pending calls.
    StreamReset,
    /// A type this version does not know: to be ignored.
    #[serde(other)]
    Unknown,
}

impl StreamEvent {
    /// Parses one stream event from its SSE `event` name and JSON `data`.
    ///
    /// The `"type"` inside `data` names the event; an event whose data is empty or not JSON
    /// (e.g. a bare `event: stream_reset`) is named by its SSE `event` field instead. An
    /// event whose data does not fit its type is an error naming the type and the field.
    pub fn parse(sse_event_type: &str, data: &str) -> Result<StreamEvent, ParseEventError> {
        let trimmed = data.trim_start();
        if trimmed.starts_with('{') {
            return events::parse_json(data).map_err(|message| ParseEventError {
                event_type: sse_event_type.to_owned(),
                message,
            });
        }
        Ok(match sse_event_type {
            "stream_reset" => StreamEvent::StreamReset,
            _ => StreamEvent::Unknown,
        })
    }
}

/// A stream event whose data could not be read as its type says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEventError {
    /// The SSE `event` name the event came with.
    pub event_type: String,
    /// What is wrong with its data, naming the field.
    pub message: String,
}

impl std::fmt::Display for ParseEventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stream event `{}`: {}", self.event_type, self.message)
    }
}

impl std::error::Error for ParseEventError {}
