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
    Ttl { seconds: u32 },
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
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// A JSON Schema whose root is an object; absent means the tool takes no arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
}

/// `POST /v1/sessions/{session_id}/clients`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegisterRequest {
    pub name: String,
    #[serde(default)]
    pub lifetime: Lifetime,
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
}

/// The client object: the answer to register (`201`) and to replace-tools (`200`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientInfo {
    pub id: String,
    /// The name the client got: the one asked for, or with a counter appended (`web-2`).
    pub name: String,
    pub lifetime: Lifetime,
    /// RFC 3339, UTC; `None` for a `never` lifetime.
    #[serde(default)]
    pub expires_at: Option<String>,
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
}

/// The answer to a ping (`200`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PingAnswer {
    #[serde(default)]
    pub expires_at: Option<String>,
}

/// `PUT /v1/sessions/{session_id}/clients/{client_id}/tools`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplaceToolsRequest {
    pub tools: Vec<ToolSpec>,
}

/// The answer to an ack (`200`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckAnswer {
    pub result_deadline: String,
}

/// `POST …/calls/{call_id}/result`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallResult {
    pub text: String,
    #[serde(default)]
    pub is_error: bool,
}

/// The answer to `GET …/clients/{client_id}/calls`: calls dispatched to this client, not settled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingCalls {
    pub calls: Vec<ToolDispatched>,
}

/// Every error answer: `{"error": {"type", "message", "param"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
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
    pub message: String,
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
    #[serde(default)]
    pub session_id: String,
    #[serde(default)]
    pub run_id: String,
    pub client_id: String,
    pub call_id: String,
    /// The tool's name as the client declared it.
    pub tool: String,
    /// A JSON object, or (tolerated) a JSON string that holds one. Kept raw so that a call
    /// with bad arguments is still answered, with an error: see [`ToolDispatched::arguments`].
    #[serde(default)]
    pub arguments: Value,
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
    ClientGone,
    AckTimeout,
    ResultTimeout,
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
    ClientToolDispatched(ToolDispatched),
    ClientToolAcked {
        client_id: String,
        call_id: String,
        #[serde(default)]
        result_deadline: Option<String>,
    },
    ClientToolSucceeded {
        client_id: String,
        call_id: String,
        #[serde(default)]
        is_error: bool,
    },
    ClientToolFailed {
        client_id: String,
        call_id: String,
        reason: FailReason,
    },
    ClientRegistered {
        client_id: String,
        #[serde(default)]
        name: String,
    },
    ClientToolsReplaced {
        client_id: String,
        #[serde(default)]
        name: String,
    },
    ClientLeft {
        client_id: String,
        #[serde(default)]
        name: String,
    },
    ClientExpired {
        client_id: String,
        #[serde(default)]
        name: String,
    },
    RunStarted {
        run_id: String,
    },
    RunCompleted {
        run_id: String,
    },
    RunCancelled {
        run_id: String,
    },
    /// The server no longer holds the events after `Last-Event-ID`: read the pending calls.
    StreamReset,
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
    pub event_type: String,
    pub message: String,
}

impl std::fmt::Display for ParseEventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stream event `{}`: {}", self.event_type, self.message)
    }
}

impl std::error::Error for ParseEventError {}
